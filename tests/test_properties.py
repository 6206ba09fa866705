"""Invariants over arbitrary topics, payloads, values and checkpointers (hypothesis), checked
against literal figures and independent recounts (json.dumps typed out, plain LangGraph runs, a
plain saver's put and get_tuple), never against ckpt's own expressions."""
import collections
import dataclasses
import enum
import json
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.memory import MemorySaver

import ckpt
from conftest import LG

# what JSON grows (quote, backslash, newline), 1 to 4 bytes a character in UTF-8
PAYLOAD_CHARS = st.sampled_from(["x", "é", "가", "🍂", '"', "\\", "\n"])
SETTINGS = settings(max_examples=40, deadline=None, database=None)
REPEATS = {"기본": 1, "요약": 2, "비교": 3}  # the lab sheet's angles, typed out


def lab_json(value):
    """The lab sheet's formula: json.dumps with its three arguments, in UTF-8."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")


def recount(inputs):
    """One plain run on a new saver: each checkpoint's lab JSON size, oldest first."""
    app = ckpt.build_graph(MemorySaver())
    config = {"configurable": {"thread_id": "recount"}}
    app.invoke(inputs, config)
    return [len(lab_json(s.values)) for s in app.get_state_history(config)][::-1]


def draft_of(topic, angle):
    """The lab sheet's draft, built another way: the pieces joined by spaces, ends stripped."""
    return " ".join([f"{topic}/{angle}"] * REPEATS[angle]).strip()


@SETTINGS
@given(topic=st.text(max_size=40), char=PAYLOAD_CHARS, count=st.integers(300, 5000))
def test_weigh_carrying_is_4_and_totals_match_a_recount_per_position(topic, char, count):
    payload = char * count
    got = ckpt.weigh(topic, payload)
    thin, fat = recount({"topic": topic}), recount({"topic": topic, "bulk": payload})
    assert got["carrying"] == 4, (got, thin, fat)
    assert got["checkpoints"] == len(thin) == len(fat) == 5, (got, thin, fat)
    assert got["payload_bytes"] == len(payload.encode("utf-8")), got
    assert (got["thin_total"], got["fat_total"]) == (sum(thin), sum(fat)), (got, thin, fat)


@SETTINGS
@given(topic=st.text(max_size=60), angle=st.sampled_from(sorted(REPEATS)))
def test_the_score_is_the_drafts_length_in_characters(topic, angle):
    app = ckpt.build_graph(ckpt.new_saver())
    got = app.invoke({"topic": topic, "angle": angle}, ckpt.cfg("p"))
    draft = draft_of(topic, angle)
    assert (got["draft"], got["score"]) == (draft, len(draft)), got
    assert got["notes"] == [f"plan:{topic}", f"write:{angle}", f"review:{len(draft)}"], got


@SETTINGS
@given(topic=st.text(max_size=40), angle=st.sampled_from(["요약", "비교"]))
def test_a_fork_before_write_scores_the_new_angles_draft(topic, angle):
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("p")
    base = app.invoke({"topic": topic}, config)
    got = ckpt.fork(app, config, "write", {"angle": angle})
    assert base["score"] == len(base["draft"]) == len(draft_of(topic, "기본")), base
    assert (got["result"]["score"], got["total"], got["original"]) == (
        len(draft_of(topic, angle)), 8, base), got


# --- values entering a checkpoint: stored as they are, or refused naming the first part


class Holder:
    class Colour(enum.Enum):  # nested in a class: 0.2.60 gives back None, 1.x a plain "a"
        A = "a"


def local_point():
    @dataclasses.dataclass
    class Point:  # defined inside a function: 0.2.60 gives back None, 1.x a dict
        x: int
    return Point(1)


SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "가\ud83d"])
TEXT = st.one_of(st.text(max_size=4), SURROGATES)
INTS = st.one_of(st.integers(-2 ** 70, 2 ** 70),
                 st.sampled_from([2 ** 64 - 1, 2 ** 64, -2 ** 63, -2 ** 63 - 1]))
SMALL = st.integers(0, 3)
LEAVES = st.one_of(
    INTS, TEXT, st.none(), st.booleans(), st.floats(allow_nan=False), st.binary(max_size=4),
    st.datetimes(), st.sets(SMALL, max_size=3), st.frozensets(SMALL, max_size=2),
    st.sets(st.tuples(SMALL, SMALL), min_size=1, max_size=2),
    st.lists(SMALL, max_size=2).map(lambda xs: collections.deque(xs, maxlen=2)),
    st.sampled_from([Fraction(1, 3), Holder.Colour.A, local_point()]))
KEYS = st.one_of(TEXT, INTS, st.none(), st.booleans(), st.floats(allow_nan=False), st.tuples(SMALL))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=2).map(tuple),
    st.dictionaries(KEYS, inner, max_size=3)), max_leaves=8)


def stored(part):
    """What a plain in-memory saver gives back for `part` kept in a checkpoint's channel."""
    saver, config = MemorySaver(), {"configurable": {"thread_id": "o", "checkpoint_ns": ""}}
    version = saver.get_next_version(None, None)
    checkpoint = dict(empty_checkpoint(), channel_values={"bulk": part}, channel_versions={"bulk": version})
    saved = saver.put(config, checkpoint, {}, {"bulk": version})
    return saver.get_tuple(saved).checkpoint["channel_values"]["bulk"]


def problem(part):
    """The error the rule predicts for `part` on its own (None: stored as it is): json's own
    error type where the lab's JSON cannot be written, TypeError where the saver cannot write
    it, ValueError where it comes back with other lab JSON."""
    try:
        given = lab_json(part)
    except TypeError:
        return TypeError
    except ValueError:
        return ValueError
    try:
        back = stored(part)
    except Exception:
        return TypeError
    return None if lab_json(back) == given else ValueError


def first_problem(value, path):
    """(path, error type) of the part the refusal must name: a part with a problem none of
    whose items (dict values, list or tuple items) has one, reached through the first item
    with a problem at each level. None when the whole value is stored as it is."""
    error = problem(value)
    if error is None:
        return None
    items = (value.items() if isinstance(value, dict) else
             enumerate(value) if isinstance(value, (list, tuple)) else ())
    for key, item in items:
        shown = json.dumps(key, ensure_ascii=False) if isinstance(key, str) else repr(key)
        found = first_problem(item, f"{path}[{shown}]")
        if found:
            return found
    return path, error


def test_the_oracle_sees_what_each_line_changes():
    assert problem({(1, 2)}) is ValueError and problem((1, 2)) is None and problem({1, 2}) is None
    assert problem(2 ** 64) is TypeError and problem({1: "a", "b": 2}) is TypeError
    assert problem("\ud800") is ValueError
    assert first_problem({"k": [1, {(1, 2)}]}, "v") == ('v["k"][1]', ValueError)


def thread_state(app, config):
    return [(s.config["configurable"]["checkpoint_id"], s.values) for s in app.get_state_history(config)]


@SETTINGS
@given(value=VALUES)
def test_fork_stores_a_value_as_it_is_or_refuses_it_naming_the_first_part_and_writes_nothing(value):
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("t1")
    app.invoke({"topic": "가을"}, config)
    before = thread_state(app, config)
    expected = first_problem(value, 'values["bulk"]')
    if expected:
        with pytest.raises(expected[1]) as info:
            ckpt.fork(app, config, "review", {"bulk": value})
        assert str(info.value).startswith(expected[0] + " "), (expected, info.value)
        assert thread_state(app, config) == before, value
        return
    got = ckpt.fork(app, config, "review", {"bulk": value})
    assert got["total"] == 7, got
    if value is None and LG < (1,):  # 0.2.60's update_state skips a None value: nothing is written
        assert "bulk" not in got["result"] and "bulk" not in app.get_state(config).values, got
    else:
        assert lab_json(got["result"]["bulk"]) == lab_json(value) == lab_json(app.get_state(config).values["bulk"])
    assert thread_state(app, config)[-5:] == before


@SETTINGS
@given(payload=VALUES)
def test_weigh_measures_a_payload_as_plain_runs_do_or_refuses_it_before_building_a_graph(payload):
    empty = payload is None or (hasattr(payload, "__len__") and len(payload) == 0)
    expected = (None, ValueError) if empty else first_problem(payload, "payload")
    # weigh's savers are its own: no public way to see that it ran, so count the graphs it builds
    with mock.patch.object(ckpt, "build_graph", wraps=ckpt.build_graph) as built:
        if expected:
            with pytest.raises(expected[1]) as info:
                ckpt.weigh("가을", payload)
            assert built.call_count == 0, "a graph was built before the payload was refused"
            assert str(info.value).startswith(expected[0] or "payload must be a non-empty value"), info.value
            return
        got = ckpt.weigh("가을", payload)
    thin, fat = recount({"topic": "가을"}), recount({"topic": "가을", "bulk": payload})
    size = len(payload) if isinstance(payload, bytes) else len(lab_json(payload) if not isinstance(
        payload, str) else payload.encode("utf-8"))
    assert got == {"checkpoints": 5, "thin_total": 399, "fat_total": sum(fat), "payload_bytes": size,
                   "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= size)}, got


@SETTINGS
@given(value=VALUES)
def test_state_bytes_is_the_lab_formula_or_jsons_own_error(value):
    try:
        want = len(lab_json(value))
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            ckpt.state_bytes(value)
        return
    assert ckpt.state_bytes(value) == want, value


# --- checkpointers: a saver (or None) is used as it is, anything else refused

CHECKPOINTERS = st.one_of(st.none(), st.just("the saver"), st.builds(ckpt.new_saver),
                          st.text(max_size=5), st.integers(), st.booleans(), st.builds(object),
                          st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                          st.just(type(ckpt.new_saver())))


@SETTINGS
@given(checkpointer=CHECKPOINTERS)
def test_build_graph_takes_a_saver_or_none_and_refuses_the_rest_leaving_threads_alone(checkpointer):
    saver = ckpt.new_saver()
    ckpt.build_graph(saver).invoke({"topic": "가을"}, ckpt.cfg("t1"))
    seen = ckpt.build_graph(saver)
    before = thread_state(seen, ckpt.cfg("t1"))
    if checkpointer == "the saver":
        checkpointer = saver
    if checkpointer is None or isinstance(checkpointer, type(saver)):
        app = ckpt.build_graph(checkpointer)
        assert app.checkpointer is checkpointer
        if checkpointer is saver:
            assert ckpt.pending(app, ckpt.cfg("t1")) == ["__start__", "plan", "write", "review", ""]
    else:
        with pytest.raises(TypeError) as info:
            ckpt.build_graph(checkpointer)
        assert str(info.value).startswith("checkpointer must be None or a saver"), info.value
    assert thread_state(seen, ckpt.cfg("t1")) == before
