"""Stores written by the other langgraph line: a newer format is a clear error naming it and the
langgraph that reads it, with the store unchanged; an older one reads back its exact values.

tests/data holds one SQLite store per line (scripts/make-fixture-stores.py): thread "t1" after
one run of "가을", written by langgraph 1.2.24 (checkpoint format v4) and by 0.2.60 (v2).
Measured in langgraph's code: 0.2.60 reads v1 and v2 and never looks at "v" (on v4 it fails
with KeyError: 'pending_sends'); 1.x writes v4 and migrates older formats as it reads them.
"""
import hashlib
import shutil
from pathlib import Path

import pytest

import ckpt
from conftest import CK, LG

DATA = Path(__file__).resolve().parent / "data"
STORES = {"store-langgraph-1.2.24.sqlite": 4, "store-langgraph-0.2.60.sqlite": 2}  # file -> "v"
READS_UP_TO = 4 if LG >= (0, 5) else 2  # the newest format the installed line reads
NEXT = ["__start__", "plan", "write", "review", ""]
BYTES = [13, 32, 81, 124, 149]
END = {"topic": "가을", "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
       "notes": ["plan:가을", "write:기본", "review:5"]}
ADDED = 3 if LG >= (1, 1, 7) else 2  # replay before write

READERS = {
    "history": lambda app, c: len(ckpt.history(app, c)),
    "history_len": ckpt.history_len,
    "pending": ckpt.pending,
    "snapshot_before": lambda app, c: ckpt.snapshot_before(app, c, "write").next,
    "history_bytes": ckpt.history_bytes,
    "replay": lambda app, c: ckpt.replay(app, c, "write"),
    "fork": lambda app, c: ckpt.fork(app, c, "write", {"angle": "요약"}),
    "anatomy": lambda app, c: (ckpt.anatomy(app, c)["checkpoint"]["v"],
                               ckpt.anatomy(app, c)["metadata"]["step"]),
    "checkpoint_rows": lambda app, c: [r["bytes"] for r in ckpt.checkpoint_rows(app, c)],
}


def expected(name, fmt):
    """What a reader returns on a fixture store the installed langgraph reads."""
    fork_draft = "가을/요약 가을/요약"
    return {"history": 5, "history_len": 5, "pending": NEXT, "snapshot_before": ("write",),
            "history_bytes": BYTES, "checkpoint_rows": BYTES, "anatomy": (fmt, 3),
            "replay": {"from": "write", "result": END, "added": ADDED},
            "fork": (8, fork_draft, END)}[name]


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.mark.sqlite
@pytest.mark.parametrize("name", list(READERS))
@pytest.mark.parametrize("store", list(STORES))
def test_a_store_of_either_line_reads_back_exactly_or_names_its_format(tmp_path, store, name):
    path, fmt = tmp_path / store, STORES[store]
    shutil.copyfile(DATA / store, path)
    with ckpt.open_saver("sqlite", str(path)) as saver:
        app = ckpt.build_graph(saver)
        if fmt > READS_UP_TO:
            with pytest.raises(ValueError) as info:
                READERS[name](app, ckpt.cfg("t1"))
            message = str(info.value)
            assert "of thread 't1' has format v4;" in message, message
            assert "the installed langgraph 0.2.60 reads formats up to v2" in message, message
            assert "read this store with langgraph >= 0.5.0" in message, message
        else:
            got = READERS[name](app, ckpt.cfg("t1"))
            if name == "fork":
                got = (got["total"], got["result"]["draft"], got["original"])
            assert got == expected(name, fmt), (store, name, got)
    if fmt > READS_UP_TO:
        assert digest(path) == digest(DATA / store), "the refused read changed the store"


@pytest.mark.sqlite
def test_the_fixture_stores_hold_the_formats_their_lines_write(tmp_path):
    found = {}
    for store in STORES:
        shutil.copyfile(DATA / store, tmp_path / store)
        with ckpt.open_saver("sqlite", str(tmp_path / store)) as saver:
            found[store] = sorted({t.checkpoint["v"] for t in saver.list(ckpt.cfg("t1"))})
    assert found == {store: [fmt] for store, fmt in STORES.items()}, found


# --- any saver: a checkpoint of a newer format than the installed langgraph reads

BACKENDS = ["memory", pytest.param("sqlite", marks=pytest.mark.sqlite),
            pytest.param("postgres", marks=pytest.mark.postgres)]
SINCE = {3: "langgraph >= 0.3.24, the first release that writes v3",
         4: "langgraph >= 0.5.0, the first release that writes v4"}


def newer_formats():
    return [v for v in (3, 4, 5, 9) if v > READS_UP_TO]


@pytest.fixture
def store(request, tmp_path):
    """(saver, thread_id) on a saver of the backend given; a thread of its own on PostgreSQL."""
    backend = request.param
    url = {"memory": None, "sqlite": str(tmp_path / "s.sqlite")}.get(backend)
    if backend == "postgres":
        url = request.getfixturevalue("pg_url")
    thread_id = f"t-{request.node.name}"
    with ckpt.open_saver(backend, url) as saver:
        yield saver, thread_id
        if backend == "postgres":
            saver.delete_thread(thread_id)


def put_newer(saver, thread_id, version):
    """After one run, a checkpoint of format `version` after the thread's end, as a newer
    langgraph would write it; returns its id."""
    from langgraph.checkpoint.base.id import uuid6

    ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg(thread_id))
    end = saver.get_tuple(ckpt.cfg(thread_id))
    checkpoint = dict(end.checkpoint, v=version, id=str(uuid6(clock_seq=4)))
    saver.put(end.config, checkpoint, dict(end.metadata, step=4), {})
    return checkpoint["id"]


def contents(saver, thread_id):
    """What the store holds of the thread: (checkpoint_id, v) newest first, and its bytes."""
    listed = [(t.config["configurable"]["checkpoint_id"], t.checkpoint["v"])
              for t in saver.list(ckpt.cfg(thread_id))]
    return listed, ckpt.stored_bytes(saver)


@pytest.mark.parametrize("store", BACKENDS, indirect=True)
@pytest.mark.parametrize("version", newer_formats())
@pytest.mark.parametrize("name", list(READERS))
def test_a_thread_whose_end_has_a_newer_format_is_refused_naming_it_and_left_as_it_was(
        store, version, name):
    saver, thread_id = store
    newest = put_newer(saver, thread_id, version)
    app, before = ckpt.build_graph(saver), contents(saver, thread_id)
    assert len(before[0]) == 6 and before[0][0] == (newest, version), before
    since = SINCE.get(version, f"the newer langgraph that wrote it (after {ckpt.langgraph_version()})")
    # the thread's oldest checkpoint is of the installed format, but its end is newer
    oldest = {"configurable": {"thread_id": thread_id, "checkpoint_id": before[0][-1][0]}}
    for config in (ckpt.cfg(thread_id), oldest):
        with pytest.raises(ValueError) as info:
            READERS[name](app, config)
        assert str(info.value) == (
            f"checkpoint {newest!r} of thread {thread_id!r} has format v{version}; the installed "
            f"langgraph {ckpt.langgraph_version()} reads formats up to v{READS_UP_TO}: read this "
            f"store with {since}"), info.value
        assert contents(saver, thread_id) == before, (name, config)


@pytest.mark.parametrize("store", BACKENDS, indirect=True)
def test_a_thread_of_the_installed_format_is_read_as_it_is(store):
    saver, thread_id = store
    app = ckpt.build_graph(saver)
    app.invoke({"topic": "가을"}, ckpt.cfg(thread_id))
    written = 4 if LG >= (0, 5) else 2 if CK >= (2, 0, 22) else 1  # what each line writes
    assert ckpt.anatomy(app, ckpt.cfg(thread_id))["checkpoint"]["v"] == written
    assert ckpt.pending(app, ckpt.cfg(thread_id)) == NEXT
