"""What a LangGraph checkpointer keeps, measured: a three-node graph and the lab's measures.

A checkpointer saves the *whole* state at every super-step, so a thread can be continued,
replayed from any saved point, or forked with changed values; and for the same reason the
size of the state is the cost of saving it. Sizes are bytes of a JSON serialization, never
time. Sections 1-7 are the lab's steps, in its order. Below the "Beyond the lab" banner:
durable savers (SQLite, PostgreSQL), the measures the report prints, real process restarts
and crashes, what each saver physically stores, and the checks that refuse configs, values
and stores no saver handles as they are.

Glossary:
  config    {"configurable": {"thread_id": ..., ["checkpoint_ns": "", "checkpoint_id": ...]}}
            which thread, which point (without checkpoint_id: the thread's latest point)
  snapshot  LangGraph's StateSnapshot: .values, .next (nodes still to run), .config, .metadata
  thread    one conversation's chain of checkpoints, named by thread_id
"""

import contextlib
import functools
import itertools
import json
import math
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
    "NODES", "DEFAULT_ANGLE", "BACKENDS", "EXTRAS", "MODES", "FIELD_PURPOSES",
    "package_version", "langgraph_version", "has_durability", "has_backend", "open_saver", "invoke",
    "first_run", "checkpoint_rows", "thread_demo", "replay_rows", "rerun_with_input", "fork_demo",
    "checkpoint_tree", "time_travel_tree", "payload_size", "weigh_rows", "anatomy", "anatomy_rows",
    "stored_bytes", "weigh_stored", "physical_vs_logical", "postgres_placement", "incompressible",
    "durability_counts", "payload_sweep", "restart_demo", "crash_demo", "failed_run", "trap_demo",
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

    Rests on `StateGraph(State).compile(checkpointer=...)`. TypeError naming `checkpointer` for
    anything but None or a BaseCheckpointSaver.
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

    The id is passed on as given: an int 1 is the thread "1" on langgraph 1.x and on SQLite,
    a thread of its own in 0.2.60's in-memory saver. TypeError naming `thread_id` for None.
    """
    _check_thread_id(thread_id)
    return {"configurable": {"thread_id": thread_id}}


def _check_thread_id(thread_id: Any) -> None:
    if thread_id is None:
        raise TypeError('thread_id must not be None: name the thread, e.g. cfg("run-1") (without an id, '
                        "langgraph 0.2.60 puts every run in one thread and 1.x reads nothing back)")
    if isinstance(thread_id, bool) or not isinstance(thread_id, (str, int)):
        raise TypeError(f"thread_id must be a str or an int, got {type(thread_id).__name__}")
    if isinstance(thread_id, int) and not _INT64[0] <= thread_id <= _INT64[1]:
        raise ValueError(f"thread_id {thread_id} is outside the signed 64-bit range the savers store")


def _thread_id(config: Any) -> Any:
    """config["configurable"]["thread_id"]; ValueError naming `config` for another shape."""
    if not (isinstance(config, dict) and isinstance(config.get("configurable"), dict)
            and "thread_id" in config["configurable"]):
        raise ValueError('config must be {"configurable": {"thread_id": ...}}, optionally with '
                         f'"checkpoint_ns" and "checkpoint_id" (see cfg()), got {config!r}')
    _check_thread_id(config["configurable"]["thread_id"])
    return config["configurable"]["thread_id"]


def _check_config(app: CompiledStateGraph, config: Any) -> "RunnableConfig":
    """Check `config` against `app` and return its thread's config (without checkpoint_id).

    ValueError naming `config` for a malformed config, a checkpoint_ns or checkpoint_id the
    graph or thread does not have, or a store in a newer format (_check_format).
    """
    if not hasattr(app, "get_state_history"):
        raise TypeError(f"app must be a compiled graph (build_graph(saver)), got {type(app).__name__}")
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
    if checkpoint_id is not None and not isinstance(checkpoint_id, str):
        raise ValueError(f"config's checkpoint_id must be a str, got {checkpoint_id!r}")
    _check_format(app, thread_id, namespace, checkpoint_id)
    # subtle: LangGraph reads a checkpoint_id of None or "" as none: the thread's latest point
    if checkpoint_id and not any(True for _ in app.get_state_history(config, limit=1)):
        raise ValueError(f"config names checkpoint_id {checkpoint_id!r}, which thread "
                         f"{thread_id!r} does not have (namespace {namespace!r})")
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": namespace}}


def _saver_config(app: CompiledStateGraph, config: Any) -> "RunnableConfig":
    """`config` as LangGraph hands it to the saver: the config of the checkpoint it names or of
    the thread's latest; for an empty thread, the thread's (1.x makes a thread_id a str).
    """
    thread = _check_config(app, config)
    for snap in app.get_state_history(config if config["configurable"].get("checkpoint_id") else thread,
                                      limit=1):
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

    After one run on cfg("t"): 5 snapshots, .next ("__start__",) ... (); a config naming a
    checkpoint_id gives that one. Rests on `app.get_state_history(config)`. ValueError naming
    `config` for a malformed one or an id/namespace not in the thread; TypeError for thread_id None.
    """
    _check_config(app, config)
    return list(app.get_state_history(config))[::-1]  # subtle: LangGraph gives newest first


def history_len(app: CompiledStateGraph, config: "RunnableConfig") -> int:
    """Checkpoints `app.get_state_history(config)` lists: 5 after one run, 8 after a fork
    before "write" (every branch); 1 for a config naming a checkpoint_id. Errors as history().
    """
    _check_config(app, config)
    return _count(app, config)


def _count(app: CompiledStateGraph, config: "RunnableConfig") -> int:
    return sum(1 for _ in app.get_state_history(config))


def pending(app: CompiledStateGraph, config: "RunnableConfig") -> List[str]:
    """The node each snapshot runs next, oldest first ("" at the end):
    ["__start__", "plan", "write", "review", ""] after one run. Errors as history().
    """
    return [snap.next[0] if snap.next else "" for snap in history(app, config)]


def snapshot_before(app: CompiledStateGraph, config: "RunnableConfig",
                    node: str) -> Optional[StateSnapshot]:
    """The latest snapshot with `next == (node,)`, the last point before `node` ran, or None.

    A LangGraph StateSnapshot, whose `.config` names the checkpoint. Rests on
    `app.get_state_history(config)`, newest first; a config naming a checkpoint_id searches that
    one only. Errors as history().
    """
    _check_config(app, config)
    return _latest_before(app, config, node)


def _latest_before(app: CompiledStateGraph, config: "RunnableConfig",
                   node: str) -> Optional[StateSnapshot]:
    return next((snap for snap in app.get_state_history(config) if snap.next == (node,)), None)


def _require_point(app: CompiledStateGraph, config: "RunnableConfig", node: Any) -> StateSnapshot:
    """snapshot_before, or a ValueError naming `node` and the nodes that do have a point."""
    if not isinstance(node, str):
        raise TypeError(f"node must be a str (one of {list(NODES)}), got {type(node).__name__}")
    snap = _latest_before(app, config, node)
    if snap is not None:
        return snap
    seen = {s.next[0] for s in app.get_state_history(config) if len(s.next) == 1}
    points = [n for n in ("__start__",) + NODES if n in seen]
    where, none = f"thread {_thread_id(config)!r}", "the thread has no history"
    if config["configurable"].get("checkpoint_id"):
        where = (f"checkpoint {config['configurable']['checkpoint_id']!r} (config names one "
                 f"checkpoint, so only it is searched; pass cfg(thread_id) for the whole thread)")
        none = "that checkpoint is the point before no node"
    raise ValueError(f"node {node!r} has no point in {where}: " + (
        f"the nodes that have one are {points}" if points else none))


# ---------------------------------------------------------------------------------------
# 4. Replay: run again from a saved point, with the same values.


def replay(app: CompiledStateGraph, config: "RunnableConfig", node: str) -> dict:
    """Re-run the thread from the latest point before `node`, with the values saved there.

    {"from": "write", "result": {<final values>}, "added": 2}: checkpoints the whole thread
    gained; before plan/write/review 3/2/1, from langgraph 1.1.7 on 4/3/2 (a first checkpoint with
    source "fork"). Rests on `app.invoke(None, snapshot.config)`: input None continues (a real
    input runs from the first node on the saved values: rerun_with_input). ValueError for a node
    with no point, TypeError for a non-str node, config errors as history().
    """
    thread = _check_config(app, config)
    snap = _require_point(app, config, node)
    before = _count(app, thread)
    result = app.invoke(None, snap.config)
    return {"from": node, "result": result, "added": _count(app, thread) - before}


# ---------------------------------------------------------------------------------------
# 5. Fork: change values at a saved point and continue on a new branch.


def _check_values(values: Any, backend: Optional[str] = None) -> None:
    """TypeError/ValueError naming `values` and the bad part, for values that are not a State
    update the nodes accept or that the saver (`backend`) cannot store as they are."""
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of State keys, got {type(values).__name__}")
    unknown = [k for k in values if k not in State.__annotations__]
    if unknown:
        raise ValueError(f"values has keys that are not State keys: {unknown}; State keys are {list(State.__annotations__)}")
    kinds = {"topic": str, "angle": str, "draft": str, "stage": str, "score": int, "notes": list}
    for key, value in values.items():
        if key in kinds and (not isinstance(value, kinds[key]) or isinstance(value, bool)
                             or key == "notes" and not all(isinstance(note, str) for note in value)):
            kind = "a list of str (added to the notes)" if key == "notes" else f"of type {kinds[key].__name__}"
            raise TypeError(f"{_path('values', key)} must be {kind}, got {value!r}")
    if "angle" in values:
        _check_angle(values["angle"], _path("values", "angle"))
    _check_storable(values, "values", backend)


def fork(app: CompiledStateGraph, config: "RunnableConfig", node: str, values: dict) -> dict:
    """Write `values` at the latest point before `node` and run on from there: a new branch.

    {"forked_config": {<the branch's config>}, "result": {<its final values>}, "original":
    {<the thread's end before>}, "total": 8}: the whole thread's checkpoints (5 -> 8 before
    "write"). The old branch stays readable through its own config. Rests on
    `app.update_state(snapshot.config, values)`, then `app.invoke(None, <the config it returned>)`.
    Before anything is written: ValueError for a node with no point or "__start__" (the input
    would be lost), TypeError/ValueError naming `values` and the bad part, config errors as history().
    """
    thread = _check_config(app, config)
    if node == "__start__":
        raise ValueError('node must be a node of the graph (plan, write or review), not "__start__": '
                         "a fork before the input would lose the topic")
    _check_values(values, _backend_of(app.checkpointer))
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

    The lab's len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")):
    a datetime, set or bytes counts as its str(). TypeError (keys) or ValueError (lone surrogate,
    cycle) naming `values` and the path to a part json cannot write at all.
    """
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)  # json.dumps' encoder
    # the lab's formula, summed chunk by chunk: the same number without holding the whole text and its
    # bytes (bar list or dict subclasses that redefine len() or iteration, which json's C encoder ignores)
    try:
        return sum(map(_utf8_len, encoder.iterencode(values)))
    except (TypeError, ValueError) as exc:
        problem = _problem(values, "values", stored=False)
        if problem is None:  # e.g. a str() of a default=str value with a lone surrogate
            problem = type(exc)(f"values cannot be written as JSON: {exc}")
        raise problem from None


def _utf8_len(text: str) -> int:
    """len(text.encode("utf-8")), without the copy for ASCII text (one byte a character)."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _measure_each(app: CompiledStateGraph, config: "RunnableConfig", measure: Any) -> list:
    """[measure(snapshot) for each snapshot], oldest first, one snapshot at a time.

    subtle: `get_state_history` reads the whole history before yielding, so a large value would
    be held once per checkpoint; paging with `before=<previous config>, limit=1` holds one.
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

    Rests on `app.get_state_history(config, before=..., limit=1)`, one snapshot at a time (a
    large value is held once). Config errors as history().
    """
    _check_config(app, config)
    return _measure_each(app, config, lambda snap: state_bytes(snap.values))


def payload_size(payload: Any) -> int:
    """The payload's own size in bytes: UTF-8 length of a str, the bytes of bytes, bytearray
    or memoryview, else state_bytes. payload_size("가을") -> 6; payload_size(b"ab") -> 2."""
    if isinstance(payload, str):
        return _utf8_len(payload)
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return memoryview(payload).nbytes
    return state_bytes(payload)


def _check_topic(topic: Any, backend: Optional[str] = None, name: str = "topic") -> None:
    """TypeError naming `topic` (or `name`) for a non-str, then _check_storable."""
    if not isinstance(topic, str):
        raise TypeError(f"{name} must be a str, got {type(topic).__name__}")
    _check_storable(topic, name, backend)


def _check_angle(angle: Any, name: str = "angle") -> None:
    if not isinstance(angle, str) or angle not in ANGLES:
        raise ValueError(f"{name} must be one of {list(ANGLES)}, got {angle!r}")


def _check_payload(payload: Any, backend: Optional[str] = None) -> None:
    """ValueError naming `payload` when it is empty, then _check_storable(payload, "payload")."""
    if payload is None or (hasattr(payload, "__len__") and len(payload) == 0):
        raise ValueError("payload must be a non-empty value (a str, bytes or any value the saver "
                         "can serialize), got an empty one")
    _check_storable(payload, "payload", backend)


def _run_once(inputs: dict, thread_id: str = "run-1") -> CompiledStateGraph:
    """A new graph on a new in-memory saver, run once on `thread_id`; returns the app."""
    app = build_graph(new_saver())
    app.invoke(inputs, cfg(thread_id))
    return app


def _thin_and_fat(topic: str, payload: Any) -> tuple:
    """history_bytes of a run without and of one with `payload` in "bulk", each on a new saver:
    ([13, 32, 81, 124, 149], [13, 1544, ...]). One app at a time is alive."""
    thin = history_bytes(_run_once({"topic": topic}), cfg("run-1"))
    return thin, history_bytes(_run_once({"topic": topic, "bulk": payload}), cfg("run-1"))


def weigh(topic: str, payload: Any) -> dict:
    """Run the graph twice on new savers, without and with `payload` in "bulk".

    {"checkpoints": 5, "thin_total": 399, "fat_total": 6447, "payload_bytes": 1500, "carrying": 4}
    for "가을" and 1,500 "x": totals sum history_bytes (bytes); `carrying` counts checkpoints at
    least payload_bytes larger in the fat run. Rests on `app.invoke(inputs, cfg("run-1"))`.
    Before either run: TypeError for a non-str topic, ValueError for an empty payload, and
    _check_storable's errors naming the path (payload[3], payload["k"]).
    """
    _check_topic(topic)
    _check_payload(payload)
    size = payload_size(payload)
    thin, fat = _thin_and_fat(topic, payload)
    return {"checkpoints": len(fat), "thin_total": sum(thin), "fat_total": sum(fat), "payload_bytes": size,
            "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= size)}


# ---------------------------------------------------------------------------------------
# 7. What disappears: a new in-memory saver knows nothing of the old one.


def lost_demo(topic: str) -> dict:
    """Run thread "run-1", then ask a brand-new saver (a stand-in for a restart) for it.

    {"kept": 5, "after_restart": 0, "values_after_restart": {}} (checkpoints, values): no error,
    the loss is silent. Rests on `get_state_history` and `get_state`. Topic errors as weigh.
    """
    _check_topic(topic)
    kept = history_len(_run_once({"topic": topic}), cfg("run-1"))
    restarted = build_graph(new_saver())
    return {"kept": kept, "after_restart": history_len(restarted, cfg("run-1")),
            "values_after_restart": dict(restarted.get_state(cfg("run-1")).values)}


# =======================================================================================
# Beyond the lab: durable savers, the report's measures, what a checkpoint is made of, what
# each saver physically stores, real restarts and crashes. Extras (SQLite, PostgreSQL) are
# imported inside the functions that use them.

BACKENDS = ("memory", "sqlite", "postgres")
EXTRAS = {"sqlite": "langgraph-checkpoint-sqlite", "postgres": "langgraph-checkpoint-postgres"}
MODES = ("exit", "async", "sync")  # durability modes, langgraph >= 0.6


@functools.lru_cache(maxsize=None)  # what is installed does not change while we run
def package_version(name: str = "langgraph") -> Optional[str]:
    """An installed package's version or None: package_version() -> "1.2.24"."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def langgraph_version() -> str:
    """The installed langgraph's version string, e.g. "0.2.60" or "1.2.24"."""
    return package_version("langgraph")


def _version_tuple(text: str) -> tuple:
    """"1.1.7" -> (1, 1, 7); up to the first part that is not a number ("1.0.0rc1" -> (1, 0))."""
    return tuple(int(part) for part in itertools.takewhile(str.isdigit, text.split(".")))


@functools.lru_cache(maxsize=None)  # the installed langgraph does not change while we run
def has_durability() -> bool:
    """Whether the installed langgraph's invoke takes `durability` (MODES; langgraph >= 0.6)."""
    import inspect

    from langgraph.pregel import Pregel

    return "durability" in inspect.signature(Pregel.invoke).parameters


def _import_extra(backend: str) -> Any:
    """The saver class of "sqlite" or "postgres"; ImportError naming the package to install."""
    try:
        if backend == "sqlite":
            from langgraph.checkpoint.sqlite import SqliteSaver as saver_class
        else:
            from langgraph.checkpoint.postgres import PostgresSaver as saver_class
        return saver_class
    except ImportError as exc:
        raise ImportError(f'backend "{backend}" needs the package {EXTRAS[backend]}: pip install '
                          f"{EXTRAS[backend]} (or pip install -e '.[{backend}]' in a clone of agckpt); {exc}") from None


def has_backend(backend: str) -> bool:
    """Whether `backend` can be used here: "memory" always, "sqlite" and "postgres" when their
    package (EXTRAS) imports. ValueError for an unknown backend.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    try:
        return backend == "memory" or bool(_import_extra(backend))
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


def _check_durability(durability: Any) -> None:
    """ValueError naming `durability` for a mode not in MODES, or any mode before langgraph 0.6."""
    if durability is not None and durability not in MODES:
        raise ValueError(f'durability must be "exit", "async", "sync" or None, got {durability!r}')
    if durability is not None and not has_durability():
        raise ValueError(f"durability={durability!r} needs langgraph >= 0.6; "
                         f"the installed langgraph is {langgraph_version()}")


def invoke(app: CompiledStateGraph, inputs: Any, config: "RunnableConfig",
           durability: Optional[str] = None) -> Any:
    """app.invoke(inputs, config), passing `durability` ("exit", "async", "sync") through; None
    keeps langgraph's default (async). Errors as _check_durability.
    """
    _check_durability(durability)
    return app.invoke(inputs, config, **({"durability": durability} if durability else {}))


_CLOSE_WAIT = 0.5  # seconds closing a saver waits for a LangGraph background write to end
_SETUP_LOCK = threading.Lock()  # one SQLite setup() at a time in this process
_PG_SETUP_KEY = int.from_bytes(b"agckpt", "big")  # the advisory lock every process takes around setup()
_PG_SETUP_WAIT = 60.0  # seconds open_saver waits for another session's setup() to end


def _masked(text: str) -> str:
    """`text` with passwords as ***: "postgresql://a:s3cret@h/db" -> "postgresql://a:***@h/db"."""
    text = re.sub(r"(://[^\s:@/?#]*:)[^\s@/?#]*@", r"\1***@", text)
    return re.sub(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&'\"]*)", r"\1***", text, flags=re.I)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else repr(exc)


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Hold Ctrl-C back until the block ends, then raise KeyboardInterrupt: for cleanup that must
    not be cut short. Only in the main thread under Python's default SIGINT handler.
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
    """saver_class on a connection of its own to `url`, tables set up. Errors as open_saver."""
    if backend == "sqlite":
        import sqlite3

        try:
            saver = saver_class(sqlite3.connect(url, check_same_thread=False))
            with _SETUP_LOCK:
                saver.setup()
            return saver
        except sqlite3.Error as exc:
            raise ConnectionError(f"cannot open the sqlite store at url {url!r}: {_first_line(exc)}") from None
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
    """Close the saver's connection once no LangGraph background write uses it.

    subtle: an interrupted invoke can leave LangGraph's threads inside put/put_writes; closing
    the connection under them crashes the interpreter (SIGSEGV). Both savers use it only while
    holding saver.lock, so close it holding the lock. A lock held by this thread's own unfinished
    saver.list() is left: the garbage collector closes the connection.
    """
    if saver.lock.acquire(timeout=_CLOSE_WAIT):
        try:
            saver.conn.close()
        finally:
            saver.lock.release()


@contextlib.contextmanager
def open_saver(backend: str = "memory", url: Optional[str] = None) -> Iterator[BaseCheckpointSaver]:
    """A saver for `backend`, closed (and a temporary store removed) on exit.

        with open_saver("sqlite") as saver:      # a new SQLite file in a temporary folder
            app = build_graph(saver)

    "memory": InMemorySaver; "sqlite": SqliteSaver on the file `url`; "postgres": PostgresSaver on
    the libpq string `url`, setup() one process at a time (an advisory lock). The connection is
    closed once LangGraph's background writes are done, also after Ctrl-C. ValueError for an
    unknown backend or missing url, ImportError naming the extra, ConnectionError (one line,
    passwords ***) for a store that cannot be opened, RuntimeError when PostgreSQL's setup fails.
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


# ---------------------------------------------------------------------------------------
# The lab's measures, in the report's words: each returns plain data the report prints.

_EMPTY = {"notes": []}  # what a key with a reducer holds before anything is written


def checkpoint_rows(app: CompiledStateGraph, config: "RunnableConfig") -> List[dict]:
    """One row per checkpoint, oldest first: what each super-step saved.

    [{"position": 0, "step": -1, "source": "input", "next": ["__start__"], "changed": [],
    "bytes": 13}, {"position": 1, "step": 0, ..., "changed": ["topic"], "bytes": 32}, ...]:
    `changed` lists the keys that differ from the checkpoint before (no "notes" counts as []);
    `bytes` is state_bytes. Rests on history(); errors as history().
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
    ""], "anatomy": anatomy_rows(anatomy(...))} (the last checkpoint, taken apart).
    Topic errors as weigh."""
    _check_topic(topic)
    app = _run_once({"topic": topic})
    return {"checkpoints": checkpoint_rows(app, cfg("run-1")), "pending": pending(app, cfg("run-1")),
            "anatomy": anatomy_rows(anatomy(app, cfg("run-1")))}


def thread_demo(topic: str) -> dict:
    """What a thread_id keeps: the same thread continues, another starts empty, and a graph
    without a checkpointer keeps nothing.

    {"same_thread_notes": [3, 6], "same_thread_checkpoints": 10, "history_newest_first": True,
     "other_thread_checkpoints": 0, "other_thread_values": {}, "no_checkpointer_notes": [3, 3],
     "no_checkpointer_error": "ValueError: No checkpointer set"}. Rests on `invoke`,
    `get_state_history` and `get_state`. Topic errors as weigh.
    """
    _check_topic(topic)
    app, bare = build_graph(new_saver()), build_graph()
    runs = [len(app.invoke({"topic": topic}, cfg("t1"))["notes"]) for _ in range(2)]
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


def _lab_graph(checkpointer: Any, wrap: Any) -> CompiledStateGraph:
    """build_graph's own nodes and edges, each node function passed through wrap(name, fn)."""
    lab = build_graph().builder  # the lab's StateGraph: read its shape rather than copy it
    graph = StateGraph(State)
    for name in lab.nodes:
        graph.add_node(name, wrap(name, globals()[name]))
    for start, end in sorted(lab.edges):
        graph.add_edge(start, end)
    return graph.compile(checkpointer=checkpointer)


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

    [{"from": "plan", "added": 3, "ran": ["plan", "write", "review"], "sources": ["loop", "loop",
    "loop"]}, ...] on 0.2.60: the nodes that executed and the new checkpoints' sources, in order.
    Topic errors as weigh.
    """
    _check_topic(topic)
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
    """The trap replay avoids: a past checkpoint invoked with a real input instead of None.

    {"input": {"topic": "겨울"}, "ran": ["plan", "write", "review"], "added": 5, "notes":
    ["plan:가을", "plan:겨울", "write:기본", "review:5"], "topic": "겨울"}: from the point before
    write, the run starts at the first node again, on the saved values (the reducer adds).
    Errors as weigh for topic and other_topic.
    """
    _check_topic(topic)
    _check_topic(other_topic, name="other_topic")
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

    {"before": 5, "total": 8, "base_draft": "가을/기본", "base_score": 5, "fork_draft": "가을/비교
    가을/비교 가을/비교", "fork_score": 17, "original_is_old_end": True, "current_is_new_end": True,
    "old_end_readable": True}: get_state(cfg) shows the new end, the old one stays readable.
    TypeError/ValueError naming topic or angle before any run.
    """
    _check_topic(topic)
    _check_angle(angle)
    app = build_graph(new_saver())
    base = app.invoke({"topic": topic}, cfg("run-1"))
    before = history_len(app, cfg("run-1"))
    old_end = app.get_state(cfg("run-1")).config  # subtle: keep the old end's config in hand
    forked = fork(app, cfg("run-1"), "write", {"angle": angle})
    return {"before": before, "total": forked["total"], "base_draft": base["draft"],
            "base_score": base["score"], "fork_draft": forked["result"]["draft"],
            "fork_score": forked["result"]["score"], "original_is_old_end": forked["original"] == base,
            "current_is_new_end": app.get_state(cfg("run-1")).values == forked["result"],
            "old_end_readable": app.get_state(old_end).values == base}


def checkpoint_tree(app: CompiledStateGraph, config: "RunnableConfig") -> List[dict]:
    """The thread's checkpoints, oldest first, each with its parent's position.

    [{"position": 0, "parent": None, "step": -1, "source": "input", "next": ["__start__"]},
    {"position": 1, "parent": 0, ...}, ...]. Rests on `get_state_history` and `parent_config`.
    """
    rows, position_of = [], {}
    for position, snap in enumerate(history(app, config)):
        position_of[snap.config["configurable"]["checkpoint_id"]] = position
        parent = snap.parent_config["configurable"]["checkpoint_id"] if snap.parent_config else None
        rows.append({"position": position, "parent": position_of.get(parent), "step": snap.metadata.get("step"),
                     "source": snap.metadata.get("source"), "next": list(snap.next)})
    return rows


def time_travel_tree(topic: str, angle: str) -> List[dict]:
    """checkpoint_tree() of one thread after a run, a replay before "write", then a fork
    before "write" with {"angle": angle}: 11 checkpoints on langgraph 1.x, 10 on 0.2.60.
    TypeError/ValueError naming topic or angle before any run."""
    _check_topic(topic)
    _check_angle(angle)
    app = build_graph(new_saver())
    app.invoke({"topic": topic}, cfg("run-1"))
    replay(app, cfg("run-1"), "write")
    fork(app, cfg("run-1"), "write", {"angle": angle})
    return checkpoint_tree(app, cfg("run-1"))


def weigh_rows(topic: str, payload: Any) -> dict:
    """weigh()'s two runs, checkpoint by checkpoint (bytes, oldest first):

    {"thin": [13, 32, 81, 124, 149], "fat": [13, 1544, 1593, 1636, 1661], "difference": [0, 1512,
    ...], "carried": [1512], "key_bytes": 12} for "가을", 1,500 "x": each difference is 0 or
    payload + key_bytes, what `, "bulk": ""` adds.
    Errors as weigh.
    """
    _check_topic(topic)
    _check_payload(payload)
    thin, fat = _thin_and_fat(topic, payload)
    difference = [f - t for t, f in zip(thin, fat)]
    return {"thin": thin, "fat": fat, "difference": difference, "carried": sorted(set(difference) - {0}),
            "key_bytes": state_bytes({"bulk": "", "topic": ""}) - state_bytes({"topic": ""})}


# ---------------------------------------------------------------------------------------
# What a checkpoint is made of.

# What each part of a stored checkpoint is for, in the report's language (Korean), one per
# field a langgraph version may write; anatomy() lists the fields in this order.
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


def _fields(part: str, fields: dict) -> Dict[str, Any]:
    """`fields` as plain JSON data, those FIELD_PURPOSES knows first, in its order, then the rest."""
    known = [key.split(".", 1)[1] for key in FIELD_PURPOSES if key.startswith(part + ".")]
    ordered = [k for k in known if k in fields] + [k for k in fields if k not in known]
    return {k: json.loads(json.dumps(fields[k], ensure_ascii=False, default=str)) for k in ordered}


def anatomy(app: CompiledStateGraph, config: "RunnableConfig") -> dict:
    """The thread's latest checkpoint (or the one `config` names) as its saver returns it.

    {"checkpoint_id": "1f0c...", "checkpoint": {"v": 4, "id": ..., "ts": ..., "channel_values":
    {"angle": 8, ...}, ...}, "metadata": {"source": "loop", "step": 3, "parents": {}},
    "has_parent_config": True, "pending_writes": 0}: the fields this langgraph returns, in
    FIELD_PURPOSES' order; channel values as bytes, pending writes as a count. Rests on
    `app.checkpointer.get_tuple(config)`. ValueError for no checkpointer, a bad config, no checkpoint.
    """
    saver = getattr(app, "checkpointer", None)
    if saver is None or not hasattr(saver, "get_tuple"):
        raise ValueError(f"app must be a graph compiled with a checkpointer (build_graph(saver)), "
                         f"got {type(app).__name__} without one")
    thread_id, config = _thread_id(config), _saver_config(app, config)
    found = saver.get_tuple(config)
    if found is None:
        raise ValueError(f"config names thread {thread_id!r}, which has no checkpoint in this saver")
    values = {channel: state_bytes(v) for channel, v in found.checkpoint["channel_values"].items()}
    return {"checkpoint_id": found.config["configurable"]["checkpoint_id"],
            "checkpoint": _fields("checkpoint", dict(found.checkpoint, channel_values=values)),
            "metadata": _fields("metadata", found.metadata),
            "has_parent_config": found.parent_config is not None,
            "pending_writes": len(found.pending_writes or ())}


def _counter(version: Any) -> str:
    """A channel version as its counter: "00000000000000000000000000000005.0.4930..." -> "5"
    (the part after the dot is random on every run; an int version is shown as it is)."""
    head = str(version).split(".", 1)[0]
    return str(int(head)) if head.isdigit() else str(version)


def _shown(field: str, value: Any) -> str:
    """A field's value as the report shows it: nothing that changes from run to run."""
    def versions(seen: dict) -> str:
        return ", ".join(f"{k}@{_counter(v)}" for k, v in seen.items())
    if field == "checkpoint.id":
        return f"{len(value)}자 UUID (실행마다 다름)"
    if field == "checkpoint.ts":
        return "ISO 8601 시각 (실행마다 다름)"
    if field == "checkpoint.channel_values":
        return ", ".join(f"{k} {v} B" for k, v in value.items())
    if field == "checkpoint.channel_versions":
        return versions(value)
    if field == "checkpoint.versions_seen":
        return "; ".join(f"{node}: {versions(seen) or '—'}" for node, seen in value.items())
    if field == "metadata.writes" and isinstance(value, dict):
        return ", ".join(f"{node} → {sorted(w) if isinstance(w, dict) else w}" for node, w in value.items())
    return "null (이 langgraph는 채우지 않는다)" if value is None else json.dumps(value, ensure_ascii=False)


def anatomy_rows(anat: dict) -> List[dict]:
    """anatomy() as table rows that are the same on every run:

    [{"field": "checkpoint.v", "purpose": "체크포인트 구조 자체의 형식 버전", "value": "4"}, ...,
    {"field": "pending_writes", ..., "value": "0개"}]. ValueError for anything but anatomy()'s dict.
    """
    if not isinstance(anat, dict) or not {"checkpoint", "metadata", "has_parent_config",
                                          "pending_writes"} <= set(anat):
        raise ValueError("anat must be the dict anatomy() returns")
    fields = [(f"{part}.{k}", v) for part in ("checkpoint", "metadata") for k, v in anat[part].items()]
    fields += [("parent_config", "있음" if anat["has_parent_config"] else "없음"),
               ("pending_writes", f"{anat['pending_writes']}개")]
    return [{"field": f, "purpose": FIELD_PURPOSES.get(f, ""),
             "value": v if f in ("parent_config", "pending_writes") else _shown(f, v)} for f, v in fields]


# ---------------------------------------------------------------------------------------
# What each saver physically stores. The lab's view (history_bytes) counts every
# checkpoint's whole state as JSON; the physical view is what a saver's store really holds.


def _backend_of(saver: Any) -> Optional[str]:
    """_saver_kind(saver), or None for a saver of another kind: the backend values are checked for."""
    try:
        return _saver_kind(saver)
    except TypeError:
        return None


def _saver_kind(saver: Any) -> str:
    """"memory", "sqlite" or "postgres" for a saver of those kinds; TypeError naming `saver`."""
    kinds = {"InMemorySaver": "memory", "MemorySaver": "memory", "SqliteSaver": "sqlite", "PostgresSaver": "postgres"}
    for cls in type(saver).__mro__:
        if cls.__name__ in kinds and cls.__module__.startswith("langgraph.checkpoint."):
            return kinds[cls.__name__]
    hint = "; pass app.checkpointer, not the app" if hasattr(saver, "checkpointer") else ""
    raise TypeError(f"saver must be an InMemorySaver, SqliteSaver or PostgresSaver (see open_saver), "
                    f"got {type(saver).__name__}{hint}")


def _memory_bytes(saver: Any, thread_id: Optional[str]) -> Dict[str, int]:
    """Serialized bytes in an InMemorySaver's maps.

    subtle: the one place that reads a saver's internals:
      storage: thread_id -> ns -> checkpoint_id -> ((type, checkpoint), (type, metadata), parent)
      writes:  (thread_id, ns, checkpoint_id) -> {(task_id, idx): (task_id, channel, (type, value), ...)}
      blobs:   (thread_id, ns, channel, version) -> (type, value), from langgraph-checkpoint 2.0.22
    list() copies each map in one step under the GIL, so other threads may keep writing.
    """
    def ours(tid: Any) -> bool:
        return thread_id is None or tid == thread_id

    try:
        checkpoints = sum(len(cp[1]) + len(md[1]) for tid, by_ns in list(saver.storage.items()) if ours(tid)
                          for by_id in list(by_ns.values()) for cp, md, _parent in list(by_id.values()))
        blobs = sum(len(value[1]) for key, value in list(getattr(saver, "blobs", {}).items()) if ours(key[0]))
        writes = sum(len(write[2][1]) for key, by_task in list(saver.writes.items()) if ours(key[0])
                     for write in list(by_task.values()))
    except (AttributeError, TypeError, ValueError, IndexError) as exc:
        raise TypeError(f"saver: cannot read the storage/blobs/writes maps of the InMemorySaver of "
                        f"langgraph-checkpoint {package_version('langgraph-checkpoint')}: {exc}") from None
    return {"checkpoints": checkpoints, "blobs": blobs, "writes": writes}


# part -> (table, its serialized columns), per saver; SQLite keeps no blobs table
_TABLES = {"sqlite": {"checkpoints": ("checkpoints", ("checkpoint", "metadata")), "writes": ("writes", ("value",))},
           "postgres": {"checkpoints": ("checkpoints", ("checkpoint", "metadata")),
                        "blobs": ("checkpoint_blobs", ("blob",)), "writes": ("checkpoint_writes", ("blob",))}}


@contextlib.contextmanager
def _query(saver: Any) -> Iterator[Any]:
    """run(sql, params) -> list of row tuples, on a SQL saver's own connection under its lock."""
    if _saver_kind(saver) == "sqlite":
        with saver.cursor(transaction=False) as cur:  # takes the saver's lock
            yield lambda sql, params: [tuple(row) for row in cur.execute(sql, params).fetchall()]
        return
    from psycopg.rows import tuple_row

    with saver.lock:
        # subtle: a pool lends a connection; psycopg >= 3.3 gives a Connection a property
        # named `connection` too, so test for the pool's getconn instead
        with (saver.conn.connection() if hasattr(saver.conn, "getconn")
              else contextlib.nullcontext(saver.conn)) as conn:
            yield lambda sql, params: conn.cursor(row_factory=tuple_row).execute(sql, params).fetchall()


def _sql_bytes(saver: Any, kind: str, thread_id: Optional[str], compressed: bool) -> Dict[str, int]:
    """Bytes of the serialized columns of a SqliteSaver's or PostgresSaver's tables.

    SQLite: length(CAST(column AS BLOB)). PostgreSQL: octet_length (jsonb as text), or with
    `compressed` pg_column_size, the size after TOAST compression (pglz; on rows above about 2 kB
    and only where it saves a quarter), header included.
    """
    def size(column: str) -> str:
        if kind == "sqlite":
            return f"length(CAST({column} AS BLOB))"
        if compressed:
            return f"pg_column_size({column})"
        return f"octet_length({column}::text)" if column in ("checkpoint", "metadata") else f"octet_length({column})"

    where = (" WHERE thread_id = " + ("?" if kind == "sqlite" else "%s")) if thread_id is not None else ""
    found = {"checkpoints": 0, "blobs": 0, "writes": 0}
    with _query(saver) as run:
        for part, (table, columns) in _TABLES[kind].items():
            total = " + ".join(f"coalesce({size(column)}, 0)" for column in columns)
            params = (thread_id,) if thread_id is not None else ()
            found[part] = int(run(f"SELECT sum({total}) FROM {table}{where}", params)[0][0] or 0)
    return found


def stored_bytes(saver: BaseCheckpointSaver, thread_id: Optional[Union[str, int]] = None,
                 compressed: bool = False) -> Dict[str, int]:
    """The bytes a saver physically holds: {"checkpoints": 3839, "blobs": 3146, "writes": 1587,
    "total": 8572} (memory, one run with 1,500 bytes in "bulk", versions seeded as weigh_stored does).

    Serialized values only: checkpoints with metadata, blobs (channel values once per version;
    SQLite has none) and pending writes; no keys, headers or indexes. `compressed`: PostgreSQL
    after TOAST (memory and SQLite do not compress). `thread_id` counts the thread
    history_len(app, cfg(thread_id)) counts; None all. TypeError for another saver (e.g. an app),
    a thread_id that is not str, int or None, a non-bool compressed.
    """
    kind = _saver_kind(saver)
    if thread_id is not None and not isinstance(thread_id, (str, int)):
        raise TypeError(f"thread_id must be a str, an int or None (as in cfg), got {type(thread_id).__name__}")
    if not isinstance(compressed, bool):
        raise TypeError(f"compressed must be a bool, got {type(compressed).__name__}")
    if thread_id is not None:
        thread_id = _saver_thread_id(thread_id)
        if kind != "memory":  # subtle: a TEXT column holds what the driver binds: 1 and True as "1"
            thread_id = thread_id if isinstance(thread_id, str) else str(int(thread_id))
    found = _memory_bytes(saver, thread_id) if kind == "memory" else _sql_bytes(saver, kind, thread_id, compressed)
    found["total"] = found["checkpoints"] + found["blobs"] + found["writes"]
    return found


@contextlib.contextmanager
def _reproducible_versions(saver: Any, seed: int = 0) -> Iterator[None]:
    """Within the block the saver draws channel versions from random.Random(seed).

    subtle: a version is f"{n:032}.{random.random():016}", 16 to 19+ characters after the dot,
    and it is stored many times over: stored sizes would vary by a few bytes between runs.
    """
    import random

    if not re.fullmatch(r"\d{32}\.\S+", str(type(saver).get_next_version(saver, None, None))):
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


def weigh_stored(saver: BaseCheckpointSaver, topic: str, payload: Any, thread_prefix: str = "weigh") -> dict:
    """weigh() on a given saver, logical and physical, threads "<prefix>-thin" and "<prefix>-fat".

    {"threads": {"thin": "weigh-thin", "fat": "weigh-fat"}, "checkpoints": 5, "payload_bytes": 1500,
     "logical": {"thin": 399, "fat": 6447, "difference": 6048, "copies": 4.03}, "stored": {"thin":
     {<stored_bytes>}, "fat": {...}, "difference": 4751, "copies": 3.17, "parts": {...}},
     "stored_compressed": {...}}: copies = difference / payload_bytes (bytes). Versions are
    seeded, so memory and SQLite give the same bytes every run. Errors as weigh, and for a bad
    saver or prefix or threads that already exist; before any run.
    """
    backend = _saver_kind(saver)
    _check_topic(topic, backend)
    _check_payload(payload, backend)
    if not isinstance(thread_prefix, str) or not thread_prefix:
        raise TypeError(f"thread_prefix must be a non-empty str, got {thread_prefix!r}")
    app, size = build_graph(saver), payload_size(payload)
    threads = {name: f"{thread_prefix}-{name}" for name in ("thin", "fat")}
    used = [tid for tid in threads.values() if history_len(app, cfg(tid))]
    if used:
        raise ValueError(f"thread_prefix {thread_prefix!r}: threads {used} already have "
                         f"checkpoints in this saver; choose another prefix")
    for inputs, tid in (({"topic": topic}, threads["thin"]), ({"topic": topic, "bulk": payload}, threads["fat"])):
        with _reproducible_versions(saver):
            app.invoke(inputs, cfg(tid))
    logical = {name: sum(history_bytes(app, cfg(tid))) for name, tid in threads.items()}
    stored, packed = ({name: stored_bytes(saver, tid, compressed=c) for name, tid in threads.items()}
                      for c in (False, True))

    def copies(thin: int, fat: int) -> dict:
        return {"difference": fat - thin, "copies": round((fat - thin) / size, 2)}

    parts = {k: stored["fat"][k] - stored["thin"][k] for k in ("checkpoints", "blobs", "writes")}
    return {"threads": threads, "checkpoints": history_len(app, cfg(threads["fat"])), "payload_bytes": size,
            "logical": dict(logical, **copies(logical["thin"], logical["fat"])),
            "stored": dict(stored, parts=parts, **copies(stored["thin"]["total"], stored["fat"]["total"])),
            "stored_compressed": dict(packed, **copies(packed["thin"]["total"], packed["fat"]["total"]))}


def physical_vs_logical(topic: str, payload: Any, backends: Optional[List[str]] = None,
                        url: Optional[str] = None) -> List[dict]:
    """weigh_stored() on a new saver of each backend, in the order of `backends` (default:
    memory, sqlite if installed, postgres if `url`): [{"backend": "memory", ...}, ...].

    New stores are removed; on PostgreSQL the threads get a unique prefix and are deleted.
    Before any run: ValueError/ImportError as open_saver, TypeError for bad topic or payload.
    """
    if backends is None:
        backends = ["memory"] + (["sqlite"] if has_backend("sqlite") else []) + (["postgres"] if url else [])
    if isinstance(backends, str) or not isinstance(backends, (list, tuple)):
        raise TypeError(f"backends must be a list or tuple of {list(BACKENDS)}, got {type(backends).__name__}")
    for backend in backends:  # every backend and url first, then every extra's import
        _check_backend(backend, url if backend == "postgres" else None)
    for backend in set(backends) - {"memory"}:
        _import_extra(backend)
    _check_topic(topic, "postgres" if "postgres" in backends else None)
    _check_payload(payload, "postgres" if "postgres" in backends else None)
    rows = []
    for backend in backends:
        with open_saver(backend, url if backend == "postgres" else None) as saver:
            prefix = f"weigh-{uuid.uuid4().hex}" if backend == "postgres" else "weigh"
            try:  # a new store is removed on exit; in a shared database, delete our threads
                rows.append(dict(backend=backend, **weigh_stored(saver, topic, payload, thread_prefix=prefix)))
            finally:
                if backend == "postgres":
                    for name in ("thin", "fat"):
                        saver.delete_thread(f"{prefix}-{name}")
    return rows


def postgres_placement(url: str, topic: str, payload: Any) -> Dict[str, List[str]]:
    """Where PostgresSaver puts each channel after one run with `payload` in "bulk", sorted:
    {"inline": ["angle", "bulk", ...], "blob": ["__start__", "notes"]}: inline values go into
    every checkpoint row (jsonb), blobs once per version. The thread is deleted afterwards.
    Rests on SQL over the saver's own tables. Errors as open_saver, and as weigh.
    """
    _check_topic(topic, "postgres")
    _check_payload(payload, "postgres")
    thread_id = f"placement-{uuid.uuid4().hex}"
    queries = {"inline": "SELECT DISTINCT jsonb_object_keys(checkpoint->'channel_values') "
                         "FROM checkpoints WHERE thread_id = %s",
               "blob": "SELECT DISTINCT channel FROM checkpoint_blobs WHERE thread_id = %s"}
    with open_saver("postgres", url) as saver:
        try:
            build_graph(saver).invoke({"topic": topic, "bulk": payload}, cfg(thread_id))
            with _query(saver) as run:
                return {name: sorted(row[0] for row in run(sql, (thread_id,))) for name, sql in queries.items()}
        finally:
            saver.delete_thread(thread_id)


def incompressible(size: int, seed: int = 0) -> str:
    """`size` ASCII letters and digits from random.Random(seed): "0UAqFzWs" for 8. No repeats for
    an LZ compressor (pglz, lz4), unlike "x" * size. TypeError/ValueError for a size not an int >= 1.
    """
    import random
    import string

    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int (bytes), got {type(size).__name__}")
    if size < 1:
        raise ValueError(f"size must be at least 1 byte, got {size}")
    return "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size))


def durability_counts(topic: str) -> Optional[Dict[str, int]]:
    """Checkpoints kept after one run per durability mode: {"exit": 1, "async": 5, "sync": 5} on
    langgraph >= 0.6, None before. Rests on `app.invoke(..., durability=mode)`.
    """
    _check_topic(topic)
    if not has_durability():
        return None
    counts = {}
    for mode in MODES:
        app = build_graph(new_saver())
        invoke(app, {"topic": topic}, cfg("run-1"), durability=mode)
        counts[mode] = history_len(app, cfg("run-1"))
    return counts


def payload_sweep(topic: str, sizes: List[int]) -> List[dict]:
    """weigh(topic, "x" * size) per size, in order, plus extra = fat_total - thin_total:
    [{"checkpoints": 5, "thin_total": 399, "fat_total": 1447, "payload_bytes": 250, "carrying": 4,
    "extra": 1048}, ...]. TypeError/ValueError for sizes that are not positive ints; before any run.
    """
    _check_topic(topic)
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"sizes must be a list or tuple of int (payload sizes in bytes), got {type(sizes).__name__}")
    if not sizes:
        raise ValueError("sizes must hold at least one payload size in bytes, got an empty one")
    bad = [size for size in sizes if isinstance(size, bool) or not isinstance(size, int)]
    if bad:
        raise TypeError(f"sizes must hold int payload sizes in bytes, got {bad[0]!r}")
    if min(sizes) < 1:
        raise ValueError(f"sizes must hold sizes of at least 1 byte, got {min(sizes)!r}")
    return [dict(row, extra=row["fat_total"] - row["thin_total"])
            for row in (weigh(topic, "x" * size) for size in sizes)]


# ---------------------------------------------------------------------------------------
# Restarts and crashes on real child processes. A child is a fresh `sys.executable` that
# loads this very file by path and runs one job on a store; it shares nothing with the
# caller. The saver that reads the store afterwards is opened here, after the child has
# exited or died.

_THIS_FILE = os.path.abspath(__file__)  # resolved once: a later chdir cannot lose it
_CHILD_PROGRAM = """\
import importlib.util, json, os, sys
try:
    spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
    ckpt = importlib.util.module_from_spec(spec)
    sys.modules["ckpt"] = ckpt
    spec.loader.exec_module(ckpt)
    print(json.dumps(ckpt._child(json.load(sys.stdin))), flush=True)
except KeyboardInterrupt:  # a terminal's Ctrl-C reaches the child too: end now (see _to_the_end)
    os._exit(130)
"""
_CHILD_TIMEOUT = 120.0  # seconds a child may take before it is killed and reported
_IN_NODE = "in-node"  # what a dying child prints once it is inside the node that dies
_SAVED_TIMEOUT = 10.0  # seconds a dying node waits for what it waits for (wait_saved=True)
_RUN_WAIT = 1.0  # seconds Ctrl-C waits for a demo's resume to end before going on


def _run_child(job: dict) -> subprocess.CompletedProcess:
    """Run `job` (see _child) in a child process: a CompletedProcess with text output.

    The child is killed and reaped before this returns or raises. RuntimeError naming its error
    when it fails (or, with job["dies"], does not die inside its node) or outlives _CHILD_TIMEOUT.
    """
    args = [sys.executable, "-c", _CHILD_PROGRAM, _THIS_FILE]  # the job goes in on stdin: any size
    child = None
    try:
        with _ctrl_c_after():  # a child that has started is always in `child`
            child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8", errors="replace")
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
    # a dying child must die by SIGKILL inside its node; any other child must exit with 0
    if not (child.returncode == -signal.SIGKILL and _IN_NODE in out if job.get("dies") else child.returncode == 0):
        raise _child_failed(child.returncode, err)
    return subprocess.CompletedProcess(args, child.returncode, out, err)


def _child_failed(returncode: int, stderr: str) -> RuntimeError:
    """One line: the child's exit status and its last error ("ValueError: ..."), as it printed it."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    frames = [i for i, line in enumerate(lines) if line.startswith(" ")]
    last = lines[frames[-1] + 1:] if frames and frames[-1] + 1 < len(lines) else lines[-1:]
    return RuntimeError(f"the child process (exit status {returncode}) failed: "
                        f"{' '.join(last) if last else 'no message'}")


def _dying_node(ready: Any) -> Any:
    """A node that never returns: it works until ready() holds (at most _SAVED_TIMEOUT s),
    says it is inside (_IN_NODE) and kills its own process with SIGKILL."""

    def node(state: dict) -> dict:
        deadline = time.monotonic() + _SAVED_TIMEOUT
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        print(_IN_NODE, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # ends the process at once: no cleanup, no flush
        raise RuntimeError("SIGKILL did not end the process")  # pragma: no cover

    return node


def _child(job: dict) -> dict:
    """Runs in the child: one run of the job's thread: {"kept": 5, "values": {...}, "pid": 4242}.
    job["dies"]: "review" dies inside review (crash_demo), "trap" as _trapped_app (trap_demo).
    """
    with open_saver(job["backend"], job["url"]) as saver:
        config, dies = cfg(job["thread_id"]), job.get("dies")
        if dies == "trap":
            app = _trapped_app(saver, config)
        elif dies == "review":
            dying = _dying_node(lambda: not job["wait_saved"] or sum(1 for _ in saver.list(config)) > len(NODES))
            app = _lab_graph(saver, lambda name, fn: dying if name == "review" else fn)
        else:
            app = build_graph(saver)
        values = invoke(app, {"topic": job["topic"]}, config, job.get("durability"))
        return {"kept": history_len(app, config), "values": values, "pid": os.getpid()}


def _check_demo(topic: Any, backend: Any, url: Any) -> None:
    """The demos' checks, before any child starts: backend and url, the topic for that backend,
    and a SQLite url a second process can open (not "", ":memory:" or an in-memory URI)."""
    _check_backend(backend, url)
    _check_topic(topic, backend)
    path, _, query = (url or "").partition("?")
    if backend == "sqlite" and url is not None and (path in ("", ":memory:", "file::memory:")
                                or path.startswith("file:") and "mode=memory" in query):
        raise ValueError(f"url {url!r} is a SQLite database in this process's memory, which no other "
                         "process can open: a restart needs a store that outlives the process (a file "
                         "path, or None for a temporary file)")


@contextlib.contextmanager
def _demo_store(backend: str, url: Optional[str]) -> Iterator[tuple]:
    """(url, thread_id) for one demo call, a store and thread no other call touches.

    memory: (None, "run-1"); sqlite without url: a temporary file, removed on exit, "run-1"; a given
    store: its url (SQLite made absolute) and "run-1-<hex>", deleted on exit. The store is opened
    first, so a bad one fails before any child starts.
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
    url, thread_id = os.path.abspath(url) if backend == "sqlite" else url, f"run-1-{uuid.uuid4().hex[:12]}"
    with open_saver(backend, url) as saver:
        try:
            yield url, thread_id
        finally:
            with _ctrl_c_after():
                saver.delete_thread(thread_id)


def restart_demo(topic: str, backend: str = "sqlite", url: Optional[str] = None) -> dict:
    """Run thread "run-1" in a child process; after it has exited, read it with a new saver.

    {"backend": "sqlite", "thread_id": "run-1", "kept": 5, "after_restart": 5,
     "values_after_restart": {...}, "survives": True} (memory: 5, 0, {}, False). The child is a
    fresh `sys.executable` that loads this file by path and shares nothing with this process.
    Each call has its own store (a temporary SQLite file) or, on a given url, its own thread,
    deleted afterwards; Ctrl-C kills and reaps the child and removes both. Rests on
    `get_state_history(cfg)` and `get_state(cfg)`. Before any child starts: errors as open_saver,
    topic errors as weigh (PostgreSQL also refuses NUL), ValueError for a SQLite url no other
    process can open (":memory:"). RuntimeError naming the error of a child that failed.
    """
    _check_demo(topic, backend, url)
    with _demo_store(backend, url) as (store, thread_id):
        done = _run_child({"backend": backend, "url": store, "thread_id": thread_id, "topic": topic})
        seen = json.loads(done.stdout.strip().splitlines()[-1])
        with open_saver(backend, store) as saver:
            app = build_graph(saver)
            found, values = history_len(app, cfg(thread_id)), dict(app.get_state(cfg(thread_id)).values)
    return {"backend": backend, "thread_id": thread_id, "kept": seen["kept"], "after_restart": found,
            "values_after_restart": values, "survives": found == seen["kept"] and values == seen["values"]}


def crash_demo(topic: str, backend: str = "sqlite", url: Optional[str] = None,
               durability: Optional[str] = None, wait_saved: bool = False) -> dict:
    """Kill a run inside `review` in a child process, then find with a new saver what was
    saved and resume from it.

    {"backend": "sqlite", "thread_id": "run-1", "durability": "sync", "checkpoints_after_crash": 4,
     "pending_after_crash": "review", "pending_writes": 0, "ran_on_resume": ["review"],
     "checkpoints_after_resume": 5, "result": {...}}: the task still to run, the finished tasks'
    writes stored against it, the nodes run on resume. Nothing found (memory, "exit"): 0, "", 0,
    [], 0, None. wait_saved: review dies only once plan's and write's checkpoints are stored (at
    most 10 s); without it, async writes race the crash. Rests on `get_state_history`,
    `get_state(cfg).tasks`, `get_tuple(cfg).pending_writes`, invoke(app, None, cfg, durability).
    Stores, Ctrl-C and errors as restart_demo, plus durability errors as invoke(), TypeError for a
    non-bool wait_saved, ValueError for wait_saved with "exit" (nothing is saved to wait for).
    """
    _check_demo(topic, backend, url)
    _check_durability(durability)
    if not isinstance(wait_saved, bool):
        raise TypeError(f"wait_saved must be a bool, got {type(wait_saved).__name__}")
    if wait_saved and durability == "exit":
        raise ValueError('wait_saved=True cannot be used with durability="exit": that mode '
                         "saves no checkpoint until the run ends, so review would wait in vain")
    with _demo_store(backend, url) as (store, thread_id):
        _run_child({"backend": backend, "url": store, "thread_id": thread_id, "topic": topic,
                    "dies": "review", "durability": durability, "wait_saved": wait_saved})
        return _resume(backend, store, thread_id, durability)


def _to_the_end(fn: Any, *args: Any) -> Any:
    """fn(*args) in a thread of its own, always run to its end; returns or raises what it did.

    subtle: Ctrl-C inside a LangGraph run leaves its background writes going (closing the saver
    under them crashes the interpreter), or an idle worker thread Python's exit waits for forever.
    So the run is never interrupted: Ctrl-C waits for its end (at most _RUN_WAIT s), then goes on.
    """
    from concurrent.futures import ThreadPoolExecutor, wait

    future = None
    try:
        with _ctrl_c_after():  # not inside submit: a worker started there must get its job and its end
            pool = ThreadPoolExecutor(1, thread_name_prefix="agckpt-resume")
            future = pool.submit(fn, *args)
            pool.shutdown(wait=False)
        return future.result()
    finally:
        if future is not None:
            with _ctrl_c_after():
                wait([future], timeout=_RUN_WAIT)


def _resume(backend: str, store: Optional[str], thread_id: str, durability: Optional[str],
            look: Any = None) -> dict:
    """A new saver on the store: what it finds of the thread, then the resume (see crash_demo).
    look(app, snapshot, saved tuple) -> {more found before the resume}, merged into the result."""
    config, ran = cfg(thread_id), []
    with open_saver(backend, store) as saver:
        app = _lab_graph(saver, _recording(ran))
        found, snap, saved = history_len(app, config), app.get_state(config), saver.get_tuple(config)
        looked = look(app, snap, saved) if look else {}
        result = dict(_to_the_end(invoke, app, None, config, durability)) if found else None
        return {**looked, "backend": backend, "thread_id": thread_id, "durability": durability,
                "checkpoints_after_crash": found,
                # subtle: not snap.next, which leaves out a task whose writes are stored
                "pending_after_crash": snap.tasks[0].name if snap.tasks else "",
                "pending_writes": len(saved.pending_writes or []) if saved else 0, "ran_on_resume": ran,
                "checkpoints_after_resume": history_len(app, config), "result": result}


# ---------------------------------------------------------------------------------------
# Two failures that are not a clean crash after a saved step.


def failed_run(topic: str, durability: Optional[str] = None) -> dict:
    """A run whose `review` raises an ordinary exception, then a resume with input None.

    {"durability": "exit", "error": "RuntimeError: review failed", "checkpoints": 1, "next":
    ["review"], "ran_on_resume": ["review"], "result": {...}} on 1.x: even "exit" saves where the
    run stopped when it fails with an exception. Rests on invoke() and `get_state`.
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
    config, error = cfg("run-1"), ""
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


def _trapped_app(saver: Any, config: dict) -> CompiledStateGraph:
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
    """The crash `next` hides: in a child, `plan`'s writes are stored as pending writes but the
    checkpoint after it is not (as when a crash beats a background put); then `write` dies.

    {"history_next": [["__start__"], ["plan"]], "next_after_crash": [], "pending_task": "plan",
     "pending_writes": 4, "pending_channels": ["angle", "branch:to:write", "notes", "stage"],
     "ran_on_resume": ["write", "review"], "checkpoints_after_resume": 5, "result": {...}} (1.x):
    `get_state(cfg).next` is empty as if the run were done. Errors as crash_demo; ValueError for
    "memory" (nothing outlives the child).
    """
    _check_demo(topic, backend, url)
    if backend == "memory":
        raise ValueError('backend must be "sqlite" or "postgres": the trap needs a store that '
                         "outlives the child process")
    with _demo_store(backend, url) as (store, thread_id):
        _run_child({"backend": backend, "url": store, "thread_id": thread_id, "topic": topic, "dies": "trap"})
        resumed = _resume(backend, store, thread_id, None, look=lambda app, snap, saved: {
            "history_next": [list(s.next) for s in history(app, cfg(thread_id))],
            "next_after_crash": list(snap.next),
            "pending_channels": sorted({write[1] for write in saved.pending_writes or ()})})
    return {"history_next": resumed["history_next"], "next_after_crash": resumed["next_after_crash"],
            "pending_task": resumed["pending_after_crash"], "pending_writes": resumed["pending_writes"],
            **{key: resumed[key] for key in ("pending_channels", "ran_on_resume", "checkpoints_after_resume",
                                             "result")}}


# ---------------------------------------------------------------------------------------
# Stores written by another langgraph: every function that reads a thread first checks that
# the installed langgraph reads the format ("v") of its checkpoints. v1 and v2: langgraph
# 0.2.x, which never looks at "v"; v3: 0.3.24 on (channels "branch:to:<node>"); v4: 0.5.0 on
# (no "pending_sends"). Newer langgraph migrates older formats as it reads them; older
# langgraph fails on newer ones (0.2.60 on v4: KeyError 'pending_sends' deep inside a read).

_FORMAT_SINCE = {3: "0.3.24", 4: "0.5.0"}  # checkpoint format -> first langgraph writing it


@functools.lru_cache(maxsize=None)
def _readable_format() -> int:
    """The newest checkpoint format the installed langgraph reads (2 on 0.2.60, 4 on 1.x), from
    its own LATEST_VERSION (langgraph.pregel[._]checkpoint, from 0.3); without one, v2.
    """
    import importlib

    for name in ("langgraph.pregel._checkpoint", "langgraph.pregel.checkpoint"):
        try:
            latest = getattr(importlib.import_module(name), "LATEST_VERSION", None)
        except ImportError:
            continue
        if isinstance(latest, int):  # subtle: 0.4.10, which writes v3, was taught to read v4
            return 4 if latest == 3 and _version_tuple(langgraph_version()) >= (0, 4, 10) else latest
    return 2


def _saver_thread_id(thread_id: Any) -> Any:
    """The thread_id as LangGraph hands it to the saver: 1 -> "1" from langgraph 0.3.31 on,
    which makes every thread_id a str; before, as given."""
    return str(thread_id) if _version_tuple(langgraph_version()) >= (0, 3, 31) else thread_id


def _check_format(app: CompiledStateGraph, thread_id: Any, namespace: str, checkpoint_id: Any) -> None:
    """ValueError when the thread's latest checkpoint (or the named one) has a newer format than
    this langgraph reads: "checkpoint '1f0...' of thread 't1' has format v4; the installed
    langgraph 0.2.60 reads formats up to v2: read this store with langgraph >= 0.5.0, ...".
    """
    saver = getattr(app, "checkpointer", None)
    if not isinstance(saver, BaseCheckpointSaver):
        return  # LangGraph says so itself ("No checkpointer set")
    thread = {"thread_id": _saver_thread_id(thread_id), "checkpoint_ns": namespace}
    for configurable in [thread] + ([dict(thread, checkpoint_id=checkpoint_id)] if checkpoint_id else []):
        found = saver.get_tuple({"configurable": configurable})
        version = found.checkpoint.get("v") if found is not None else None
        if isinstance(version, int) and version > _readable_format():
            since = _FORMAT_SINCE.get(version)
            where = (f"langgraph >= {since}, the first release that writes v{version}" if since
                     else f"the newer langgraph that wrote it (after {langgraph_version()})")
            raise ValueError(f"checkpoint {found.config['configurable'].get('checkpoint_id')!r} of thread "
                             f"{thread_id!r} has format v{version}; the installed langgraph {langgraph_version()} "
                             f"reads formats up to v{_readable_format()}: read this store with {where}")


# ---------------------------------------------------------------------------------------
# What may enter a checkpoint: the checks fork, weigh, lost_demo and the demos run first.
# Every saver stores values through its serializer, and the lab counts them with
# json.dumps(..., sort_keys=True). A part neither can write as it is would be refused deep
# inside a run, or stored changed ("가\ud83d" comes back "가" or "가?").

_INT64 = (-(1 << 63), (1 << 63) - 1)  # signed 64 bits, the widest int every store keeps as one
_SURROGATE = re.compile("[\ud800-\udfff]")  # a lone surrogate: no UTF-8 form exists
_JSON_KEYS = (str, int, float, bool, type(None))  # the dict keys json.dumps accepts


def _path(base: str, *keys: Any) -> str:
    """_path("payload", "k", 3) -> 'payload["k"][3]' (a key with a lone surrogate escaped)."""
    for key in keys:
        base += f"[{json.dumps(key, ensure_ascii=bool(_SURROGATE.search(key)))}]" if isinstance(key, str) else f"[{key!r}]"
    return base


def _leaf_problem(part: Any, path: str, stored: bool, postgres: bool) -> Optional[Exception]:
    """The error for a str, number or other leaf that json (with `stored`: a saver; with
    `postgres`: PostgreSQL) cannot write as it is, or None."""
    if isinstance(part, str):
        found = _SURROGATE.search(part)
        if found:
            return ValueError(f"{path} has a lone surrogate U+{ord(found.group()):04X} at index {found.start()}: "
                              "it has no UTF-8 form, so no saver stores it as it is and its size in bytes is undefined")
        if postgres and "\x00" in part:
            return ValueError(f"{path} has a NUL character (\\x00) at index {part.index(chr(0))}: "
                              "PostgreSQL cannot store it")
    elif isinstance(part, int):
        text = f"an int of {part.bit_length()} bits" if part.bit_length() > 128 else None
        if stored and not _INT64[0] <= part <= _INT64[1]:
            return ValueError(f"{path} is {text or part}, outside the signed 64-bit range the savers store "
                              "(-2**63 to 2**63-1)")
        if text:  # Python >= 3.11 caps int -> str at sys.get_int_max_str_digits() digits
            try:
                str(part)
            except ValueError:
                return ValueError(f"{path} is {text}, more digits than Python turns into text "
                                  "(sys.get_int_max_str_digits()), so json cannot write it")
    elif isinstance(part, float):
        if postgres and not math.isfinite(part):
            return ValueError(f"{path} is {part!r}: PostgreSQL's jsonb has no NaN or infinity")
    elif stored and part is not None:
        try:
            _serde().dumps_typed(part)  # the saver's serializer decides
        except Exception as exc:
            return TypeError(f"{path} of type {type(part).__name__} cannot be serialized by the saver: {exc}")
    return None


@functools.lru_cache(maxsize=None)
def _serde() -> Any:
    """The serializer the savers write with (langgraph's JsonPlusSerializer), made once."""
    return new_saver().serde


def _problem(value: Any, name: str, stored: bool, postgres: bool = False) -> Optional[Exception]:
    """The error for the first part of `value` that json.dumps(sort_keys=True) (with `stored`:
    a saver; with `postgres`: PostgreSQL) cannot write as it is, or None. Walks dicts (keys and
    values), lists and tuples (with `stored`, sets too) without recursion: any depth is fine."""
    stack = [(value, name, frozenset())]  # (part, its path, ids of the containers holding it)
    while stack:
        part, path, holders = stack.pop()
        if not isinstance(part, (dict, list, tuple) + ((set, frozenset) if stored else ())):
            problem = _leaf_problem(part, path, stored, postgres)
            if problem is not None:
                return problem
            continue
        if id(part) in holders:
            return ValueError(f"{path} contains itself: no saver or JSON can write a cycle")
        holders |= {id(part)}
        if isinstance(part, dict):
            bad = [key for key in part if not isinstance(key, _JSON_KEYS)]
            if bad:
                return TypeError(f"{path} has the key {bad[0]!r} of type {type(bad[0]).__name__}: "
                                 "JSON keys must be str, int, float, bool or None")
            try:
                sorted(part)
            except TypeError:
                return TypeError(f"{path} has keys of types {sorted({type(key).__name__ for key in part})} "
                                 "that cannot be sorted together, as json.dumps(sort_keys=True) must")
            children = [(key, f"a key of {path}") for key in part] + [(v, _path(path, k)) for k, v in part.items()]
        elif isinstance(part, (set, frozenset)):
            children = [(item, f"an element of {path}") for item in part]
        else:
            children = [(item, _path(path, index)) for index, item in enumerate(part)]
        stack.extend((child, child_path, holders) for child, child_path in reversed(children))
    return None


def _check_storable(value: Any, name: str, backend: Optional[str] = None) -> None:
    r"""Refuse, before anything is written, a value no saver stores as it is.

    ValueError: an int outside 64 bits, a lone surrogate ("가\ud83d"), a cycle, and for
    "postgres" NUL and NaN or infinity. TypeError: dict keys json.dumps(sort_keys=True) refuses, anything the saver's
    serializer (`serde.dumps_typed`) rejects. Messages start with the path: values["score"].
    """
    if backend not in (None,) + BACKENDS:
        raise ValueError(f"backend must be None or one of {list(BACKENDS)}, got {backend!r}")
    problem = _problem(value, name, stored=True, postgres=backend == "postgres")
    if problem is not None:
        raise problem
    try:  # the parts pass, so the whole should: the serializer still has the last word
        _serde().dumps_typed(value)
    except Exception as exc:
        raise TypeError(f"{name} of type {type(value).__name__} cannot be serialized by the saver: {exc}") from None


# ---------------------------------------------------------------------------------------
# Loading by path on Python 3.9: runs once at import, before build_graph is first called.


def _register_if_loaded_by_path() -> None:
    """Put this module in sys.modules when it was loaded by path without being registered.

    subtle: StateGraph(State) calls typing.get_type_hints, which on Python 3.9 reads
    sys.modules[State.__module__]: without it build_graph raises KeyError.
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
