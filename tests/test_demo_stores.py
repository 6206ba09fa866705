"""Demos on a store the user gives: they leave it holding the threads it held before.

Also what a store must be for a restart (not in this process's memory), messages that name
the store without its password, and demos that do not need the current folder.
"""
import os
import sqlite3
import subprocess
import sys
import uuid

import pytest

import ckpt
from conftest import LG, ROOT

TOPIC = "가을"
IN_MEMORY = ["", ":memory:", "file::memory:?cache=shared", "file:memdb1?mode=memory&cache=shared"]


def sqlite_threads(path):
    with sqlite3.connect(str(path)) as conn:
        return sorted(row[0] for row in conn.execute("SELECT DISTINCT thread_id FROM checkpoints"))


def demos(url, backend):
    """One call of each demo kind on the store at `url`."""
    calls = {"restart": lambda: ckpt.restart_demo(TOPIC, backend, url),
             "crash": lambda: ckpt.crash_demo(TOPIC, backend, url, wait_saved=True)}
    if LG >= (0, 6):
        calls["crash sync"] = lambda: ckpt.crash_demo(TOPIC, backend, url, durability="sync")
    return calls


@pytest.fixture
def sqlite_store(tmp_path):
    """A SQLite file that already holds one thread of the user's, "mine"."""
    path = tmp_path / "user.sqlite"
    with ckpt.open_saver("sqlite", str(path)) as saver:
        ckpt.build_graph(saver).invoke({"topic": "내 것"}, ckpt.cfg("mine"))
    return path


@pytest.mark.sqlite
def test_demos_on_a_sqlite_file_leave_exactly_the_threads_it_held(sqlite_store):
    for name, call in demos(str(sqlite_store), "sqlite").items():
        got = call()
        assert got["thread_id"].startswith("run-1-"), (name, got)
        assert got.get("survives", True) and got.get("checkpoints_after_resume", 5) == 5, (name, got)
        assert sqlite_threads(sqlite_store) == ["mine"], (name, sqlite_threads(sqlite_store))


@pytest.mark.sqlite
def test_a_demo_that_fails_after_its_child_wrote_still_removes_its_thread(sqlite_store, monkeypatch):
    def failing_resume(*args, **kwargs):
        raise RuntimeError("the resume gave up")

    monkeypatch.setattr(ckpt, "_resume", failing_resume)
    with pytest.raises(RuntimeError, match="the resume gave up"):
        ckpt.crash_demo(TOPIC, "sqlite", str(sqlite_store), wait_saved=True)
    assert sqlite_threads(sqlite_store) == ["mine"], sqlite_threads(sqlite_store)


@pytest.fixture
def pg_database(pg_url):
    """A new, empty database on the throwaway server (dropped afterwards): its libpq URL."""
    psycopg = pytest.importorskip("psycopg")
    from psycopg.conninfo import make_conninfo

    name = f"agckpt_demo_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield make_conninfo(pg_url, dbname=name)
        finally:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def pg_threads(url):
    import psycopg

    with psycopg.connect(url) as conn:
        tables = ["checkpoints", "checkpoint_writes", "checkpoint_blobs"]
        return {t: sorted(r[0] for r in conn.execute(f"SELECT DISTINCT thread_id FROM {t}")) for t in tables}


def test_demos_on_a_postgres_database_leave_exactly_the_threads_it_held(pg_database):
    with ckpt.open_saver("postgres", pg_database) as saver:
        ckpt.build_graph(saver).invoke({"topic": "내 것"}, ckpt.cfg("mine"))
    before = pg_threads(pg_database)
    assert before["checkpoints"] == ["mine"], before
    for name, call in demos(pg_database, "postgres").items():
        got = call()
        assert got["thread_id"].startswith("run-1-"), (name, got)
        assert pg_threads(pg_database) == before, (name, pg_threads(pg_database))


def test_a_nul_in_the_topic_is_refused_for_postgres_before_anything_is_written(monkeypatch):
    def no_store(*args, **kwargs):
        raise AssertionError("a store was opened")

    monkeypatch.setattr(ckpt, "open_saver", no_store)
    monkeypatch.setattr(ckpt, "_run_child", no_store)
    for demo in (ckpt.restart_demo, ckpt.crash_demo):
        with pytest.raises(ValueError, match=r"^topic .*NUL|^topic"):
            demo("가\x00을", "postgres", "postgresql://nobody@127.0.0.1:1/none")


@pytest.mark.parametrize("url", IN_MEMORY)
@pytest.mark.parametrize("demo", [ckpt.restart_demo, ckpt.crash_demo])
def test_a_sqlite_url_no_other_process_can_open_is_a_value_error_naming_url(demo, url, monkeypatch):
    monkeypatch.setattr(ckpt, "_run_child", lambda job: pytest.fail("a child was started"))
    with pytest.raises(ValueError) as caught:
        demo(TOPIC, "sqlite", url)
    message = str(caught.value)
    assert message.startswith(f"url {url!r}") and "outlives the process" in message, message


@pytest.mark.sqlite
def test_open_saver_on_a_sqlite_path_that_cannot_be_opened_names_the_path():
    with pytest.raises(ConnectionError) as caught:
        with ckpt.open_saver("sqlite", "/no/such/dir/x.db"):
            pass
    assert str(caught.value) == ("cannot open the sqlite store at url '/no/such/dir/x.db': "
                                 "unable to open database file"), caught.value


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
@pytest.mark.parametrize("url, shown", [
    ("postgresql://alice:s3cret@127.0.0.1:1/db?connect_timeout=5", "postgresql://alice:***@127.0.0.1:1/db"),
    ("host=127.0.0.1 port=1 user=alice password=s3cret connect_timeout=5", "password=***"),
    ("postgresql://alice@127.0.0.1:1/db?password=s3cret&connect_timeout=5", "?password=***&"),
])
def test_a_password_never_appears_in_a_message(url, shown):
    for attempt in (lambda: ckpt.open_saver("postgres", url).__enter__(),
                    lambda: ckpt.restart_demo(TOPIC, "postgres", url),
                    lambda: ckpt.crash_demo(TOPIC, "postgres", url)):
        with pytest.raises(ConnectionError) as caught:
            attempt()
        message = str(caught.value)
        assert message.startswith("cannot reach PostgreSQL at url"), message
        assert "s3cret" not in message and shown in message, message


def test_masked_hides_passwords_in_urls_and_key_value_strings():
    assert ckpt._masked("postgresql://alice:s3cret@host/db") == "postgresql://alice:***@host/db"
    assert ckpt._masked("host=db password='s 3cret' user=x") == "host=db password=*** user=x"
    assert ckpt._masked("postgresql://alice@host:5432/db?sslmode=require") == \
        "postgresql://alice@host:5432/db?sslmode=require"


def test_reaching_postgres_but_failing_to_set_up_says_so(pg_database):
    import psycopg
    from psycopg.conninfo import make_conninfo

    role = f"agckpt_reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute(f'REVOKE CREATE ON SCHEMA public FROM PUBLIC, "{role}"')
    try:
        with pytest.raises(RuntimeError) as caught:
            with ckpt.open_saver("postgres", make_conninfo(pg_database, user=role)):
                pass
        message = str(caught.value)
        assert message.startswith("reached PostgreSQL at url") and "permission denied" in message, message
    finally:
        with psycopg.connect(pg_database, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{role}"')
            conn.execute(f'DROP ROLE "{role}"')


GONE = """\
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
ckpt = importlib.util.module_from_spec(spec)
sys.modules["ckpt"] = ckpt
spec.loader.exec_module(ckpt)
os.rmdir(os.getcwd())  # the current folder is gone from here on
restart, crash = ckpt.restart_demo("가을"), ckpt.crash_demo("가을", wait_saved=True)
print(json.dumps([restart["survives"], crash["checkpoints_after_resume"]]))
"""


@pytest.mark.sqlite
def test_the_default_demos_work_when_the_current_folder_is_gone(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    done = subprocess.run([sys.executable, "-c", GONE, str(ROOT / "ckpt.py")], cwd=str(gone),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["[true,", "5]"], done.stdout
