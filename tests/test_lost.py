"""Step 7 of the lab: a new in-memory saver knows nothing of the old one, and says nothing."""
import json

import pytest

import ckpt


@pytest.mark.parametrize("topic", ["가을", "", "  a/b \"q\"\n🍂  "])
def test_lost_demo_keeps_5_then_finds_0_and_empty_values_after_a_restart(topic):
    got = ckpt.lost_demo(topic)
    assert got == {"kept": 5, "after_restart": 0, "values_after_restart": {}}, got


def test_lost_demo_returns_plain_json_values():
    got = ckpt.lost_demo("가을")
    assert json.loads(json.dumps(got)) == got, got


def test_asking_a_new_saver_for_an_old_thread_raises_nothing(ran):
    app, config = ran
    restarted = ckpt.build_graph(ckpt.new_saver())
    assert restarted.get_state(config).values == {}, restarted.get_state(config)
    assert ckpt.history_len(restarted, config) == 0
    assert ckpt.history_len(app, config) == 5, "the old saver still has the thread"
