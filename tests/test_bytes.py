"""Step 6 of the lab: what a checkpoint costs in bytes, recounted here independently."""
import datetime
import json

import pytest

import ckpt


def literal_bytes(values):
    """The grader's own formula, typed out: the three arguments, UTF-8 length."""
    return len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))


def recount(inputs):
    """Run the graph once on a fresh saver; each checkpoint's literal_bytes, oldest first."""
    app = ckpt.build_graph(ckpt.new_saver())
    app.invoke(inputs, ckpt.cfg("recount"))
    return [literal_bytes(s.values) for s in app.get_state_history(ckpt.cfg("recount"))][::-1]


def expected_weigh(topic, payload, payload_bytes):
    thin, fat = recount({"topic": topic}), recount({"topic": topic, "bulk": payload})
    return {"checkpoints": len(fat), "thin_total": sum(thin), "fat_total": sum(fat),
            "payload_bytes": payload_bytes,
            "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= payload_bytes)}


VALUES = {
    "datetime": {"at": datetime.datetime(2024, 10, 3, 9, 30, 15, 123456)},
    "date": datetime.date(2024, 10, 3),
    "set": {"tags": {"가을"}},
    "bytes": {"raw": b"\x00\xff\xfe abc"},
    "korean": {"topic": "가을 하늘"},
    "emoji": {"topic": "🍂🍁 단풍"},
    "escapes": {"q": 'say "hi"\\\n\t\x01'},
    "nested": {"z": [1, 2.5, None, True, {"b": "나", "a": ["🍂", {"d": datetime.time(1, 2)}]}],
               "a": {"y": frozenset(), "x": ()}},
    "unsorted_keys": {"b": 1, "a": 2, "가": 3, "A": 4},
    "scalar": "가을",
}


@pytest.mark.parametrize("values", list(VALUES.values()), ids=list(VALUES))
def test_state_bytes_equals_the_literal_json_dumps_utf8_length(values):
    assert ckpt.state_bytes(values) == literal_bytes(values), values


def test_state_bytes_of_the_korean_topic_is_19_bytes():
    # '{"topic": "' is 11 bytes, 가을 is 6 (3 a character), '"}' is 2
    assert ckpt.state_bytes({"topic": "가을"}) == 19


def test_state_bytes_sorts_keys_so_insertion_order_does_not_matter():
    assert ckpt.state_bytes({"b": 1, "a": "가"}) == ckpt.state_bytes({"a": "가", "b": 1}) == 20


def test_history_bytes_is_the_literal_size_of_each_snapshot_oldest_first(ran):
    app, config = ran
    got = ckpt.history_bytes(app, config)
    assert got == [literal_bytes(s.values) for s in ckpt.history(app, config)], got
    assert got == [13, 32, 81, 124, 149], got  # the input checkpoint holds only {"notes": []}
    assert sum(got) == 399


def test_history_bytes_covers_both_branches_oldest_first_after_a_replay_and_a_fork(ran):
    app, config = ran
    ckpt.replay(app, config, "write")
    ckpt.fork(app, config, "write", {"angle": "비교", "bulk": "가" * 500})
    got = ckpt.history_bytes(app, config)
    newest_first = [literal_bytes(s.values) for s in app.get_state_history(config)]
    assert got == newest_first[::-1], got
    assert len(got) == ckpt.history_len(app, config), got
    assert got[:5] == [13, 32, 81, 124, 149], got


@pytest.mark.parametrize("values", list(VALUES.values()), ids=list(VALUES))
def test_history_bytes_counts_what_the_labs_formula_counts_for_any_value_in_the_state(values):
    """history_bytes sums json's encoder chunk by chunk (no whole copy of a large value); the
    number must be the lab's formula applied to each snapshot, whatever the state holds."""
    app = ckpt.build_graph(ckpt.new_saver())
    app.invoke({"topic": "가을", "bulk": values}, ckpt.cfg("t"))
    expected = [literal_bytes(s.values) for s in app.get_state_history(ckpt.cfg("t"))][::-1]
    assert ckpt.history_bytes(app, ckpt.cfg("t")) == expected


def test_history_bytes_of_an_unknown_thread_is_empty(app):
    assert ckpt.history_bytes(app, ckpt.cfg("nobody")) == []


PAYLOADS = {
    "ascii_300": "x" * 300,
    "ascii_100000": "x" * 100_000,
    "korean_300": "가" * 100,  # 3 bytes a character
    "korean_100002": "가" * 33_334,
    "emoji_300": "🍂" * 75,  # 4 bytes a character
    "emoji_100000": "🍂" * 25_000,
    "escaped_300": '"\\\n' * 100,  # JSON writes each of these as two characters
    "escaped_99999": '"\\\n' * 33_333,
    "mixed_1500": "a가🍂\"" * 150,
}


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_weigh_equals_an_independent_recount_and_4_checkpoints_carry_a_str_payload(payload):
    got = ckpt.weigh("가을", payload)
    assert got == expected_weigh("가을", payload, len(payload.encode("utf-8"))), got
    assert (got["checkpoints"], got["carrying"]) == (5, 4), got
    assert got["payload_bytes"] >= 300, got


@pytest.mark.parametrize("payload, size", [
    (b"x" * 1500, 1500),
    ({"rows": ["가을"] * 100}, literal_bytes({"rows": ["가을"] * 100})),
    (list(range(400)), literal_bytes(list(range(400)))),
], ids=["bytes", "dict", "list"])
def test_weigh_sizes_bytes_by_len_and_other_values_by_state_bytes(payload, size):
    got = ckpt.weigh("가을", payload)
    assert got == expected_weigh("가을", payload, size), got
    assert (got["checkpoints"], got["carrying"]) == (5, 4), got


def test_weigh_reproduces_the_published_399_and_6447_bytes():
    got = ckpt.weigh("가을", "x" * 1500)
    assert got == {"checkpoints": 5, "thin_total": 399, "fat_total": 6447,
                   "payload_bytes": 1500, "carrying": 4}, got


def test_weigh_returns_plain_json_values():
    got = ckpt.weigh("가을", "x" * 300)
    assert json.loads(json.dumps(got)) == got, got


@pytest.mark.parametrize("values", [
    {"a": {1: 2, "b": 3}},  # keys json cannot sort: sort_keys=True makes this a TypeError
    {"a": [{(1, 2): 3}]},  # a key json cannot write
    {"a": ["ok", "\ud83d"]},  # a lone surrogate has no UTF-8 form
    [2 ** 100_000],  # more digits than Python turns into text
], ids=["mixed-keys", "tuple-key", "surrogate", "huge-int"])
def test_state_bytes_fails_where_the_labs_formula_fails_with_the_same_error(values):
    with pytest.raises((TypeError, ValueError)) as expected:
        literal_bytes(values)
    with pytest.raises(expected.type):
        ckpt.state_bytes(values)


def test_state_bytes_of_a_value_that_contains_itself_is_jsons_value_error():
    loop = {"a": []}
    loop["a"].append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        ckpt.state_bytes(loop)


@pytest.mark.parametrize("values, size", [
    ({2: "a", 1: "b"}, 20),  # {"1": "b", "2": "a"}: int keys sorted as ints, then written as str
    ({None: 1}, 11),  # {"null": 1}
    ({"big": 2 ** 64}, 29),  # json writes any int; only the savers stop at 64 bits
    ({"x": {1, 2}}, 15),  # default=str: {"x": "{1, 2}"}
])
def test_state_bytes_counts_what_json_writes_as_is(values, size):
    assert ckpt.state_bytes(values) == size


def test_weigh_refuses_a_memoryview_payload_which_comes_back_from_the_saver_as_bytes():
    with pytest.raises(ValueError, match="^payload of type memoryview comes back from the saver as a bytes"):
        ckpt.weigh("가을", memoryview(b"x" * 500))
