"""What update_state writes and what each config then reads: the lab's third mistake (running on
with the config from before update_state), reducers, a config naming a checkpoint, a finished
thread resumed or replayed from its end. Expected values measured with plain LangGraph on both
lines (the issue's figures): 9 checkpoints on 1.x, 8 on 0.2.60 for the mistake; a replay from
the end writes one "fork" checkpoint from 1.1.7 on, none before."""
import ckpt
from conftest import LG


def test_update_state_then_invoke_with_the_old_config_leaves_the_update_unused():
    got = ckpt.update_state_demo("가을", "비교")
    assert got["old_config"] == {"draft": "가을/기본", "score": 5, "checkpoints": 9 if LG >= (1, 0) else 8,
                                 "update_angle": "비교"}, got


def test_update_state_writes_through_the_reducer_as_the_node_before_the_point():
    got = ckpt.update_state_demo("가을", "비교")
    assert got["reducer"] == {"notes": ["plan:가을", "replaced"], "next": ["write"], "source": "update"}, got


def test_a_config_naming_a_checkpoint_lists_one_and_history_is_oldest_first():
    got = ckpt.update_state_demo("가을", "요약")
    assert got["named_lists"] == 1, got
    assert got["first_steps"] == {"get_state_history": 3, "history": -1}, got


def test_a_finished_thread_runs_no_node_on_resume_and_a_replay_from_its_end_writes_a_fork_from_1_1_7():
    got = ckpt.update_state_demo("가을", "비교")
    assert got["finished"] == {"added": 0, "ran": []}, got
    assert got["end_replay"] == {"added": 1 if LG >= (1, 1, 7) else 0, "ran": []}, got


def test_an_int_thread_id_and_its_str_are_one_thread_from_langgraph_0_3_31_two_before():
    got = ckpt.update_state_demo("가을", "비교")
    assert got["int_and_str_ids"] == [5, 5 if LG >= (0, 3, 31) else 0], got
