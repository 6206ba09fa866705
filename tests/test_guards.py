"""What the lab's functions refuse: one test per guard, over a table of inputs.

Each asserts the error, the name it carries (the parameter, the key, the path inside a value)
and that nothing was written: the thread's checkpoint ids stay as they were, or no graph was
compiled at all. Next to them, plain LangGraph without the guard, measured on each line: the
value it stores changed, the thread it leaves half-written, the id it reads nothing back for.
"""
import collections
import dataclasses
import datetime
import enum
import fractions
import json
from unittest import mock

import pydantic
import pytest
from langgraph.checkpoint.memory import MemorySaver

import ckpt
from conftest import CK, LG

OLD = LG < (1,)  # langgraph 0.2.60: what its serializer cannot rebuild comes back None
SHAPE = 'config must be {"configurable": {"thread_id": ...}}, optionally with "checkpoint_ns" and "checkpoint_id"'


def lab_json(value):
    """The lab's JSON, typed out from the lab sheet: the three arguments, UTF-8."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")


def ids(app, config):
    return [s.config["configurable"]["checkpoint_id"] for s in app.get_state_history(config)]


def refused(app, config, error, call):
    """call() raises `error`; the thread's checkpoint ids are unchanged. Returns the message."""
    before = ids(app, config)
    with pytest.raises(error) as info:
        call()
    assert ids(app, config) == before, str(info.value)
    return str(info.value)


@pytest.fixture
def no_graph():
    """Compiling any graph fails the test: a refusal must come before a measure builds one."""
    with mock.patch.object(ckpt.StateGraph, "compile", side_effect=AssertionError("a graph was compiled")):
        yield


def test_the_compile_spy_stops_a_measure_that_runs(no_graph):
    with pytest.raises(AssertionError, match="a graph was compiled"):
        ckpt.weigh("가을", "x" * 300)


def plain_update(app, config, node, values):
    """Plain LangGraph: update_state at the point before `node`, then invoke with its config."""
    snap = next(s for s in app.get_state_history(config) if s.next == (node,))
    return app.invoke(None, app.update_state(snap.config, values))


# --- build_graph: anything but a saver


@pytest.mark.parametrize("checkpointer, shown, hint", [
    (42, "int", False), (ckpt.new_saver, "function", False), ("memory", "str", False),
    (ckpt.open_saver("memory"), "_GeneratorContextManager", True),
])
def test_build_graph_refuses_what_is_not_a_saver(checkpointer, shown, hint):
    with pytest.raises(TypeError) as info:
        ckpt.build_graph(checkpointer)
    assert str(info.value).startswith(f"checkpointer must be None or a saver such as new_saver(), got {shown}")
    assert ("use `with ckpt.open_saver(...) as saver:`" in str(info.value)) == hint, info.value


# --- cfg: a thread id LangGraph saves under and reads nothing back for


@pytest.mark.parametrize("thread_id, error", [(None, TypeError), (0, ValueError), (False, ValueError),
                                              (0.0, ValueError), (float("nan"), ValueError)])
def test_cfg_refuses_a_thread_id_langgraph_loses(thread_id, error):
    with pytest.raises(error) as info:
        ckpt.cfg(thread_id)
    assert str(info.value) == f'thread_id must not be {thread_id!r}: LangGraph reads nothing back for it; name it, ' \
                              'e.g. cfg("run-1")', info.value


@pytest.mark.parametrize("thread_id", [0, False, 0.0])
def test_without_the_check_langgraph_1_reads_nothing_back_for_a_false_thread_id(thread_id):
    app, config = ckpt.build_graph(ckpt.new_saver()), {"configurable": {"thread_id": thread_id}}
    app.invoke({"topic": "가을"}, config)
    notes = app.invoke({"topic": "가을"}, config)["notes"]
    # measured: 1.x runs on (the second run carries 6 notes) and lists nothing; 0.2.60 lists both runs
    assert (len(notes), len(list(app.get_state_history(config)))) == (6, 0 if LG >= (1,) else 10)


def test_without_the_check_langgraph_0_2_60_reads_nothing_back_through_another_nan():
    app = ckpt.build_graph(ckpt.new_saver())
    app.invoke({"topic": "가을"}, {"configurable": {"thread_id": float("nan")}})
    again = {"configurable": {"thread_id": float("nan")}}  # another nan, as cfg(float("nan")) makes each time
    # measured: 1.x keeps the id as the str "nan" (one thread, 5 checkpoints); 0.2.60 keys its dict by the float
    assert len(list(app.get_state_history(again))) == (5 if LG >= (1,) else 0)


@pytest.mark.parametrize("thread_id", [1, "run-1", "", "0", True, [1]])  # a list: LangGraph's own error on 0.2.60
def test_cfg_passes_any_other_thread_id_on_as_given(thread_id):
    assert ckpt.cfg(thread_id) == {"configurable": {"thread_id": thread_id}}


# --- the readers: a config of another shape, or naming a point the thread does not have

READERS = {
    "history": lambda app, c: ckpt.history(app, c), "history_len": lambda app, c: ckpt.history_len(app, c),
    "pending": lambda app, c: ckpt.pending(app, c), "snapshot_before": lambda app, c: ckpt.snapshot_before(app, c, "write"),
    "history_bytes": lambda app, c: ckpt.history_bytes(app, c), "replay": lambda app, c: ckpt.replay(app, c, "write"),
    "fork": lambda app, c: ckpt.fork(app, c, "write", {"angle": "요약"}), "anatomy": lambda app, c: ckpt.anatomy(app, c),
}
CONFIGS = [  # (config, the end of the message)
    ({"configurable": {}}, "got {'configurable': {}}"),
    ({"configurable": {"thread_id": None}}, "got {'configurable': {'thread_id': None}}"),
    ({"thread_id": "t1"}, "got {'thread_id': 't1'}"), ("t1", "got 't1'"), (None, "got None"),
    ({"configurable": {"thread_id": "t1", "checkpoint_id": "1f0-not-there"}},
     "config names a point that thread 't1' does not have: checkpoint_ns '', checkpoint_id '1f0-not-there'"),
    ({"configurable": {"thread_id": "t1", "checkpoint_ns": "ghost"}},
     "Subgraph ghost not found" if OLD else  # 0.2.60 refuses a namespace itself (its own ValueError)
     "config names a point that thread 't1' does not have: checkpoint_ns 'ghost', checkpoint_id None"),
]


@pytest.mark.parametrize("name", list(READERS))
@pytest.mark.parametrize("config, said", CONFIGS, ids=[repr(c) for c, _ in CONFIGS])
def test_a_reader_refuses_a_config_of_another_shape_or_naming_a_point_the_thread_lacks(ran, name, config, said):
    # without the check: KeyError 'thread_id' deep inside LangGraph, or an empty answer as for an empty thread
    app, thread = ran
    message = refused(app, thread, ValueError, lambda: READERS[name](app, config))
    if said.startswith("got "):
        assert message == f"{SHAPE} (see cfg()), {said}", message
    else:
        assert message == said, message


def test_without_the_check_langgraph_lists_nothing_for_a_checkpoint_the_thread_lacks(ran):
    app, _ = ran
    assert list(app.get_state_history({"configurable": {"thread_id": "t1", "checkpoint_id": "1f0-not-there"}})) == []
    with pytest.raises(KeyError):
        list(app.get_state_history({"configurable": {}}))


# --- replay and fork: a node with no point before it

NO_POINT = [  # (thread, config maker, node, the end of the message)
    ("t1", lambda app: ckpt.cfg("t1"), "nope",
     "the nodes that have one are ['__start__', 'plan', 'review', 'write']"),
    ("t1", lambda app: ckpt.cfg("nobody"), "write", "the thread has no history"),
    ("t1", lambda app: app.get_state(ckpt.cfg("t1")).config, "review", "no checkpoint it lists is before a single node"),
    ("t1", lambda app: list(app.get_state_history(ckpt.cfg("t1")))[1].config, "write", "the nodes that have one are ['review']"),
]


@pytest.mark.parametrize("do_fork", [False, True], ids=["replay", "fork"])
@pytest.mark.parametrize("thread, config, node, said", NO_POINT, ids=[row[3][:30] for row in NO_POINT])
def test_replay_and_fork_refuse_a_node_with_no_point_naming_the_nodes_that_have_one(ran, do_fork, thread, config,
                                                                                     node, said):
    app, _ = ran
    call = ((lambda: ckpt.fork(app, config(app), node, {"angle": "요약"})) if do_fork
            else (lambda: ckpt.replay(app, config(app), node)))
    if do_fork and node == "nope":
        said = None  # fork names the graph's nodes first (below)
    message = refused(app, ckpt.cfg(thread), ValueError, call)
    if said:
        assert message == f"node {node!r} has no point in this config's history: {said}", message


@pytest.mark.parametrize("node", ["__start__", "nope", "END"])
def test_fork_refuses_a_node_that_is_not_one_of_the_graphs_nodes(ran, node):
    # without it LangGraph writes the point before "__start__" and the run ends without its topic (README)
    app, config = ran
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, node, {"angle": "요약"}))
    assert message == f"node must be one of ['plan', 'write', 'review'], got {node!r}", message


# --- fork's values and invoke's inputs: State keys of the types the nodes take, an angle in ANGLES

BAD_VALUES = [  # (values, error, the start of the message, after "values" or "inputs")
    (["angle", "요약"], TypeError, " must be a dict of State keys, got list"),
    ({"colour": "red"}, ValueError, " has keys that are not State keys: ['colour']"),
    ({"score": "abc"}, TypeError, '["score"] must be int'), ({"score": True}, TypeError, '["score"] must be int'),
    ({"draft": 7}, TypeError, '["draft"] must be str'), ({"topic": 42}, TypeError, '["topic"] must be str'),
    ({"angle": ["요약"]}, TypeError, '["angle"] must be str'), ({"notes": "abc"}, TypeError, '["notes"] must be a list of str'),
    ({"notes": [1, 2]}, TypeError, '["notes"] must be a list of str'),
    ({"angle": "없음"}, ValueError, "angle must be one of ['기본', '요약', '비교'], got '없음'"),
    ({"bulk": {(1, 2), (3, 4)}}, ValueError, '["bulk"] of type set comes back from the saver as '),
]


@pytest.mark.parametrize("values, error, said", BAD_VALUES, ids=[repr(v)[:30] for v, _, _ in BAD_VALUES])
def test_fork_refuses_values_the_nodes_cannot_run_on(ran, values, error, said):
    app, config = ran
    message = refused(app, config, error, lambda: ckpt.fork(app, config, "review", values))
    assert message.startswith(said if said.startswith("angle") else "values" + said), message


@pytest.mark.parametrize("values, error, said", BAD_VALUES, ids=[repr(v)[:30] for v, _, _ in BAD_VALUES])
def test_invoke_refuses_what_fork_refuses_before_anything_is_written(app, values, error, said):
    inputs = dict(values, topic=values.get("topic", "t")) if isinstance(values, dict) else values
    message = refused(app, ckpt.cfg("t1"), error, lambda: ckpt.invoke(app, inputs, ckpt.cfg("t1")))
    assert message.startswith(said if said.startswith("angle") else "inputs" + said), message
    assert ids(app, ckpt.cfg("t1")) == []


@pytest.mark.parametrize("inputs, kept", [({"topic": "t", "angle": "없음"}, 3), ({"topic": "t", "notes": "abc"}, 1)])
def test_without_the_check_langgraph_writes_checkpoints_and_fails_later_inside_a_run(app, inputs, kept):
    with pytest.raises(Exception):
        app.invoke(inputs, ckpt.cfg("t1"))
    assert len(ids(app, ckpt.cfg("t1"))) == kept


# --- the measures: what they cannot honour


MEASURES = {  # name -> (call, error, what the message holds)
    "weigh topic": (lambda: ckpt.weigh(42, "x" * 300), TypeError, "topic must be a str, got int"),
    "lost_demo topic": (lambda: ckpt.lost_demo(None), TypeError, "topic must be a str, got NoneType"),
    "other topic": (lambda: ckpt.rerun_with_input("가을", 2), TypeError, "topic must be a str, got int"),
    "empty str": (lambda: ckpt.weigh("가을", ""), ValueError, "payload must be a non-empty value"),
    "empty bytes": (lambda: ckpt.weigh("가을", b""), ValueError, "payload must be a non-empty value"),
    "empty list": (lambda: ckpt.weigh("가을", []), ValueError, "payload must be a non-empty value"),
    "empty dict": (lambda: ckpt.weigh("가을", {}), ValueError, "payload must be a non-empty value"),
    "None": (lambda: ckpt.weigh("가을", None), ValueError, "payload must be a non-empty value"),
    "first_run empty": (lambda: ckpt.first_run("가을", ""), ValueError, "payload must be a non-empty value"),
    "0 nodes": (lambda: ckpt.physical_vs_logical("가을", "x" * 300, ["memory"], nodes=0), ValueError,
                "nodes must be an int >= 3 and turns an int >= 0, got 0 and 0"),
    "2 nodes": (lambda: ckpt.physical_vs_logical("가을", "x" * 300, ["memory"], nodes=2), ValueError, "got 2 and 0"),
    "1 node": (lambda: ckpt.weigh_stored(ckpt.new_saver(), "가을", "x" * 300, nodes=1), ValueError, "got 1 and 0"),
    "-1 turns": (lambda: ckpt.turn_bytes("가을", -1), ValueError, "got 3 and -1"),
    "update angle": (lambda: ckpt.update_state_demo("가을", "없음"), ValueError, "angle must be one of"),
    "fork angle": (lambda: ckpt.fork_demo("가을", "긴글"), ValueError, "angle must be one of"),
    "tree angle": (lambda: ckpt.time_travel_tree("가을", ["비교"]), ValueError, "angle must be one of"),
    "Fraction": (lambda: ckpt.weigh("가을", fractions.Fraction(1, 3)), TypeError,
                 "payload of type Fraction cannot be serialized by the saver: "),
    "int beyond 64 bits": (lambda: ckpt.weigh("가을", {"가": {"나": 2 ** 70}}), TypeError,
                           'payload["가"]["나"] of type int cannot be serialized by the saver: '),
    "surrogate payload": (lambda: ckpt.weigh("가을", "x" * 300 + "\ud800"), ValueError, "payload cannot be written as JSON: "),
    "surrogate topic": (lambda: ckpt.weigh("가\ud83d", "x" * 300), ValueError, "topic cannot be written as JSON: "),
}


@pytest.mark.parametrize("name", list(MEASURES))
def test_a_measure_refuses_what_it_cannot_honour_before_any_graph_is_built(no_graph, name):
    # without it: nodes=0 measured the 3-node chain, turns=-1 gave [], any angle was recorded
    call, error, said = MEASURES[name]
    with pytest.raises(error) as info:
        call()
    assert said in str(info.value), info.value


# --- the one rule for values: the app's saver gives it back as it went in, or it is refused


class Holder:
    class Colour(enum.Enum):  # an Enum nested in a class: the serializer finds no top-level name
        A = "a"


def local_point():
    @dataclasses.dataclass
    class Point:  # defined inside a function: nothing can import it back
        x: int
        y: int
    return Point(1, 2)


class Model(pydantic.BaseModel):  # a top-level pydantic model: the default serializer rebuilds it
    a: int = 1


def savers():
    """The in-memory savers this line can build: the default, an allowlist, a pickle fallback."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    found = {"default": ckpt.new_saver()}
    for name, option in (("allowlist", {"allowed_msgpack_modules": [("datetime", "datetime")]}),
                         ("pickle", {"pickle_fallback": True})):
        try:
            found[name] = MemorySaver(serde=JsonPlusSerializer(**option))
        except TypeError:  # an option this line's serializer does not have
            pass
    return found


BLOBS = CK >= (2, 0, 22)  # from langgraph-checkpoint 2.0.22 the in-memory saver keeps each value alone
CHANGED = {  # value -> what the default in-memory saver of the installed line gives back (measured), or None
    "set of tuples": ({(1, 2), (3, 4)}, "None" if OLD else "a list: [[1, 2], [3, 4]]"),
    "nested Enum": (Holder.Colour.A, "None" if OLD else "a str: 'a'"),
    "local dataclass": (local_point(), "None" if OLD else "a dict: {'x': 1, 'y': 2}"),
    "deque with maxlen": (collections.deque([1, 2, 3], maxlen=3), "deque([1, 2, 3])"),
    "bytearray": (bytearray(b"ab"), None if BLOBS else "a bytes: b'ab'"),
    "Fraction": (fractions.Fraction(1, 3), "cannot be serialized"),
    "pydantic model": (Model(), None),
}


@pytest.mark.parametrize("saver", list(savers()))
@pytest.mark.parametrize("name", list(CHANGED))
def test_check_value_asks_the_apps_own_saver_and_agrees_with_plain_langgraph(saver, name):
    """The same value through plain update_state and invoke on the same kind of saver: refused exactly when
    plain LangGraph gives it back changed (or cannot write it at all)."""
    value, app = CHANGED[name][0], ckpt.build_graph(savers()[saver])
    app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    try:
        back = plain_update(app, ckpt.cfg("t1"), "review", {"bulk": value}).get("bulk")  # 0.2.60 drops a None
        plain = "kept" if lab_json(back) == lab_json(value) else f"changed: {back!r}"
    except TypeError as exc:
        plain = f"cannot be serialized: {exc}"
    fresh = ckpt.build_graph(savers()[saver])
    fresh.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    try:
        ckpt.fork(fresh, ckpt.cfg("t1"), "review", {"bulk": value})
        ours = "kept"
    except (TypeError, ValueError) as exc:
        ours = str(exc)
    assert (ours == "kept") == (plain == "kept"), (ours, plain)
    if saver == "default" and CHANGED[name][1]:
        assert CHANGED[name][1] in ours, ours


def test_an_allowlist_saver_gives_a_model_back_as_a_dict_and_the_fork_is_refused():
    if "allowlist" not in savers():  # langgraph-checkpoint before 3.0 has no allowlist: the default rebuilds it
        assert ckpt.check_value(Model(), "payload") is None
        return
    with pytest.raises(ValueError) as info:
        ckpt.check_value(Model(), "payload", savers()["allowlist"])
    assert str(info.value) == "payload of type Model comes back from the saver as a dict: {'a': 1}"


@pytest.mark.parametrize("values, error, start", [
    ({"bulk": {"k": [1, 2 ** 64]}}, TypeError, 'values["bulk"]["k"][1] of type int cannot be serialized by the saver: '),
    ({"bulk": [fractions.Fraction(1, 3), 2 ** 64]}, TypeError,
     'values["bulk"][0] of type Fraction cannot be serialized by the saver: '),
    ({"notes": ["ok", "가\udc00"]}, ValueError, 'values["notes"][1] cannot be written as JSON: '),
    ({"bulk": {1: "a", "b": 2}}, TypeError, 'values["bulk"] cannot be written as JSON: '),
    ({"bulk": {"k": [1, {(1, 2), (3, 4)}]}}, ValueError, 'values["bulk"]["k"][1] of type set comes back from the saver as '),
    ({"bulk": Holder.Colour.A}, ValueError, 'values["bulk"] of type Colour comes back from the saver as '),
    ({"bulk": {"k": bytearray(b"ab")}}, ValueError, 'values["bulk"]["k"] of type bytearray comes back from the saver as '
                                                    "a bytes: b'ab'"),
], ids=["int beyond 64 bits", "Fraction first", "lone surrogate", "keys json cannot sort", "deep set", "enum",
        "bytearray inside"])
def test_fork_names_the_first_part_the_saver_cannot_keep(ran, values, error, start):
    app, config = ran
    message = refused(app, config, error, lambda: ckpt.fork(app, config, "review", values))
    assert message.startswith(start), message


def test_fork_refuses_a_value_that_contains_itself(ran):
    app, config = ran
    loop = []
    loop.append(loop)
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "review", {"bulk": [loop]}))
    assert message == 'values["bulk"][0] cannot be written as JSON: Circular reference detected', message


ACCEPTED = {
    "str": "가을 하늘 🍂 " * 40, "bytes": b"\x00\xff raw", "dict": {"b": [1, 2], "a": "가"},
    "list": [1, "가", None, 2.5], "int": 42, "naive datetime": datetime.datetime(2024, 10, 3, 9, 30, 15),
    "set of ints": {3, 1, 2}, "tuple": (1, "가"),  # a tuple comes back a list: the same JSON
    "NUL, NaN and infinity inside": {"k": ["a\x00b", float("nan"), float("inf")]},
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_fork_accepts_a_value_stored_as_it_is_as_plain_update_state_does(name):
    value, config = ACCEPTED[name], ckpt.cfg("t1")
    apps = [ckpt.build_graph(ckpt.new_saver()) for _ in range(2)]
    for app in apps:
        app.invoke({"topic": "가을"}, config)
    got, plain = ckpt.fork(apps[0], config, "review", {"bulk": value}), apps[1]
    result = plain_update(plain, config, "review", {"bulk": value})
    assert lab_json(got["result"]) == lab_json(result) and lab_json(got["result"]["bulk"]) == lab_json(value)
    assert [len(lab_json(s.values)) for s in apps[0].get_state_history(config)] == \
        [len(lab_json(s.values)) for s in plain.get_state_history(config)]
    assert got["total"] == 7


def plain_sizes(inputs):
    """One plain run on a new saver: each checkpoint's lab JSON size, oldest first."""
    app = ckpt.build_graph(ckpt.new_saver())
    app.invoke(inputs, {"configurable": {"thread_id": "plain"}})
    return [len(lab_json(s.values)) for s in app.get_state_history({"configurable": {"thread_id": "plain"}})][::-1]


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_weigh_accepts_a_value_stored_as_it_is_with_a_plain_runs_figures(name):
    payload = ACCEPTED[name]
    thin, fat = plain_sizes({"topic": "가을"}), plain_sizes({"topic": "가을", "bulk": payload})
    size = (len(payload.encode("utf-8")) if isinstance(payload, str) else
            len(payload) if isinstance(payload, bytes) else len(lab_json(payload)))
    assert ckpt.weigh("가을", payload) == {
        "checkpoints": 5, "thin_total": sum(thin), "fat_total": sum(fat), "payload_bytes": size,
        "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= size)}
    assert sum(thin) == 399 and len(fat) == 5


@pytest.mark.parametrize("score", [2 ** 64 - 1, -2 ** 63])
def test_fork_keeps_the_64_bit_extremes(ran, score):  # msgpack's range: -2 ** 63 to 2 ** 64 - 1
    app, config = ran
    got = ckpt.fork(app, config, "write", {"score": score})
    assert app.get_state(got["forked_config"]).values["score"] == score


# --- PostgreSQL: jsonb holds a str, number or None of a channel; a blob holds the rest

PG_VALUES = [  # (value, refused with, the part named); None: stored exactly, as plain LangGraph stores it
    ("a\x00b", "PostgreSQL cannot store a NUL character", 'values["bulk"]'),
    (float("nan"), "Out of range float values are not JSON compliant", 'values["bulk"]'),
    (float("-inf"), "Out of range float values are not JSON compliant", 'values["bulk"]'),
    ({"k": "a\x00b"}, None, None), ([float("nan")], None, None), ({"k": [float("-inf")]}, None, None),
    ("a\\u0000b", None, None),  # the six characters \u0000, no NUL
]


@pytest.mark.parametrize("value, said, part", PG_VALUES, ids=[repr(v)[:20] for v, _, _ in PG_VALUES])
def test_on_postgres_only_a_value_kept_as_jsonb_is_refused_for_nul_nan_and_infinity(pg_url, value, said, part):
    import uuid
    with ckpt.open_saver("postgres", pg_url) as saver:
        app, config = ckpt.build_graph(saver), ckpt.cfg(f"guards-{uuid.uuid4().hex}")
        try:
            app.invoke({"topic": "가을"}, config)
            rows = pg_rows(saver, config)
            if said:
                message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "review", {"bulk": value}))
                assert message.startswith(f"{part} cannot be written as JSON for PostgreSQL: {said}"), message
                assert pg_rows(saver, config) == rows, "a row was written before the refusal"
            else:
                got = ckpt.fork(app, config, "review", {"bulk": value})["result"]["bulk"]
                assert lab_json(app.get_state(config).values["bulk"]) == lab_json(value) == lab_json(got)
        finally:
            saver.delete_thread(config["configurable"]["thread_id"])


def pg_rows(saver, config):
    """Rows of the thread in each of PostgresSaver's three tables, read directly."""
    return [saver.conn.execute(f"SELECT count(*) AS n FROM {table} WHERE thread_id = %s",
                               (config["configurable"]["thread_id"],)).fetchone()["n"]
            for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes")]


def test_without_the_check_postgres_fails_on_a_jsonb_nul_and_keeps_a_blob_nul(pg_url):
    import uuid
    with ckpt.open_saver("postgres", pg_url) as saver:
        app, config = ckpt.build_graph(saver), ckpt.cfg(f"guards-{uuid.uuid4().hex}")
        try:
            app.invoke({"topic": "가을"}, config)
            assert plain_update(app, config, "review", {"bulk": {"k": "a\x00b"}})["bulk"] == {"k": "a\x00b"}
            with pytest.raises(Exception, match="0000|NUL|null"):
                plain_update(app, config, "review", {"bulk": "a\x00b"})
        finally:
            saver.delete_thread(config["configurable"]["thread_id"])
