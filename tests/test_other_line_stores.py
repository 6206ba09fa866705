"""Stores written by the other langgraph line: a thread in a newer checkpoint format is refused when
it is read, naming the store, the thread, the format and the langgraph that reads it, and left byte
for byte as it was, while the other threads of the store read as before; one in a format the
installed line reads gives back its exact values.

tests/data holds one SQLite store per line (scripts/make-fixture-stores.py): thread "t1" after
one run of "가을", written by langgraph 1.2.24 (checkpoint format v4) and by 0.2.60 (v2).
Measured in langgraph's code: 0.2.60 reads v1 and v2 and never looks at "v" (on v4 it fails
with KeyError: 'pending_sends'); 1.x writes v4 and migrates older formats as it reads them.
"""
import contextlib
import hashlib
import shutil
import sqlite3
import uuid
from pathlib import Path

import pytest

import ckpt
from conftest import CK, LG

DATA = Path(__file__).resolve().parent / "data"
STORES = {"store-langgraph-1.2.24.sqlite": 4, "store-langgraph-0.2.60.sqlite": 2}  # file -> "v"
READS_UP_TO = 4 if LG >= (0, 5) else 2  # the newest format the installed line reads
SINCE = {3: "0.3.24", 4: "0.5.0"}  # format -> the first langgraph that writes it
NEXT = ["__start__", "plan", "write", "review", ""]
BYTES = [13, 32, 81, 124, 149]
END = {"topic": "가을", "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
       "notes": ["plan:가을", "write:기본", "review:5"]}

READERS = {
    "history_len": (ckpt.history_len, lambda fmt: 5),
    "pending": (ckpt.pending, lambda fmt: NEXT),
    "snapshot_before": (lambda app, c: ckpt.snapshot_before(app, c, "write").values,
                        lambda fmt: {"topic": "가을", "angle": "기본", "stage": "plan", "notes": ["plan:가을"]}),
    "history_bytes": (ckpt.history_bytes, lambda fmt: BYTES),
    "anatomy": (lambda app, c: (lambda got: (got["checkpoint"]["v"], got["metadata"]["step"]))(ckpt.anatomy(app, c)),
                lambda fmt: (fmt, 3)),
    # from 1.1.7 a replay first writes a checkpoint with source "fork": 3 added before write, else 2
    "replay": (lambda app, c: ckpt.replay(app, c, "write"),
               lambda fmt: {"from": "write", "result": END, "added": 3 if LG >= (1, 1, 7) else 2}),
    "fork": (lambda app, c: (lambda got: (got["total"], got["result"]["draft"], got["original"]))(
        ckpt.fork(app, c, "write", {"angle": "요약"})), lambda fmt: (8, "가을/요약 가을/요약", END)),
}
READABLE = [store for store, fmt in STORES.items() if fmt <= READS_UP_TO]
# a store in a newer format: the other line's fixture where it is newer (on 0.2.60), and on every
# line one the installed saver writes with a checkpoint in the next format put after the run
NEWER = [store for store, fmt in STORES.items() if fmt > READS_UP_TO] + ["next format"]


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@contextlib.contextmanager
def plain_sqlite(path):
    """A plain SqliteSaver of the installed line on the file `path`."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        yield SqliteSaver(conn)
    finally:
        conn.close()


def put_next_format(saver):
    """One run of "가을" on thread "t1", then a checkpoint in format READS_UP_TO + 1 after its end,
    as a newer langgraph would write it."""
    from langgraph.checkpoint.base.id import uuid6

    ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg("t1"))
    end = saver.get_tuple(ckpt.cfg("t1"))
    checkpoint = dict(end.checkpoint, v=READS_UP_TO + 1, id=str(uuid6(clock_seq=4)))
    saver.put(end.config, checkpoint, dict(end.metadata, step=4), {})


def refusal(backend, url, fmt, checkpoint):
    return (f"the {backend} store at {url!r} holds a row agckpt does not read: thread 't1', checkpoint {checkpoint!r}: "
            f"it is in checkpoint format v{fmt}; the installed langgraph {ckpt.langgraph_version()} reads formats "
            f"up to v{READS_UP_TO}: read it with langgraph >= {SINCE.get(fmt, 'the release that wrote it')}; "
            "nothing was built")


def read_both(backend, url):
    """Open the store, run thread "t2" on it, then read "t1" and the whole store (t2's rows come first): (the two
    errors, "t2"'s history_len)."""
    with ckpt.open_saver(backend, url) as saver:
        app = ckpt.build_graph(saver)
        app.invoke({"topic": "가을"}, ckpt.cfg("t2"))  # now the store's newest checkpoint is one it reads
        errors = []
        for read in (lambda: ckpt.history_len(app, ckpt.cfg("t1")), lambda: list(saver.list(None))):
            with pytest.raises(ValueError) as info:
                read()
            errors.append(str(info.value))
        return errors, ckpt.history_len(app, ckpt.cfg("t2"))


@pytest.mark.sqlite
def test_the_fixture_stores_hold_the_formats_their_lines_write(tmp_path):
    for store, fmt in STORES.items():
        shutil.copyfile(DATA / store, tmp_path / store)
        with plain_sqlite(tmp_path / store) as saver:
            assert sorted({t.checkpoint["v"] for t in saver.list(None)}) == [fmt], store


@pytest.mark.sqlite
@pytest.mark.parametrize("store", list(STORES))
def test_without_the_check_plain_langgraph_reads_a_newer_format_with_a_keyerror(tmp_path, store):
    shutil.copyfile(DATA / store, tmp_path / store)
    with plain_sqlite(tmp_path / store) as saver:
        app = ckpt.build_graph(saver)
        if STORES[store] > READS_UP_TO:  # langgraph 0.2.60 on v4: deep inside the read
            with pytest.raises(KeyError, match="pending_sends"):
                list(app.get_state_history(ckpt.cfg("t1")))
        else:
            assert ckpt.history_bytes(app, ckpt.cfg("t1")) == BYTES


@pytest.mark.sqlite
@pytest.mark.parametrize("name", list(READERS))
@pytest.mark.parametrize("store", READABLE)
def test_a_store_in_a_format_the_installed_line_reads_gives_back_its_exact_values(tmp_path, store, name):
    shutil.copyfile(DATA / store, tmp_path / store)
    read, want = READERS[name]
    with ckpt.open_saver("sqlite", str(tmp_path / store)) as saver:
        assert read(ckpt.build_graph(saver), ckpt.cfg("t1")) == want(STORES[store])


@pytest.mark.sqlite
@pytest.mark.parametrize("store", NEWER)
def test_a_sqlite_thread_in_a_newer_format_is_refused_when_read_and_stays_byte_identical(tmp_path, store):
    path = tmp_path / "store.sqlite"
    if store in STORES:
        shutil.copyfile(DATA / store, path)
    else:
        with plain_sqlite(path) as saver:
            put_next_format(saver)
    t1 = [f"SELECT * FROM {table} WHERE thread_id = 't1' ORDER BY checkpoint_id" for table in ("checkpoints", "writes")]
    with contextlib.closing(sqlite3.connect(str(path))) as conn:
        before = [conn.execute(sql).fetchall() for sql in t1]
    errors, t2 = read_both("sqlite", str(path))
    newest = max(row[2] for row in before[0])  # checkpoint_id, the third column
    assert errors == [refusal("sqlite", str(path), STORES.get(store, READS_UP_TO + 1), newest)] * 2 and t2 == 5, errors
    with contextlib.closing(sqlite3.connect(str(path))) as conn:
        assert [conn.execute(sql).fetchall() for sql in t1] == before and len(before[0]) in (5, 6)


def test_a_postgres_thread_in_a_newer_format_is_refused_when_read_and_left_as_it_was(pg_url):
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"agckpt_newer_{uuid.uuid4().hex[:12]}"  # a database of its own: threads "t1" and "t2"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = make_conninfo(pg_url, dbname=name)
            with ckpt.open_saver("postgres", url) as saver:
                put_next_format(saver)
            rows = "SELECT checkpoint_id, md5(checkpoint::text) FROM checkpoints WHERE thread_id = 't1' ORDER BY checkpoint_id"
            with psycopg.connect(url) as conn:
                before = conn.execute(rows).fetchall()
            errors, t2 = read_both("postgres", url)
            expected = refusal("postgres", url, READS_UP_TO + 1, before[-1][0])  # the newest checkpoint, in the next format
            assert errors == [expected] * 2 and t2 == 5, errors
            with psycopg.connect(url) as conn:
                assert conn.execute(rows).fetchall() == before and len(before) == 6
        finally:
            admin.execute(f'DROP DATABASE "{name}"')


@pytest.mark.parametrize("backend", ["memory", pytest.param("sqlite", marks=pytest.mark.sqlite),
                                     pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_store_the_installed_line_writes_opens_again_and_reads_back(request, tmp_path, backend):
    url = {"memory": None, "sqlite": str(tmp_path / "s.sqlite")}.get(backend)
    url = request.getfixturevalue("pg_url") if backend == "postgres" else url
    thread_id = f"installed-{uuid.uuid4().hex}"
    written = 4 if LG >= (0, 5) else 2 if CK >= (2, 0, 22) else 1  # what each line writes (measured)
    with ckpt.open_saver(backend, url) as saver:
        ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg(thread_id))
        same = saver if backend == "memory" else None  # an in-memory saver is its own store
        try:
            with contextlib.nullcontext(same) if same else ckpt.open_saver(backend, url) as again:
                app = ckpt.build_graph(again)
                assert ckpt.anatomy(app, ckpt.cfg(thread_id))["checkpoint"]["v"] == written
                assert ckpt.history_bytes(app, ckpt.cfg(thread_id)) == BYTES
        finally:
            if backend == "postgres":
                saver.delete_thread(thread_id)
