"""Step 3 of the lab: reading the checkpoints back, oldest first."""
import ckpt

NODES = ("plan", "write", "review")
NEXT_OLDEST_FIRST = [("__start__",), ("plan",), ("write",), ("review",), ()]


def _ids(snapshots):
    return [s.config["configurable"]["checkpoint_id"] for s in snapshots]


def test_history_is_oldest_first(ran):
    app, config = ran
    snaps = ckpt.history(app, config)
    assert [s.next for s in snaps] == NEXT_OLDEST_FIRST, [s.next for s in snaps]
    assert [s.metadata["step"] for s in snaps] == [-1, 0, 1, 2, 3], [s.metadata for s in snaps]
    newest_first = list(app.get_state_history(config))
    assert _ids(snaps) == _ids(newest_first)[::-1]


def test_history_ends_with_the_threads_current_state(ran):
    app, config = ran
    snaps = ckpt.history(app, config)
    assert snaps[-1].values == app.get_state(config).values, snaps[-1]
    assert snaps[0].metadata["source"] == "input", snaps[0].metadata


def test_history_len_is_5_after_one_run(ran):
    app, config = ran
    assert ckpt.history_len(app, config) == 5, ckpt.pending(app, config)


def test_pending_names_the_next_node_of_each_snapshot(ran):
    app, config = ran
    assert ckpt.pending(app, config) == ["__start__", "plan", "write", "review", ""]


def test_an_unknown_thread_has_no_history():
    app = ckpt.build_graph(ckpt.new_saver())
    config = ckpt.cfg("nobody")
    assert ckpt.history(app, config) == []
    assert ckpt.history_len(app, config) == 0
    assert ckpt.pending(app, config) == []


def test_snapshot_before_write_is_the_point_after_plan(ran):
    app, config = ran
    snap = ckpt.snapshot_before(app, config, "write")
    assert snap.next == ("write",), snap
    assert snap.values == {"topic": "가을", "angle": "기본", "stage": "plan",
                           "notes": ["plan:가을"]}, snap.values
    assert snap.config["configurable"]["checkpoint_id"] == _ids(ckpt.history(app, config))[2]


def test_snapshot_before_returns_a_config_carrying_thread_and_checkpoint_id(ran):
    app, config = ran
    for node in NODES:
        got = ckpt.snapshot_before(app, config, node).config["configurable"]
        assert got["thread_id"] == "t1", got
        assert isinstance(got["checkpoint_id"], str) and got["checkpoint_id"], got
        assert app.get_state(ckpt.snapshot_before(app, config, node).config).next == (node,)


def test_snapshot_before_returns_the_latest_match_after_a_replay_added_a_second(ran):
    app, config = ran
    ckpt.replay(app, config, "write")
    snaps = ckpt.history(app, config)
    reviews = [s for s in snaps if s.next == ("review",)]
    assert len(reviews) == 2, [s.next for s in snaps]
    got = ckpt.snapshot_before(app, config, "review")
    assert _ids([got]) == _ids(reviews[-1:]), (got.config, _ids(reviews))
    assert _ids([got]) != _ids(reviews[:1])
    for node in NODES:  # every node: the newest snapshot whose next is (node,)
        latest = [s for s in snaps if s.next == (node,)][-1]
        assert _ids([ckpt.snapshot_before(app, config, node)]) == _ids([latest]), node


def test_snapshot_before_is_none_when_there_is_no_such_point(ran):
    app, config = ran
    assert ckpt.snapshot_before(app, config, "nope") is None
    assert ckpt.snapshot_before(app, config, "") is None  # the end has next == (), not ("",)
    assert ckpt.snapshot_before(app, ckpt.cfg("nobody"), "write") is None
