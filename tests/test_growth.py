"""What a checkpoint costs as the work grows (issue 19): more nodes, more turns, and the remedies.

Logical figures follow from the lab's own bytes (SPEC 3: 13/32/81/124/149 per checkpoint, a 1,500-byte
value adding 1,512). Physical ones are recounted here from the store itself: the in-memory saver's maps,
the SQLite file, the PostgreSQL tables (the readers copied from tests/test_stored_bytes.py), on every leg
that has the saver.
"""
import contextlib
import json
import sqlite3
import uuid

import pytest

import ckpt
from conftest import CK, LG

TOPIC, PAYLOAD = "가을", "x" * 1500
THIN = [13, 32, 81, 124, 149]  # the lab's checkpoints without "bulk", oldest first
CARRIED = 1500 + 12  # what a checkpoint carrying the payload adds: the value and `, "bulk": ""`
NOTES = ["plan:가을", "write:기본", "review:5"]  # what one run adds to `notes`
BLOBS = CK >= (2, 0, 22)  # the in-memory saver keeps channel values apart, once per version (else whole checkpoints)
# Whole copies of the payload stored by the lab's three nodes (tests/test_stored_bytes.py says where each sits).
COPIES = {"memory": 3 if LG >= (1, 0) else 4 if BLOBS else 7, "sqlite": 6 if LG >= (1, 0) else 7, "postgres": 6}


def as_bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")


def memory_values(saver, thread_id):
    """Every stored bytes value of one thread, read from InMemorySaver's maps."""
    for (checkpoint, metadata, _parent) in saver.storage.get(thread_id, {}).get("", {}).values():
        yield checkpoint[1]
        yield metadata[1]
    for key, (_type, blob) in getattr(saver, "blobs", {}).items():
        if key[0] == thread_id:
            yield blob
    for key, by_task in saver.writes.items():
        if key[0] == thread_id:
            for write in by_task.values():
                yield write[2][1]


def sqlite_values(path, thread_id):
    """Every stored checkpoint, metadata and write value of one thread, read from the file."""
    with sqlite3.connect(path) as conn:
        for row in conn.execute("SELECT checkpoint, metadata FROM checkpoints WHERE thread_id = ?", (thread_id,)):
            yield from map(as_bytes, row)
        for (value,) in conn.execute("SELECT value FROM writes WHERE thread_id = ?", (thread_id,)):
            yield as_bytes(value)


def postgres_values(url, thread_id):
    """Every stored value of one thread as PostgreSQL gives it back (jsonb as text)."""
    import psycopg

    with psycopg.connect(url) as conn:
        for sql in ("SELECT checkpoint::text, metadata::text FROM checkpoints WHERE thread_id = %s",
                    "SELECT blob FROM checkpoint_blobs WHERE thread_id = %s",
                    "SELECT blob FROM checkpoint_writes WHERE thread_id = %s"):
            for row in conn.execute(sql, (thread_id,)).fetchall():
                yield from map(as_bytes, row)


def sqlite_path(saver):
    return saver.conn.execute("PRAGMA database_list").fetchall()[0][2]


def store_values(backend, saver, thread_id, url=None):
    """The thread's stored values, read from the store behind `saver`."""
    if backend == "memory":
        return list(memory_values(saver, thread_id))
    if backend == "sqlite":
        return list(sqlite_values(sqlite_path(saver), thread_id))
    return list(postgres_values(url, thread_id))


def recounted(monkeypatch, backend, url=None, payload=None):
    """Make every ckpt.stored_bytes call also recount the store it reads: [(its total, the recount's total,
    whole copies of `payload` found), ...] in call order."""
    seen, real = [], ckpt.stored_bytes

    def spy(saver, thread_id=None, compressed=False):
        got = real(saver, thread_id, compressed)
        values = store_values(backend, saver, thread_id if thread_id is not None else "run-1", url)
        needle = (payload or "\0").encode("utf-8")
        seen.append((got["total"], sum(map(len, values)), sum(v.count(needle) for v in values)))
        return got

    monkeypatch.setattr(ckpt, "stored_bytes", spy)
    return seen


def state_bytes(values):
    """The lab's formula for a state's bytes, written out here."""
    return len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))


BACKENDS = ["memory", pytest.param("sqlite", marks=pytest.mark.sqlite), pytest.param("postgres", marks=pytest.mark.postgres)]


def url_for(request, backend):
    return request.getfixturevalue("pg_url") if backend == "postgres" else None


# --- more nodes: pass-through steps between write and review


@pytest.mark.parametrize("nodes", [3, 10, 30])
def test_a_longer_chain_carries_the_value_in_one_more_checkpoint_per_node(nodes):
    """A pass-through checkpoint holds the state after write (124 bytes); each one after the input carries
    the payload: n + 2 checkpoints, n + 1 carrying."""
    thin = sum(THIN) + (nodes - 3) * THIN[3]
    row = ckpt.physical_vs_logical(TOPIC, PAYLOAD, backends=["memory"], nodes=nodes)[0]
    assert (row["checkpoints"], row["payload_bytes"]) == (nodes + 2, 1500), row
    assert row["logical"] == {"thin": thin, "fat": thin + (nodes + 1) * CARRIED, "carrying": nodes + 1,
                              "difference": (nodes + 1) * CARRIED,
                              "copies": round((nodes + 1) * CARRIED / 1500, 2)}, row["logical"]
    assert [row["checkpoints"], row["logical"]["carrying"]] == {3: [5, 4], 10: [12, 11], 30: [32, 31]}[nodes]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("nodes", [3, 10, 30])
def test_physical_copies_of_a_chain_are_what_the_store_holds(request, tmp_path, backend, nodes):
    """Stored bytes and copies recounted from the store; whole copies of the payload found there: the in-memory
    saver with a blobs map keeps the unchanged value once whatever the chain's length, the others once per
    checkpoint that carries it."""
    url = url_for(request, backend)
    where = {"memory": None, "sqlite": str(tmp_path / "chain.sqlite"), "postgres": url}[backend]
    prefix = f"chain-{uuid.uuid4().hex}"
    with ckpt.open_saver(backend, where) as saver:
        try:
            got = ckpt.weigh_stored(saver, TOPIC, PAYLOAD, prefix, nodes)
            fat, thin = (store_values(backend, saver, f"{prefix}-{name}", url) for name in ("fat", "thin"))
        finally:
            if backend == "postgres":
                for name in ("thin", "fat"):
                    saver.delete_thread(f"{prefix}-{name}")
    difference = sum(map(len, fat)) - sum(map(len, thin))
    assert (got["stored"]["fat"]["total"], got["stored"]["thin"]["total"]) == (sum(map(len, fat)), sum(map(len, thin)))
    assert (got["stored"]["difference"], got["stored"]["copies"]) == (difference, round(difference / 1500, 2)), got
    whole = sum(value.count(PAYLOAD.encode()) for value in fat)
    grows = backend != "memory" or not BLOBS
    assert whole == COPIES[backend] + (nodes - 3) * grows, (backend, nodes, whole)


def test_physical_vs_logical_measures_the_chain_it_is_asked_for():
    """Its memory row for 30 nodes is weigh_stored's on a new saver (versions are seeded: the same bytes)."""
    row = ckpt.physical_vs_logical(TOPIC, PAYLOAD, backends=["memory"], nodes=30)[0]
    saver = ckpt.new_saver()
    again = ckpt.weigh_stored(saver, TOPIC, PAYLOAD, nodes=30)
    assert dict(again, backend="memory") == row
    assert again["stored"]["fat"]["total"] == sum(map(len, memory_values(saver, "weigh-fat")))


# --- more turns: one thread run again and again


@pytest.mark.parametrize("backend", BACKENDS)
def test_turn_bytes_are_what_the_store_holds_after_each_turn(request, monkeypatch, backend):
    url = url_for(request, backend)
    seen = recounted(monkeypatch, backend, url)
    rows = ckpt.turn_bytes(TOPIC, 5, backend, url)
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("turns")
    states = [state_bytes(app.invoke({"topic": TOPIC}, config)) for _ in range(5)]
    assert [row["turn"] for row in rows] == [1, 2, 3, 4, 5]
    assert [row["stored"] for row in rows] == [total for _, total, _ in seen] == [own for own, _, _ in seen]
    assert [row["notes"] for row in rows] == [state_bytes(NOTES * turn) for turn in range(1, 6)], rows
    assert [row["state"] for row in rows] == states, rows
    assert {row["state"] - row["notes"] for row in rows} == {THIN[-1] - state_bytes(NOTES)}  # only notes grows
    added = [b["stored"] - a["stored"] for a, b in zip(rows, rows[1:])]
    assert added == sorted(set(added)), added  # each turn adds more than the one before


@pytest.mark.parametrize("backend", [pytest.param("sqlite", marks=pytest.mark.sqlite),
                                     pytest.param("postgres", marks=pytest.mark.postgres)])
def test_turn_bytes_leaves_no_thread_in_a_store_it_is_given(request, tmp_path, monkeypatch, backend):
    url = str(tmp_path / "given.sqlite") if backend == "sqlite" else request.getfixturevalue("pg_url")
    monkeypatch.setattr(ckpt.uuid, "uuid4", lambda: uuid.UUID(int=0xA6C))  # the thread it names: turns-000000000000
    sql = "SELECT count(*) FROM checkpoints WHERE thread_id = 'turns-000000000000'"
    rows = ckpt.turn_bytes(TOPIC, 2, backend, url)
    if backend == "sqlite":  # the store read directly
        with contextlib.closing(sqlite3.connect(url)) as conn:
            left = conn.execute(sql).fetchone()[0]
    else:
        import psycopg
        with psycopg.connect(url) as conn:
            left = conn.execute(sql).fetchone()[0]
    assert (len(rows), left) == (2, 0)


def test_deltachannel_is_refused_before_1_2_and_measured_from_it(monkeypatch):
    import langgraph.channels

    assert hasattr(langgraph.channels, "DeltaChannel") == (LG >= (1, 2))
    if LG < (1, 2):
        with pytest.raises(ImportError, match=r"^DeltaChannel needs langgraph >= 1\.2\.0; the installed one is "
                                              + ckpt.langgraph_version().replace(".", r"\.") + "$"):
            ckpt.turn_bytes(TOPIC, 2, delta=True)
        return
    seen = recounted(monkeypatch, "memory")
    delta = ckpt.turn_bytes(TOPIC, 12, delta=True)
    assert [row["stored"] for row in delta] == [total for _, total, _ in seen]
    plain = ckpt.turn_bytes(TOPIC, 12)
    assert [(r["notes"], r["state"]) for r in delta] == [(r["notes"], r["state"]) for r in plain]
    assert [r["notes"] for r in delta] == [state_bytes(NOTES * turn) for turn in range(1, 13)]
    assert delta[-1]["stored"] - delta[-2]["stored"] < plain[-1]["stored"] - plain[-2]["stored"], (delta, plain)
    # LangGraph's own counter of updates since the last full snapshot: 3 a turn (plan, write, review)
    assert [r["since_snapshot"] for r in delta] == [3 * turn for turn in range(1, 13)], delta
    assert "since_snapshot" not in plain[0]


def test_deltachannel_writes_a_full_snapshot_at_its_snapshot_frequency():
    import langgraph.channels
    if LG < (1, 2):  # no DeltaChannel, so no snapshot to find (the test above pins turn_bytes' refusal)
        assert not hasattr(langgraph.channels, "DeltaChannel")
        return
    from langgraph.channels import DeltaChannel
    every = DeltaChannel(lambda notes, writes: notes).snapshot_frequency  # LangGraph's default
    rows = ckpt.turn_bytes(TOPIC, 40, delta=True)
    first = (every + 2) // 3  # the turn whose three updates of notes reach it
    assert [r["turn"] for r in rows if r["since_snapshot"] < 3 * (r["turn"] - 1) and r["since_snapshot"] <= 3] == [first]
    assert rows[first - 1]["since_snapshot"] == 3 * first - every, rows[first - 1]


# --- the large value outside the state, a pointer inside


def test_pointer_bytes_against_plain_runs(monkeypatch):
    payload = "가" * 500  # 1,500 bytes in UTF-8
    seen = recounted(monkeypatch, "memory", payload=payload)
    got = ckpt.pointer_bytes(TOPIC, payload)
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("plain")
    app.invoke({"topic": TOPIC, "bulk": payload}, config)
    plain = [state_bytes(s.values) for s in reversed(list(app.get_state_history(config)))]
    assert got["in_state"]["checkpoints"] == plain == [THIN[0]] + [b + CARRIED for b in THIN[1:]], got
    key = {p - t for p, t in zip(got["pointer"]["checkpoints"][1:], THIN[1:])}
    assert got["pointer"]["checkpoints"][0] == THIN[0] and len(key) == 1 and 0 < key.pop() < 100, got
    (in_state, in_state_again, in_copies), (pointer, pointer_again, pointer_copies) = seen
    assert (got["in_state"]["stored"], got["pointer"]["stored"]) == (in_state_again, pointer_again)
    assert (in_copies, pointer_copies) == (COPIES["memory"], 0)  # the pointer run's saver holds no copy
    assert got["pointer"]["store"] == 1500


def _pointer_thread(store, value):
    """One run with the value in `store` and only its key in "bulk"."""
    store.put(("bulk",), TOPIC, {"value": value})
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("t")
    app.invoke({"topic": TOPIC, "bulk": f"store:bulk/{TOPIC}"}, config)
    return app, config


def test_a_replay_or_a_fork_does_not_bring_back_a_value_kept_in_a_store():
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    app, config = _pointer_thread(store, "첫 값")
    store.put(("bulk",), TOPIC, {"value": "바뀐 값"})
    ckpt.replay(app, config, "write")
    branch = ckpt.fork(app, config, "write", {"angle": "비교"})
    for values in (app.get_state(config).values, branch["result"]):
        assert values["bulk"] == f"store:bulk/{TOPIC}", values  # the key only: the store says what it means now
    assert store.get(("bulk",), TOPIC).value == {"value": "바뀐 값"}
    held = b"".join(memory_values(app.checkpointer, "t"))
    assert "첫 값".encode() not in held and "바뀐 값".encode() not in held


def test_deleting_the_thread_leaves_the_value_in_the_store():
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    app, config = _pointer_thread(store, "값")
    if hasattr(app.checkpointer, "delete_thread"):
        app.checkpointer.delete_thread("t")
        assert ckpt.history_len(app, config) == 0
    else:  # langgraph-checkpoint 2.0.4 (the pod): no delete_thread; drop the saver instead
        assert CK < (2, 0, 22)
    assert store.get(("bulk",), TOPIC).value == {"value": "값"}


# --- deleting and pruning


@pytest.mark.parametrize("backend", BACKENDS)
def test_pruning_and_deleting_free_what_the_store_says(request, monkeypatch, backend):
    url = url_for(request, backend)
    seen = recounted(monkeypatch, backend, url)
    got = ckpt.pruning(TOPIC, backend, url)
    assert (got["checkpoints"], got["stored"]) == (10, seen[0][1]), got  # two runs of five
    prunes = LG >= (1, 0) and backend == "postgres"  # langgraph-checkpoint-postgres 3.2 implements prune
    assert got["prune"] == ("" if prunes else "NotImplementedError" if LG >= (1, 0) else "AttributeError"), got
    if prunes:
        assert got["after_prune"]["checkpoints"] == 1 and got["after_prune"]["stored"] == seen[1][1], got
        assert got["after_prune"]["stored"] < got["stored"]
        assert (got["after_prune"]["old_values"], got["after_prune"]["old_invoke"]) == pruned_point(url), got
    else:
        assert got["after_prune"] is None, got
    deletes = backend != "memory" or CK >= (2, 0, 22)
    held = {k: v for k, v in (got["after_delete"] or {}).items() if k in ("checkpoints", "stored")}
    assert held == ({"checkpoints": 0, "stored": seen[-1][1]} if deletes else {}), got
    assert (seen[-1][1] == 0) == deletes
    if backend == "sqlite":  # the file keeps its size after delete_thread; VACUUM gives the free pages back
        before, deleted, vacuumed = got, got["after_delete"], got["after_vacuum"]
        assert deleted["file_bytes"] == before["file_bytes"] and deleted["free_pages"] > before["free_pages"] == 0, got
        assert vacuumed["file_bytes"] < deleted["file_bytes"] and vacuumed["free_pages"] == 0, got
    else:
        assert got["after_vacuum"] is None and "file_bytes" not in got, got


def pruned_point(url):
    """Plain LangGraph on PostgreSQL: a point kept from before prune(keep_latest), read and run after it."""
    from langgraph.checkpoint.postgres import PostgresSaver
    with PostgresSaver.from_conn_string(url) as saver:
        app, config = ckpt.build_graph(saver), {"configurable": {"thread_id": f"plain-prune-{uuid.uuid4().hex}"}}
        for _ in range(2):
            app.invoke({"topic": TOPIC}, config)
        old = next(s for s in app.get_state_history(config) if s.next == ("write",)).config
        saver.prune([config["configurable"]["thread_id"]], strategy="keep_latest")
        try:
            app.invoke(None, old)
            ran = "ran"
        except Exception as exc:
            ran = type(exc).__name__
        values = dict(app.get_state(old).values)
        saver.delete_thread(config["configurable"]["thread_id"])
    return values, ran
