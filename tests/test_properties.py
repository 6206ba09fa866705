"""Invariants over arbitrary topics, payloads, values and checkpointers (hypothesis), checked
against literal figures and independent recounts, never against ckpt's own expressions."""
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ckpt
from conftest import LG
from test_bytes import expected_weigh, literal_bytes, recount

# what JSON grows (quote, backslash, newline), 1 to 4 bytes a character in UTF-8
PAYLOAD_CHARS = st.sampled_from(["x", "é", "가", "🍂", '"', "\\", "\n"])
SETTINGS = settings(max_examples=40, deadline=None, database=None)
REPEATS = {"기본": 1, "요약": 2, "비교": 3}  # the lab sheet's angles, typed out


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
    assert got["fat_total"] - got["thin_total"] == sum(f - t for t, f in zip(thin, fat)), got


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


# --- values entering a checkpoint: stored as they are, or refused naming the path

SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "가\ud83d"])
TEXT = st.one_of(st.text(max_size=4), SURROGATES)
INTS = st.one_of(st.integers(-2 ** 70, 2 ** 70),
                 st.sampled_from([2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 63 - 1]))
LEAVES = st.one_of(INTS, TEXT, st.none(), st.booleans(), st.floats(allow_nan=False),
                   st.binary(max_size=4), st.just(Fraction(1, 3)))
KEYS = st.one_of(TEXT, INTS, st.none(), st.booleans(), st.floats(allow_nan=False),
                 st.tuples(st.integers(0, 3)))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(KEYS, inner, max_size=3)),
                      max_leaves=8)


def expected_errors(value, stored):
    """The error types an independent walk predicts (empty: the value is fine).

    json.dumps(sort_keys=True) fails on a lone surrogate, a tuple key, or keys of more than
    one family (str / number / None); a saver also on ints beyond 64 bits and on Fraction.
    """
    found = set()

    def walk(part):
        if isinstance(part, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in part):
                found.add(ValueError)
        elif isinstance(part, int) and not isinstance(part, bool):
            if stored and not -9223372036854775808 <= part <= 9223372036854775807:
                found.add(ValueError)
        elif isinstance(part, Fraction):
            if stored:
                found.add(TypeError)
        elif isinstance(part, list):
            for item in part:
                walk(item)
        elif isinstance(part, dict):
            families = set()
            for key in part:
                if isinstance(key, tuple):
                    found.add(TypeError)
                    continue
                families.add("str" if isinstance(key, str) else "none" if key is None else "number")
                walk(key)
            if len(families) > 1:
                found.add(TypeError)
            for item in part.values():
                walk(item)

    walk(value)
    return found


def thread_state(app, config):
    return [(s.config["configurable"]["checkpoint_id"], s.values) for s in app.get_state_history(config)]


@SETTINGS
@given(value=VALUES)
def test_fork_stores_a_value_as_it_is_or_refuses_it_naming_the_path_and_writes_nothing(value):
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("t1")
    app.invoke({"topic": "가을"}, config)
    before = thread_state(app, config)
    expected = expected_errors(value, stored=True)
    if expected:
        with pytest.raises((TypeError, ValueError)) as info:
            ckpt.fork(app, config, "review", {"bulk": value})
        assert type(info.value) in expected, (value, expected, info.value)
        assert 'values["bulk"]' in str(info.value), info.value
        assert thread_state(app, config) == before, value
        return
    got = ckpt.fork(app, config, "review", {"bulk": value})
    assert got["total"] == 7, got
    if value is None and LG < (1, 0):  # 0.2.60's update_state skips a None value: nothing is written
        assert "bulk" not in got["result"] and "bulk" not in app.get_state(config).values, got
    else:
        assert got["result"]["bulk"] == value == app.get_state(config).values["bulk"], got
    assert thread_state(app, config)[-5:] == before


@SETTINGS
@given(payload=VALUES)
def test_weigh_measures_a_payload_or_refuses_it_before_building_a_graph(payload):
    expected = expected_errors(payload, stored=True)
    empty = payload is None or payload in ("", b"", [], {})
    with mock.patch.object(ckpt, "build_graph", wraps=ckpt.build_graph) as built:
        if empty or expected:
            with pytest.raises((TypeError, ValueError)) as info:
                ckpt.weigh("가을", payload)
            assert built.call_count == 0, "a graph was built before the payload was refused"
            assert str(info.value).startswith("payload") or "of payload" in str(info.value), info.value
            assert type(info.value) in (expected | {ValueError} if empty else expected), info.value
            return
        got = ckpt.weigh("가을", payload)
    size = (len(payload.encode("utf-8")) if isinstance(payload, str) else
            len(payload) if isinstance(payload, bytes) else literal_bytes(payload))
    assert got == expected_weigh("가을", payload, size), got
    assert (got["checkpoints"], got["thin_total"]) == (5, 399), got


@SETTINGS
@given(value=VALUES)
def test_state_bytes_is_the_labs_count_or_an_error_naming_values(value):
    expected = expected_errors(value, stored=False)
    if expected:
        with pytest.raises((TypeError, ValueError)) as info:
            ckpt.state_bytes(value)
        assert type(info.value) in expected and "values" in str(info.value), (value, info.value)
        return
    assert ckpt.state_bytes(value) == literal_bytes(value), value


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
