"""Steps 4 and 5 of the lab: replay from a saved point, fork with changed values."""
import pytest

import ckpt
from conftest import LG

# SPEC §3: from langgraph 1.1.7 a replay first writes one extra checkpoint (source "fork")
ADDED = {"plan": 4, "write": 3, "review": 2} if LG >= (1, 1, 7) else {"plan": 3, "write": 2, "review": 1}
END = {"topic": "가을", "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
       "notes": ["plan:가을", "write:기본", "review:5"]}


def _id(config):
    return config["configurable"]["checkpoint_id"]


@pytest.mark.parametrize("node", ["plan", "write", "review"])
def test_replay_adds_the_published_number_of_checkpoints_for_the_installed_langgraph(ran, node):
    app, config = ran
    got = ckpt.replay(app, config, node)
    assert got["added"] == ADDED[node], (LG, got, ckpt.pending(app, config))
    assert ckpt.history_len(app, config) == 5 + ADDED[node], ckpt.pending(app, config)
    assert got["from"] == node, got


@pytest.mark.parametrize("node", ["plan", "write", "review"])
def test_replay_with_the_same_values_reaches_the_same_end(ran, node):
    app, config = ran
    got = ckpt.replay(app, config, node)
    assert got["result"] == END, got
    assert app.get_state(config).values == END


@pytest.mark.parametrize("node", ["plan", "write", "review"])
def test_replay_writes_a_fork_checkpoint_first_exactly_from_langgraph_1_1_7(ran, node):
    app, config = ran
    ckpt.replay(app, config, node)
    added = ckpt.history(app, config)[5:]
    sources = [s.metadata["source"] for s in added]
    if LG >= (1, 1, 7):
        assert sources == ["fork"] + ["loop"] * (ADDED[node] - 1), (LG, sources)
        assert added[0].next == (node,), added[0]
    else:
        assert sources == ["loop"] * ADDED[node], (LG, sources)
    assert [s.next for s in added][-1] == (), [s.next for s in added]


@pytest.mark.parametrize("angle, draft", [("요약", "가을/요약 가을/요약"),
                                          ("비교", "가을/비교 가을/비교 가을/비교")])
def test_fork_before_write_runs_a_new_branch_with_the_new_angle(ran, angle, draft):
    app, config = ran
    got = ckpt.fork(app, config, "write", {"angle": angle})
    assert got["total"] == 8, (got, ckpt.pending(app, config))
    assert ckpt.history_len(app, config) == 8
    assert got["result"] == {"topic": "가을", "angle": angle, "draft": draft, "stage": "review",
                             "score": len(draft),
                             "notes": ["plan:가을", f"write:{angle}", f"review:{len(draft)}"]}, got
    assert len(draft) == {"요약": 11, "비교": 17}[angle], draft


@pytest.mark.parametrize("angle", ["요약", "비교"])
def test_fork_returns_the_end_before_the_fork_as_original(ran, angle):
    app, config = ran
    before = app.get_state(config).values
    got = ckpt.fork(app, config, "write", {"angle": angle})
    assert got["original"] == before == END, got


@pytest.mark.parametrize("angle", ["요약", "비교"])
def test_fork_makes_the_new_branch_the_threads_current_state(ran, angle):
    app, config = ran
    got = ckpt.fork(app, config, "write", {"angle": angle})
    assert app.get_state(config).values == got["result"], app.get_state(config)
    assert app.get_state(config).next == ()


@pytest.mark.parametrize("angle", ["요약", "비교"])
def test_fork_keeps_the_original_branch_readable_by_its_own_config(ran, angle):
    app, config = ran
    old_end = app.get_state(config).config
    ckpt.fork(app, config, "write", {"angle": angle})
    assert app.get_state(old_end).values == END, app.get_state(old_end)
    assert _id(app.get_state(config).config) != _id(old_end)


@pytest.mark.parametrize("angle", ["요약", "비교"])
def test_fork_returns_the_branch_point_config_that_update_state_wrote(ran, angle):
    app, config = ran
    point = ckpt.snapshot_before(app, config, "write")
    got = ckpt.fork(app, config, "write", {"angle": angle})
    branch = app.get_state(got["forked_config"])
    assert _id(got["forked_config"]) != _id(point.config), got["forked_config"]
    assert got["forked_config"]["configurable"]["thread_id"] == "t1", got["forked_config"]
    assert branch.next == ("write",), branch
    assert branch.values["angle"] == angle, branch.values
    assert branch.metadata["source"] == "update", branch.metadata
    assert ckpt.pending(app, config) == ["__start__", "plan", "write", "review", "",
                                         "write", "review", ""]


def test_a_fork_value_of_none_is_written_on_1x_and_skipped_by_0_2_60(ran):
    app, config = ran
    got = ckpt.fork(app, config, "review", {"bulk": None})
    assert got["total"] == 7, got
    if LG < (1, 0):  # 0.2.60's update_state leaves out a None value
        assert "bulk" not in got["result"], got
    else:
        assert got["result"]["bulk"] is None, got
