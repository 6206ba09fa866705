"""Demos on a store the user gives: they leave it holding the threads it held before.

PostgreSQL's are in test_restart.py (every PostgreSQL store is a given one). Also what a store
must be for a restart (not in this process's memory), and messages that name the store
without its password.
"""
import contextlib
import os
import sqlite3
import uuid

import pytest

import ckpt

TOPIC = "가을"
IN_MEMORY = ["", ":memory:", "file::memory:?cache=shared", "file:memdb1?mode=memory&cache=shared"]


def sqlite_threads(path):
    """The threads in each table of a SQLite store, read with SQL."""
    with contextlib.closing(sqlite3.connect(str(path))) as conn:
        return {t: sorted(r[0] for r in conn.execute(f"SELECT DISTINCT thread_id FROM {t}"))
                for t in ("checkpoints", "writes")}


@pytest.fixture
def sqlite_store(tmp_path):
    """A SQLite file that already holds one thread of the user's, "mine"."""
    path = tmp_path / "user.sqlite"
    with ckpt.open_saver("sqlite", str(path)) as saver:
        ckpt.build_graph(saver).invoke({"topic": "내 것"}, ckpt.cfg("mine"))
    return path


@pytest.mark.sqlite
def test_a_demo_on_a_sqlite_file_given_by_a_relative_path_leaves_exactly_the_threads_it_held(
        sqlite_store, monkeypatch):
    before = sqlite_threads(sqlite_store)
    assert before == {"checkpoints": ["mine"], "writes": ["mine"]}, before
    monkeypatch.chdir(sqlite_store.parent)  # another folder than the one ckpt was imported from
    got = ckpt.restart_demo(TOPIC, "sqlite", sqlite_store.name)
    assert got["thread_id"].startswith("run-1-") and got["after_restart"] == 5, got
    assert sqlite_threads(sqlite_store) == before
    assert sorted(os.listdir(".")) == [sqlite_store.name], "the demo made a file of its own"


@pytest.mark.sqlite
def test_a_demo_on_a_sqlite_file_uri_uses_that_file_and_leaves_no_other(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with sqlite3.connect("uri.sqlite") as conn:  # an existing store, as a user's
        conn.execute("CREATE TABLE kept (x)")
    got = ckpt.restart_demo("가을", "sqlite", "file:uri.sqlite?mode=rwc")
    assert (got["kept"], got["after_restart"], got["survives"]) == (5, 5, True), got
    assert sorted(os.listdir(tmp_path)) == ["uri.sqlite"], os.listdir(tmp_path)  # no file named after the URI
    assert sqlite_threads(tmp_path / "uri.sqlite") == {"checkpoints": [], "writes": []}, "the demo left its thread"


@pytest.mark.sqlite
def test_a_demo_that_fails_after_its_child_wrote_still_removes_its_thread(sqlite_store, monkeypatch):
    real, seen = ckpt._run_child, []  # a fault injected: no public way fails a demo between its child and its cleanup

    def run_then_fail(job, **kwargs):
        real(job, **kwargs)
        seen.append(sqlite_threads(sqlite_store)["checkpoints"])
        raise RuntimeError("the demo gave up")

    monkeypatch.setattr(ckpt, "_run_child", run_then_fail)
    with pytest.raises(RuntimeError, match="the demo gave up"):
        ckpt.restart_demo(TOPIC, "sqlite", str(sqlite_store))
    assert len(seen) == 1 and len(seen[0]) == 2, seen  # "mine" and the demo's thread, written by the child
    assert sqlite_threads(sqlite_store)["checkpoints"] == ["mine"]


def test_a_nul_in_the_topic_is_refused_for_postgres_before_any_child_writes(pg_url):
    with ckpt.open_saver("postgres", pg_url) as saver:
        before = sorted(t.config["configurable"]["checkpoint_id"] for t in saver.list(None))
    for demo in (ckpt.restart_demo, ckpt.crash_demo, ckpt.trap_demo):  # the topic is a str PostgreSQL keeps as jsonb
        with pytest.raises(ValueError, match=r"^topic cannot be written as JSON for PostgreSQL: .*NUL"):
            demo("가\x00을", "postgres", pg_url)
    with ckpt.open_saver("postgres", pg_url) as saver:
        assert sorted(t.config["configurable"]["checkpoint_id"] for t in saver.list(None)) == before


@pytest.mark.parametrize("url", IN_MEMORY)
@pytest.mark.parametrize("demo", [ckpt.restart_demo, ckpt.crash_demo, ckpt.trap_demo])
def test_a_sqlite_url_no_other_process_can_open_is_a_value_error_naming_url(demo, url):
    with pytest.raises(ValueError) as caught:
        demo(TOPIC, "sqlite", url)
    message = str(caught.value)
    assert message.startswith(f"url {url!r}") and "outlives the process" in message, message


@pytest.mark.sqlite
def test_open_saver_on_a_sqlite_file_whose_checkpoints_table_is_another_applications_says_so(tmp_path):
    path = str(tmp_path / "other.db")
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE checkpoints (x INTEGER)")
    with pytest.raises(ConnectionError) as caught:
        with ckpt.open_saver("sqlite", path):
            pass
    assert str(caught.value) == f"cannot open the sqlite store at {path!r}: no such column: thread_id"


@pytest.mark.sqlite
def test_open_saver_on_a_sqlite_path_that_cannot_be_opened_names_the_path():
    with pytest.raises(ConnectionError) as caught:
        with ckpt.open_saver("sqlite", "/no/such/dir/x.db"):
            pass
    assert str(caught.value) == "cannot open the sqlite store at '/no/such/dir/x.db': unable to open database file"


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
@pytest.mark.parametrize("url, shown", [
    ("postgresql://alice:s3cret@127.0.0.1:1/db?connect_timeout=5", "postgresql://alice:***@127.0.0.1:1/db"),
    ("host=127.0.0.1 port=1 user=alice password=s3cret connect_timeout=5", "password=***"),
    ("host=127.0.0.1 port=1 user=alice password='s3cret x' connect_timeout=5", "password=*** "),
    ("postgresql://alice@127.0.0.1:1/db?password=s3cret&connect_timeout=5", "?password=***&"),
    ("postgresql://alice:s3/cret@127.0.0.1:1/db?connect_timeout=5", "postgresql://alice:***@127.0.0.1:1/db"),
    ("postgresql://alice:s3'cret@127.0.0.1:1/db?connect_timeout=5", "postgresql://alice:***@127.0.0.1:1/db"),
])
def test_a_password_never_appears_in_a_message(url, shown):
    for attempt in (lambda: ckpt.open_saver("postgres", url).__enter__(),
                    lambda: ckpt.restart_demo(TOPIC, "postgres", url),
                    lambda: ckpt.crash_demo(TOPIC, "postgres", url)):
        with pytest.raises(ConnectionError) as caught:
            attempt()
        message = str(caught.value)
        assert message.startswith("cannot open the postgres store at "), message
        assert "s3cret" not in message and shown in message, message


def test_reaching_postgres_but_failing_to_set_up_says_so_in_one_line(pg_url):
    import psycopg
    from psycopg.conninfo import make_conninfo

    name, role = f"agckpt_setup_{uuid.uuid4().hex[:12]}", f"agckpt_reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
        try:
            with psycopg.connect(make_conninfo(pg_url, dbname=name), autocommit=True) as conn:
                conn.execute(f'REVOKE CREATE ON SCHEMA public FROM PUBLIC, "{role}"')
            url = make_conninfo(pg_url, dbname=name, user=role)
            with pytest.raises(ConnectionError) as caught:
                with ckpt.open_saver("postgres", url):
                    pass
            message = str(caught.value)
            assert message.startswith(f"cannot open the postgres store at {url!r}: "), message
            assert "permission denied" in message and "\n" not in message, message
        finally:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            admin.execute(f'DROP ROLE "{role}"')
