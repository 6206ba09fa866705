"""A real process restart: SQLite and PostgreSQL keep the thread, the in-memory saver does not.

Every restart_demo call runs the thread in a fresh Python process (about a second) and reads
it back in this one after that process has ended; the module's restarts run side by side.
"""
import json
import os
import re
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

import ckpt
from conftest import ROOT, side_by_side

TOPIC = "가을"
UNCRASHED = {"topic": TOPIC, "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
             "notes": ["plan:가을", "write:기본", "review:5"]}  # one plain run, written out
SPACED = "  늦은 가을 "  # spaces at both ends, kept as given; write's strip() acts on the draft's ends
SPACED_RUN = {"topic": SPACED, "angle": "기본", "draft": "늦은 가을 /기본", "stage": "review", "score": 9,
              "notes": [f"plan:{SPACED}", "write:기본", "review:9"]}

PLAIN = """\
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("ckpt", "ckpt.py")  # found in the folder it starts in
ckpt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ckpt)
os.chdir(sys.argv[1])
os.rmdir(sys.argv[1])  # the current folder is gone from here on
print(json.dumps(ckpt.restart_demo(sys.argv[2]), ensure_ascii=False))
"""


def plain_run(where):
    """restart_demo(SPACED) on the default backend, called as a learner's plain script may call it: no
    `if __name__ == "__main__":`, ckpt loaded by a relative path and not registered, the current folder gone by
    then; with a TMPDIR of its own. (result, what is left in that TMPDIR)."""
    (where / "plain.py").write_text(PLAIN, encoding="utf-8")
    (where / "gone").mkdir()
    (where / "tmp").mkdir()
    done = subprocess.run([sys.executable, str(where / "plain.py"), str(where / "gone"), SPACED], cwd=str(ROOT),
                          env=dict(os.environ, TMPDIR=str(where / "tmp")), capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1]), sorted(os.listdir(where / "tmp"))


def postgres_run(pg_url):
    """Two restarts at once on a new database that holds one thread of the user's, "mine":
    (results, the threads in its tables before, after)."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"agckpt_restart_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = make_conninfo(pg_url, dbname=name)
            with ckpt.open_saver("postgres", url) as saver:
                ckpt.build_graph(saver).invoke({"topic": "내 것"}, ckpt.cfg("mine"))
            before = pg_threads(url)
            with ThreadPoolExecutor(2) as pool:
                results = list(pool.map(lambda _: ckpt.restart_demo(TOPIC, "postgres", url), range(2)))
            return results, before, pg_threads(url)
        finally:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def runs(request, tmp_path_factory):
    """The module's restarts side by side, each only where a selected test reads it (the plain script's needs
    the SQLite saver, PostgreSQL's a server): {fixture name: Future}."""
    calls = {"in_memory": lambda: ckpt.restart_demo(TOPIC, "memory")}
    if ckpt.has_backend("sqlite"):
        calls["restarted"] = lambda: plain_run(tmp_path_factory.mktemp("plain"))
    if os.environ.get("AGCKPT_PG_URL") and ckpt.has_backend("postgres"):
        calls["on_postgres"] = lambda: postgres_run(os.environ["AGCKPT_PG_URL"])
    return side_by_side(request, calls)


@pytest.fixture(scope="module")
def restarted(runs):
    """plain_run's (result, what is left in its TMPDIR)."""
    return runs["restarted"].result()


@pytest.fixture(scope="module")
def in_memory(runs):
    """restart_demo(TOPIC, "memory")."""
    return runs["in_memory"].result()


@pytest.mark.sqlite
def test_sqlite_is_the_default_and_keeps_all_five_checkpoints_and_the_exact_values_across_a_restart(restarted):
    assert restarted[0] == {"backend": "sqlite", "thread_id": "run-1", "kept": 5, "after_restart": 5,
                            "values_after_restart": SPACED_RUN, "survives": True}


@pytest.mark.sqlite
def test_restart_demo_removes_its_temporary_sqlite_store(restarted):
    assert restarted[1] == [], restarted[1]


def test_the_in_memory_saver_loses_the_thread_when_its_process_ends(in_memory):
    assert in_memory == {"backend": "memory", "thread_id": "run-1", "kept": 5, "after_restart": 0,
                         "values_after_restart": {}, "survives": False}


def pg_threads(url):
    """The threads in each table of a PostgreSQL store, read with SQL."""
    import psycopg

    with psycopg.connect(url) as conn:
        return {t: sorted(r[0] for r in conn.execute(f"SELECT DISTINCT thread_id FROM {t}"))
                for t in ("checkpoints", "checkpoint_writes", "checkpoint_blobs")}


@pytest.fixture(scope="module")
def on_postgres(pg_url, runs):
    """postgres_run's (results, the threads before, after)."""
    return runs["on_postgres"].result()


def test_postgres_keeps_all_five_checkpoints_and_the_values_across_a_restart(on_postgres):
    got = dict(on_postgres[0][0])
    assert re.fullmatch(r"run-1-[0-9a-f]{12}", got.pop("thread_id")), on_postgres[0][0]
    assert got == {"backend": "postgres", "kept": 5, "after_restart": 5, "values_after_restart": UNCRASHED,
                   "survives": True}


def test_postgres_calls_on_one_database_never_count_each_others_checkpoints(on_postgres):
    first, second = on_postgres[0]
    assert first["thread_id"] != second["thread_id"], on_postgres[0]
    assert (first["after_restart"], second["after_restart"]) == (5, 5), on_postgres[0]


def test_demos_on_a_postgres_database_leave_exactly_the_threads_it_held(on_postgres):
    results, before, after = on_postgres
    assert before == {"checkpoints": ["mine"], "checkpoint_writes": ["mine"], "checkpoint_blobs": ["mine"]}, before
    assert after == before
