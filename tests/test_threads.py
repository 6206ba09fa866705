"""Step 2 of the lab: the graph with and without a checkpointer, and what a thread keeps."""
import typing

import pytest

import ckpt

END_OF_ONE_RUN = {"topic": "가을", "angle": "기본", "draft": "가을/기본", "stage": "review",
                  "score": 5, "notes": ["plan:가을", "write:기본", "review:5"]}


def test_cfg_names_the_thread():
    assert ckpt.cfg("run-1") == {"configurable": {"thread_id": "run-1"}}


def test_new_saver_is_a_new_empty_saver_on_every_call():
    first, second = ckpt.new_saver(), ckpt.new_saver()
    assert first is not second
    assert list(first.list(None)) == [] and list(second.list(None)) == []


def test_one_run_returns_the_final_values_of_the_three_nodes(app):
    got = app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    assert got == END_OF_ONE_RUN, got


def test_without_a_checkpointer_get_state_raises_no_checkpointer_set():
    app = ckpt.build_graph()
    app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    with pytest.raises(ValueError, match="No checkpointer set"):
        app.get_state(ckpt.cfg("t1"))


def test_without_a_checkpointer_two_runs_on_one_config_both_start_from_nothing():
    app = ckpt.build_graph(checkpointer=None)
    first = app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    second = app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
    assert first == second == END_OF_ONE_RUN, (first, second)
    assert len(second["notes"]) == 3, second


def test_the_same_thread_continues_and_notes_grow_from_3_to_6(app):
    config = ckpt.cfg("t1")
    first = app.invoke({"topic": "가을"}, config)
    second = app.invoke({"topic": "가을"}, config)
    assert len(first["notes"]) == 3, first
    assert second["notes"] == ["plan:가을", "write:기본", "review:5"] * 2, second
    assert app.get_state(config).values["notes"] == second["notes"], app.get_state(config)
    assert ckpt.history_len(app, config) == 10, ckpt.pending(app, config)


def test_another_thread_on_the_same_saver_starts_empty(ran):
    app, config = ran
    other = ckpt.cfg("t2")
    assert app.get_state(other).values == {}, app.get_state(other)
    assert ckpt.history_len(app, other) == 0
    fresh = app.invoke({"topic": "봄"}, other)
    assert fresh["notes"] == ["plan:봄", "write:기본", "review:4"], fresh
    assert app.get_state(config).values == END_OF_ONE_RUN, "thread t1 must be untouched by t2"


@pytest.mark.parametrize("checkpointer", ["notasaver", True, False, {}, 0, object(), type(ckpt.new_saver())],
                         ids=["str", "True", "False", "dict", "int", "object", "the saver class"])
def test_build_graph_refuses_a_checkpointer_that_is_not_a_saver(checkpointer):
    with pytest.raises(TypeError) as info:
        ckpt.build_graph(checkpointer)
    assert str(info.value).startswith("checkpointer must be None or a saver"), info.value


def test_build_graph_takes_none_or_a_saver():
    assert ckpt.build_graph(None).checkpointer is None
    saver = ckpt.new_saver()
    assert ckpt.build_graph(saver).checkpointer is saver


def test_public_signatures_use_langgraphs_types():
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.types import StateSnapshot

    def annotations(fn):
        return dict(fn.__annotations__)

    assert annotations(ckpt.build_graph) == {"checkpointer": typing.Optional[BaseCheckpointSaver],
                                             "return": CompiledStateGraph}
    assert annotations(ckpt.history) == {"app": CompiledStateGraph, "config": "RunnableConfig",
                                         "return": typing.List[StateSnapshot]}
    assert annotations(ckpt.snapshot_before)["return"] == typing.Optional[StateSnapshot]
    for fn in (ckpt.history_len, ckpt.pending, ckpt.replay, ckpt.fork, ckpt.history_bytes):
        assert annotations(fn)["app"] is CompiledStateGraph, fn
        assert annotations(fn)["config"] == "RunnableConfig", fn
