"""Several processes open one new PostgreSQL database at the same moment: every one succeeds.

Six worker processes load ckpt.py once and wait on their stdin; each round the test creates
a new database and hands its URL to all six at once; each calls open_saver("postgres", url)
(which runs the saver's setup()) and answers "ok" or its error in one line. `make test` runs
a few rounds, `make stress` twenty.
"""
import subprocess
import sys
import uuid

import pytest

from conftest import ROOT

WORKERS = 6

WORKER = r"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
ckpt = importlib.util.module_from_spec(spec)
sys.modules["ckpt"] = ckpt
spec.loader.exec_module(ckpt)
print("ready", flush=True)
for url in sys.stdin:
    try:
        with ckpt.open_saver("postgres", url.strip()) as saver:
            pass
        print("ok", flush=True)
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}".replace("\n", " "), flush=True)
"""


@pytest.fixture
def admin(pg_url):
    """An autocommit connection to the server's own database, for CREATE/DROP DATABASE."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


@pytest.mark.parametrize("rounds", [3, pytest.param(20, marks=pytest.mark.stress)])
def test_six_processes_set_up_one_new_database_at_once_every_round(pg_url, admin, rounds):
    from psycopg.conninfo import make_conninfo

    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(ROOT / "ckpt.py")], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for _ in range(WORKERS)]
    try:
        assert [w.stdout.readline().strip() for w in workers] == ["ready"] * WORKERS
        failures = []
        for round_ in range(rounds):
            name = f"agckpt_fresh_{uuid.uuid4().hex[:12]}"
            admin.execute(f'CREATE DATABASE "{name}"')
            try:
                url = make_conninfo(pg_url, dbname=name)
                for worker in workers:  # all six get the URL before any answers
                    worker.stdin.write(url + "\n")
                for worker in workers:
                    worker.stdin.flush()
                answers = [w.stdout.readline().strip() for w in workers]
                failures += [(round_, a) for a in answers if a != "ok"]
            finally:
                admin.execute(f'DROP DATABASE "{name}"')
        assert failures == [], f"{len(failures)} of {WORKERS * rounds} opens failed: {failures[:5]}"
    finally:
        for worker in workers:
            worker.stdin.close()
        for worker in workers:
            worker.wait(timeout=60)
