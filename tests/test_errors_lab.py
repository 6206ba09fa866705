"""A caller's mistakes in the lab's terms, and the one rule for values: a value enters a checkpoint
only when what the saver gives back has the lab's JSON of what went in. Each refusal names the
parameter and comes before anything is written: the thread's checkpoint ids stay as they were,
and weigh builds no graph."""
import collections
import dataclasses
import datetime
import enum
import fractions
import json
from unittest import mock

import pytest

import ckpt
from conftest import LG

OLD = LG < (1,)  # langgraph 0.2.60: what its serializer cannot rebuild comes back None


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
def built():
    """The graphs built through ckpt.build_graph during the test (weigh's runs)."""
    # weigh's savers are its own: no public way to see that it ran, so count the graphs it builds
    with mock.patch.object(ckpt, "build_graph", wraps=ckpt.build_graph) as spy:
        yield spy


def test_the_graph_counter_sees_both_runs_of_weigh(built):
    ckpt.weigh("가을", "x" * 300)
    assert built.call_count == 2, "the counter must see weigh's runs, or the refusals below prove nothing"


# --- nodes and points


def test_replay_with_an_unknown_node_lists_the_nodes_that_have_a_point(ran):
    app, config = ran
    message = refused(app, config, ValueError, lambda: ckpt.replay(app, config, "nope"))
    assert message == ("node 'nope' has no point in this config's history: "
                       "the nodes that have one are ['__start__', 'plan', 'review', 'write']"), message


def test_replay_on_a_thread_with_no_history_says_so(ran):
    app, _ = ran
    message = refused(app, ckpt.cfg("nobody"), ValueError, lambda: ckpt.replay(app, ckpt.cfg("nobody"), "write"))
    assert message.endswith("the thread has no history"), message


def test_fork_on_a_thread_with_no_history_says_so_and_writes_nothing(ran):
    app, _ = ran
    message = refused(app, ckpt.cfg("nobody"), ValueError,
                      lambda: ckpt.fork(app, ckpt.cfg("nobody"), "write", {"angle": "요약"}))
    assert message.endswith("the thread has no history"), message
    assert len(ids(app, ckpt.cfg("t1"))) == 5


@pytest.mark.parametrize("node", ["__start__", "nope"])
def test_fork_refuses_a_node_that_is_not_one_of_the_graphs_nodes(ran, node):
    # LangGraph alone would write the point before "__start__" and lose the input (README table)
    app, config = ran
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, node, {"angle": "요약"}))
    assert message == f"node must be one of ['plan', 'write', 'review'], got {node!r}", message


# --- values: a dict of State keys, of the types the nodes take


def test_fork_refuses_values_that_are_not_a_dict(ran):
    app, config = ran
    message = refused(app, config, TypeError, lambda: ckpt.fork(app, config, "write", ["angle", "요약"]))
    assert message == "values must be a dict of State keys, got list", message


def test_fork_refuses_keys_that_are_not_state_keys_naming_them(ran):
    app, config = ran
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "write", {"colour": "red"}))
    assert message.startswith("values has keys that are not State keys: ['colour']"), message


def test_fork_refuses_an_angle_not_in_angles_listing_them(ran):
    app, config = ran
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "write", {"angle": "긴글"}))
    assert message == "angle must be one of ['기본', '요약', '비교'], got '긴글'", message


@pytest.mark.parametrize("values, key", [
    ({"score": "abc"}, "score"), ({"score": True}, "score"), ({"draft": 7}, "draft"),
    ({"topic": 5}, "topic"), ({"angle": ["요약"]}, "angle"), ({"notes": "fork:요약"}, "notes"),
    ({"notes": [1, 2]}, "notes"),
])
def test_fork_refuses_a_state_key_of_the_wrong_type_naming_it(ran, values, key):
    app, config = ran
    message = refused(app, config, TypeError, lambda: ckpt.fork(app, config, "review", values))
    assert message.startswith(f'values["{key}"] must be '), message


# --- topic and payload of the measures


@pytest.mark.parametrize("measure", [lambda topic: ckpt.weigh(topic, "x" * 300), ckpt.lost_demo],
                         ids=["weigh", "lost_demo"])
def test_a_topic_that_is_not_a_str_is_refused_before_any_run(built, measure):
    with pytest.raises(TypeError) as info:
        measure(42)
    assert str(info.value) == "topic must be a str, got int"
    assert built.call_count == 0


@pytest.mark.parametrize("payload", ["", b"", [], {}, None], ids=["str", "bytes", "list", "dict", "None"])
def test_weigh_refuses_an_empty_payload_before_any_run(built, payload):
    # without it weigh reports payload_bytes 0 and carrying 5: every checkpoint "carries" nothing
    with pytest.raises(ValueError) as info:
        ckpt.weigh("가을", payload)
    assert str(info.value).startswith("payload must be a non-empty value"), info.value
    assert built.call_count == 0


# --- the one rule for values: stored as it is, or refused before anything is written


class Holder:
    class Colour(enum.Enum):  # an Enum nested in a class: the serializer finds no top-level name
        A = "a"


def local_point():
    @dataclasses.dataclass
    class Point:  # defined inside a function: nothing can import it back
        x: int
        y: int
    return Point(1, 2)


# value, its type's name, and what the installed line's saver gives back (measured)
CHANGED = {
    "set of tuples": ({(1, 2), (3, 4)}, "set", "None" if OLD else "a list: [[1, 2], [3, 4]]"),
    "nested Enum": (Holder.Colour.A, "Colour", "None" if OLD else "a str: 'a'"),
    "local dataclass": (local_point(), "Point", "None" if OLD else "a dict: {'x': 1, 'y': 2}"),
    "deque with maxlen": (collections.deque([1, 2, 3], maxlen=3), "deque", "deque([1, 2, 3])"),
}


@pytest.mark.parametrize("name", list(CHANGED))
def test_without_the_check_plain_langgraph_stores_these_values_changed(ran, name):
    """The reference for the messages below: update_state and invoke, no ckpt check."""
    app, config = ran
    value, _, _ = CHANGED[name]
    snap = next(s for s in app.get_state_history(config) if s.next == ("review",))
    back = app.invoke(None, app.update_state(snap.config, {"bulk": value})).get("bulk", None)
    assert lab_json(back) != lab_json(value), back
    assert ("None" if back is None else repr(back)) in CHANGED[name][2], back


def shown(value, back):
    """The end of the message: another type named with its article, the same type beside the value given."""
    return back if back.startswith(("a ", "an ")) else f"{back} (given: {value!r:.60})"


@pytest.mark.parametrize("name", list(CHANGED))
def test_fork_refuses_a_value_the_saver_gives_back_changed_naming_the_path(ran, name):
    app, config = ran
    value, kind, back = CHANGED[name]
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "review", {"bulk": value}))
    assert message == f'values["bulk"] of type {kind} comes back from the saver as {shown(value, back)}', message


@pytest.mark.parametrize("name", list(CHANGED))
def test_weigh_refuses_a_payload_the_saver_gives_back_changed_before_any_run(built, name):
    value, kind, back = CHANGED[name]
    with pytest.raises(ValueError) as info:
        ckpt.weigh("가을", value)
    assert str(info.value) == f"payload of type {kind} comes back from the saver as {shown(value, back)}", info.value
    assert built.call_count == 0


ACCEPTED = {
    "str": "가을 하늘 🍂 " * 40, "bytes": b"\x00\xff raw", "dict": {"b": [1, 2], "a": "가"},
    "list": [1, "가", None, 2.5], "int": 42, "naive datetime": datetime.datetime(2024, 10, 3, 9, 30, 15),
    "set of ints": {3, 1, 2}, "tuple": (1, "가"),  # a tuple comes back a list: the same JSON
}


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


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_fork_accepts_a_value_stored_as_it_is_as_plain_update_state_does(name):
    value, config = ACCEPTED[name], ckpt.cfg("t1")
    apps = [ckpt.build_graph(ckpt.new_saver()) for _ in range(2)]
    for app in apps:
        app.invoke({"topic": "가을"}, config)
    got = ckpt.fork(apps[0], config, "review", {"bulk": value})
    plain = apps[1]
    snap = next(s for s in plain.get_state_history(config) if s.next == ("review",))
    result = plain.invoke(None, plain.update_state(snap.config, {"bulk": value}))
    assert lab_json(got["result"]) == lab_json(result) and lab_json(got["result"]["bulk"]) == lab_json(value)
    assert [len(lab_json(s.values)) for s in apps[0].get_state_history(config)] == \
        [len(lab_json(s.values)) for s in plain.get_state_history(config)]
    assert got["total"] == 7


@pytest.mark.parametrize("score", [2 ** 64 - 1, -2 ** 63])
def test_fork_keeps_the_64_bit_extremes(ran, score):  # msgpack's range: -2 ** 63 to 2 ** 64 - 1
    app, config = ran
    got = ckpt.fork(app, config, "write", {"score": score})
    assert app.get_state(got["forked_config"]).values["score"] == score


@pytest.mark.parametrize("values, error, start", [
    ({"bulk": {"k": [1, 2 ** 64]}}, TypeError,
     'values["bulk"]["k"][1] of type int cannot be serialized by the saver: '),
    ({"bulk": [fractions.Fraction(1, 3), 2 ** 64]}, TypeError,
     'values["bulk"][0] of type Fraction cannot be serialized by the saver: '),
    ({"notes": ["ok", "가\udc00"]}, ValueError, 'values["notes"][1] cannot be written as JSON: '),
    ({"bulk": {1: "a", "b": 2}}, TypeError, 'values["bulk"] cannot be written as JSON: '),
    ({"bulk": {"k": [1, {(1, 2), (3, 4)}]}}, ValueError,
     'values["bulk"]["k"][1] of type set comes back from the saver as '),
], ids=["int beyond 64 bits", "Fraction first", "lone surrogate", "keys json cannot sort", "deep set of tuples"])
def test_fork_names_the_first_part_that_cannot_be_stored(ran, values, error, start):
    app, config = ran
    message = refused(app, config, error, lambda: ckpt.fork(app, config, "review", values))
    assert message.startswith(start), message


def test_fork_refuses_a_value_that_contains_itself(ran):
    app, config = ran
    loop = []
    loop.append(loop)
    message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "review", {"bulk": [loop]}))
    assert message == 'values["bulk"][0] cannot be written as JSON: Circular reference detected', message


@pytest.mark.parametrize("payload, error, start", [
    ({"가": {"나": 2 ** 70}}, TypeError,
     'payload["가"]["나"] of type int cannot be serialized by the saver: '),
    (fractions.Fraction(1, 3), TypeError, "payload of type Fraction cannot be serialized by the saver: "),
    ("x" * 300 + "\ud800", ValueError, "payload cannot be written as JSON: "),
])
def test_weigh_refuses_a_payload_that_cannot_be_stored_before_any_run(built, payload, error, start):
    with pytest.raises(error) as info:
        ckpt.weigh("가을", payload)
    assert str(info.value).startswith(start), info.value
    assert built.call_count == 0


def test_weigh_refuses_a_topic_with_a_lone_surrogate_before_any_run(built):
    with pytest.raises(ValueError) as info:
        ckpt.weigh("가\ud83d", "x" * 300)
    assert str(info.value).startswith("topic cannot be written as JSON: "), info.value
    assert built.call_count == 0


@pytest.mark.parametrize("value", ["가\x00을", float("nan"), float("inf")], ids=["NUL", "NaN", "infinity"])
def test_check_value_refuses_nul_nan_and_infinity_for_postgres_only(value):
    assert ckpt.check_value({"k": [value]}, "payload") is None
    assert ckpt.check_value({"k": [value]}, "payload", backend="sqlite") is None
    with pytest.raises(ValueError) as info:
        ckpt.check_value({"k": [value]}, "payload", backend="postgres")
    assert str(info.value).startswith('payload["k"][0] cannot be written as JSON for PostgreSQL: '), info.value


@pytest.mark.parametrize("value", ["가\x00을", float("nan"), float("inf")], ids=["NUL", "NaN", "infinity"])
def test_fork_on_postgres_refuses_nul_nan_and_infinity_writing_no_row(pg_url, value):
    # langgraph 0.2.60 alone stores the fork's pending writes, then fails on the checkpoint (README)
    import uuid
    thread_id = f"errors-lab-{uuid.uuid4().hex}"
    with ckpt.open_saver("postgres", pg_url) as saver:
        app, config = ckpt.build_graph(saver), ckpt.cfg(thread_id)
        try:
            app.invoke({"topic": "가을"}, config)
            rows = [saver.conn.execute(f"SELECT count(*) AS n FROM {table} WHERE thread_id = %s",
                                       (thread_id,)).fetchone()["n"]
                    for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes")]
            message = refused(app, config, ValueError, lambda: ckpt.fork(app, config, "review", {"bulk": value}))
            assert message.startswith('values["bulk"] cannot be written as JSON for PostgreSQL: '), message
            assert rows == [saver.conn.execute(f"SELECT count(*) AS n FROM {table} WHERE thread_id = %s",
                                               (thread_id,)).fetchone()["n"]
                            for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes")]
        finally:
            saver.delete_thread(thread_id)


def test_weigh_refuses_a_bytearray_which_every_saver_gives_back_as_bytes():
    with pytest.raises(ValueError) as info:
        ckpt.weigh("가을", bytearray(b"ab"))
    assert str(info.value) == "payload of type bytearray comes back from the saver as a bytes: b'ab'"


def test_fork_names_a_bytearray_inside_a_value_not_the_value_around_it(ran):
    app, config = ran
    with pytest.raises(ValueError) as info:
        ckpt.fork(app, config, "review", {"bulk": {"k": bytearray(b"ab")}})
    assert str(info.value).startswith('values["bulk"]["k"] of type bytearray comes back'), info.value
