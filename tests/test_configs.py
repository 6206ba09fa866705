"""Configs as people pass them: one naming a checkpoint (like the config update_state returns),
a made-up checkpoint_id or checkpoint_ns, one of another shape, a thread_id of None or an int.
Expected values come from the lab (5 checkpoints, their bytes and next nodes) and from plain
LangGraph calls (get_state_history, the saver's list)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ckpt
from conftest import LG

NEXT = ["__start__", "plan", "write", "review", ""]  # pending() after one run, oldest first
BYTES = [13, 32, 81, 124, 149]  # history_bytes() after one run of "가을", oldest first
ADDED = {"plan": 4, "write": 3, "review": 2} if LG >= (1, 1, 7) else {"plan": 3, "write": 2, "review": 1}
TOTAL = {"plan": 9, "write": 8, "review": 7}  # fork after one run: 5 + the point + the nodes after
END = {"topic": "가을", "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
       "notes": ["plan:가을", "write:기본", "review:5"]}
SHAPE = 'config must be {"configurable": {"thread_id": ...}}'


def thread_state(app, thread_id="t1"):
    """The thread as plain LangGraph lists it: (checkpoint_id, values), newest first."""
    return [(s.config["configurable"]["checkpoint_id"], s.values)
            for s in app.get_state_history({"configurable": {"thread_id": thread_id}})]


def saver_ids(app):
    """Every (thread_id, checkpoint_id) in the saver, whatever the thread."""
    return sorted((str(t.config["configurable"]["thread_id"]), t.config["configurable"]["checkpoint_id"])
                  for t in app.checkpointer.list(None))


def point(app, index, thread_id="t1"):
    """The config LangGraph gives the index-th checkpoint (oldest first) of the thread."""
    return list(app.get_state_history({"configurable": {"thread_id": thread_id}}))[::-1][index].config


READERS = {
    "history": lambda app, c: ckpt.history(app, c),
    "history_len": lambda app, c: ckpt.history_len(app, c),
    "pending": lambda app, c: ckpt.pending(app, c),
    "snapshot_before": lambda app, c: ckpt.snapshot_before(app, c, "write"),
    "history_bytes": lambda app, c: ckpt.history_bytes(app, c),
}
ALL = dict(READERS, replay=lambda app, c: ckpt.replay(app, c, "write"),
           fork=lambda app, c: ckpt.fork(app, c, "write", {"angle": "요약"}))


# --- a config naming a checkpoint: LangGraph lists that checkpoint only


@pytest.mark.parametrize("index", range(5))
def test_a_config_naming_a_checkpoint_lists_that_checkpoint_only(ran, index):
    app, _ = ran
    config = point(app, index)
    assert ckpt.history_len(app, config) == 1 == len(list(app.get_state_history(config)))
    assert ckpt.pending(app, config) == [NEXT[index]]
    assert ckpt.history_bytes(app, config) == [BYTES[index]]
    assert [s.config for s in ckpt.history(app, config)] == [config]


def test_snapshot_before_with_a_config_naming_a_checkpoint_looks_at_that_checkpoint_only(ran):
    app, _ = ran
    after_plan = point(app, 2)
    assert ckpt.snapshot_before(app, after_plan, "write").config == after_plan
    assert ckpt.snapshot_before(app, after_plan, "review") is None
    assert ckpt.snapshot_before(app, point(app, 3), "write") is None


def test_the_forked_config_lists_one_checkpoint_while_the_thread_has_8(ran):
    app, config = ran
    forked = ckpt.fork(app, config, "write", {"angle": "요약"})["forked_config"]
    assert (ckpt.history_len(app, forked), ckpt.history_len(app, config)) == (1, 8)
    assert ckpt.pending(app, forked) == ["write"]


def test_replay_and_fork_with_the_forked_config_report_the_whole_threads_growth_and_size(ran):
    app, config = ran
    forked = ckpt.fork(app, config, "write", {"angle": "요약"})["forked_config"]
    replayed = ckpt.replay(app, forked, "write")
    # 0.2.60: the replay adds write and review; from 1.1.7 a "fork" checkpoint first
    assert replayed["added"] == {True: 3, False: 2}[LG >= (1, 1, 7)], replayed
    assert replayed["result"]["draft"] == "가을/요약 가을/요약", replayed
    assert ckpt.history_len(app, config) == {True: 11, False: 10}[LG >= (1, 1, 7)]
    again = ckpt.fork(app, forked, "write", {"angle": "비교"})
    assert again["total"] == {True: 14, False: 13}[LG >= (1, 1, 7)], again
    assert again["total"] == len(list(app.get_state_history(config)))
    assert again["original"]["draft"] == "가을/요약 가을/요약", "original is the thread's end"
    assert again["result"]["draft"] == "가을/비교 가을/비교 가을/비교", again


@pytest.mark.parametrize("node", ["plan", "write", "review"])
def test_replay_from_a_config_naming_the_point_adds_what_cfg_adds(ran, node):
    app, _ = ran
    got = ckpt.replay(app, point(app, NEXT.index(node)), node)
    assert (got["added"], got["result"]) == (ADDED[node], END), got


@pytest.mark.parametrize("node", ["plan", "write", "review"])
def test_fork_from_a_config_naming_the_point_totals_what_cfg_totals(ran, node):
    app, _ = ran
    got = ckpt.fork(app, point(app, NEXT.index(node)), node, {"angle": "비교"})
    assert (got["total"], got["original"]) == (TOTAL[node], END), got
    assert got["result"]["angle"] == "비교", got


# --- a checkpoint_id or checkpoint_ns the thread does not have; a malformed config


def not_in_thread(field, value):
    """The error for a config naming a checkpoint_id or checkpoint_ns thread "t1" does not have.
    langgraph 0.2.60 refuses a namespace itself, before ckpt looks (measured); 1.x lists nothing."""
    if field == "checkpoint_ns" and LG < (1,):
        return f"Subgraph {value} not found"
    ns, cid = ("", value) if field == "checkpoint_id" else (value, None)
    return f"config names a point that thread 't1' does not have: checkpoint_ns {ns!r}, checkpoint_id {cid!r}"


def test_a_checkpoint_id_of_another_thread_is_not_in_this_one(ran):
    app, _ = ran
    app.invoke({"topic": "봄"}, ckpt.cfg("t2"))
    foreign = point(app, 4, "t2")["configurable"]["checkpoint_id"]
    with pytest.raises(ValueError) as info:
        ckpt.history_len(app, {"configurable": {"thread_id": "t1", "checkpoint_id": foreign}})
    assert str(info.value) == not_in_thread("checkpoint_id", foreign)


@pytest.mark.parametrize("empty", [None, ""])
def test_a_checkpoint_id_of_none_or_empty_means_the_threads_latest_point_as_in_langgraph(ran, empty):
    app, _ = ran
    config = {"configurable": {"thread_id": "t1", "checkpoint_id": empty}}
    assert ckpt.history_len(app, config) == 5 == len(list(app.get_state_history(config)))
    assert ckpt.pending(app, config) == NEXT


MALFORMED = [{"configurable": {}}, {"configurable": {"thread_id": None}}, {"thread_id": "t1"},
             {"configurable": "t1"}, "t1", None]


# --- thread ids


def test_an_int_thread_id_works_as_langgraph_treats_it(app):
    app.invoke({"topic": "가을"}, ckpt.cfg(1))
    assert ckpt.history_len(app, ckpt.cfg(1)) == 5
    assert ckpt.pending(app, ckpt.cfg(1)) == NEXT
    # measured: 1.x makes every thread_id a str, 0.2.60's in-memory saver keeps the int apart
    assert ckpt.history_len(app, ckpt.cfg("1")) == (5 if LG >= (1,) else 0)
    assert ckpt.replay(app, ckpt.cfg(1), "write")["added"] == ADDED["write"]
    assert ckpt.fork(app, ckpt.cfg(1), "review", {"score": 1})["total"] == 5 + ADDED["write"] + 2


def test_anatomy_names_the_same_thread_as_history_len_for_an_int_thread_id(app):
    app.invoke({"topic": "가을"}, ckpt.cfg(1))
    got = ckpt.anatomy(app, ckpt.cfg(1))
    assert got["metadata"]["step"] == 3, got["metadata"]
    assert got["checkpoint_id"] == point(app, 4, 1)["configurable"]["checkpoint_id"]


# --- property: any config gives the right answer or a clear error, the thread unchanged

REAL = st.integers(0, 4).map(lambda i: ("point", i))
CONFIGS = st.one_of(
    st.just(("thread", "t1")), st.just(("thread", "nobody")), REAL,
    st.text(min_size=1, max_size=12).map(lambda s: ("bad_id", s)),
    st.text(min_size=1, max_size=12).map(lambda s: ("bad_ns", s)),
    st.sampled_from(MALFORMED).map(lambda c: ("malformed", c)),
)
SETTINGS = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def build(app, kind, data):
    """The config of a generated case, and what the readers must return for it."""
    if kind == "thread":
        n = 5 if data == "t1" else 0
        return ckpt.cfg(data), (n, NEXT[:n], BYTES[:n])
    if kind == "point":
        return point(app, data), (1, [NEXT[data]], [BYTES[data]])
    if kind == "bad_id":
        return {"configurable": {"thread_id": "t1", "checkpoint_id": data}}, ValueError
    if kind == "bad_ns":
        return {"configurable": {"thread_id": "t1", "checkpoint_ns": data}}, ValueError
    return data, ValueError  # malformed


@SETTINGS
@given(case=CONFIGS)
def test_readers_give_the_langgraph_answer_or_a_clear_error_and_change_nothing(ran, case):
    app, _ = ran
    config, expected = build(app, *case)
    before, ids = thread_state(app), saver_ids(app)
    for name, read in READERS.items():
        if isinstance(expected, type):
            with pytest.raises(expected) as info:
                read(app, config)
            word = {"bad_id": "config names a point that thread 't1' does not have", "malformed": SHAPE,
                    "bad_ns": "config names a point" if LG >= (1,) else "Subgraph"}[case[0]]
            assert word in str(info.value), (name, case, info.value)
        else:
            got = read(app, config)
            length, nexts, sizes = expected
            want = {"history": length, "history_len": length, "pending": nexts,
                    "history_bytes": sizes, "snapshot_before": "write" in nexts}[name]
            got = {"history": len(got) if name == "history" else got,
                   "snapshot_before": got is not None}.get(name, got)
            assert got == want, (name, case, got, want)
    assert (thread_state(app), saver_ids(app)) == (before, ids), case


@SETTINGS
@given(case=CONFIGS, node=st.sampled_from(["plan", "write", "review", "nope"]),
       do_fork=st.booleans())
def test_replay_and_fork_give_the_threads_growth_or_a_clear_error(case, node, do_fork):
    app = ckpt.build_graph(ckpt.new_saver())
    app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    config, expected = build(app, *case)
    before, ids = thread_state(app), saver_ids(app)
    has_point = not isinstance(expected, type) and node in expected[1]
    call = ((lambda: ckpt.fork(app, config, node, {"angle": "요약"})) if do_fork
            else (lambda: ckpt.replay(app, config, node)))
    if not has_point:
        with pytest.raises(ValueError):
            call()
        assert (thread_state(app), saver_ids(app)) == (before, ids), (case, node)
        return
    got = call()
    if do_fork:
        assert (got["total"], got["original"]) == (TOTAL[node], END), (case, node, got)
    else:
        assert (got["added"], got["result"]) == (ADDED[node], END), (case, node, got)
    assert len(thread_state(app)) == (TOTAL[node] if do_fork else 5 + ADDED[node])
    assert thread_state(app)[-5:] == before, "the checkpoints before the call stay as they were"
