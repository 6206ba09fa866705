"""What a LangGraph checkpointer keeps, measured: a three-node graph and the lab's measures.

A checkpointer saves the *whole* state at every super-step, so a thread can be continued,
replayed from any saved point, or forked with changed values; and for the same reason the
size of the state is the cost of saving it. Sizes here are bytes of a JSON serialization,
never time. Sections 1-7 are the lab's steps, in its order. Below the "Beyond the lab"
banner: real durable savers (SQLite, PostgreSQL), the measures the report prints, real
process restarts and crashes, what each saver physically stores, and the checks that refuse
configs, values and stores no saver handles as they are.

Glossary:
  config    {"configurable": {"thread_id": ..., ["checkpoint_ns": "", "checkpoint_id": ...]}}
            which thread, which point (without checkpoint_id: the thread's latest point)
  snapshot  LangGraph's StateSnapshot: .values, .next (nodes still to run), .config, .metadata
  thread    one conversation's chain of checkpoints, named by thread_id
"""

import contextlib
import functools
import json
import operator
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from typing import TYPE_CHECKING, Annotated, Any, Dict, Iterator, List, Optional, TypedDict, Union

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import StateSnapshot

try:  # langgraph-checkpoint >= 2.0.x names it InMemorySaver; MemorySaver is the old alias
    from langgraph.checkpoint.memory import InMemorySaver as _MemorySaver
except ImportError:  # pragma: no cover - only very old releases
    from langgraph.checkpoint.memory import MemorySaver as _MemorySaver

if TYPE_CHECKING:  # a config is a plain dict at run time; this is its type for type checkers
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "ANGLES", "State", "plan", "write", "review", "build_graph", "new_saver", "cfg",
    "history", "history_len", "pending", "snapshot_before", "replay", "fork",
    "state_bytes", "history_bytes", "weigh", "lost_demo",
    # beyond the lab
    "open_saver", "invoke", "restart_demo", "crash_demo", "anatomy", "anatomy_rows",
    "first_run", "checkpoint_rows", "thread_demo", "replay_rows", "rerun_with_input", "fork_demo",
    "checkpoint_tree", "time_travel_tree", "weigh_rows", "FIELD_PURPOSES",
    "package_version", "langgraph_version", "has_durability", "has_backend", "incompressible",
    "payload_size", "NODES", "DEFAULT_ANGLE", "BACKENDS", "EXTRAS",
    "stored_bytes", "weigh_stored", "physical_vs_logical", "postgres_placement", "durability_counts",
    "payload_sweep", "failed_run", "trap_demo",
]

NODES = ("plan", "write", "review")  # the graph's nodes, in the order they run

# angle name -> how many times the draft repeats "<topic>/<angle>"
ANGLES = {"기본": 1, "요약": 2, "비교": 3}
DEFAULT_ANGLE = "기본"


class State(TypedDict, total=False):
    """The graph's state. `notes` has a reducer (lists are added); every other key is overwritten."""

    topic: str
    angle: str
    draft: str
    stage: str
    score: int
    notes: Annotated[list[str], operator.add]
    bulk: Any  # any large value, carried along untouched: what it costs is what `weigh` measures


# ---------------------------------------------------------------------------------------
# 1. The nodes: plain functions of the dict they are given.


def _angle_of(state: dict) -> str:
    """The state's angle, or "기본" when missing or empty; ValueError for an unknown one."""
    angle = state.get("angle") or DEFAULT_ANGLE
    if angle not in ANGLES:
        raise ValueError(f"angle must be one of {sorted(ANGLES)}, got {angle!r}")
    return angle


def plan(state: dict) -> dict:
    """Pick the angle. {"topic": "가을"} -> {"stage": "plan", "angle": "기본", "notes": ["plan:가을"]}"""
    return {"stage": "plan", "angle": _angle_of(state), "notes": [f"plan:{state.get('topic', '')}"]}


def write(state: dict) -> dict:
    """Write the draft: "<topic>/<angle> " repeated ANGLES[angle] times, then stripped at both ends.

    {"topic": "가을", "angle": "요약"} -> {"draft": "가을/요약 가을/요약", "stage": "write",
    "notes": ["write:요약"]}. ValueError for an angle not in ANGLES.
    """
    angle = _angle_of(state)
    draft = (f"{state.get('topic', '')}/{angle} " * ANGLES[angle]).strip()
    return {"draft": draft, "stage": "write", "notes": [f"write:{angle}"]}


def review(state: dict) -> dict:
    """Score the draft by its length in characters (not bytes).

    {"draft": "가을/기본"} -> {"stage": "review", "score": 5, "notes": ["review:5"]}
    """
    score = len(state.get("draft", ""))
    return {"stage": "review", "score": score, "notes": [f"review:{score}"]}


# ---------------------------------------------------------------------------------------
# 2. The graph, the saver, the thread.


def build_graph(checkpointer: Optional[BaseCheckpointSaver] = None) -> CompiledStateGraph:
    """START -> plan -> write -> review -> END, compiled with `checkpointer` (None saves nothing).

    Returns LangGraph's CompiledStateGraph. Without a checkpointer, `get_state` raises
    LangGraph's ValueError ("No checkpointer set") and every run starts from nothing.
    TypeError naming `checkpointer` for anything but None or a saver (a BaseCheckpointSaver).
    Rests on `StateGraph(State).compile(checkpointer=checkpointer)`.
    """
    if checkpointer is not None and not isinstance(checkpointer, BaseCheckpointSaver):
        raise TypeError(f"checkpointer must be None or a saver (a langgraph BaseCheckpointSaver, "
                        f"e.g. new_saver()), got {type(checkpointer).__name__}")
    graph = StateGraph(State)
    graph.add_node("plan", plan)
    graph.add_node("write", write)
    graph.add_node("review", review)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "write")
    graph.add_edge("write", "review")
    graph.add_edge("review", END)
    return graph.compile(checkpointer=checkpointer)


def new_saver() -> BaseCheckpointSaver:
    """A new, empty in-memory saver (`InMemorySaver`, formerly `MemorySaver`) on every call."""
    return _MemorySaver()


def cfg(thread_id: Union[str, int]) -> "RunnableConfig":
    """The config naming a thread: cfg("run-1") -> {"configurable": {"thread_id": "run-1"}}

    The id is passed on as given; LangGraph decides what it means: an int 1 is the thread
    "1" on langgraph 1.x and on SQLite, but a thread of its own in 0.2.60's in-memory saver.
    TypeError naming `thread_id` for None (0.2.60 would put every such run in one thread,
    1.x would read nothing back).
    """
    _check_thread_id(thread_id)
    return {"configurable": {"thread_id": thread_id}}


def _check_thread_id(thread_id: Any) -> None:
    if thread_id is None:
        raise TypeError("thread_id must not be None: name the thread, e.g. cfg(\"run-1\") "
                        "(without an id, langgraph 0.2.60 puts every run in one thread and 1.x "
                        "reads nothing back)")


def _thread_id(config: Any) -> Any:
    """config["configurable"]["thread_id"]; ValueError naming `config` with the expected
    shape, TypeError naming `thread_id` when it is None."""
    if not (isinstance(config, dict) and isinstance(config.get("configurable"), dict)
            and "thread_id" in config["configurable"]):
        raise ValueError('config must be {"configurable": {"thread_id": ...}}, optionally with '
                         f'"checkpoint_ns" and "checkpoint_id" (see cfg()), got {config!r}')
    thread_id = config["configurable"]["thread_id"]
    _check_thread_id(thread_id)
    return thread_id


def _check_config(app: CompiledStateGraph, config: Any) -> "RunnableConfig":
    """Check `config` against `app`; return the config naming its whole thread.

    {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "1f0..."}} ->
    {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}. Raises ValueError naming
    `config` for a malformed config, a checkpoint_ns the graph does not have, or a
    checkpoint_id the thread does not have, and (_check_format) for a checkpoint written in
    a format newer than the installed langgraph reads; TypeError naming `thread_id` for None.
    Rests on `app.get_subgraphs()`, `app.checkpointer.get_tuple(...)` and
    `app.get_state_history(config, limit=1)`.
    """
    thread_id = _thread_id(config)
    namespace = config["configurable"].get("checkpoint_ns", "")
    if not isinstance(namespace, str):
        raise ValueError(f"config's checkpoint_ns must be a str, got {namespace!r}")
    # a subgraph's namespace reads "node:task_id|node:task_id"; get_subgraphs knows "node|node"
    if namespace and not any(True for _ in app.get_subgraphs(
            namespace="|".join(part.split(":")[0] for part in namespace.split("|")), recurse=True)):
        raise ValueError(f"config names checkpoint_ns {namespace!r}, which this graph does not "
                         f'have (it has no subgraph there; its own namespace is "")')
    checkpoint_id = config["configurable"].get("checkpoint_id")
    _check_format(app, thread_id, namespace, checkpoint_id)
    # subtle: LangGraph reads a checkpoint_id of None or "" as none: the thread's latest point
    if checkpoint_id and not any(True for _ in app.get_state_history(config, limit=1)):
        raise ValueError(f"config names checkpoint_id {checkpoint_id!r}, which thread "
                         f"{thread_id!r} does not have (namespace {namespace!r})")
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": namespace}}


def _saver_config(app: CompiledStateGraph, config: Any) -> "RunnableConfig":
    """`config` checked by _check_config, as LangGraph hands it to the saver: for code that
    calls the saver itself, so it names the same thread as history() does.

    cfg(1) -> {"configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id":
    "1f0..."}} on langgraph 1.x, which makes every thread_id a str (0.2.60 keeps the int 1):
    the config of the thread's latest checkpoint, or of the one `config` names; when the
    thread has none, the thread's config with the thread_id LangGraph reads it by.
    Rests on `app.get_state_history(config, limit=1)`.
    """
    thread = _check_config(app, config)
    named = config if config["configurable"].get("checkpoint_id") else thread
    for snap in app.get_state_history(named, limit=1):
        return snap.config
    # subtle: langgraph 1.x writes a thread_id of 0 as the int but reads it as "0": ask for
    # what it reads, so a run it cannot find is not found here either
    thread["configurable"]["thread_id"] = _saver_thread_id(thread["configurable"]["thread_id"])
    return thread


# ---------------------------------------------------------------------------------------
# 3. Reading the checkpoints back.
#
# subtle: LangGraph's get_state_history(config) lists the whole thread only for a config
# without checkpoint_id. A config naming a checkpoint, such as the one update_state
# returns, lists that one checkpoint: history_len(app, fork(...)["forked_config"]) == 1.


def history(app: CompiledStateGraph, config: "RunnableConfig") -> List[StateSnapshot]:
    """The thread's snapshots, oldest first: [input, after __start__, after plan, ..., end].

    After one run on cfg("t"): 5 snapshots, their .next ("__start__",) ... (). A config
    naming a checkpoint_id gives that one snapshot: [<the snapshot at that id>].
    Rests on `app.get_state_history(config)`, which yields newest first. ValueError naming
    `config` for a malformed config or a checkpoint_id/checkpoint_ns not in the thread;
    TypeError for a thread_id of None.
    """
    _check_config(app, config)
    return list(app.get_state_history(config))[::-1]  # subtle: LangGraph gives newest first


def history_len(app: CompiledStateGraph, config: "RunnableConfig") -> int:
    """How many checkpoints `app.get_state_history(config)` lists: 5 after one run.

    For cfg(thread_id) that is the whole thread, every branch included (8 after a fork
    before "write"); for a config naming a checkpoint_id it is 1. Errors as history().
    """
    _check_config(app, config)
    return _count(app, config)


def _count(app: CompiledStateGraph, config: "RunnableConfig") -> int:
    return sum(1 for _ in app.get_state_history(config))


def pending(app: CompiledStateGraph, config: "RunnableConfig") -> List[str]:
    """For each snapshot, oldest first, the node to run next ("" once nothing is left).

    After one run: ["__start__", "plan", "write", "review", ""]; for a config naming the
    checkpoint after plan: ["write"]. Rests on history(); errors as history().
    """
    return [snap.next[0] if snap.next else "" for snap in history(app, config)]


def snapshot_before(app: CompiledStateGraph, config: "RunnableConfig",
                    node: str) -> Optional[StateSnapshot]:
    """The most recent snapshot whose `next == (node,)`: the latest point where `node` had not run.

    Returns LangGraph's StateSnapshot (its `.config` carries `checkpoint_id`), or None when
    there is no such point. Rests on `app.get_state_history(config)`, newest first, so the
    first match is the most recent one. For a config naming a checkpoint_id only that
    checkpoint is looked at: snapshot_before(app, fork(...)["forked_config"], "write") is
    the branch point itself, and None for "review". Config errors as history().
    """
    _check_config(app, config)
    return _latest_before(app, config, node)


def _latest_before(app: CompiledStateGraph, config: "RunnableConfig",
                   node: str) -> Optional[StateSnapshot]:
    for snap in app.get_state_history(config):
        if snap.next == (node,):
            return snap
    return None


def _require_point(app: CompiledStateGraph, config: "RunnableConfig", node: Any) -> StateSnapshot:
    """snapshot_before, or a ValueError naming `node` and the nodes that do have a point."""
    if not isinstance(node, str):
        raise TypeError(f"node must be a str (one of {list(NODES)}), got {type(node).__name__}")
    snap = _latest_before(app, config, node)
    if snap is not None:
        return snap
    seen = {s.next[0] for s in app.get_state_history(config) if len(s.next) == 1}
    points = [n for n in ("__start__",) + NODES if n in seen]
    where = f"thread {_thread_id(config)!r}"
    if config["configurable"].get("checkpoint_id"):
        where = (f"checkpoint {config['configurable']['checkpoint_id']!r} (config names one "
                 f"checkpoint, so only it is searched; pass cfg(thread_id) for the whole thread)")
    raise ValueError(f"node {node!r} has no point in {where}: " + (
        f"the nodes that have one are {points}" if points else "the thread has no history"))


# ---------------------------------------------------------------------------------------
# 4. Replay: run again from a saved point, with the same values.


def replay(app: CompiledStateGraph, config: "RunnableConfig", node: str) -> dict:
    """Re-run the thread from the latest point before `node`, with the values saved there.

    Returns {"from": "write", "result": {<final values>}, "added": 2}: `added` is how many
    checkpoints the thread gained, from plan/write/review: 3/2/1 before langgraph 1.1.7,
    4/3/2 from 1.1.7 on, which first writes a checkpoint with metadata source "fork".
    `added` counts the whole thread (its thread_id and checkpoint_ns) even when `config`
    names a checkpoint; the point itself is looked for as snapshot_before does.
    Rests on `app.invoke(None, snapshot.config)`: input None continues from the saved point
    (any other input runs from the first node again, on top of the values saved there:
    rerun_with_input). ValueError when there is no such point, and for
    config errors as history(); TypeError for a node that is not a str.
    """
    thread = _check_config(app, config)
    snap = _require_point(app, config, node)
    before = _count(app, thread)
    result = app.invoke(None, snap.config)
    return {"from": node, "result": result, "added": _count(app, thread) - before}


# ---------------------------------------------------------------------------------------
# 5. Fork: change values at a saved point and continue on a new branch.


def _check_values(values: Any) -> None:
    """Errors naming `values` (and the path to the bad part) when they could not be a State
    update or could not be stored as they are; see _check_storable."""
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of State keys, got {type(values).__name__}")
    unknown = [k for k in values if k not in State.__annotations__]
    if unknown:
        raise ValueError(f"values has keys that are not State keys: {unknown}; "
                         f"State keys are {list(State.__annotations__)}")
    for key in ("topic", "angle", "draft", "stage"):
        if key in values and not isinstance(values[key], str):
            raise TypeError(f"{_path('values', key)} must be a str, "
                            f"got {type(values[key]).__name__}")
    score = values.get("score", 0)
    if isinstance(score, bool) or not isinstance(score, int):
        raise TypeError(f"{_path('values', 'score')} must be an int, got {type(score).__name__}")
    if "angle" in values and values["angle"] not in ANGLES:
        raise ValueError(f"{_path('values', 'angle')} must be one of {list(ANGLES)}, "
                         f"got {values['angle']!r}")
    if "notes" in values and not (isinstance(values["notes"], list)
                                  and all(isinstance(note, str) for note in values["notes"])):
        raise TypeError(f"{_path('values', 'notes')} must be a list of str (it is added to the "
                        f"notes), got {values['notes']!r}")
    _check_storable(values, "values")


def fork(app: CompiledStateGraph, config: "RunnableConfig", node: str, values: dict) -> dict:
    """Write `values` at the latest point before `node` and run on from there: a new branch.

    Returns {"forked_config": {<config with the branch's checkpoint_id>}, "result": {<final
    values of the branch>}, "original": {<values at the thread's end before the fork>},
    "total": 8}: `total` is the thread's checkpoints now (5 -> 8 when forking before
    "write" after one run: the branch point, then write and review again). `original` and
    `total` are the whole thread's (its thread_id and checkpoint_ns) even when `config`
    names a checkpoint; the point itself is looked for as snapshot_before does.
    Rests on `app.update_state(snapshot.config, values)` and `app.invoke(None, <the config
    it returned>)`. The original branch is kept: `get_state(cfg(thread_id))` now shows the
    new branch's end, the old end stays readable through its own config.
    Raises ValueError for a node with no point or "__start__" (a fork there would lose the
    input), TypeError/ValueError naming `values` and the bad part for values that are not a
    dict of State keys or cannot be stored (see _check_storable), config errors as
    history(); nothing is written then.
    """
    thread = _check_config(app, config)
    if node == "__start__":
        raise ValueError('node must be a node of the graph (plan, write or review), not "__start__": '
                         "a fork before the input would lose the topic")
    _check_values(values)
    snap = _require_point(app, config, node)
    original = app.get_state(thread).values
    forked_config = app.update_state(snap.config, values)
    # subtle: continue from the config update_state returned; the old one is the old branch
    result = app.invoke(None, forked_config)
    return {"forked_config": forked_config, "result": result, "original": original,
            "total": _count(app, thread)}


# ---------------------------------------------------------------------------------------
# 6. Bytes: what a checkpoint costs.


def state_bytes(values: Any) -> int:
    """Bytes of the state in UTF-8 JSON: {"topic": "가을"} -> 19.

    Exactly the lab's len(json.dumps(values, ensure_ascii=False, sort_keys=True,
    default=str).encode("utf-8")). Values json rejects (datetime, set, bytes) are written as
    their str(). A value json cannot write at all is an error naming `values` and the path
    to the part: TypeError for dict keys (values["a"] has keys of types ['int', 'str']),
    ValueError for a lone surrogate or a cycle.
    """
    try:
        return len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        problem = _problem(values, "values", stored=False)
        if problem is None:  # e.g. a str() of a default=str value with a lone surrogate
            kind = ValueError if isinstance(exc, ValueError) else TypeError
            problem = kind(f"values cannot be written as JSON: {exc}")
        raise problem from None


def _measure_each(app: CompiledStateGraph, config: "RunnableConfig", measure: Any) -> list:
    """[measure(snapshot) for each snapshot of the thread], oldest first, one snapshot at a time.

    subtle: `get_state_history` reads the whole history before yielding the first snapshot,
    so a large value in the state would be held once per checkpoint. Paging with
    `get_state_history(config, before=<previous snapshot's config>, limit=1)` holds one.
    """
    results, before = [], None
    while True:
        page = list(app.get_state_history(config, before=before, limit=1))
        if not page:
            return results[::-1]
        before = page[0].config
        results.append(measure(page.pop()))  # pop: the snapshot is freed before the next read


def history_bytes(app: CompiledStateGraph, config: "RunnableConfig") -> List[int]:
    """state_bytes of each snapshot's values, oldest first: [13, 32, 81, 124, 149] (bytes).

    One entry per snapshot of history(app, config): a config naming a checkpoint_id gives
    one entry. Rests on `app.get_state_history(config, before=..., limit=1)`, read one
    snapshot at a time, so a large value in the state is held once, not once per
    checkpoint. Config errors as history().
    """
    _check_config(app, config)
    return _measure_each(app, config, lambda snap: state_bytes(snap.values))


def payload_size(payload: Any) -> int:
    """The payload's own size in bytes: UTF-8 length of a str, the bytes of bytes, bytearray
    or memoryview, else state_bytes. payload_size("가을") -> 6; payload_size(b"ab") -> 2."""
    if isinstance(payload, str):
        return len(payload.encode("utf-8"))
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return memoryview(payload).nbytes
    return state_bytes(payload)


def _check_topic(topic: Any, backend: Optional[str] = None) -> None:
    """TypeError naming `topic` for a non-str, then _check_storable(topic, "topic", backend)."""
    if not isinstance(topic, str):
        raise TypeError(f"topic must be a str, got {type(topic).__name__}")
    _check_storable(topic, "topic", backend)


def _run_once(inputs: dict, thread_id: str = "run-1") -> CompiledStateGraph:
    """A new graph on a new in-memory saver, run once on `thread_id`; returns the app."""
    app = build_graph(new_saver())
    app.invoke(inputs, cfg(thread_id))
    return app


def _check_payload(payload: Any, backend: Optional[str] = None) -> None:
    """ValueError naming `payload` when it is empty, then _check_storable(payload, "payload")."""
    if payload is None or (hasattr(payload, "__len__") and len(payload) == 0):
        raise ValueError("payload must be a non-empty value (a str, bytes or any value the saver "
                         "can serialize), got an empty one")
    _check_storable(payload, "payload", backend)


def _thin_and_fat(topic: str, payload: Any) -> tuple:
    """history_bytes of a run without and of a run with `payload` in "bulk", each on its own
    new saver: ([13, 32, 81, 124, 149], [13, 1544, ...]). One app at a time is alive."""
    thin = history_bytes(_run_once({"topic": topic}), cfg("run-1"))
    return thin, history_bytes(_run_once({"topic": topic, "bulk": payload}), cfg("run-1"))


def weigh(topic: str, payload: Any) -> dict:
    """Run the graph twice, each on its own new saver: without and with `payload` in "bulk".

    Returns {"checkpoints": 5, "thin_total": 399, "fat_total": 6447, "payload_bytes": 1500,
    "carrying": 4} for topic "가을" and 1,500 "x": totals are sums of history_bytes (bytes),
    `carrying` counts the positions where the fat checkpoint is at least payload_bytes
    larger (the input checkpoint does not carry it). Measures bytes, never time.
    Raises TypeError for a topic that is not a str, ValueError for an empty payload, and
    for a topic or payload no saver can store as it is the errors of _check_storable
    (naming topic, or payload and the path: payload[3], payload["k"]); all before either run.
    Rests on `app.invoke(inputs, cfg("run-1"))` and history_bytes.
    """
    _check_topic(topic)
    _check_payload(payload)
    size = payload_size(payload)
    thin, fat = _thin_and_fat(topic, payload)
    return {
        "checkpoints": len(fat),
        "thin_total": sum(thin),
        "fat_total": sum(fat),
        "payload_bytes": size,
        "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= size),
    }


# ---------------------------------------------------------------------------------------
# 7. What disappears: a new in-memory saver knows nothing of the old one.


def lost_demo(topic: str) -> dict:
    """Run thread "run-1" once, then ask a brand-new saver (a stand-in for a restart) for it.

    Returns {"kept": 5, "after_restart": 0, "values_after_restart": {}} (checkpoints, values).
    Asking the new saver raises nothing: the loss is silent. TypeError for a non-str topic,
    and the errors of _check_storable for a topic no saver can store as it is; both before
    any run. Rests on `app.get_state_history(cfg("run-1"))` and `app.get_state(...)`.
    """
    _check_topic(topic)
    kept = history_len(_run_once({"topic": topic}), cfg("run-1"))
    restarted = build_graph(new_saver())
    return {
        "kept": kept,
        "after_restart": history_len(restarted, cfg("run-1")),
        "values_after_restart": dict(restarted.get_state(cfg("run-1")).values),
    }


# =======================================================================================
# Beyond the lab: durable savers, real restarts and crashes, what a checkpoint is made of,
# and what each saver physically stores. Extras (SQLite, PostgreSQL) are imported inside the
# functions that use them.

BACKENDS = ("memory", "sqlite", "postgres")
EXTRAS = {"sqlite": "langgraph-checkpoint-sqlite", "postgres": "langgraph-checkpoint-postgres"}


@functools.lru_cache(maxsize=None)  # what is installed does not change while we run
def package_version(name: str = "langgraph") -> Optional[str]:
    """An installed package's version string, or None when it is not installed.

    package_version() -> "1.2.24"; package_version("langgraph-checkpoint") -> "4.3.2";
    package_version("langgraph-checkpoint-sqlite") -> None where that extra is missing.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def langgraph_version() -> str:
    """The installed langgraph's version string, e.g. "0.2.60" or "1.2.24"."""
    return package_version("langgraph")


def _version_tuple(text: str) -> tuple:
    """"1.1.7" -> (1, 1, 7); stops at the first part that is not a number ("1.0.0rc1" -> (1, 0))."""
    parts = []
    for part in text.split("."):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts)


def has_durability() -> bool:
    """Whether the installed langgraph's invoke takes `durability` ("exit"/"async"/"sync"; >= 0.6)."""
    import inspect

    from langgraph.pregel import Pregel

    return "durability" in inspect.signature(Pregel.invoke).parameters


def _import_extra(backend: str) -> Any:
    """The saver class of `backend`, or ImportError naming the extra to install."""
    try:
        if backend == "sqlite":
            from langgraph.checkpoint.sqlite import SqliteSaver

            return SqliteSaver
        from langgraph.checkpoint.postgres import PostgresSaver

        return PostgresSaver
    except ImportError as exc:
        raise ImportError(
            f'backend "{backend}" needs the package {EXTRAS[backend]}: '
            f"pip install {EXTRAS[backend]} (or pip install -e '.[{backend}]' in a clone of agckpt); {exc}"
        ) from None


def has_backend(backend: str) -> bool:
    """Whether `backend`'s saver can be used here: "memory" always; "sqlite" and "postgres"
    when their package (EXTRAS) imports. has_backend("sqlite") -> False on a machine with
    langgraph alone. ValueError for an unknown backend."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    try:
        return backend == "memory" or _import_extra(backend) is not None
    except ImportError:
        return False


def _check_backend(backend: Any, url: Any) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    if url is not None and not isinstance(url, str):
        raise TypeError(f"url must be a str or None, got {type(url).__name__}")
    if backend == "postgres" and not url:
        raise ValueError('url is required for backend "postgres", e.g. '
                         '"postgresql://user@localhost:5432/db" or "host=/tmp/sock dbname=postgres"')
    if backend == "memory" and url:
        raise ValueError('url must be None for backend "memory": an in-memory saver has no store')


_CLOSE_WAIT = 0.5  # seconds closing a saver waits for a LangGraph background write to end
_RUN_WAIT = 1.0  # seconds Ctrl-C waits for a demo's resume to end before going on
_SETUP_LOCK = threading.Lock()  # one SQLite setup() at a time in this process
_PG_SETUP_KEY = int.from_bytes(b"agckpt", "big")  # the advisory lock every process takes around setup()
_PG_SETUP_WAIT = 60.0  # seconds open_saver waits for another session's setup() to end


def _masked(text: str) -> str:
    """`text` with every password in it shown as ***.

    "postgresql://alice:s3cret@host/db" -> "postgresql://alice:***@host/db";
    "host=db password=s3cret" -> "host=db password=***" (also ?password=... in a URL).
    """
    text = re.sub(r"(://[^\s:@/?#]*:)[^\s@/?#]*@", r"\1***@", text)
    return re.sub(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&'\"]*)", r"\1***", text, flags=re.I)


def _first_line(exc: BaseException) -> str:
    """The first line of an error's message, or its repr when it has none."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else repr(exc)


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back until the block ends, then raise KeyboardInterrupt.

    For cleanup that must not be cut short: killing and reaping a child, closing a saver,
    removing a folder. Only in the main thread under Python's default SIGINT handler (the
    only place a KeyboardInterrupt is raised); elsewhere the block runs as it is.
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    held = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if held:
        raise KeyboardInterrupt


def _connected(backend: str, saver_class: Any, url: str) -> Any:
    """saver_class on a new connection of its own to `url`, its tables set up.

    The connection is made as the saver's from_conn_string makes it, but kept by the saver
    alone, so that _close decides when it is closed. ConnectionError (one line, password
    masked) when the store cannot be opened or the server cannot be reached; RuntimeError
    when PostgreSQL was reached but setting up its tables failed.
    """
    if backend == "sqlite":
        import sqlite3

        try:
            saver = saver_class(sqlite3.connect(url, check_same_thread=False))
            with _SETUP_LOCK:
                saver.setup()
        except sqlite3.Error as exc:
            raise ConnectionError(f"cannot open the sqlite store at url {url!r}: {_first_line(exc)}") from None
        return saver
    from psycopg import Connection
    from psycopg.rows import dict_row

    try:
        conn = Connection.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row)
    except Exception as exc:
        raise ConnectionError(_masked(f"cannot reach PostgreSQL at url {url!r}: {_first_line(exc)}")) from None
    try:  # other processes may be setting up the same database at this moment: one at a time
        deadline = time.monotonic() + _PG_SETUP_WAIT
        # subtle: polled, not pg_advisory_lock(): a session waiting inside a statement holds a
        # snapshot, which the CREATE INDEX CONCURRENTLY of the setup() under way waits for
        while not conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (_PG_SETUP_KEY,)).fetchone()["ok"]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"another session has held the setup lock for {_PG_SETUP_WAIT:.0f} s")
            time.sleep(0.05)
        saver = saver_class(conn)
        saver.setup()
        conn.execute("SELECT pg_advisory_unlock(%s)", (_PG_SETUP_KEY,))
        return saver
    except BaseException as exc:
        with _ctrl_c_after():
            conn.close()  # ends the session, and with it the advisory lock
        if not isinstance(exc, Exception):
            raise
        raise RuntimeError(_masked(f"reached PostgreSQL at url {url!r}, but setting up its checkpoint "
                                   f"tables failed: {_first_line(exc)}")) from None


def _close(saver: Any) -> None:
    """Close the saver's connection once no LangGraph background write is using it.

    subtle: an interrupted invoke can leave LangGraph's background threads inside
    saver.put/put_writes, and closing the connection under them crashes the interpreter
    (SIGSEGV). Both savers use their connection only while holding saver.lock, so it is
    closed holding that lock: a write in progress ends first, a later one fails on the
    closed connection. When the lock stays taken (by this thread's own unfinished
    iteration of saver.list(), kept alive by a traceback), the connection is left to the
    garbage collector, which closes it once nothing refers to it any more.
    """
    if saver.lock.acquire(timeout=_CLOSE_WAIT):
        try:
            saver.conn.close()
        finally:
            saver.lock.release()


@contextlib.contextmanager
def open_saver(backend: str = "memory", url: Optional[str] = None) -> Iterator[Any]:
    """A saver for `backend`, closed (and its temporary store removed) on exit.

        with open_saver("sqlite") as saver:      # a new SQLite file in a temporary folder
            app = build_graph(saver)

    "memory": a new InMemorySaver (url must be None). "sqlite": `url` is the database file's
    path (default: a new file in a temporary folder, removed on exit); the saver is
    langgraph-checkpoint-sqlite's SqliteSaver. "postgres": `url` is required (a libpq
    connection string); a PostgresSaver on a connection made as its from_conn_string makes
    it, then its setup() creates the tables, one process at a time (a PostgreSQL advisory
    lock), so processes may open one new database at once. On exit the connection is
    closed once LangGraph's background writes are done with it, also after Ctrl-C.
    Raises ValueError for an unknown backend or a missing url, ImportError naming the extra
    to install, ConnectionError (one line, naming the url, passwords shown as ***) when the
    SQLite file cannot be opened or the PostgreSQL server cannot be reached, RuntimeError
    when the server was reached but setting up the tables failed; no temporary file is
    left behind then.
    """
    _check_backend(backend, url)
    if backend == "memory":
        yield new_saver()
        return
    saver_class = _import_extra(backend)
    folder = None
    if backend == "sqlite" and url is None:
        folder = tempfile.mkdtemp(prefix="agckpt-sqlite-")
        url = os.path.join(folder, "checkpoints.sqlite")
    try:
        saver = _connected(backend, saver_class, url)
        try:
            yield saver
        finally:
            with _ctrl_c_after():
                _close(saver)
    finally:
        if folder is not None:
            with _ctrl_c_after():
                shutil.rmtree(folder, ignore_errors=True)


def invoke(app: Any, inputs: Any, config: dict, durability: Optional[str] = None) -> Any:
    """app.invoke(inputs, config), passing `durability` ("exit", "async", "sync") through.

    None keeps the installed langgraph's default (async). ValueError for an unknown mode, or
    for a mode on a langgraph without durability modes (before 0.6).
    """
    if durability is None:
        return app.invoke(inputs, config)
    if durability not in ("exit", "async", "sync"):
        raise ValueError(f'durability must be "exit", "async", "sync" or None, got {durability!r}')
    if not has_durability():
        raise ValueError(f"durability={durability!r} needs langgraph >= 0.6; "
                         f"the installed langgraph is {langgraph_version()}")
    return app.invoke(inputs, config, durability=durability)


# ---------------------------------------------------------------------------------------
# The lab's measures, in the report's words: each returns plain data the report prints.


_EMPTY = {"notes": []}  # what a key with a reducer holds before anything is written


def checkpoint_rows(app: Any, config: dict) -> List[dict]:
    """One row per checkpoint of the thread, oldest first: what each super-step saved.

    [{"position": 0, "step": -1, "source": "input", "next": ["__start__"], "changed": [],
      "bytes": 13}, {"position": 1, "step": 0, "source": "loop", "next": ["plan"],
      "changed": ["topic"], "bytes": 32}, ...] after one run on "가을". `changed`: the state
    keys whose value differs from the checkpoint before, sorted; a key not yet there counts
    as its empty value ({"notes": []} is the reducer's start, not a write). `bytes`:
    state_bytes of the values. Rests on `app.get_state_history(config)` (via history).
    """
    rows, previous = [], {}
    for position, snap in enumerate(history(app, config)):
        values = dict(snap.values)
        was, now = dict(_EMPTY, **previous), dict(_EMPTY, **values)
        rows.append({"position": position, "step": snap.metadata.get("step"),
                     "source": snap.metadata.get("source"), "next": list(snap.next),
                     "changed": sorted(k for k in set(was) | set(now) if was.get(k) != now.get(k)),
                     "bytes": state_bytes(values)})
        previous = values
    return rows


def first_run(topic: str) -> dict:
    """One run of thread "run-1" on a new in-memory saver, read three ways:
    {"checkpoints": checkpoint_rows(...), "pending": ["__start__", "plan", "write", "review",
    ""], "anatomy": anatomy_rows(anatomy(...))} (the last checkpoint, taken apart)."""
    app = _run_once({"topic": topic})
    return {"checkpoints": checkpoint_rows(app, cfg("run-1")), "pending": pending(app, cfg("run-1")),
            "anatomy": anatomy_rows(anatomy(app, cfg("run-1")))}


def thread_demo(topic: str) -> dict:
    """What a thread_id keeps: the same thread continues, another starts empty, and a graph
    without a checkpointer keeps nothing.

    {"same_thread_notes": [3, 6], "same_thread_checkpoints": 10,
     "history_newest_first": True, "other_thread_checkpoints": 0, "other_thread_values": {},
     "no_checkpointer_notes": [3, 3], "no_checkpointer_error": "ValueError: No checkpointer set"}
    (notes after the first and the second run; checkpoints). Rests on `app.invoke`,
    `app.get_state_history` and `app.get_state`.
    """
    app = build_graph(new_saver())
    runs = [len(app.invoke({"topic": topic}, cfg("t1"))["notes"]) for _ in range(2)]
    bare = build_graph()
    bare_runs = [len(bare.invoke({"topic": topic}, cfg("t1"))["notes"]) for _ in range(2)]
    try:
        bare.get_state(cfg("t1"))
        error = ""
    except ValueError as exc:
        error = f"ValueError: {exc}"
    steps = [snap.metadata.get("step") for snap in app.get_state_history(cfg("t1"))]
    return {"same_thread_notes": runs, "same_thread_checkpoints": history_len(app, cfg("t1")),
            "history_newest_first": steps == sorted(steps, reverse=True),
            "other_thread_checkpoints": history_len(app, cfg("t2")),
            "other_thread_values": dict(app.get_state(cfg("t2")).values),
            "no_checkpointer_notes": bare_runs, "no_checkpointer_error": error}


def _recording(ran: list) -> Any:
    """A wrap for _lab_graph that appends each node's name to `ran` as it executes."""
    def wrap(name: str, fn: Any) -> Any:
        def node(state: dict) -> dict:
            ran.append(name)
            return fn(state)
        return node
    return wrap


def replay_rows(topic: str) -> List[dict]:
    """replay() before each node, each on a new thread after one run, in graph order.

    [{"from": "plan", "added": 3, "ran": ["plan", "write", "review"], "sources": ["loop",
      "loop", "loop"]}, ...] on langgraph 0.2.60 (from 1.1.7 each adds one more checkpoint,
    source "fork", first). `ran`: the nodes that executed, in order; `sources`: the
    metadata["source"] of the checkpoints the replay added, oldest first.
    """
    rows = []
    for node in NODES:
        ran = []
        app = _lab_graph(new_saver(), _recording(ran))
        app.invoke({"topic": topic}, cfg("run-1"))
        del ran[:]
        added = replay(app, cfg("run-1"), node)["added"]
        sources = [s.metadata.get("source") for s in history(app, cfg("run-1"))[-added:]] if added else []
        rows.append({"from": node, "added": added, "ran": ran, "sources": sources})
    return rows


def rerun_with_input(topic: str, other_topic: str) -> dict:
    """The trap replay avoids: invoke a past checkpoint with a real input instead of None.

    {"input": {"topic": "겨울"}, "ran": ["plan", "write", "review"], "added": 5,
     "notes": ["plan:가을", "plan:겨울", "write:기본", "review:5"]}: after one run on
    `topic`, `app.invoke({"topic": other_topic}, <config of the point before write>)` runs
    from the first node again, on top of the values saved there, so the reducer keeps
    adding to `notes`. `added`: checkpoints the thread gained.
    """
    ran = []
    app = _lab_graph(new_saver(), _recording(ran))
    app.invoke({"topic": topic}, cfg("run-1"))
    point, before = snapshot_before(app, cfg("run-1"), "write"), history_len(app, cfg("run-1"))
    del ran[:]
    result = app.invoke({"topic": other_topic}, point.config)
    return {"input": {"topic": other_topic}, "ran": ran, "added": history_len(app, cfg("run-1")) - before,
            "notes": result["notes"], "topic": result["topic"]}


def fork_demo(topic: str, angle: str) -> dict:
    """fork() before "write" after one run, and what each branch then shows.

    {"before": 5, "total": 8, "base_draft": "가을/기본", "base_score": 5,
     "fork_draft": "가을/비교 가을/비교 가을/비교", "fork_score": 17,
     "original_is_old_end": True, "current_is_new_end": True, "old_end_readable": True}:
    `original_is_old_end`: fork()'s "original" equals the thread's end before the fork;
    `current_is_new_end`: `get_state(cfg)` now shows the branch's end; `old_end_readable`:
    the old end, read through the config taken before the fork, is unchanged.
    """
    app = build_graph(new_saver())
    base = app.invoke({"topic": topic}, cfg("run-1"))
    before = history_len(app, cfg("run-1"))
    old_end = app.get_state(cfg("run-1")).config  # subtle: keep the old end's config in hand
    forked = fork(app, cfg("run-1"), "write", {"angle": angle})
    return {"before": before, "total": forked["total"],
            "base_draft": base["draft"], "base_score": base["score"],
            "fork_draft": forked["result"]["draft"], "fork_score": forked["result"]["score"],
            "original_is_old_end": forked["original"] == base,
            "current_is_new_end": app.get_state(cfg("run-1")).values == forked["result"],
            "old_end_readable": app.get_state(old_end).values == base}


def checkpoint_tree(app: Any, config: dict) -> List[dict]:
    """The thread's checkpoints, oldest first, each with the position of its parent.

    [{"position": 0, "parent": None, "step": -1, "source": "input", "next": ["__start__"]},
     {"position": 1, "parent": 0, ...}, ...]: every branch of the thread, in the order its
    checkpoints were written; a fork's first checkpoint names the point it grew from.
    Rests on `app.get_state_history(config)` and each snapshot's `parent_config`.
    """
    rows, position_of = [], {}
    for position, snap in enumerate(history(app, config)):
        position_of[snap.config["configurable"]["checkpoint_id"]] = position
        parent = snap.parent_config["configurable"]["checkpoint_id"] if snap.parent_config else None
        rows.append({"position": position, "parent": position_of.get(parent),
                     "step": snap.metadata.get("step"), "source": snap.metadata.get("source"),
                     "next": list(snap.next)})
    return rows


def time_travel_tree(topic: str, angle: str) -> List[dict]:
    """checkpoint_tree() of one thread after a run, a replay before "write", then a fork
    before "write" with {"angle": angle}: 11 checkpoints on langgraph 1.x, 10 on 0.2.60."""
    app = build_graph(new_saver())
    app.invoke({"topic": topic}, cfg("run-1"))
    replay(app, cfg("run-1"), "write")
    fork(app, cfg("run-1"), "write", {"angle": angle})
    return checkpoint_tree(app, cfg("run-1"))


def weigh_rows(topic: str, payload: Any) -> dict:
    """history_bytes of weigh()'s two runs, side by side: {"thin": [13, 32, 81, 124, 149],
    "fat": [13, 1544, 1593, 1636, 1661], "difference": [0, 1512, 1512, 1512, 1512],
    "carried": [1512], "key_bytes": 12} for "가을" and 1,500 "x" (bytes, oldest first;
    `carried`: the distinct non-zero differences). `key_bytes`: what the key adds besides the value, `, "bulk": ""`
    with its separator, so fat[i] - thin[i] is 0 or payload_bytes + key_bytes."""
    thin, fat = _thin_and_fat(topic, payload)
    rows = {"thin": thin, "fat": fat}
    rows["difference"] = [fat - thin for thin, fat in zip(rows["thin"], rows["fat"])]
    rows["carried"] = sorted({d for d in rows["difference"] if d})  # what a carrying checkpoint adds
    rows["key_bytes"] = state_bytes({"bulk": "", "topic": ""}) - state_bytes({"topic": ""})
    return rows


# ---------------------------------------------------------------------------------------
# What a checkpoint is made of.

# What each part of a stored checkpoint is for, in the report's language (Korean), one per
# field a langgraph version may write; anatomy() lists them in this order and never lists a
# field the installed version does not return.
FIELD_PURPOSES = {
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 고유하고 시간순인 id (config의 checkpoint_id)",
    "checkpoint.ts": "체크포인트를 쓴 시각",
    "checkpoint.channel_values": "채널마다의 값: 상태 키와 그래프 내부 채널 (여기서는 채널별 바이트)",
    "checkpoint.channel_versions": "채널마다의 현재 버전: 채널에 쓰기가 있으면 스레드 전체에서 증가하는 새 버전을 받는다",
    "checkpoint.versions_seen": "노드마다 마지막으로 보고 실행한 채널 버전: 다음에 무엇이 실행될지를 정한다",
    "checkpoint.pending_sends": "아직 실행되지 않은 Send 작업 (동적 분기)",
    "checkpoint.updated_channels": "이 체크포인트를 만든 super-step이 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step 번호: 입력은 -1, 이후 0, 1, 2, …",
    "metadata.parents": "부모 그래프(서브그래프)의 checkpoint id; 최상위에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 super-step에서 각 노드가 쓴 값",
    "metadata.thread_id": "config에서 복사한 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "부모 체크포인트의 config: 스레드를 거슬러 올라가는 사슬",
    "pending_writes": "다음 super-step에서 이미 끝난 작업의 쓰기: 저장됐지만 아직 적용되지 않음",
}


def _plain(value: Any) -> Any:
    """`value` as plain JSON data (dicts, lists, str, numbers); anything else as its str()."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def _in_known_order(part: str, fields: Any) -> list:
    """(field, value) pairs of `fields`: those FIELD_PURPOSES knows in its order, then the rest."""
    known = [key.split(".", 1)[1] for key in FIELD_PURPOSES if key.startswith(part + ".")]
    return ([(key, fields[key]) for key in known if key in fields]
            + [(key, value) for key, value in fields.items() if key not in known])


def anatomy(app: Any, config: dict) -> dict:
    """The thread's latest checkpoint as its saver returns it, described as a plain dict.

    {"checkpoint_id": "1f0c...", "checkpoint": {"v": 4, "id": "1f0c...", "ts": "2025-...",
    "channel_values": {"angle": 8, "draft": 15, ...}, "channel_versions": {...},
    "versions_seen": {...}, "updated_channels": [...]}, "metadata": {"source": "loop",
    "step": 3, "parents": {}}, "has_parent_config": True, "pending_writes": 0}
    `checkpoint` and `metadata` hold exactly the fields the installed version returns
    (langgraph 0.2.60: v 2 with pending_sends, and metadata with writes and thread_id;
    1.x: v 4, no pending_sends), in FIELD_PURPOSES' order, then any field it does not
    know in the saver's order; `channel_values` maps each channel to its
    value's size in bytes (state_bytes), not the value. `pending_writes` is a count.
    With a checkpoint_id in `config`, that checkpoint instead of the latest.
    Rests on `app.checkpointer.get_tuple(config)`. ValueError for an app without a
    checkpointer, a bad config, or a thread with no checkpoint.
    """
    saver = getattr(app, "checkpointer", None)
    if saver is None or not hasattr(saver, "get_tuple"):
        raise ValueError(f"app must be a graph compiled with a checkpointer (build_graph(saver)), "
                         f"got {type(app).__name__} without one")
    thread_id, config = _thread_id(config), _saver_config(app, config)
    found = saver.get_tuple(config)
    if found is None:
        raise ValueError(f"config names thread {thread_id!r}, "
                         f"which has no checkpoint in this saver")
    checkpoint = {}
    for field, value in _in_known_order("checkpoint", found.checkpoint):
        if field == "channel_values":
            value = {channel: state_bytes(v) for channel, v in value.items()}
        checkpoint[field] = _plain(value)
    return {
        "checkpoint_id": found.config["configurable"]["checkpoint_id"],
        "checkpoint": checkpoint,
        "metadata": {key: _plain(value)
                     for key, value in _in_known_order("metadata", found.metadata)},
        "has_parent_config": found.parent_config is not None,
        "pending_writes": len(found.pending_writes or ()),
    }


def _counter(version: Any) -> str:
    """A channel version as its counter: "00000000000000000000000000000005.0.4930..." -> "5".

    The part after the dot is random on every run (an int version is shown as it is)."""
    head = str(version).split(".", 1)[0]
    return str(int(head)) if head.isdigit() else str(version)


def _shown(field: str, value: Any) -> str:
    """A field's value as the report shows it: nothing that changes from run to run."""
    if field == "checkpoint.id":
        return f"{len(value)}자 UUID (실행마다 다름)"
    if field == "checkpoint.ts":
        return "ISO 8601 시각 (실행마다 다름)"
    if field == "checkpoint.channel_values":
        return ", ".join(f"{k} {v} B" for k, v in value.items())
    if field == "checkpoint.channel_versions":
        return ", ".join(f"{k}@{_counter(v)}" for k, v in value.items())
    if field == "checkpoint.versions_seen":
        return "; ".join(f"{node}: " + (", ".join(f"{k}@{_counter(v)}" for k, v in seen.items()) or "—")
                         for node, seen in value.items())
    if field == "metadata.writes" and isinstance(value, dict):
        return ", ".join(f"{node} → {sorted(w) if isinstance(w, dict) else w}" for node, w in value.items())
    if value is None:
        return "null (이 langgraph는 채우지 않는다)"
    return json.dumps(value, ensure_ascii=False)


def anatomy_rows(anat: dict) -> List[dict]:
    """anatomy()'s result as table rows, the same on every run: field, purpose, value.

    [{"field": "checkpoint.v", "purpose": "체크포인트 구조 자체의 형식 버전", "value": "4"},
     {"field": "checkpoint.id", ..., "value": "36자 UUID (실행마다 다름)"}, ...,
     {"field": "pending_writes", ..., "value": "0개"}]: checkpoint fields, then metadata,
    then the parent config and the pending writes. Ids and timestamps are described, channel
    versions shown as their counters, channel values as bytes. ValueError when `anat` is
    not what anatomy() returns.
    """
    if not isinstance(anat, dict) or not {"checkpoint", "metadata", "has_parent_config",
                                          "pending_writes"} <= set(anat):
        raise ValueError("anat must be the dict anatomy() returns")
    fields = [(f"{part}.{k}", v) for part in ("checkpoint", "metadata") for k, v in anat[part].items()]
    rows = [{"field": f, "purpose": FIELD_PURPOSES.get(f, ""), "value": _shown(f, v)} for f, v in fields]
    return rows + [
        {"field": "parent_config", "purpose": FIELD_PURPOSES["parent_config"],
         "value": "있음" if anat["has_parent_config"] else "없음"},
        {"field": "pending_writes", "purpose": FIELD_PURPOSES["pending_writes"],
         "value": f"{anat['pending_writes']}개"}]


# ---------------------------------------------------------------------------------------
# What each saver physically stores. Two views of what saving costs: the lab's (logical)
# view, history_bytes, counts every checkpoint's whole state as JSON; the physical view is
# what a saver's store really holds, counted below per saver.


def _saver_kind(saver: Any) -> str:
    """"memory", "sqlite" or "postgres" for a saver of those kinds; TypeError naming `saver`."""
    if isinstance(saver, _MemorySaver):
        return "memory"
    # an object can only be a SqliteSaver/PostgresSaver if its module is imported already
    for kind, module, name in (("sqlite", "langgraph.checkpoint.sqlite", "SqliteSaver"),
                               ("postgres", "langgraph.checkpoint.postgres", "PostgresSaver")):
        saver_class = getattr(sys.modules.get(module), name, None)
        if saver_class is not None and isinstance(saver, saver_class):
            return kind
    hint = "; pass app.checkpointer, not the app" if hasattr(saver, "checkpointer") else ""
    raise TypeError(f"saver must be an InMemorySaver, SqliteSaver or PostgresSaver "
                    f"(see open_saver), got {type(saver).__name__}{hint}")


def _memory_bytes(saver: Any, thread_id: Optional[str]) -> Dict[str, int]:
    """Serialized bytes in an InMemorySaver's maps.

    subtle: the one place that reads a saver's internals. InMemorySaver has two layouts:
      storage: thread_id -> checkpoint_ns -> checkpoint_id ->
               ((type, checkpoint bytes), (type, metadata bytes), parent_id)
      writes:  (thread_id, checkpoint_ns, checkpoint_id) ->
               {(task_id, idx): (task_id, channel, (type, value bytes), ...)}
    and, from langgraph-checkpoint 2.0.22 on, the channel values move out of the checkpoint
    bytes into
      blobs:   (thread_id, checkpoint_ns, channel, version) -> (type, value bytes)
    Before that there is no `blobs` map: every checkpoint carries its values (blobs: 0).
    list() copies each map in one step under the GIL, so other threads may keep writing.
    """
    def ours(tid: Any) -> bool:
        return thread_id is None or tid == thread_id

    try:
        checkpoints = sum(len(cp[1]) + len(md[1])
                          for tid, by_ns in list(saver.storage.items()) if ours(tid)
                          for by_id in list(by_ns.values())
                          for cp, md, _parent in list(by_id.values()))
        blobs = sum(len(value[1]) for key, value in list(getattr(saver, "blobs", {}).items())
                    if ours(key[0]))
        writes = sum(len(write[2][1]) for key, by_task in list(saver.writes.items()) if ours(key[0])
                     for write in list(by_task.values()))
    except (AttributeError, TypeError, ValueError, IndexError) as exc:
        raise TypeError(f"saver: cannot read the storage/blobs/writes maps of the InMemorySaver "
                        f"of langgraph-checkpoint {package_version('langgraph-checkpoint')}: "
                        f"{exc}") from None
    return {"checkpoints": checkpoints, "blobs": blobs, "writes": writes}


def _sqlite_bytes(saver: Any, thread_id: Optional[str]) -> Dict[str, int]:
    """Bytes of the serialized columns of a SqliteSaver's tables (it has no blobs table)."""
    where, params = ("WHERE thread_id = ?", (thread_id,)) if thread_id is not None else ("", ())
    # CAST AS BLOB: length() of a TEXT counts characters, of a BLOB bytes
    size = "coalesce(length(CAST({} AS BLOB)), 0)"
    queries = {
        "checkpoints": f"SELECT sum({size.format('checkpoint')} + {size.format('metadata')}) "
                       f"FROM checkpoints {where}",
        "writes": f"SELECT sum({size.format('value')}) FROM writes {where}",
    }
    found = {"blobs": 0}
    with saver.cursor(transaction=False) as cur:  # takes the saver's lock
        for table, sql in queries.items():
            found[table] = int(cur.execute(sql, params).fetchone()[0] or 0)
    return {key: found[key] for key in ("checkpoints", "blobs", "writes")}


def _postgres_bytes(saver: Any, thread_id: Optional[str], compressed: bool) -> Dict[str, int]:
    """Bytes of the serialized columns of a PostgresSaver's three tables.

    Raw (compressed=False): octet_length of the bytea columns and of the jsonb columns'
    text form. Compressed: pg_column_size, the bytes each value takes in the table after
    PostgreSQL's own TOAST compression (pglz by default; it only acts on rows above
    about 2 kB, and only where it saves at least a quarter), varlena header included.
    """
    where, params = ("WHERE thread_id = %s", (thread_id,)) if thread_id is not None else ("", ())
    if compressed:
        jsonb, bytea = "pg_column_size({})", "pg_column_size({})"
    else:
        jsonb, bytea = "octet_length({}::text)", "octet_length({})"
    size = "coalesce({}, 0)"
    queries = {
        "checkpoints": f"SELECT sum({size.format(jsonb.format('checkpoint'))} + "
                       f"{size.format(jsonb.format('metadata'))}) AS n FROM checkpoints {where}",
        "blobs": f"SELECT sum({size.format(bytea.format('blob'))}) AS n "
                 f"FROM checkpoint_blobs {where}",
        "writes": f"SELECT sum({size.format(bytea.format('blob'))}) AS n "
                  f"FROM checkpoint_writes {where}",
    }
    found = {}
    with saver.lock:  # the saver's public connection (or pool), under its own lock
        # subtle: a pool lends a connection; psycopg >= 3.3 gives a Connection a property
        # named `connection` too, so test for the pool's getconn instead
        with (saver.conn.connection() if hasattr(saver.conn, "getconn")
              else contextlib.nullcontext(saver.conn)) as conn:
            for table, sql in queries.items():
                row = conn.execute(sql, params).fetchone()
                found[table] = int((row["n"] if isinstance(row, dict) else row[0]) or 0)
    return found


def stored_bytes(saver: Any, thread_id: Optional[Union[str, int]] = None,
                 compressed: bool = False) -> Dict[str, int]:
    """The bytes a saver physically holds: {"checkpoints": 3839, "blobs": 3146, "writes": 1587,
    "total": 8572} (an in-memory saver after one run with 1,500 bytes in "bulk").

    Counted: the serialized values each saver writes, i.e. the checkpoints (the checkpoint
    and its metadata), the blobs (channel values kept once per version, by the in-memory
    saver and PostgreSQL; SQLite has none: 0) and the pending writes. Not counted: keys
    and type tags (thread_id, checkpoint_id, channel, ...), row headers, indexes.
    In memory: the bytes in InMemorySaver's maps (the one function reading internals).
    SQLite: the stored length of the checkpoint, metadata and value columns. PostgreSQL:
    raw octet lengths (jsonb as its text), or with compressed=True the size each value
    takes in the table after PostgreSQL's TOAST compression; memory and SQLite do not
    compress, so there compressed=True gives the same figures. `thread_id` counts one
    thread of a shared saver, the one history_len(app, cfg(thread_id)) counts (an int 1 is
    the thread "1" on langgraph 1.x and on SQLite, a thread of its own in 0.2.60's
    in-memory saver); None counts them all.
    Raises TypeError for a saver that is none of those three (e.g. an app: pass
    app.checkpointer), a thread_id that is not a str, an int or None, or a compressed that
    is not a bool.
    """
    kind = _saver_kind(saver)
    if thread_id is not None and not isinstance(thread_id, (str, int)):
        raise TypeError(f"thread_id must be a str, an int or None (as in cfg), "
                        f"got {type(thread_id).__name__}")
    if not isinstance(compressed, bool):
        raise TypeError(f"compressed must be a bool, got {type(compressed).__name__}")
    if thread_id is not None:
        thread_id = _saver_thread_id(thread_id)
        if kind != "memory":  # subtle: a TEXT column holds what the driver binds: 1 and True as "1"
            thread_id = thread_id if isinstance(thread_id, str) else str(int(thread_id))
    if kind == "memory":
        found = _memory_bytes(saver, thread_id)
    elif kind == "sqlite":
        found = _sqlite_bytes(saver, thread_id)
    else:
        found = _postgres_bytes(saver, thread_id, compressed)
    found["total"] = found["checkpoints"] + found["blobs"] + found["writes"]
    return found


def durability_counts(topic: str) -> Optional[Dict[str, int]]:
    """Checkpoints kept after one run under each durability mode, each on a new saver.

    {"exit": 1, "async": 5, "sync": 5} on langgraph >= 0.6 ("exit" saves only the run's
    last checkpoint; "async" and "sync" save every super-step's, in the background or
    before the next step starts); None on older langgraph, which has no such modes.
    Rests on `app.invoke(inputs, config, durability=mode)`. TypeError for a non-str topic.
    """
    _check_topic(topic)
    if not has_durability():
        return None
    counts = {}
    for mode in ("exit", "async", "sync"):
        app = build_graph(new_saver())
        invoke(app, {"topic": topic}, cfg("run-1"), durability=mode)
        counts[mode] = history_len(app, cfg("run-1"))
    return counts


def payload_sweep(topic: str, sizes: List[int]) -> List[dict]:
    """weigh(topic, "x" * size) for each size, in the order given: one row per size.

    [{"checkpoints": 5, "thin_total": 399, "fat_total": 1447, "payload_bytes": 250,
    "carrying": 4, "extra": 1048}, ...]: weigh's keys plus extra = fat_total - thin_total
    (bytes). extra is carrying x (payload_bytes + the bytes of the "bulk" key), so from
    row to row it grows by exactly carrying x the size step.
    Raises TypeError for a non-str topic or sizes that is not a list/tuple of int,
    ValueError for an empty sizes or a size below 1; before any run.
    """
    _check_topic(topic)
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"sizes must be a list or tuple of int (payload sizes in bytes), "
                        f"got {type(sizes).__name__}")
    if not sizes:
        raise ValueError("sizes must hold at least one payload size in bytes, got an empty one")
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"sizes must hold int payload sizes in bytes, got {size!r}")
        if size < 1:
            raise ValueError(f"sizes must hold sizes of at least 1 byte, got {size!r}")
    rows = []
    for size in sizes:
        row = weigh(topic, "x" * size)
        row["extra"] = row["fat_total"] - row["thin_total"]
        rows.append(row)
    return rows


def incompressible(size: int, seed: int = 0) -> str:
    """`size` ASCII letters and digits from random.Random(seed): the same text on every run.

    incompressible(8) -> "0UAqFzWs" (8 bytes). Random text has no repeats for an LZ-style
    compressor (PostgreSQL's pglz, lz4) to exploit, so it is stored at full size: the
    counterpart of "x" * size, which compresses to almost nothing. TypeError/ValueError
    for a size that is not an int of at least 1.
    """
    import random
    import string

    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int (bytes), got {type(size).__name__}")
    if size < 1:
        raise ValueError(f"size must be at least 1 byte, got {size}")
    return "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size))


@contextlib.contextmanager
def _reproducible_versions(saver: Any, seed: int = 0) -> Iterator[None]:
    """Within the block, the saver draws its channel versions from random.Random(seed).

    subtle: memory, SQLite and PostgreSQL savers make a version as
    f"{n:032}.{random.random():016}"; the float's text is 16 to 19+ characters long, and
    versions are stored many times over, so stored sizes would change by a few bytes from
    run to run. Same format, seeded draws: the same bytes on every run. A saver whose
    versions are not of that form (e.g. ints) is left alone.
    """
    import random
    import re

    own = type(saver).get_next_version
    if not re.fullmatch(r"\d{32}\.\S+", str(own(saver, None, None))):
        yield
        return
    draws = random.Random(seed)

    def get_next_version(current: Any, channel: Any = None) -> str:
        number = int(current.split(".")[0]) if isinstance(current, str) else (current or 0)
        return f"{number + 1:032}.{draws.random():016}"

    saver.get_next_version = get_next_version  # an instance attribute shadows the method
    try:
        yield
    finally:
        if saver.__dict__.get("get_next_version") is get_next_version:
            del saver.get_next_version


def _weigh_threads(prefix: str) -> Dict[str, str]:
    """The thread ids weigh_stored uses: {"thin": "<prefix>-thin", "fat": "<prefix>-fat"}."""
    return {name: f"{prefix}-{name}" for name in ("thin", "fat")}


def _copies(thin: int, fat: int, payload_bytes: int) -> dict:
    return {"thin": thin, "fat": fat, "difference": fat - thin,
            "copies": round((fat - thin) / payload_bytes, 2)}


def weigh_stored(saver: Any, topic: str, payload: Any, thread_prefix: str = "weigh") -> dict:
    """weigh() on one given saver, logical and physical: a thin and a fat thread side by side.

    Runs thread "<thread_prefix>-thin" with {"topic": topic} and "<thread_prefix>-fat"
    with "bulk": payload added, then returns
    {"threads": {"thin": "weigh-thin", "fat": "weigh-fat"}, "checkpoints": 5,
     "payload_bytes": 1500,
     "logical": {"thin": 399, "fat": 6447, "difference": 6048, "copies": 4.03},
     "stored": {"thin": {<stored_bytes of the thin thread>}, "fat": {...},
                "difference": 4751, "copies": 3.17},
     "stored_compressed": {<the same with stored_bytes(compressed=True)>}}
    (bytes; copies = difference / payload_bytes: how many copies of the payload the saver
    holds). Channel versions are drawn from a seeded generator during the runs, so memory
    and SQLite give the same bytes on every run. Rests on `app.invoke`,
    `app.get_state_history` and stored_bytes. TypeError/ValueError for a bad saver, topic,
    payload or thread_prefix, or when either thread already has checkpoints; before any run.
    """
    _saver_kind(saver)
    _check_topic(topic)
    _check_payload(payload)
    if not isinstance(thread_prefix, str) or not thread_prefix:
        raise TypeError(f"thread_prefix must be a non-empty str, got {thread_prefix!r}")
    app = build_graph(saver)
    runs = {"thin": {"topic": topic}, "fat": {"topic": topic, "bulk": payload}}
    threads = _weigh_threads(thread_prefix)
    used = [tid for tid in threads.values() if history_len(app, cfg(tid))]
    if used:
        raise ValueError(f"thread_prefix {thread_prefix!r}: threads {used} already have "
                         f"checkpoints in this saver; choose another prefix")
    for name, inputs in runs.items():
        with _reproducible_versions(saver):
            app.invoke(inputs, cfg(threads[name]))
    size = payload_size(payload)
    logical = {name: sum(history_bytes(app, cfg(tid))) for name, tid in threads.items()}
    stored = {name: stored_bytes(saver, tid) for name, tid in threads.items()}
    packed = {name: stored_bytes(saver, tid, compressed=True) for name, tid in threads.items()}
    return {
        "threads": threads,
        "checkpoints": history_len(app, cfg(threads["fat"])),
        "payload_bytes": size,
        "logical": _copies(logical["thin"], logical["fat"], size),
        "stored": dict(_copies(stored["thin"]["total"], stored["fat"]["total"], size),
                       thin=stored["thin"], fat=stored["fat"],
                       parts={k: stored["fat"][k] - stored["thin"][k] for k in ("checkpoints", "blobs", "writes")}),
        "stored_compressed": dict(_copies(packed["thin"]["total"], packed["fat"]["total"], size),
                                  thin=packed["thin"], fat=packed["fat"]),
    }


def postgres_placement(url: str, topic: str, payload: Any) -> Dict[str, List[str]]:
    """Where PostgresSaver puts each channel's value, read from the tables after one run
    with `payload` in "bulk": {"inline": ["angle", "bulk", "draft", "score", "stage",
    "topic"], "blob": ["__start__", "notes"]} (channel names, sorted): inline ones are
    written into every checkpoint row (jsonb), blob ones once per version into
    checkpoint_blobs. The run's thread is deleted afterwards. Rests on open_saver,
    `app.invoke` and SQL on the saver's own tables. Errors as open_saver and weigh.
    """
    _check_topic(topic, "postgres")
    _check_payload(payload, "postgres")
    thread_id = f"placement-{uuid.uuid4().hex}"
    queries = {"inline": "SELECT DISTINCT jsonb_object_keys(checkpoint->'channel_values') AS c "
                         "FROM checkpoints WHERE thread_id = %s",
               "blob": "SELECT DISTINCT channel AS c FROM checkpoint_blobs WHERE thread_id = %s"}
    with open_saver("postgres", url) as saver:
        try:
            build_graph(saver).invoke({"topic": topic, "bulk": payload}, cfg(thread_id))
            with saver.lock:
                found = {name: sorted(row["c"] for row in saver.conn.execute(sql, (thread_id,)))
                         for name, sql in queries.items()}
        finally:
            saver.delete_thread(thread_id)
    return found


def physical_vs_logical(topic: str, payload: Any, backends: Optional[List[str]] = None,
                        url: Optional[str] = None) -> List[dict]:
    """weigh_stored() on a new saver of each backend: logical bytes beside physical ones.

    [{"backend": "memory", **weigh_stored(...)}, {"backend": "sqlite", ...},
     {"backend": "postgres", ...}], in the order of `backends` (default: memory and
    sqlite where its package is installed, plus postgres when `url` is given). Memory and SQLite stores are new and
    removed afterwards, and give the same bytes on every run; on PostgreSQL the two
    threads get a unique prefix and are deleted after measuring. Rests on open_saver,
    `app.invoke` and stored_bytes.
    Raises ValueError for an unknown backend or "postgres" without a url, TypeError for
    a bad topic or payload, ImportError naming a missing extra; before any run.
    """
    if backends is None:
        backends = ["memory"] + [b for b in ("sqlite",) if has_backend(b)] + (["postgres"] if url else [])
    if isinstance(backends, str) or not isinstance(backends, (list, tuple)):
        raise TypeError(f"backends must be a list or tuple of {list(BACKENDS)}, "
                        f"got {type(backends).__name__}")
    for backend in backends:
        _check_backend(backend, url if backend == "postgres" else None)
    for backend in backends:
        if backend != "memory":
            _import_extra(backend)
    _check_topic(topic)
    _check_payload(payload)
    rows = []
    for backend in backends:
        with open_saver(backend, url if backend == "postgres" else None) as saver:
            if backend != "postgres":  # a new store, removed on exit
                row = weigh_stored(saver, topic, payload)
            else:  # a shared database: threads of our own, deleted even when a run fails
                prefix = f"weigh-{uuid.uuid4().hex}"
                try:
                    row = weigh_stored(saver, topic, payload, thread_prefix=prefix)
                finally:
                    for thread_id in _weigh_threads(prefix).values():
                        saver.delete_thread(thread_id)
        rows.append(dict(backend=backend, **row))
    return rows



# ---------------------------------------------------------------------------------------
# Restarts and crashes on real child processes. A child is a fresh `sys.executable` that
# loads this very file by path and runs one job on a store; it shares nothing with the
# caller. The saver that reads the store afterwards is opened here, after the child has
# exited or died.

_THIS_FILE = os.path.abspath(__file__)  # resolved once: a later chdir cannot lose it
_CHILD_PROGRAM = """\
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
ckpt = importlib.util.module_from_spec(spec)
sys.modules["ckpt"] = ckpt
spec.loader.exec_module(ckpt)
print(json.dumps(ckpt._child(json.load(sys.stdin))), flush=True)
"""
_CHILD_TIMEOUT = 120.0  # seconds a child may take before it is killed and reported
_IN_REVIEW = "in-review"  # what a crashing child prints once it is inside review
_SAVED_TIMEOUT = 10.0  # seconds review waits for the earlier checkpoints (wait_saved=True)


def _run_child(job: dict) -> Any:
    """Run `job` in a child process and wait: subprocess.CompletedProcess (text stdout).

    The child is killed and reaped before this returns or raises: when it outlives
    _CHILD_TIMEOUT (RuntimeError), and on Ctrl-C or any other exception (which goes on).
    """
    args = [sys.executable, "-c", _CHILD_PROGRAM, _THIS_FILE]  # the job goes in on stdin: any size
    child = None
    try:
        with _ctrl_c_after():  # a child that has started is always in `child`
            child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                     errors="replace")
        out, err = child.communicate(json.dumps(job), timeout=_CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"the child process did not finish within {_CHILD_TIMEOUT:.0f} s") from None
    finally:
        if child is not None:
            with _ctrl_c_after():
                child.kill()  # nothing happens when it has already exited
                child.wait()
                for stream in (child.stdin, child.stdout, child.stderr):
                    stream.close()
    return subprocess.CompletedProcess(args, child.returncode, out, err)


def _run_dying_child(job: dict) -> None:
    """_run_child for a child meant to die by SIGKILL once it says it is inside the node;
    RuntimeError naming how it ended otherwise."""
    done = _run_child(job)
    if done.returncode != -signal.SIGKILL or _IN_REVIEW not in done.stdout:
        raise _child_failed(done)


def _child_failed(done: Any) -> RuntimeError:
    """One line: the child's exit status and its last error ("ValueError: ..."), as it printed it."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    frames = [i for i, line in enumerate(lines) if line.startswith(" ")]
    last = lines[frames[-1] + 1:] if frames and frames[-1] + 1 < len(lines) else lines[-1:]
    return RuntimeError(f"the child process (exit status {done.returncode}) failed: "
                        f"{' '.join(last) if last else 'no message'}")


def _lab_graph(checkpointer: Any, wrap: Any) -> Any:
    """build_graph's own nodes and edges, each node function passed through wrap(name, fn)."""
    lab = build_graph().builder  # the lab's StateGraph: read its shape rather than copy it
    graph = StateGraph(State)
    for name in lab.nodes:
        graph.add_node(name, wrap(name, globals()[name]))
    for start, end in sorted(lab.edges):
        graph.add_edge(start, end)
    return graph.compile(checkpointer=checkpointer)


def _dying_node(ready: Any) -> Any:
    """A node that never returns: it works until ready() holds (at most _SAVED_TIMEOUT s),
    says it is inside (_IN_REVIEW) and kills its own process with SIGKILL."""

    def node(state: dict) -> dict:
        deadline = time.monotonic() + _SAVED_TIMEOUT
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        print(_IN_REVIEW, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # ends the process at once: no cleanup, no flush
        raise RuntimeError("SIGKILL did not end the process")  # pragma: no cover

    return node


def _dying_review(saver: Any, config: dict, wait_saved: bool) -> Any:
    """review that dies by SIGKILL; with wait_saved, once plan's and write's checkpoints are
    in the store."""
    return _dying_node(lambda: not wait_saved or sum(1 for _ in saver.list(config)) > len(NODES))


def _child(job: dict) -> dict:
    """Runs in the child process: one run of the job's thread on its store.

    Returns {"kept": 5, "values": {...}, "pid": 4242} after a normal run; a crashing run prints
    "in-review" inside review and dies there.
    """
    with open_saver(job["backend"], job["url"]) as saver:
        config = cfg(job["thread_id"])
        if job.get("trap"):
            app = _trapped_app(saver, config)
        elif job["crash"]:
            dying = _dying_review(saver, config, job["wait_saved"])
            app = _lab_graph(saver, lambda name, fn: dying if name == "review" else fn)
        else:
            app = build_graph(saver)
        values = invoke(app, {"topic": job["topic"]}, config, job["durability"])
        return {"kept": history_len(app, config), "values": values, "pid": os.getpid()}


def _check_demo_store(backend: str, url: Optional[str]) -> None:
    """ValueError naming `url` for a SQLite url that no second process can open: a restart
    needs a store that outlives the process ("", ":memory:", "file::memory:?cache=shared",
    "file:x?mode=memory")."""
    if backend != "sqlite" or url is None:
        return
    path, _, query = url.partition("?")
    if path in ("", ":memory:", "file::memory:") or (path.startswith("file:") and "mode=memory" in query):
        raise ValueError(f"url {url!r} is a SQLite database in this process's memory, which no other "
                         "process can open: a restart needs a store that outlives the process (a file "
                         "path, or None for a temporary file)")


@contextlib.contextmanager
def _demo_store(backend: str, url: Optional[str]) -> Iterator[tuple]:
    """(url, thread_id) for one demo call: a store and thread no other call touches.

    sqlite without url: a new file in a new temporary folder (removed on exit) and "run-1".
    A given store (postgres, or a sqlite file): the url (a relative SQLite path made
    absolute) and a thread id unique to the call, "run-1-<hex>", deleted from the store on
    exit, so the store holds afterwards what it held before. The store is opened here
    first, so an unreachable database fails before any child starts. memory: (None, "run-1").
    """
    if backend == "memory":
        yield None, "run-1"
        return
    _import_extra(backend)  # ImportError naming the extra, before anything starts
    if url is None:
        folder = tempfile.mkdtemp(prefix="agckpt-demo-")
        try:
            yield os.path.join(folder, "checkpoints.sqlite"), "run-1"
        finally:
            with _ctrl_c_after():
                shutil.rmtree(folder, ignore_errors=True)
        return
    if backend == "sqlite":
        url = os.path.abspath(url)
    thread_id = f"run-1-{uuid.uuid4().hex[:12]}"
    with open_saver(backend, url) as saver:
        try:
            yield url, thread_id
        finally:
            with _ctrl_c_after():
                saver.delete_thread(thread_id)


def _check_durability(durability: Any) -> None:
    """invoke()'s own checks of `durability`, run on an app that runs nothing."""

    class _NoRun:
        @staticmethod
        def invoke(*args: Any, **kwargs: Any) -> None:
            return None

    invoke(_NoRun, None, {}, durability)


def restart_demo(topic: str, backend: str = "sqlite", url: Optional[str] = None) -> dict:
    """Run thread "run-1" once in a child process; after it has exited, read it with a new saver.

    Returns {"backend": "sqlite", "thread_id": "run-1", "kept": 5, "after_restart": 5,
    "values_after_restart": {"topic": ..., ..., "score": 5}, "survives": True} (the thread
    the demo ran; checkpoints the child saw and the new saver found; `survives`: the same
    count and the same final values came back).
    memory: 5, 0, {}, False, since the saver lived in the child's memory. The child is a
    fresh `sys.executable` that loads this file by path and shares nothing with this
    process; the new saver is open_saver(backend, url) here, opened after the child exited.
    Each call has its own store (a new SQLite file in a temporary folder, removed
    afterwards) or, on a given url, a thread id unique to the call ("run-1-<hex>"), deleted
    from the store when the call returns or fails, so calls may run concurrently and the
    store holds afterwards the threads it held before. Ctrl-C (or any exception) at any
    point: the child is killed and reaped, the saver closed, the temporary folder removed,
    the thread deleted, then the exception goes on. The current folder is needed only for
    a relative SQLite path. Rests on `app.get_state_history(cfg)` and `app.get_state(cfg)`.
    Raises TypeError for a non-str topic, ValueError for an unknown backend, a missing
    postgres url, a SQLite url no other process can open ("", ":memory:", in-memory URIs)
    or a topic PostgreSQL cannot store (NUL), ImportError naming the extra to install,
    ConnectionError (one line, password masked) for a store that cannot be opened or
    reached, RuntimeError when PostgreSQL was reached but its tables could not be set up;
    all before any child starts and before anything is written. RuntimeError if the child
    fails, naming its error.
    """
    _check_backend(backend, url)
    _check_topic(topic, backend)
    _check_demo_store(backend, url)
    with _demo_store(backend, url) as (store, thread_id):
        done = _run_child({"backend": backend, "url": store, "thread_id": thread_id,
                           "topic": topic, "crash": False, "durability": None})
        if done.returncode != 0:
            raise _child_failed(done)
        seen = json.loads(done.stdout.strip().splitlines()[-1])
        with open_saver(backend, store) as saver:
            app = build_graph(saver)
            found = history_len(app, cfg(thread_id))
            values = dict(app.get_state(cfg(thread_id)).values)
    return {"backend": backend, "thread_id": thread_id, "kept": seen["kept"], "after_restart": found,
            "values_after_restart": values,
            "survives": found == seen["kept"] and values == seen["values"]}


def crash_demo(topic: str, backend: str = "sqlite", url: Optional[str] = None,
               durability: Optional[str] = None, wait_saved: bool = False) -> dict:
    """Kill a run inside `review` in a child process; then find, with a new saver, what was
    saved, and resume the thread from it.

    Returns {"backend": "sqlite", "thread_id": "run-1", "durability": "sync", "checkpoints_after_crash": 4,
    "pending_after_crash": "review", "pending_writes": 0, "ran_on_resume": ["review"],
    "checkpoints_after_resume": 5, "result": {<final values>}}: checkpoints the new saver
    found; the node the thread's last checkpoint would run next ("" when none); how many
    pending writes (finished nodes' outputs stored against that checkpoint) it found; the
    nodes that actually executed on resume, in order; checkpoints after the resume.
    What was found rests on `app.get_state_history(cfg)`, `app.get_state(cfg).tasks` and
    `saver.get_tuple(cfg).pending_writes`. The resume is invoke(app, None, cfg, durability)
    (input None continues from the last checkpoint); a node whose finished writes were
    found is not run again (LangGraph applies them), so no note is written twice.
    Nothing found (memory, or durability="exit"): 0, "", 0, [], 0 and "result": None.
    The child's review sends SIGKILL to its own process. wait_saved=True: review first
    works until the checkpoints of plan and write are in the store (at most 10 s), the
    deterministic form of "review had been working a while"; without it, under the default
    (async) durability, the crash races the background writes of the steps just finished.
    Each call has its own store and thread id, deleted afterwards, and Ctrl-C leaves
    nothing behind, as in restart_demo. Raises TypeError for a non-str topic or
    wait_saved, ValueError for an unknown backend or durability mode, a mode on a
    langgraph without durability modes, wait_saved with durability="exit", a missing
    postgres url, a SQLite url no other process can open or a topic PostgreSQL cannot
    store, ImportError naming the extra, ConnectionError or RuntimeError for a store that
    cannot be opened, as in restart_demo; all before any child starts. RuntimeError if the
    child did not die inside review.
    """
    _check_backend(backend, url)
    _check_topic(topic, backend)
    _check_demo_store(backend, url)
    _check_durability(durability)
    if not isinstance(wait_saved, bool):
        raise TypeError(f"wait_saved must be a bool, got {type(wait_saved).__name__}")
    if wait_saved and durability == "exit":
        raise ValueError('wait_saved=True cannot be used with durability="exit": that mode '
                         "saves no checkpoint until the run ends, so review would wait in vain")
    with _demo_store(backend, url) as (store, thread_id):
        _run_dying_child({"backend": backend, "url": store, "thread_id": thread_id, "topic": topic,
                          "crash": True, "durability": durability, "wait_saved": wait_saved})
        return _resume(backend, store, thread_id, durability)


def _to_the_end(fn: Any, *args: Any) -> Any:
    """fn(*args) in a thread of its own, always run to its end; returns or raises what it did.

    subtle: Ctrl-C in the middle of a LangGraph run leaves its background writes going on
    the saver (closing the saver under them crashes the interpreter) and, when it lands
    while LangGraph starts a worker thread, an idle thread that Python's exit waits for
    forever. Here the run is never interrupted: Ctrl-C waits for its end (a fraction of a
    second, at most _RUN_WAIT), then goes on.
    """
    done, out = threading.Event(), {}

    def run() -> None:
        try:
            out["value"] = fn(*args)
        except BaseException as exc:  # handed to the caller below
            out["error"] = exc
        finally:
            done.set()

    try:
        threading.Thread(target=run, name="agckpt-resume").start()
        done.wait()
    finally:
        with _ctrl_c_after():
            done.wait(_RUN_WAIT)
    if "error" in out:
        raise out["error"]
    return out["value"]


def _resume(backend: str, store: Optional[str], thread_id: str, durability: Optional[str]) -> dict:
    """A new saver on the store: what it finds of the thread, then the resume (see crash_demo)."""
    config, ran = cfg(thread_id), []
    with open_saver(backend, store) as saver:
        app = _lab_graph(saver, _recording(ran))
        found = history_len(app, config)
        snap = app.get_state(config)
        saved = saver.get_tuple(config)
        writes = len(saved.pending_writes or []) if saved else 0
        result = dict(_to_the_end(invoke, app, None, config, durability)) if found else None
        return {"backend": backend, "thread_id": thread_id, "durability": durability,
                "checkpoints_after_crash": found,
                # subtle: not snap.next, which leaves out a task whose writes are stored
                "pending_after_crash": snap.tasks[0].name if snap.tasks else "",
                "pending_writes": writes, "ran_on_resume": ran,
                "checkpoints_after_resume": history_len(app, config), "result": result}



# ---------------------------------------------------------------------------------------
# Two failures that are not a clean crash after a saved step.


def failed_run(topic: str, durability: Optional[str] = None) -> dict:
    """A run whose `review` raises an ordinary exception, then a resume with input None.

    {"durability": "exit", "error": "RuntimeError: review failed", "checkpoints": 1,
     "next": ["review"], "ran_on_resume": ["review"], "result": {<final values>}} on
    langgraph 1.x: even "exit" saves the checkpoint the run stopped at when it fails with an
    exception (a SIGKILL leaves it no time to). `checkpoints`: what the saver kept;
    `next`: `get_state(cfg).next` then. Rests on invoke() and `app.get_state`.
    TypeError for a non-str topic; ValueError for a bad durability as invoke().
    """
    _check_topic(topic)
    _check_durability(durability)
    ran, failing = [], [True]

    def failing_review(state: dict) -> dict:
        if failing[0]:
            raise RuntimeError("review failed")
        return review(state)

    record = _recording(ran)
    app = _lab_graph(new_saver(), lambda name, fn: record(name, failing_review if name == "review" else fn))
    config = cfg("run-1")
    try:
        invoke(app, {"topic": topic}, config, durability)
    except RuntimeError as exc:
        error = f"{type(exc).__name__}: {exc}"
    found, snap = history_len(app, config), app.get_state(config)
    failing[0] = False
    del ran[:]
    result = dict(invoke(app, None, config, durability)) if found else None
    return {"durability": durability, "error": error, "checkpoints": found,
            "next": list(snap.next), "ran_on_resume": ran, "result": result}


def _trapped_app(saver: Any, config: dict) -> Any:
    """The lab graph on `saver`, set for trap_demo: the checkpoint after `plan` is never
    stored (its put is held back), and `write` dies by SIGKILL once plan's writes are."""
    put = saver.put

    def held_put(where: dict, checkpoint: dict, metadata: dict, versions: dict) -> dict:
        if metadata.get("step") != 1:
            return put(where, checkpoint, metadata, versions)
        return {"configurable": dict(where["configurable"], checkpoint_id=checkpoint["id"])}

    def plan_written() -> bool:  # plan's writes are stored as pending writes
        saved = saver.get_tuple(config)
        return bool(saved) and any(w[1] == "angle" for w in saved.pending_writes or ())

    write_dies = _dying_node(plan_written)
    saver.put = held_put  # an instance attribute shadows the method, in this child only
    return _lab_graph(saver, lambda name, fn: write_dies if name == "write" else fn)


def trap_demo(topic: str, backend: str = "sqlite", url: Optional[str] = None) -> dict:
    """The crash that `next` hides, made the same on every run: in a child process `plan`
    finishes and its writes are stored as pending writes, but the checkpoint after it is
    not (as when a crash beats a background put), then `write` dies by SIGKILL.

    {"history_next": [["__start__"], ["plan"]], "next_after_crash": [],
     "pending_task": "plan", "pending_writes": 4, "pending_channels": ["angle",
     "branch:to:write", "notes", "stage"], "ran_on_resume": ["write", "review"],
     "checkpoints_after_resume": 5, "result": {<final values>}} (1.x): the history shows
    `plan` still to run, `get_state(cfg).next` is empty as if the run were done, and the
    resume applies plan's stored writes and runs only write and review. Rests on
    `app.get_state_history`, `app.get_state` and `invoke(None, cfg)` on a new saver.
    ValueError for backend "memory" (nothing outlives the child); other errors as crash_demo.
    """
    _check_backend(backend, url)
    _check_topic(topic, backend)
    _check_demo_store(backend, url)
    if backend == "memory":
        raise ValueError('backend must be "sqlite" or "postgres": the trap needs a store that '
                         "outlives the child process")
    with _demo_store(backend, url) as (store, thread_id):
        _run_dying_child({"backend": backend, "url": store, "thread_id": thread_id, "topic": topic,
                          "crash": False, "trap": True, "durability": None})
        with open_saver(backend, store) as saver:
            app = build_graph(saver)
            seen = [list(snap.next) for snap in history(app, cfg(thread_id))]
            snap = app.get_state(cfg(thread_id))
            saved = saver.get_tuple(cfg(thread_id))
            channels = sorted({write[1] for write in saved.pending_writes or ()})
        resumed = _resume(backend, store, thread_id, None)
    return {"history_next": seen, "next_after_crash": list(snap.next),
            "pending_task": resumed["pending_after_crash"], "pending_writes": resumed["pending_writes"],
            "pending_channels": channels,
            "ran_on_resume": resumed["ran_on_resume"],
            "checkpoints_after_resume": resumed["checkpoints_after_resume"], "result": resumed["result"]}


# ---------------------------------------------------------------------------------------
# Stores written by another langgraph: every function that reads a thread checks first that
# the installed langgraph reads the format ("v") of its checkpoints.
#
# A checkpoint's "v" is the layout of its fields and channels: v1 and v2 (langgraph 0.2.x,
# from langgraph-checkpoint; 0.2.x never looks at "v"), v3 (langgraph 0.3.24 on: channels
# "branch:to:<node>"), v4 (0.5.0 on: no "pending_sends"). Newer langgraph migrates older
# formats as it reads them; older langgraph fails on newer ones (0.2.60 on v4: KeyError
# 'pending_sends' deep inside get_state_history).

_FORMAT_SINCE = {3: "0.3.24", 4: "0.5.0"}  # checkpoint format -> first langgraph writing it


@functools.lru_cache(maxsize=None)
def _readable_format() -> int:
    """The newest checkpoint format the installed langgraph reads: 2 on 0.2.60, 4 on 1.x.

    Rests on langgraph's own LATEST_VERSION, the format it writes (langgraph.pregel.checkpoint
    from 0.3.x, ._checkpoint from 0.6); before that langgraph has none and reads v1 and v2.
    """
    import importlib

    for name in ("langgraph.pregel._checkpoint", "langgraph.pregel.checkpoint"):
        try:
            latest = getattr(importlib.import_module(name), "LATEST_VERSION", None)
        except ImportError:
            continue
        if isinstance(latest, int):
            # subtle: 0.4.10, which writes v3, was taught to read v4 as well
            reads_v4 = latest == 3 and _version_tuple(langgraph_version()) >= (0, 4, 10)
            return 4 if reads_v4 else latest
    return 2


def _saver_thread_id(thread_id: Any) -> Any:
    """The thread_id as LangGraph hands it to the saver: 1 -> "1" from langgraph 0.3.31 on,
    which makes every thread_id a str; before, as given (1 stays the int 1)."""
    return str(thread_id) if _version_tuple(langgraph_version()) >= (0, 3, 31) else thread_id


def _check_format(app: Any, thread_id: Any, namespace: str, checkpoint_id: Any) -> None:
    """Refuse a thread whose latest checkpoint (or the one `checkpoint_id` names) has a format
    newer than the installed langgraph reads, before LangGraph reads it.

    ValueError: "checkpoint '1f0...' of thread 't1' has format v4; the installed langgraph
    0.2.60 reads formats up to v2: read this store with langgraph >= 0.5.0, the first
    release that writes v4". Nothing is written. A thread's latest checkpoint carries its
    newest format, since a langgraph that cannot read a checkpoint cannot continue from it.
    Rests on `app.checkpointer.get_tuple(config)`; does nothing without a saver.
    """
    saver = getattr(app, "checkpointer", None)
    if not isinstance(saver, BaseCheckpointSaver):
        return  # LangGraph says so itself ("No checkpointer set")
    readable = _readable_format()
    thread = {"thread_id": _saver_thread_id(thread_id), "checkpoint_ns": namespace}
    named = [dict(thread, checkpoint_id=checkpoint_id)] if checkpoint_id else []
    for configurable in [thread] + named:
        found = saver.get_tuple({"configurable": configurable})
        version = found.checkpoint.get("v") if found is not None else None
        if isinstance(version, int) and version > readable:
            since = _FORMAT_SINCE.get(version)
            where = (f"langgraph >= {since}, the first release that writes v{version}" if since
                     else f"the newer langgraph that wrote it (after {langgraph_version()})")
            raise ValueError(
                f"checkpoint {found.config['configurable'].get('checkpoint_id')!r} of thread "
                f"{thread_id!r} has format v{version}; the installed langgraph "
                f"{langgraph_version()} reads formats up to v{readable}: read this store "
                f"with {where}")


# ---------------------------------------------------------------------------------------
# What may enter a checkpoint: the checks fork, weigh, lost_demo and the demos run first.
#
# Every saver stores them through its serializer, and the lab
# counts them with json.dumps(..., sort_keys=True). A part neither can write as it is would
# be refused deep inside a run, or stored changed ("가\ud83d" comes back "가" or "가?").

_INT64 = (-(1 << 63), (1 << 63) - 1)  # signed 64 bits, the widest int every store keeps as one
_SURROGATE = re.compile("[\ud800-\udfff]")  # a lone surrogate: no UTF-8 form exists
_JSON_KEYS = (str, int, float, bool, type(None))  # the dict keys json.dumps accepts


def _key_text(key: Any) -> str:
    """How a path shows a key: "k" for a str (escaped only where it must be), 3 for an int."""
    if not isinstance(key, str):
        return repr(key)
    text = json.dumps(key, ensure_ascii=False)
    return json.dumps(key) if _SURROGATE.search(text) else text


def _path(base: str, *keys: Any) -> str:
    """_path("payload", "k", 3) -> 'payload["k"][3]'"""
    return base + "".join(f"[{_key_text(key)}]" for key in keys)


def _int_text(number: int) -> str:
    return str(number) if number.bit_length() <= 128 else f"an int of {number.bit_length()} bits"


def _has_text(number: int) -> bool:
    try:
        str(number)
    except ValueError:  # Python >= 3.11 limits int -> str to sys.get_int_max_str_digits()
        return False
    return True


def _problem(value: Any, name: str, stored: bool, nul: bool = False) -> Optional[Exception]:
    """The error for the first part of `value` json.dumps(sort_keys=True) cannot write as it
    is (with `stored`: nor a saver; with `nul`: nor PostgreSQL), or None.

    Walks dicts (keys and values), lists and tuples (with `stored`, sets too) without
    recursion, so a deep value does not exhaust the stack.
    """
    stack = [(value, name, frozenset())]  # (part, its path, ids of the containers holding it)
    while stack:
        part, path, holders = stack.pop()
        if isinstance(part, str):
            found = _SURROGATE.search(part)
            if found:
                return ValueError(f"{path} has a lone surrogate U+{ord(found.group()):04X} at "
                                  f"index {found.start()}: it has no UTF-8 form, so no saver "
                                  f"stores it as it is and its size in bytes is undefined")
            if nul and "\x00" in part:
                return ValueError(f"{path} has a NUL character (\\x00) at index "
                                  f"{part.index(chr(0))}: PostgreSQL cannot store it")
        elif isinstance(part, int) and stored and not _INT64[0] <= part <= _INT64[1]:
            return ValueError(f"{path} is {_int_text(part)}, outside the signed 64-bit range "
                              f"the savers store (-2**63 to 2**63-1)")
        elif isinstance(part, int) and part.bit_length() > 14_000 and not _has_text(part):
            return ValueError(f"{path} is {_int_text(part)}, more digits than Python turns into "
                              f"text (sys.get_int_max_str_digits()), so json cannot write it")
        elif isinstance(part, (dict, list, tuple) + ((set, frozenset) if stored else ())):
            if id(part) in holders:
                return ValueError(f"{path} contains itself: no saver or JSON can write a cycle")
            holders = holders | {id(part)}
            if isinstance(part, dict):
                bad = [key for key in part if not isinstance(key, _JSON_KEYS)]
                if bad:
                    return TypeError(f"{path} has the key {bad[0]!r} of type "
                                     f"{type(bad[0]).__name__}: JSON keys must be str, int, "
                                     f"float, bool or None")
                try:
                    sorted(part)
                except TypeError:
                    kinds = sorted({type(key).__name__ for key in part})
                    return TypeError(f"{path} has keys of types {kinds} that cannot be sorted "
                                     f"together, as json.dumps(sort_keys=True) must")
                children = [(key, f"a key of {path}") for key in part]
                children += [(item, _path(path, key)) for key, item in part.items()]
            elif isinstance(part, (set, frozenset)):
                children = [(item, f"an element of {path}") for item in part]
            else:
                children = [(item, _path(path, index)) for index, item in enumerate(part)]
            stack.extend((child, where, holders) for child, where in reversed(children))
    return None


def _check_storable(value: Any, name: str, backend: Optional[str] = None) -> None:
    """Refuse, before anything is written, a value no saver can store as it is.

    ValueError for a part of an accepted type that cannot be stored faithfully: an int
    outside the signed 64-bit range, a str with a lone surrogate ("가\\ud83d"), a container
    that holds itself, and with backend="postgres" a str with a NUL character ("\\x00").
    TypeError for a part whose type cannot be written: a dict key json.dumps(sort_keys=True)
    cannot handle (not str/int/float/bool/None, or keys of types that do not sort together)
    and anything the saver's serializer (`serde.dumps_typed`) rejects.
    Each message starts with the path to the bad part: values["score"], payload[3], topic.
    """
    if backend not in (None,) + BACKENDS:
        raise ValueError(f"backend must be None or one of {list(BACKENDS)}, got {backend!r}")
    problem = _problem(value, name, stored=True, nul=backend == "postgres")
    if problem is not None:
        raise problem
    serde = new_saver().serde
    path, part = name, value
    while True:  # find the innermost part the serializer rejects
        try:
            serde.dumps_typed(part)
            return
        except Exception as exc:  # the saver's serializer decides; name what failed and why
            error = exc
        inner = part.items() if isinstance(part, dict) else (
            enumerate(part) if isinstance(part, (list, tuple)) else ())
        for key, item in inner:
            try:
                serde.dumps_typed(item)
            except Exception:
                path, part = _path(path, key), item
                break
        else:
            raise TypeError(f"{path} of type {type(part).__name__} cannot be serialized by the "
                            f"saver: {error}") from None


# ---------------------------------------------------------------------------------------
# Loading by path on Python 3.9: runs once at import, before build_graph is first called.


def _register_if_loaded_by_path() -> None:
    """Put this module in sys.modules when it was loaded by path without being registered.

    subtle: StateGraph(State) calls typing.get_type_hints, which on Python 3.9 looks up
    sys.modules[State.__module__] unconditionally; spec_from_file_location + exec_module
    without `sys.modules[name] = module` would make build_graph raise KeyError there.
    """
    if sys.version_info >= (3, 10) or __name__ in sys.modules:
        return
    import gc
    import types

    for obj in gc.get_referrers(globals()):
        if isinstance(obj, types.ModuleType) and obj.__dict__ is globals():
            sys.modules[__name__] = obj
            return


_register_if_loaded_by_path()
