"""The measures the report prints, each a public ckpt function: exact values on both lines.

The crash demos' figures (the trap among them) are pinned in tests/test_crash.py."""
import fractions

import pytest

import ckpt
from conftest import LG

TOPIC = "가을"
FINAL = {"topic": TOPIC, "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
         "notes": ["plan:가을", "write:기본", "review:5"]}  # one plain run, written out
FORK_EXTRA = LG >= (1, 1, 7)  # from 1.1.7 a replay first writes a "fork" checkpoint


def test_checkpoint_rows_after_one_run(ran):
    app, config = ran
    assert ckpt.checkpoint_rows(app, config) == [
        {"position": 0, "parent": None, "step": -1, "source": "input", "next": ["__start__"], "changed": [], "bytes": 13},
        {"position": 1, "parent": 0, "step": 0, "source": "loop", "next": ["plan"], "changed": ["topic"], "bytes": 32},
        {"position": 2, "parent": 1, "step": 1, "source": "loop", "next": ["write"], "changed": ["angle", "notes", "stage"],
         "bytes": 81},
        {"position": 3, "parent": 2, "step": 2, "source": "loop", "next": ["review"], "changed": ["draft", "notes", "stage"],
         "bytes": 124},
        {"position": 4, "parent": 3, "step": 3, "source": "loop", "next": [], "changed": ["notes", "score", "stage"],
         "bytes": 149},
    ]


def test_thread_demo_same_thread_continues_other_starts_empty_none_keeps_nothing():
    assert ckpt.thread_demo(TOPIC) == {
        "same_thread_notes": [3, 6], "same_thread_checkpoints": 10, "history_newest_first": True,
        "other_thread_notes": 3, "other_thread_checkpoints": 5,
        "no_checkpointer_notes": [3, 3], "no_checkpointer_error": "ValueError: No checkpointer set"}


def test_replay_rows_before_each_node():
    fork = ["fork"] if FORK_EXTRA else []
    ends = {"current_is_new_end": True, "old_end_readable": True}  # the thread reads the replay's end; the old end stays
    assert ckpt.replay_rows(TOPIC) == [
        dict(ends, **{"from": "plan", "added": 3 + FORK_EXTRA, "ran": ["plan", "write", "review"], "sources": fork + ["loop"] * 3}),
        dict(ends, **{"from": "write", "added": 2 + FORK_EXTRA, "ran": ["write", "review"], "sources": fork + ["loop"] * 2}),
        dict(ends, **{"from": "review", "added": 1 + FORK_EXTRA, "ran": ["review"], "sources": fork + ["loop"]}),
    ]


def test_after_a_replay_the_thread_reads_the_replays_last_checkpoint_and_the_old_end_stays(ran):
    app, config = ran  # plain LangGraph: the reference for replay_rows' two flags
    old_end = app.get_state(config)
    snap = next(s for s in app.get_state_history(config) if s.next == ("write",))
    app.invoke(None, snap.config)
    newest = next(iter(app.get_state_history(config)))
    assert app.get_state(config).config == newest.config
    assert app.get_state(old_end.config).values == old_end.values


def test_a_real_input_at_a_past_checkpoint_runs_from_the_first_node_on_the_saved_values():
    assert ckpt.rerun_with_input(TOPIC, "겨울") == {
        "input": {"topic": "겨울"}, "ran": ["plan", "write", "review"], "added": 5,
        "notes": ["plan:가을", "plan:겨울", "write:기본", "review:5"], "topic": "겨울"}


def test_fork_demo_before_write():
    assert ckpt.fork_demo(TOPIC, "비교") == {
        "before": 5, "total": 8, "base_draft": "가을/기본", "base_score": 5,
        "fork_draft": "가을/비교 가을/비교 가을/비교", "fork_score": 17, "ran": ["write", "review"],
        "sources": ["update", "loop", "loop"],
        "original_is_old_end": True, "current_is_new_end": True, "old_end_readable": True}


def test_first_run_with_a_payload_carries_it_in_4_of_5_checkpoints_with_its_key():
    thin = [row["bytes"] for row in ckpt.first_run(TOPIC)["checkpoints"]]
    fat = [row["bytes"] for row in ckpt.first_run(TOPIC, "x" * 1500)["checkpoints"]]
    assert (thin, fat) == ([13, 32, 81, 124, 149], [13, 1544, 1593, 1636, 1661])
    assert [f - t for t, f in zip(thin, fat)] == [0] + [1500 + len(', "bulk": ""')] * 4


@pytest.mark.parametrize("mode", ["exit", "async", "sync", None])
def test_a_run_that_fails_with_an_exception_keeps_the_point_it_stopped_at(mode):
    if mode is not None and LG < (0, 6):
        with pytest.raises(ValueError, match="durability"):
            ckpt.failed_run(TOPIC, mode)
        return
    kept = 1 if mode == "exit" else 4
    assert ckpt.failed_run(TOPIC, mode) == {
        "durability": mode, "error": "RuntimeError: review failed", "checkpoints": kept,
        "next": ["review"], "ran_on_resume": ["review"], "result": FINAL}


def test_the_trap_needs_a_store_that_outlives_the_child():
    with pytest.raises(ValueError, match='backend must be "sqlite" or "postgres"'):
        ckpt.trap_demo(TOPIC, "memory")


def test_postgres_keeps_str_values_inline_and_lists_and_the_input_in_blobs(pg_url):
    got = ckpt.physical_vs_logical(TOPIC, "x" * 1500, ["postgres"], url=pg_url)[0]["placement"]
    assert got["blob"] == ["__start__", "notes"], got
    assert {"angle", "bulk", "draft", "score", "stage", "topic"} <= set(got["inline"]), got
    assert not set(got["inline"]) & set(got["blob"]), got


@pytest.mark.parametrize("call, words", [
    (lambda: ckpt.first_run(None), "topic must be a str, got NoneType"),
    (lambda: ckpt.thread_demo(None), "topic must be a str, got NoneType"),
    (lambda: ckpt.replay_rows(None), "topic must be a str, got NoneType"),
    (lambda: ckpt.rerun_with_input(1, "겨울"), "topic must be a str, got int"),
    (lambda: ckpt.rerun_with_input(TOPIC, 2), "must be a str, got int"),
    (lambda: ckpt.fork_demo(None, "비교"), "topic must be a str, got NoneType"),
    (lambda: ckpt.fork_demo(TOPIC, "긴글"), "angle must be one of"),
    (lambda: ckpt.time_travel_tree(TOPIC, ["비교"]), "angle must be one of"),
    (lambda: ckpt.first_run(None, "x"), "topic must be a str, got NoneType"),
    (lambda: ckpt.first_run(TOPIC, ""), "payload must be a non-empty value"),
    (lambda: ckpt.first_run(TOPIC, fractions.Fraction(1, 3)), "payload of type Fraction cannot be serialized"),
])
def test_each_measure_refuses_a_bad_topic_angle_or_payload_naming_it(call, words):
    with pytest.raises((TypeError, ValueError), match=words):
        call()
