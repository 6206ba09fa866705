"""Bad input to the lab functions: a clear error naming the parameter, raised before anything
is written, so the thread's history is exactly as it was."""
import fractions

import pytest

import ckpt


def _ids(app, config):
    return [s.config["configurable"]["checkpoint_id"] for s in app.get_state_history(config)]


def _raises_and_writes_nothing(app, config, error, names, call):
    """Run call(); it must raise `error` whose message holds each of `names`; history untouched."""
    before_len, before_ids = ckpt.history_len(app, config), _ids(app, config)
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for name in names:
        assert name in message, (name, message)
    assert ckpt.history_len(app, config) == before_len, (message, ckpt.pending(app, config))
    assert _ids(app, config) == before_ids, message
    return message


@pytest.fixture
def runs(monkeypatch):
    """Counts graphs built through ckpt.build_graph: weigh/lost_demo must fail before building."""
    built = []
    real = ckpt.build_graph

    def counting(checkpointer=None):
        built.append(checkpointer)
        return real(checkpointer)

    monkeypatch.setattr(ckpt, "build_graph", counting)
    return built


def test_replay_with_an_unknown_node_raises_valueerror_listing_the_nodes_with_a_point(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, ValueError, ["node", "'nope'", "plan", "write", "review"],
                               lambda: ckpt.replay(app, config, "nope"))


def test_replay_on_a_thread_with_no_history_raises_valueerror_saying_so(ran):
    app, _ = ran
    empty = ckpt.cfg("nobody")
    _raises_and_writes_nothing(app, empty, ValueError, ["node", "'write'", "no history"],
                               lambda: ckpt.replay(app, empty, "write"))
    assert ckpt.history_len(app, ckpt.cfg("t1")) == 5


def test_replay_with_a_node_that_is_not_a_str_raises_typeerror(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, TypeError, ["node", "str"],
                               lambda: ckpt.replay(app, config, 2))


def test_fork_with_an_unknown_node_raises_valueerror_listing_the_nodes_with_a_point(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, ValueError, ["node", "'nope'", "plan", "write", "review"],
                               lambda: ckpt.fork(app, config, "nope", {"angle": "요약"}))


def test_fork_on_a_thread_with_no_history_raises_valueerror_saying_so(ran):
    app, _ = ran
    empty = ckpt.cfg("nobody")
    _raises_and_writes_nothing(app, empty, ValueError, ["node", "'write'", "no history"],
                               lambda: ckpt.fork(app, empty, "write", {"angle": "요약"}))


def test_fork_at_start_raises_valueerror_because_it_would_lose_the_input(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, ValueError, ["node", "__start__"],
                               lambda: ckpt.fork(app, config, "__start__", {"angle": "요약"}))


def test_fork_with_values_that_are_not_a_dict_raises_typeerror(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, TypeError, ["values", "dict", "list"],
                               lambda: ckpt.fork(app, config, "write", ["angle", "요약"]))


def test_fork_with_keys_that_are_not_state_keys_raises_valueerror_naming_them(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, ValueError, ["values", "colour"],
                               lambda: ckpt.fork(app, config, "write", {"colour": "red"}))


def test_fork_with_an_angle_not_in_angles_raises_valueerror_listing_the_angles(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, ValueError, ["angle", "'긴글'", "기본", "요약", "비교"],
                               lambda: ckpt.fork(app, config, "write", {"angle": "긴글"}))


def test_fork_with_notes_that_are_not_a_list_raises_typeerror(ran):
    app, config = ran
    _raises_and_writes_nothing(app, config, TypeError, ["notes", "list"],
                               lambda: ckpt.fork(app, config, "write", {"notes": "fork:요약"}))


def test_weigh_with_a_topic_that_is_not_a_str_raises_typeerror_before_any_run(runs):
    with pytest.raises(TypeError, match="topic") as info:
        ckpt.weigh(42, "x" * 300)
    assert "int" in str(info.value), str(info.value)
    assert runs == [], "weigh built a graph before rejecting the topic"


def test_lost_demo_with_a_topic_that_is_not_a_str_raises_typeerror_before_any_run(runs):
    with pytest.raises(TypeError, match="topic") as info:
        ckpt.lost_demo(b"\xea\xb0\x80\xec\x9d\x84")
    assert "bytes" in str(info.value), str(info.value)
    assert runs == [], "lost_demo built a graph before rejecting the topic"


@pytest.mark.parametrize("payload", ["", b"", [], {}], ids=["str", "bytes", "list", "dict"])
def test_weigh_with_an_empty_payload_raises_valueerror_before_any_run(runs, payload):
    with pytest.raises(ValueError, match="payload") as info:
        ckpt.weigh("가을", payload)
    assert "empty" in str(info.value), str(info.value)
    assert runs == [], "weigh built a graph before rejecting the payload"


def test_weigh_with_a_payload_the_saver_cannot_serialize_names_payload_before_any_run(runs):
    with pytest.raises(TypeError, match="payload") as info:
        ckpt.weigh("가을", fractions.Fraction(1, 3))
    assert "Fraction" in str(info.value), str(info.value)
    assert runs == [], "weigh built a graph before rejecting the payload"


def test_the_run_counter_sees_both_runs_of_a_valid_weigh_and_the_two_graphs_of_lost_demo(runs):
    ckpt.weigh("가을", "x" * 300)
    assert len(runs) == 2, "the counter must see weigh's runs, or the checks above prove nothing"
    ckpt.lost_demo("가을")
    assert len(runs) == 4, runs


@pytest.mark.parametrize("values, key", [
    ({"score": "abc"}, "score"), ({"draft": 7}, "draft"), ({"topic": 5}, "topic"),
    ({"angle": ["요약"]}, "angle"), ({"score": True}, "score"), ({"notes": [1, 2]}, "notes"),
])
def test_fork_with_a_value_of_the_wrong_type_raises_typeerror_naming_the_key(ran, values, key):
    app, config = ran
    _raises_and_writes_nothing(app, config, TypeError, [f'values["{key}"]'],
                               lambda: ckpt.fork(app, config, "review", values))


# --- values no saver stores as they are: refused before anything is written, naming the path


@pytest.mark.parametrize("values, error, path, words", [
    ({"score": 2 ** 64}, ValueError, 'values["score"]', "is 18446744073709551616, outside the signed 64-bit range"),
    ({"score": -2 ** 63 - 1}, ValueError, 'values["score"]', "outside the signed 64-bit range"),
    ({"bulk": {"k": [1, 2 ** 63]}}, ValueError, 'values["bulk"]["k"][1]', "outside the signed 64-bit range"),
    ({"topic": "가\ud83d"}, ValueError, 'values["topic"]', "lone surrogate U+D83D at index 1"),
    ({"notes": ["ok", "\udc00"]}, ValueError, 'values["notes"][1]', "lone surrogate U+DC00 at index 0"),
    ({"bulk": {"\ud83d": 1}}, ValueError, 'a key of values["bulk"]', "lone surrogate U+D83D"),
    ({"bulk": {1: "a", "b": 2}}, TypeError, 'values["bulk"]', "keys of types ['int', 'str'] that cannot be sorted"),
    ({"bulk": {None: 1, 2: 3}}, TypeError, 'values["bulk"]', "keys of types ['NoneType', 'int']"),
    ({"bulk": [{("t",): 1}]}, TypeError, 'values["bulk"][0]', "the key ('t',) of type tuple"),
    ({"bulk": [1, {"k": fractions.Fraction(1, 3)}]}, TypeError, 'values["bulk"][1]["k"]',
     "of type Fraction cannot be serialized by the saver"),
])
def test_fork_refuses_values_no_saver_stores_as_they_are_naming_the_path(ran, values, error, path, words):
    app, config = ran
    message = _raises_and_writes_nothing(app, config, error, [path, words],
                                         lambda: ckpt.fork(app, config, "review", values))
    assert message.startswith(path), message


def test_fork_refuses_a_value_that_contains_itself(ran):
    app, config = ran
    loop = []
    loop.append(loop)
    _raises_and_writes_nothing(app, config, ValueError, ['values["bulk"][0]', "contains itself"],
                               lambda: ckpt.fork(app, config, "review", {"bulk": [loop]}))


@pytest.mark.parametrize("score", [2 ** 63 - 1, -2 ** 63])
def test_fork_keeps_the_64_bit_extremes(ran, score):
    app, config = ran
    got = ckpt.fork(app, config, "review", {"score": score})
    assert got["total"] == 7, got
    assert app.get_state(got["forked_config"]).values["score"] == score


@pytest.mark.parametrize("payload, error, path", [
    (["a", "b", "c", "가\ud83d"], ValueError, "payload[3]"),
    ({"k": 2 ** 64}, ValueError, 'payload["k"]'),
    ({"가": {"나": 2 ** 70}}, ValueError, 'payload["가"]["나"]'),
    ({1: "a", "b": 2}, TypeError, "payload has keys of types"),
    ("x" * 300 + "\ud800", ValueError, "payload has a lone surrogate U+D800 at index 300"),
    (fractions.Fraction(1, 3), TypeError, "payload of type Fraction"),
])
def test_weigh_refuses_a_payload_no_saver_stores_naming_the_path_before_any_run(runs, payload, error, path):
    with pytest.raises(error) as info:
        ckpt.weigh("가을", payload)
    assert str(info.value).startswith(path), info.value
    assert runs == [], "weigh built a graph before rejecting the payload"


@pytest.mark.parametrize("call", [lambda: ckpt.weigh("가\ud83d", "x" * 300),
                                  lambda: ckpt.lost_demo("가\ud83d")], ids=["weigh", "lost_demo"])
def test_a_topic_with_a_lone_surrogate_is_refused_naming_topic_before_any_run(runs, call):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith("topic has a lone surrogate U+D83D at index 1"), info.value
    assert runs == [], "a graph was built before rejecting the topic"


def test_check_storable_refuses_nul_only_for_postgres():
    ckpt._check_storable("가\x00을", "topic")
    ckpt._check_storable("가\x00을", "topic", backend="sqlite")
    with pytest.raises(ValueError) as info:
        ckpt._check_storable("가\x00을", "topic", backend="postgres")
    assert str(info.value) == "topic has a NUL character (\\x00) at index 1: PostgreSQL cannot store it"
    with pytest.raises(ValueError, match=r'payload\["k"\]\[0\] has a NUL'):
        ckpt._check_storable({"k": ["\x00"]}, "payload", backend="postgres")
    with pytest.raises(ValueError, match="backend must be None or one of"):
        ckpt._check_storable("가을", "topic", backend="oracle")
