"""What each saver physically stores, recounted here by reading the store directly."""
import fractions
import glob
import os
import re
import sqlite3
import tempfile
import threading
import uuid
import zlib

import pytest

import ckpt
import make_report
from conftest import CK, LG

TOPIC = "가을"
PAYLOADS = {"repetitive": "x" * 1500, "incompressible": make_report.incompressible(1500)}
LOGICAL = {"thin": 399, "fat": 6447, "carrying": 4, "difference": 6048, "copies": 4.03}  # the lab's figures

# Whole copies of a 1,500-byte str payload each saver holds after one run. Memory: the
# input (the __start__ channel's blob), the "bulk" channel's blob, and the __start__ task's
# pending write. SQLite: the whole checkpoint in every row, so the input checkpoint and the
# 4 after it, plus the pending write. PostgreSQL: str values inline in the 4 checkpoints
# after the input, the input dict as a blob, the pending write. langgraph < 1 also copies
# each step's writes into the checkpoint's metadata (the input's holds the payload);
# langgraph-checkpoint-postgres 2.x drops them before storing.
COPIES = {"memory": 3, "sqlite": 6, "postgres": 6}
if LG < (1, 0):
    COPIES = {"memory": 4, "sqlite": 7, "postgres": 6}
# Before langgraph-checkpoint 2.0.22 the in-memory saver has no blobs map: it serializes whole
# checkpoints, values included, like SQLite (so the same 7 copies).
OLD_MEMORY_LAYOUT = CK < (2, 0, 22)
if OLD_MEMORY_LAYOUT:
    COPIES["memory"] = 7


def as_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")


def memory_values(saver, thread_id):
    """Every stored bytes value of one thread, read from InMemorySaver's maps."""
    for (checkpoint, metadata, _parent) in saver.storage.get(thread_id, {}).get("", {}).values():
        yield "checkpoints", checkpoint[1]
        yield "checkpoints", metadata[1]
    for key, (_type, blob) in getattr(saver, "blobs", {}).items():
        if key[0] == thread_id:
            yield "blobs", blob
    for key, by_task in saver.writes.items():
        if key[0] == thread_id:
            for write in by_task.values():
                yield "writes", write[2][1]


def sqlite_values(path, thread_id):
    """Every stored checkpoint, metadata and write value of one thread, read from the file."""
    with sqlite3.connect(path) as conn:
        for checkpoint, metadata in conn.execute(
                "SELECT checkpoint, metadata FROM checkpoints WHERE thread_id = ?", (thread_id,)):
            yield "checkpoints", as_bytes(checkpoint)
            yield "checkpoints", as_bytes(metadata)
        for (value,) in conn.execute("SELECT value FROM writes WHERE thread_id = ?", (thread_id,)):
            yield "writes", as_bytes(value)


def postgres_values(url, thread_id):
    """Every stored value of one thread as PostgreSQL gives it back (jsonb as text)."""
    import psycopg

    queries = {"checkpoints": "SELECT checkpoint::text, metadata::text FROM checkpoints WHERE thread_id = %s",
               "blobs": "SELECT blob FROM checkpoint_blobs WHERE thread_id = %s",
               "writes": "SELECT blob FROM checkpoint_writes WHERE thread_id = %s"}
    with psycopg.connect(url) as conn:
        for table, sql in queries.items():
            for row in conn.execute(sql, (thread_id,)).fetchall():
                for value in row:
                    yield table, as_bytes(value)


def recount(values):
    """{"checkpoints": ..., "blobs": ..., "writes": ..., "total": ...} from (table, bytes) pairs."""
    found = {"checkpoints": 0, "blobs": 0, "writes": 0}
    for table, value in values:
        found[table] += len(value)
    found["total"] = sum(found.values())
    return found


def copies_found(values, payload):
    """How many times the payload's bytes occur in the stored values."""
    needle = payload.encode("utf-8")
    return sum(value.count(needle) for _table, value in values)


def run_on(saver, thread_id, inputs):
    app = ckpt.build_graph(saver)
    app.invoke(inputs, ckpt.cfg(thread_id))
    return app


# --- stored_bytes itself


@pytest.mark.sqlite
def test_a_new_saver_stores_nothing(tmp_path):
    zero = {"checkpoints": 0, "blobs": 0, "writes": 0, "total": 0}
    assert ckpt.stored_bytes(ckpt.new_saver()) == zero
    with ckpt.open_saver("sqlite", str(tmp_path / "new.sqlite")) as saver:
        assert ckpt.stored_bytes(saver) == zero


def test_memory_stored_bytes_equal_a_recount_of_the_savers_maps():
    saver = ckpt.new_saver()
    run_on(saver, "thin", {"topic": TOPIC})
    run_on(saver, "fat", {"topic": TOPIC, "bulk": "x" * 1500})
    for thread in ("thin", "fat"):
        assert ckpt.stored_bytes(saver, thread) == recount(memory_values(saver, thread)), thread


@pytest.mark.sqlite
def test_sqlite_stored_bytes_equal_a_recount_of_the_file(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with ckpt.open_saver("sqlite", path) as saver:
        run_on(saver, "thin", {"topic": TOPIC})
        run_on(saver, "fat", {"topic": TOPIC, "bulk": "x" * 1500})
        for thread in ("thin", "fat"):
            got = ckpt.stored_bytes(saver, thread)
            assert got == recount(sqlite_values(path, thread)), thread
            assert got["blobs"] == 0, got  # SqliteSaver has no blobs table


def test_postgres_stored_bytes_equal_a_recount_of_the_tables(pg_url):
    thread = f"stored-{uuid.uuid4().hex}"
    with ckpt.open_saver("postgres", pg_url) as saver:
        try:
            run_on(saver, thread, {"topic": TOPIC, "bulk": "x" * 1500})
            got = ckpt.stored_bytes(saver, thread)
            again = recount(postgres_values(pg_url, thread))
        finally:
            saver.delete_thread(thread)
    assert got == again, (got, again)


def test_postgres_compressed_sizes_are_pg_column_size(pg_url):
    import psycopg

    thread = f"stored-{uuid.uuid4().hex}"
    sql = {"checkpoints": "SELECT sum(pg_column_size(checkpoint) + pg_column_size(metadata)) FROM checkpoints",
           "blobs": "SELECT sum(coalesce(pg_column_size(blob), 0)) FROM checkpoint_blobs",
           "writes": "SELECT sum(pg_column_size(blob)) FROM checkpoint_writes"}
    with ckpt.open_saver("postgres", pg_url) as saver:
        try:
            run_on(saver, thread, {"topic": TOPIC, "bulk": "x" * 1500})
            got = ckpt.stored_bytes(saver, thread, compressed=True)
            with psycopg.connect(pg_url) as conn:
                again = {table: int(conn.execute(q + " WHERE thread_id = %s", (thread,)).fetchone()[0] or 0)
                         for table, q in sql.items()}
        finally:
            saver.delete_thread(thread)
    again["total"] = sum(again.values())
    assert got == again, (got, again)


@pytest.mark.sqlite
def test_memory_and_sqlite_do_not_compress(tmp_path):
    memory = ckpt.new_saver()
    run_on(memory, "fat", {"topic": TOPIC, "bulk": "x" * 1500})
    assert ckpt.stored_bytes(memory, compressed=True) == recount(memory_values(memory, "fat"))
    path = str(tmp_path / "c.sqlite")
    with ckpt.open_saver("sqlite", path) as saver:
        run_on(saver, "fat", {"topic": TOPIC, "bulk": "x" * 1500})
        assert ckpt.stored_bytes(saver, compressed=True) == recount(sqlite_values(path, "fat"))


@pytest.mark.sqlite
def test_per_thread_figures_add_up_to_the_whole_saver_shared_by_many_threads(tmp_path):
    with ckpt.open_saver("sqlite", str(tmp_path / "shared.sqlite")) as sqlite_saver:
        for saver in (ckpt.new_saver(), sqlite_saver):
            app = ckpt.build_graph(saver)
            threads = [f"t{i}" for i in range(8)]
            errors = []

            def work(thread_id):
                try:
                    app.invoke({"topic": thread_id}, ckpt.cfg(thread_id))
                except Exception as exc:  # pragma: no cover - reported by the assert below
                    errors.append(exc)

            workers = [threading.Thread(target=work, args=(t,)) for t in threads]
            for w in workers:
                w.start()
            while any(w.is_alive() for w in workers):
                ckpt.stored_bytes(saver)  # reading while others write must not fail
            for w in workers:
                w.join()
            assert errors == [], errors
            parts = [ckpt.stored_bytes(saver, t) for t in threads]
            whole = ckpt.stored_bytes(saver)
            summed = {k: sum(p[k] for p in parts) for k in whole}
            assert summed == whole, (type(saver).__name__, summed, whole)
            assert ckpt.stored_bytes(saver, "nobody")["total"] == 0, type(saver).__name__


# --- an int thread_id: stored_bytes counts the thread history_len counts

# How the saver keeps cfg(1)'s thread, measured: langgraph >= 0.3.31 hands it every thread_id
# as a str; 0.2.60's in-memory saver keeps the int (a thread apart from "1"), SQLite's TEXT
# column stores "1"; 0.2.60 on PostgreSQL fails on an int (text = smallint).
STR_IDS = LG >= (0, 3, 31)


def recount_of(backend, saver, where, thread_id):
    """The independent recount of one thread as the store keeps it."""
    if backend == "memory":
        return recount(memory_values(saver, thread_id))
    if backend == "sqlite":
        return recount(sqlite_values(where, str(thread_id)))
    return recount(postgres_values(where, str(thread_id)))


@pytest.mark.parametrize("backend", ["memory", pytest.param("sqlite", marks=pytest.mark.sqlite),
                                     pytest.param("postgres", marks=pytest.mark.postgres)])
def test_stored_bytes_of_an_int_thread_id_is_the_thread_history_len_counts(request, tmp_path, backend):
    number = 10 ** 9 + uuid.uuid4().int % 10 ** 9  # PostgreSQL is shared: an id of our own
    where = {"memory": None, "sqlite": str(tmp_path / "int.sqlite")}.get(backend)
    if backend == "postgres":
        where = request.getfixturevalue("pg_url")
    with ckpt.open_saver(backend, where) as saver:
        app = ckpt.build_graph(saver)
        if backend == "postgres" and not STR_IDS:
            with pytest.raises(Exception, match="operator does not exist: text = "):
                app.invoke({"topic": TOPIC}, ckpt.cfg(number))
            saver.delete_thread(str(number))
            return
        try:
            app.invoke({"topic": TOPIC}, ckpt.cfg(number))
            app.invoke({"topic": "봄"}, ckpt.cfg(f"other-{number}"))
            same = STR_IDS or backend != "memory"  # do number and str(number) name one thread?
            assert ckpt.history_len(app, ckpt.cfg(number)) == 5
            assert ckpt.history_len(app, ckpt.cfg(str(number))) == (5 if same else 0)
            assert ckpt.anatomy(app, ckpt.cfg(number))["metadata"]["step"] == 3
            got = ckpt.stored_bytes(saver, number)
            key = str(number) if STR_IDS else number
            assert got == recount_of(backend, saver, where, key) and got["total"] > 0, got
            text = ckpt.stored_bytes(saver, str(number))
            assert text == recount_of(backend, saver, where, str(number)), text  # 0 where a thread apart
            if backend != "postgres":  # the only two threads of this store: the parts add up
                other = ckpt.stored_bytes(saver, f"other-{number}")
                assert {k: got[k] + other[k] for k in got} == ckpt.stored_bytes(saver), (got, other)
        finally:
            if backend == "postgres":
                for thread_id in (str(number), f"other-{number}"):
                    saver.delete_thread(thread_id)


ZERO_ID = {"configurable": {"thread_id": 0}}


def test_a_thread_id_of_0_is_counted_as_history_len_finds_it_on_each_line():
    # measured: langgraph 1.x writes a false id (0) as it is but reads every id as its str,
    # so in memory the run is stored under the int 0 and cfg(0) finds nothing; 0.2.60 keeps 0
    saver = ckpt.new_saver()  # cfg(0) refuses the id: the config is written out
    app = ckpt.build_graph(saver)
    app.invoke({"topic": TOPIC}, ZERO_ID)
    found = 0 if LG >= (1, 0) else 5
    assert ckpt.history_len(app, ZERO_ID) == found
    counted = ckpt.stored_bytes(saver, 0)
    assert (counted["total"] > 0) == bool(found), counted
    assert ckpt.stored_bytes(saver)["total"] > 0 and 0 in saver.storage, list(saver.storage)
    if found:
        assert ckpt.anatomy(app, ZERO_ID)["metadata"]["step"] == 3
    else:
        with pytest.raises(ValueError, match="config names thread 0, which has no checkpoint"):
            ckpt.anatomy(app, ZERO_ID)


# --- copies of the payload actually stored, recounted


@pytest.mark.parametrize("kind", list(PAYLOADS))
def test_memory_copies_stored_match_a_recount_of_the_maps(kind):
    payload = PAYLOADS[kind]
    saver = ckpt.new_saver()
    got = ckpt.weigh_stored(saver, TOPIC, payload)
    found = copies_found(memory_values(saver, got["threads"]["fat"]), payload)
    assert found == COPIES["memory"], (found, got)
    difference = (recount(memory_values(saver, got["threads"]["fat"]))["total"]
                  - recount(memory_values(saver, got["threads"]["thin"]))["total"])
    assert got["stored"]["difference"] == difference, (got, difference)
    assert found * 1500 <= difference < (found + 1) * 1500, difference
    assert got["stored"]["copies"] == round(difference / 1500, 2), got


@pytest.mark.parametrize("kind", list(PAYLOADS))
@pytest.mark.sqlite
def test_sqlite_copies_stored_match_a_recount_of_the_file(tmp_path, kind):
    payload, path = PAYLOADS[kind], str(tmp_path / "c.sqlite")
    with ckpt.open_saver("sqlite", path) as saver:
        got = ckpt.weigh_stored(saver, TOPIC, payload)
    fat, thin = (list(sqlite_values(path, got["threads"][n])) for n in ("fat", "thin"))
    found = copies_found(fat, payload)
    assert found == COPIES["sqlite"], (found, got)
    difference = recount(fat)["total"] - recount(thin)["total"]
    assert got["stored"]["difference"] == difference, (got, difference)
    assert found * 1500 <= difference < (found + 1) * 1500, difference
    assert got["stored"]["copies"] == round(difference / 1500, 2), got


@pytest.mark.parametrize("kind", list(PAYLOADS))
def test_postgres_copies_stored_match_a_recount_of_the_tables(pg_url, kind):
    payload = PAYLOADS[kind]
    with ckpt.open_saver("postgres", pg_url) as saver:
        got = ckpt.weigh_stored(saver, TOPIC, payload, thread_prefix=f"copies-{uuid.uuid4().hex}")
        try:
            fat, thin = (list(postgres_values(pg_url, got["threads"][n])) for n in ("fat", "thin"))
        finally:
            for thread in got["threads"].values():
                saver.delete_thread(thread)
    found = copies_found(fat, payload)
    assert found == COPIES["postgres"], (found, got)
    difference = recount(fat)["total"] - recount(thin)["total"]
    assert got["stored"]["difference"] == difference, (got, difference)
    assert found * 1500 <= difference < (found + 1) * 1500, difference


def test_postgres_compresses_a_repetitive_payload_but_not_a_random_one(pg_url):
    rows = {kind: ckpt.physical_vs_logical(TOPIC, payload, backends=["postgres"], url=pg_url)[0]
            for kind, payload in PAYLOADS.items()}
    # rows over ~2 kB are TOAST-compressed: 1,500 "x" shrink to a few bytes in each checkpoint
    assert rows["repetitive"]["stored_compressed"]["copies"] < 2, rows["repetitive"]
    assert int(rows["incompressible"]["stored_compressed"]["copies"]) == COPIES["postgres"], \
        rows["incompressible"]
    for kind, row in rows.items():
        assert int(row["stored"]["copies"]) == COPIES["postgres"], (kind, row)
        assert row["logical"] == LOGICAL, (kind, row)


# --- physical_vs_logical


def test_logical_bytes_are_the_labs_figures_beside_the_stored_ones():
    rows = ckpt.physical_vs_logical(TOPIC, "x" * 1500)
    installed = ["sqlite"] if ckpt.has_backend("sqlite") else []  # the default: what is installed
    assert [row["backend"] for row in rows] == ["memory"] + installed, rows
    for row in rows:
        assert row["logical"] == LOGICAL, row
        assert (row["checkpoints"], row["payload_bytes"]) == (5, 1500), row
        assert int(row["stored"]["copies"]) == COPIES[row["backend"]], row


def test_physical_vs_logical_adds_postgres_when_a_url_is_given_and_leaves_no_thread(pg_url):
    import psycopg

    rows = ckpt.physical_vs_logical(TOPIC, "x" * 1500, url=pg_url)
    assert [row["backend"] for row in rows] == ["memory", "sqlite", "postgres"], rows
    assert rows[2]["logical"] == LOGICAL, rows[2]
    with psycopg.connect(pg_url) as conn:
        left = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = ANY(%s)",
                            (list(rows[2]["threads"].values()),)).fetchone()[0]
    assert left == 0, rows[2]["threads"]


@pytest.mark.parametrize("kind", list(PAYLOADS))
def test_seeded_versions_make_the_stored_bytes_the_same_on_every_run(kind):
    """Two runs on two new savers, each recounted from the saver's own maps: byte for byte equal
    (without seeding, a channel version's random tail is 16 to 19+ characters long)."""
    recounts = []
    for _ in range(2):
        saver = ckpt.new_saver()
        ckpt.weigh_stored(saver, TOPIC, PAYLOADS[kind])
        recounts.append([recount(memory_values(saver, thread)) for thread in ("weigh-thin", "weigh-fat")])
    assert recounts[0] == recounts[1], recounts


@pytest.mark.sqlite
def test_weigh_stored_on_a_given_saver_matches_physical_vs_logical(tmp_path):
    rows = {row["backend"]: row for row in ckpt.physical_vs_logical(TOPIC, "x" * 1500)}
    memory = ckpt.weigh_stored(ckpt.new_saver(), TOPIC, "x" * 1500)
    assert dict(memory, backend="memory") == rows["memory"], (memory, rows["memory"])
    with ckpt.open_saver("sqlite", str(tmp_path / "c.sqlite")) as saver:
        sqlite = ckpt.weigh_stored(saver, TOPIC, "x" * 1500)
    assert dict(sqlite, backend="sqlite") == rows["sqlite"], (sqlite, rows["sqlite"])


def test_the_incompressible_payload_is_fixed_ascii_that_zlib_cannot_shrink_much():
    text = make_report.incompressible(1500)
    assert text == make_report.incompressible(1500) and len(text.encode("utf-8")) == 1500, text[:20]
    assert text[:16] == "0UAqFzWsDK4FrUMp", text[:16]  # the same on Python 3.9 and 3.11
    assert len(zlib.compress(text.encode(), 9)) > 1100, len(zlib.compress(text.encode(), 9))
    assert len(zlib.compress(("x" * 1500).encode(), 9)) < 30


# --- bad input: clear errors naming the parameter, raised before anything is written


@pytest.mark.parametrize("saver", ["not a saver", None, {"storage": {}}])
def test_stored_bytes_of_something_else_names_saver(saver):
    with pytest.raises(TypeError, match="saver must be a MemorySaver, SqliteSaver or PostgresSaver"):
        ckpt.stored_bytes(saver)


def test_stored_bytes_of_an_app_says_to_pass_its_checkpointer(app):
    with pytest.raises(TypeError, match="pass app.checkpointer"):
        ckpt.stored_bytes(app)


def sqlite_folders():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "agckpt-*")))


@pytest.mark.parametrize("kwargs, error, words", [
    ({"backends": ["memory", "oracle"]}, ValueError, "backend must be one of"),
    ({"backends": ["sqlite", "postgres"]}, ValueError, "url is required"),
    ({"payload": ""}, ValueError, "payload must be a non-empty value"),
    ({"payload": fractions.Fraction(1, 3)}, TypeError, "payload of type Fraction cannot be serialized"),
    ({"topic": 5}, TypeError, "topic must be a str"),
])
def test_physical_vs_logical_rejects_bad_input_before_any_run(kwargs, error, words):
    args = dict({"topic": TOPIC, "payload": "x" * 10}, **kwargs)
    before = sqlite_folders()
    with pytest.raises(error, match=words):
        ckpt.physical_vs_logical(**args)
    assert sqlite_folders() == before


def test_weigh_stored_refuses_threads_that_already_have_checkpoints():
    saver = ckpt.new_saver()
    app = run_on(saver, "weigh-fat", {"topic": TOPIC})
    with pytest.raises(ValueError, match="thread_prefix 'weigh'.*already have checkpoints"):
        ckpt.weigh_stored(saver, TOPIC, "x" * 10)
    assert ckpt.history_len(app, ckpt.cfg("weigh-fat")) == 5
    assert ckpt.history_len(app, ckpt.cfg("weigh-thin")) == 0


@pytest.mark.parametrize("kwargs, error, words", [
    ({"saver": "nope"}, TypeError, "saver must be"),
    ({"payload": []}, ValueError, "payload must be a non-empty value"),
])
def test_weigh_stored_rejects_bad_input_before_any_run(kwargs, error, words):
    saver = ckpt.new_saver()
    args = dict({"saver": saver, "topic": TOPIC, "payload": "x" * 10}, **kwargs)
    with pytest.raises(error, match=words):
        ckpt.weigh_stored(**args)
    assert ckpt.stored_bytes(saver)["total"] == 0


def pg_threads(url):
    with ckpt.open_saver("postgres", url) as saver:
        return sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)})


@pytest.mark.parametrize("payload, words", [
    (float("nan"), "payload cannot be written as JSON for PostgreSQL: Out of range float values"),
    ("x\x00", "payload cannot be written as JSON for PostgreSQL: PostgreSQL cannot store a NUL character"),
])
def test_values_postgres_cannot_store_are_refused_before_anything_is_written(pg_url, payload, words):
    before = pg_threads(pg_url)
    with pytest.raises(ValueError, match=re.escape(words)):
        ckpt.physical_vs_logical(TOPIC, payload, ["memory", "postgres"], url=pg_url)
    with ckpt.open_saver("postgres", pg_url) as saver:
        with pytest.raises(ValueError, match=re.escape(words)):
            ckpt.weigh_stored(saver, TOPIC, payload, thread_prefix=f"w-{uuid.uuid4().hex}")
        app, thread = ckpt.build_graph(saver), ckpt.cfg(f"f-{uuid.uuid4().hex}")
        app.invoke({"topic": TOPIC}, thread)
        with pytest.raises(ValueError, match=re.escape(words.replace("payload", 'values["bulk"]', 1))):
            ckpt.fork(app, thread, "review", {"bulk": payload})
        assert ckpt.history_len(app, thread) == 5, "the fork wrote before refusing"
        saver.delete_thread(thread["configurable"]["thread_id"])
    assert pg_threads(pg_url) == before
