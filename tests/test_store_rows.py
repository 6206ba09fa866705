"""A checkpoint store is code: a row rewritten to name a class or a function is built or called by
LangGraph's default reader, and by no agckpt function that reads the store.

The class and the function named are the harmless Marker and mark below: building or calling them
only appends to MARKS. Rows are rewritten with sqlite3 or psycopg directly, nothing else touched.
Each case runs on every leg that has the saver it needs (the pod leg has none: there only the
input a lone surrogate sends into JSON mode is tried, with the in-memory saver).
"""
import contextlib
import datetime
import enum
import json
import os
import re
import sqlite3
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from langgraph.checkpoint.memory import MemorySaver

import ckpt
from conftest import CK, LG, ROOT

MARKS = []  # "Marker" for each Marker built, "mark" for each call of mark()


class Marker:
    """Harmless: building one only appends to MARKS."""

    def __init__(self, *args, **kwargs):
        MARKS.append("Marker")


def mark(value):
    """Harmless: calling it only appends to MARKS."""
    MARKS.append("mark")


HERE = __name__  # the module LangGraph's default reader imports to find them
CONSTRUCTOR = {"lc": 2, "type": "constructor", "id": [HERE, "Marker"], "kwargs": {}}  # as JSON mode writes one


class FirstMarker(Marker):
    """Harmless, as Marker; named by no other test, so LangGraph (which logs a warning once per type and
    process) logs its warnings in the one test that reads it."""


def first_mark(value):
    """Harmless, as mark; named by no other test, as FirstMarker."""
    MARKS.append("mark")


def rows(cls="Marker", function="mark"):
    """(type, bytes, what it names) for each way a row can name the class and the function."""
    import ormsgpack  # the savers' serializer: installed with either saver
    def ext(code, *named):
        return ormsgpack.packb(ormsgpack.Ext(code, ormsgpack.packb([HERE, *named])))
    constructor = dict(CONSTRUCTOR, id=[HERE, cls])
    return {"json constructor": ("json", json.dumps(constructor).encode(), cls),
            "msgpack class": ("msgpack", ext(2, cls, {}), cls),
            "msgpack function": ("msgpack", ext(0, function, "x"), function)}


def built(call):
    """(what call() built or called, the error it raised or None)."""
    before = len(MARKS)
    try:
        call()
        error = None
    except Exception as exc:
        error = exc
    return MARKS[before:], error


# --- the stores: a thread run once, rows rewritten directly

class Sqlite:
    kind = "sqlite"

    def __init__(self, tmp_path, pg_url=None, thread="run-1"):
        self.url, self.thread = str(tmp_path / "store.sqlite"), thread
        with ckpt.open_saver("sqlite", self.url) as saver:
            ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg(self.thread))

    def execute(self, sql, params=()):
        with contextlib.closing(sqlite3.connect(self.url)) as conn, conn:
            return conn.execute(sql.replace("%s", "?"), params).fetchall()

    def plain(self):
        from langgraph.checkpoint.sqlite import SqliteSaver
        return SqliteSaver.from_conn_string(self.url)

    shown = property(lambda self: repr(self.url))
    places = {"checkpoint": ("checkpoints", "checkpoint"), "write": ("writes", "value"),
              "metadata": ("checkpoints", "metadata")}


class Postgres(Sqlite):
    kind = "postgres"

    def __init__(self, tmp_path, pg_url):
        # a password in the URL (the throwaway server trusts its socket): every error must mask it
        self.url, self.thread = pg_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@"), f"rows-{uuid.uuid4().hex}"
        assert "s3cret" in self.url, self.url
        with ckpt.open_saver("postgres", self.url) as saver:
            ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg(self.thread))

    def execute(self, sql, params=()):
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as conn:
            found = conn.execute(sql, params)
            return found.fetchall() if found.description else []

    @contextlib.contextmanager
    def plain(self):
        from langgraph.checkpoint.postgres import PostgresSaver
        with PostgresSaver.from_conn_string(self.url) as saver:
            yield saver

    shown = property(lambda self: repr(self.url.replace("s3cret", "***")))
    places = {"checkpoint": None, "write": ("checkpoint_writes", "blob"), "blob": ("checkpoint_blobs", "blob")}


def rewrite(store, place, row):
    """Put (type, bytes) into one row of the thread at `place`; returns the checkpoint ids of the thread."""
    table, column = store.places[place]
    key = {"checkpoint_blobs": "channel = '__start__'"}.get(table, "TRUE")
    if table == "checkpoints":  # the newest checkpoint of the thread
        key = f"checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = '{store.thread}')"
    target = store.execute(f"SELECT ctid FROM {table} WHERE thread_id = %s AND {key} LIMIT 1" if store.kind == "postgres"
                           else f"SELECT rowid FROM {table} WHERE thread_id = %s AND {key} LIMIT 1", (store.thread,))[0][0]
    typed = "type" if column != "metadata" else None
    sets = f"type = %s, {column} = %s" if typed else f"{column} = %s"
    store.execute(f"UPDATE {table} SET {sets} WHERE {'ctid' if store.kind == 'postgres' else 'rowid'} = %s",
                  (row[0], row[1], target) if typed else (row[1], target))
    return {cid for (cid,) in store.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = %s", (store.thread,))}


def read_history(store):
    """agckpt's reader on the store: open it and read the thread's history."""
    with ckpt.open_saver(store.kind, store.url) as saver:
        ckpt.history_len(ckpt.build_graph(saver), ckpt.cfg(store.thread))


def restart(store):
    """restart_demo on the store: a thread of its own, in a child process; it reads no other thread."""
    ckpt.restart_demo("가을", store.kind, store.url)


def plain_read(store):
    """LangGraph's default reader: the installed saver as LangGraph makes it, the thread's history read."""
    with store.plain() as saver:
        ckpt.history_len(ckpt.build_graph(saver), ckpt.cfg(store.thread))


NAMES = ["json constructor", "msgpack class", "msgpack function"]
# where each saver reads a row through its serializer; 0.2.60's SQLite saver also revives its JSON metadata
CASES = [(kind, place, name) for kind, place in (("sqlite", "checkpoint"), ("sqlite", "write"), ("postgres", "write"),
                                                 ("postgres", "blob")) for name in NAMES]
CASES += [("sqlite", "metadata", "json constructor")] * (LG < (1,))


def new_store(kind, tmp_path, request, thread="run-1"):
    if kind == "postgres":
        return Postgres(tmp_path, request.getfixturevalue("pg_url"))
    return Sqlite(tmp_path, thread=thread)


def remove(stores):
    """Delete the PostgreSQL stores' threads with SQL (the server is shared: a row agckpt does not read
    would fail the next test that lists the whole store)."""
    for store in stores:
        if store.kind == "postgres":
            for table in ("checkpoint_writes", "checkpoint_blobs", "checkpoints"):
                store.execute(f"DELETE FROM {table} WHERE thread_id = %s", (store.thread,))


@pytest.fixture
def store(request, tmp_path):
    made = new_store(request.param, tmp_path, request)
    yield made
    remove([made])


CUT_SHORT = ("msgpack", b"\x93\x01")  # a msgpack array of three with one item: cut short
CUT_SHORT_PLACE = {"sqlite": "checkpoint", "postgres": "write"}
RESTARTS = 4  # restart_demo calls side by side


@pytest.fixture(scope="module")
def rewritten(request, tmp_path_factory):
    """rewritten(kind, place, name) -> (store, its checkpoint ids, (built, error) of restart_demo on it): for
    each case of the two tests below (name None: the row cut short) a thread run once, the row rewritten. A
    restart starts a child process (about a second) and reads no thread but its own: so one restart per store
    covers every row in it, and the cases share stores where they can. PostgreSQL's share the server's database,
    a thread each, as do SQLite's write rows in one file; a SQLite row in a checkpoint or its metadata is the
    newest checkpoint of a file of its own. On the first call every case is made (PostgreSQL's
    where AGCKPT_PG_URL is set), then the restarts run side by side, RESTARTS at a time. What any of them built
    is put down to each case, as which one built it cannot be told."""
    made, stores = {}, []

    def prepare(kinds):
        ready = []
        for kind in kinds:
            writes = tmp_path_factory.mktemp(f"{kind}-write")  # one SQLite file for the write rows
            cases = [(p, n) for k, p, n in CASES if k == kind] + [(CUT_SHORT_PLACE[kind], None)]
            for n, (place, name) in enumerate(cases):
                folder = writes if place == "write" else tmp_path_factory.mktemp(f"{kind}-{place}")
                store = new_store(kind, folder, request, thread=f"run-{n + 1}")
                stores.append(store)
                ids = rewrite(store, place, CUT_SHORT if name is None else rows()[name][:2])
                ready.append(((kind, place, name), store, ids))
        each = {}  # one store of each url
        for _, store, _ in ready:
            each.setdefault((store.kind, store.url), store)
        before = len(MARKS)
        with ThreadPoolExecutor(RESTARTS) as pool:
            errors = dict(zip(each, pool.map(lambda store: built(lambda: restart(store))[1], each.values())))
        restarted = MARKS[before:]  # [] unless a restart built something
        made.update({case: (store, ids, (restarted, errors[store.kind, store.url])) for case, store, ids in ready})

    def case(kind, place, name):
        if (kind, place, name) not in made:  # PostgreSQL's alone: without a server it skips here (pg_url)
            prepare(["sqlite", "postgres"] if not made and os.environ.get("AGCKPT_PG_URL") else [kind])
        return made[kind, place, name]

    yield case
    remove(stores)


@pytest.mark.sqlite
@pytest.mark.parametrize("backend, place, name", CASES)
def test_a_row_naming_a_class_or_function_is_built_by_langgraph_and_refused_by_agckpt(rewritten, backend, place, name):
    kind, data, named = rows()[name]
    store, ids, restarted = rewritten(backend, place, name)
    assert restarted == ([], None), restarted  # a thread of its own beside the rewritten one: the row is not read
    made, error = built(lambda: read_history(store))
    message = str(error)
    assert made == [] and f"the {store.kind} store at {store.shown} holds a row agckpt does not read" in message, message
    assert f"thread {store.thread!r}" in message and "s3cret" not in message, message
    assert re.search(r"checkpoint '([^']+)'", message).group(1) in ids, message
    assert f"it names {HERE}.{named}, which agckpt does not build; nothing was built" in message, message
    made, _ = built(lambda: plain_read(store))
    # measured: langgraph-checkpoint 3.0 and later no longer revive a JSON-mode constructor outside its list
    assert made == ([] if kind == "json" and CK >= (3,) else [named]), made


@pytest.mark.sqlite
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_row_that_cannot_be_read_back_is_one_error_naming_the_store_thread_and_checkpoint(rewritten, backend):
    place = CUT_SHORT_PLACE[backend]
    store, ids, restarted = rewritten(backend, place, None)
    assert restarted == ([], None), restarted
    message = str(built(lambda: read_history(store))[1])
    assert f"the {store.kind} store at {store.shown} holds a row agckpt does not read: thread {store.thread!r}, " \
           f"checkpoint '" in message and "it cannot be read (" in message, message
    assert re.search(r"checkpoint '([^']+)'", message).group(1) in ids, message


@pytest.mark.sqlite
@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
def test_a_refused_row_leaves_the_other_threads_of_the_store_to_read_and_its_own_to_delete(store):
    rewrite(store, "checkpoint" if store.kind == "sqlite" else "blob", rows()["msgpack class"][:2])  # a row the thread reads
    with ckpt.open_saver(store.kind, store.url) as saver:
        app = ckpt.build_graph(saver)
        other = f"other-{uuid.uuid4().hex}"
        app.invoke({"topic": "가을"}, ckpt.cfg(other))
        made, error = built(lambda: ckpt.history_len(app, ckpt.cfg(store.thread)))
        assert made == [] and "holds a row agckpt does not read" in str(error), error
        assert ckpt.history_len(app, ckpt.cfg(other)) == 5
        for thread in (store.thread, other):
            saver.delete_thread(thread)
    assert store.execute("SELECT count(*) FROM checkpoints WHERE thread_id IN (%s, %s)", (store.thread, other)) == [(0,)]


class Colour(str, enum.Enum):
    """Harmless: an application's own type, as a value of its state."""
    RED = "red"


@pytest.mark.sqlite
@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
def test_agckpts_saver_writes_no_row_its_reader_would_refuse_where_langgraphs_writes_and_builds_it(store):
    config, inputs = ckpt.cfg(f"own-{uuid.uuid4().hex}"), {"topic": "가을", "bulk": Colour.RED}
    with ckpt.open_saver(store.kind, store.url) as saver:
        app = ckpt.build_graph(saver)
        with pytest.raises(ValueError) as info:
            app.invoke(inputs, config)  # LangGraph's own invoke: ckpt.invoke would refuse it before the run
        assert str(info.value) == (f"cannot store a value naming {HERE}.Colour: agckpt's savers would not read it back "
                                   "(check_value names the part that is not a lab value); it was not written")
        ckpt.history_len(app, config)  # what the run left reads without a refusal
        with pytest.raises(ValueError) as info:  # and check_value, asked of this saver, says so before any run
            ckpt.check_value(Colour.RED, "bulk", saver)
        assert str(info.value).startswith("bulk of type Colour cannot be read back by the saver: cannot store a value "
                                          f"naming {HERE}.Colour"), info.value
    with store.plain() as plain:
        try:
            app = ckpt.build_graph(plain)
            assert app.invoke(inputs, config)["score"] == 5
            back = app.get_state(config).values["bulk"]  # SQLite builds the Colour; PostgreSQL keeps a str as jsonb
            assert (type(back), back) == (Colour if store.kind == "sqlite" else str, "red"), back
        finally:
            plain.delete_thread(config["configurable"]["thread_id"])


ACCEPTED = {  # the values the lab's guards accept: what a fork writes into "bulk"
    "str": "가을 하늘 🍂 " * 40, "bytes": b"\x00\xff raw", "dict": {"b": [1, 2], "a": "가"},
    "list": [1, "가", None, 2.5], "int": 42, "naive datetime": datetime.datetime(2024, 10, 3, 9, 30, 15),
    "set of ints": {3, 1, 2}, "tuple": (1, "가"), "NUL, NaN and infinity inside": {"k": ["a\x00b", float("nan"), float("inf")]},
}


def lab_json(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")


@pytest.mark.sqlite
@pytest.mark.parametrize("name", list(ACCEPTED))
@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
def test_the_labs_values_come_back_equal_through_agckpts_reader(store, name):
    value = ACCEPTED[name]
    with ckpt.open_saver(store.kind, store.url) as saver:
        app = ckpt.build_graph(saver)
        got = ckpt.fork(app, ckpt.cfg(store.thread), "review", {"bulk": value})
        back = ckpt.history(app, ckpt.cfg(store.thread))[-1].values["bulk"]
    assert lab_json(back) == lab_json(value) == lab_json(got["result"]["bulk"]), back
    with store.plain() as plain:  # and LangGraph's own reader reads the same values
        assert lab_json(ckpt.build_graph(plain).get_state(ckpt.cfg(store.thread)).values["bulk"]) == lab_json(value)


# --- the application's own input: a lone surrogate beside a dict shaped like a constructor

SURROGATE = {"topic": "가을\ud800", "bulk": CONSTRUCTOR}


def test_a_lone_surrogate_sends_the_input_into_json_mode_before_checkpoint_3_and_reading_builds_the_class():
    saver = MemorySaver()
    app = ckpt.build_graph(saver)
    app.invoke(dict(SURROGATE), ckpt.cfg("run-1"))
    made, _ = built(lambda: ckpt.history(app, ckpt.cfg("run-1")))
    mode = saver.serde.dumps_typed(dict(SURROGATE))[0]
    assert (mode, bool(made)) == (("json", True) if CK < (3,) else ("msgpack", False)), (mode, made)


def test_ckpt_invoke_refuses_the_lone_surrogate_before_anything_is_written():
    app = ckpt.build_graph(ckpt.new_saver())
    made, error = built(lambda: ckpt.invoke(app, dict(SURROGATE), ckpt.cfg("run-1")))
    assert made == [] and str(error).startswith('inputs["topic"] cannot be written as JSON: '), error
    assert list(app.get_state_history(ckpt.cfg("run-1"))) == []


# --- the report's measure, against the same things done here with plain LangGraph

def test_reader_demo_reports_what_plain_langgraph_builds_and_what_agckpt_refuses(tmp_path, caplog):
    caplog.set_level("WARNING")
    got = ckpt.reader_demo("가을")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("langgraph")] == []  # kept, not printed
    # its warnings counted as in a report's run: the first reader_demo of a fresh process
    child = subprocess.run([sys.executable, "-c", "import ckpt, json; print(json.dumps(ckpt.reader_demo('가을')['rows']))"],
                           capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert child.returncode == 0, child.stderr
    got["rows"] = json.loads(child.stdout)
    plain = MemorySaver()
    app = ckpt.build_graph(plain)
    app.invoke(dict(SURROGATE), ckpt.cfg("run-1"))
    made, _ = built(lambda: ckpt.history(app, ckpt.cfg("run-1")))
    assert (got["surrogate"]["type"], got["surrogate"]["built"] > 0) == (plain.serde.dumps_typed(SURROGATE)[0], bool(made))
    assert got["surrogate"]["refused"].startswith('ValueError: inputs["topic"] cannot be written as JSON: ')
    if not ckpt.has_backend("sqlite"):
        assert (got["rows"], got["filter"], got["encrypted"]) == (None, None, None)
        return
    store = Sqlite(tmp_path)
    expected, warned = [], []
    for name, (kind, data, named) in rows("FirstMarker", "first_mark").items():
        rewrite(store, "checkpoint", (kind, data))
        caplog.clear()
        expected.append(len(built(lambda: plain_read(store))[0]))
        warned.append(sum(r.name.startswith("langgraph") for r in caplog.records))
    assert [row["default"]["built"] for row in got["rows"]] == expected, got["rows"]
    assert [row["default"]["warned"] for row in got["rows"]] == warned, got["rows"]
    assert [(row["agckpt"]["built"], row["agckpt"]["warned"]) for row in got["rows"]] == [(0, 0)] * 3
    assert all(row["agckpt"]["error"].startswith("ValueError: the sqlite store at '<store>' holds a row agckpt does not "
                                                 "read: thread 'run-1', checkpoint '<checkpoint>': it names ckpt.")
               for row in got["rows"]), got["rows"]


def test_reader_demo_filter_matches_a_plain_sqlite_saver_given_the_same_key():
    got = ckpt.reader_demo("가을")["filter"]
    if got is None:
        assert not ckpt.has_backend("sqlite")
        return
    from langgraph.checkpoint.sqlite import SqliteSaver
    with SqliteSaver.from_conn_string(":memory:") as saver:
        app = ckpt.build_graph(saver)
        for thread in ("a", "b"):
            app.invoke({"topic": "가을"}, ckpt.cfg(thread))
        try:
            other = sum(t.config["configurable"]["thread_id"] == "b" for t in saver.list(ckpt.cfg("a"), filter={got["key"]: None}))
            error = ""
        except ValueError as exc:
            other, error = 0, f"ValueError: {exc}"
    assert (got["other_rows"], got["error"]) == (other, error)
    assert got["other_rows"] == (5 if LG < (1,) else 0), got  # sqlite saver 2.0.11 on 0.2.60; 3.1.2 refuses the key


def test_reader_demo_strict_values_match_a_plain_strict_saver():
    got = ckpt.reader_demo("가을")["strict"]
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    try:
        saver = MemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=None))
    except TypeError:
        assert got is None
        return
    app = ckpt.build_graph(saver)
    app.invoke({"topic": "가을", "bulk": "x"}, ckpt.cfg("t"))
    back = app.get_state(ckpt.cfg("t")).values
    lab = [row for row in got if not row["name"].startswith("bulk (")]
    assert [(row["name"], row["back"], row["same"]) for row in lab] == [(k, type(v).__name__, True) for k, v in back.items()]
    assert [(row["name"], row["back"], row["same"]) for row in got if row["name"].startswith("bulk (")] == [
        ("bulk (datetime)", "datetime", True), ("bulk (marker)", "dict", False)]


class Reversed:
    """A test cipher of this file's own: the bytes reversed (not XOR as the report's): what a cipher covers."""

    def encrypt(self, plaintext):
        return "rev", plaintext[::-1]

    def decrypt(self, name, ciphertext):
        return ciphertext[::-1]


def test_reader_demo_counts_the_rows_that_keep_a_secret_in_plain_bytes_as_the_store_read_directly_shows(tmp_path):
    got = ckpt.reader_demo("가을")["encrypted"]
    if got is None:
        assert not ckpt.has_backend("sqlite")
        return
    from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver
    path, secret = str(tmp_path / "enc.sqlite"), "sk-test-0a1b2c3d"
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False), serde=EncryptedSerializer(Reversed()))
    draft = ckpt.build_graph(saver).invoke({"topic": "가을"}, {"configurable": {"thread_id": "run-1", "api_key": secret}})["draft"]
    with contextlib.closing(sqlite3.connect(path)) as conn:
        cells = [b"|".join(c if isinstance(c, bytes) else str(c).encode() for c in row)
                 for table in ("checkpoints", "writes") for row in conn.execute(f"SELECT * FROM {table}")]
    def holding(text):
        return sum(text.encode() in cell or json.dumps(text)[1:-1].encode() in cell for cell in cells)
    assert (got["rows"], got["config"], got["output"]) == (len(cells), holding(secret), holding(draft)), got
    assert got["config"] > 0, "the config's secret is kept in plain bytes by every line measured"
