"""What a LangGraph checkpointer keeps, measured: a three-node graph and the lab's measures.

A checkpointer saves the *whole* state at every super-step, so a thread can be continued,
replayed from any saved point, or forked with changed values; and for the same reason the
size of the state is the cost of saving it. Sizes here are bytes of a JSON serialization,
never time. Below the banner near the end: real durable savers (SQLite, PostgreSQL), real
process restarts and crashes, and what each saver physically stores.

Glossary:
  config    {"configurable": {"thread_id": ..., ["checkpoint_id": ...]}}: which thread, which point
  snapshot  LangGraph's StateSnapshot: .values, .next (nodes still to run), .config, .metadata
  thread    one conversation's chain of checkpoints, named by thread_id
"""

import contextlib
import json
import operator
import os
import shutil
import sys
import tempfile
from typing import Annotated, Any, Dict, Iterator, List, Optional, TypedDict

from langgraph.graph import END, START, StateGraph

try:  # langgraph-checkpoint >= 2.0.x names it InMemorySaver; MemorySaver is the old alias
    from langgraph.checkpoint.memory import InMemorySaver as _MemorySaver
except ImportError:  # pragma: no cover - only very old releases
    from langgraph.checkpoint.memory import MemorySaver as _MemorySaver

__all__ = [
    "ANGLES", "State", "plan", "write", "review", "build_graph", "new_saver", "cfg",
    "history", "history_len", "pending", "snapshot_before", "replay", "fork",
    "state_bytes", "history_bytes", "weigh", "lost_demo",
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


def build_graph(checkpointer: Any = None) -> Any:
    """START -> plan -> write -> review -> END, compiled with `checkpointer` (None saves nothing).

    Returns LangGraph's compiled graph. Without a checkpointer, `get_state` raises
    LangGraph's ValueError ("No checkpointer set") and every run starts from nothing.
    """
    graph = StateGraph(State)
    graph.add_node("plan", plan)
    graph.add_node("write", write)
    graph.add_node("review", review)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "write")
    graph.add_edge("write", "review")
    graph.add_edge("review", END)
    return graph.compile(checkpointer=checkpointer)


def new_saver() -> Any:
    """A new, empty in-memory saver (`InMemorySaver`, formerly `MemorySaver`) on every call."""
    return _MemorySaver()


def cfg(thread_id: str) -> dict:
    """The config naming a thread: cfg("run-1") -> {"configurable": {"thread_id": "run-1"}}"""
    return {"configurable": {"thread_id": thread_id}}


# ---------------------------------------------------------------------------------------
# 3. Reading the checkpoints back.


def history(app: Any, config: dict) -> list:
    """The thread's snapshots, oldest first: [input, after __start__, after plan, ..., end].

    Rests on `app.get_state_history(config)`, which yields newest first.
    """
    return list(app.get_state_history(config))[::-1]  # subtle: LangGraph gives newest first


def history_len(app: Any, config: dict) -> int:
    """How many checkpoints the thread has (5 after one run of this graph)."""
    return sum(1 for _ in app.get_state_history(config))


def pending(app: Any, config: dict) -> List[str]:
    """For each snapshot, oldest first, the node to run next ("" once nothing is left).

    After one run: ["__start__", "plan", "write", "review", ""].
    """
    return [snap.next[0] if snap.next else "" for snap in history(app, config)]


def snapshot_before(app: Any, config: dict, node: str) -> Any:
    """The most recent snapshot whose `next == (node,)`: the latest point where `node` had not run.

    Returns LangGraph's StateSnapshot (its `.config` carries `checkpoint_id`), or None when
    the thread has no such point. Rests on `app.get_state_history(config)`, newest first,
    so the first match is the most recent one.
    """
    for snap in app.get_state_history(config):
        if snap.next == (node,):
            return snap
    return None


def _points(app: Any, config: dict) -> List[str]:
    """The nodes the thread has a point before, in graph order: e.g. ["plan", "write", "review"]."""
    seen = {snap.next[0] for snap in app.get_state_history(config) if len(snap.next) == 1}
    return [n for n in ("__start__",) + NODES if n in seen]


def _require_point(app: Any, config: dict, node: str) -> Any:
    """snapshot_before, or a ValueError naming `node` and the nodes that do have a point."""
    if not isinstance(node, str):
        raise TypeError(f"node must be a str (one of {list(NODES)}), got {type(node).__name__}")
    snap = snapshot_before(app, config, node)
    if snap is None:
        points = _points(app, config)
        raise ValueError(
            f"node {node!r} has no point in thread {_thread_id(config)!r}: "
            f"the nodes that have one are {points}" if points else
            f"node {node!r} has no point in thread {_thread_id(config)!r}: the thread has no history"
        )
    return snap


def _thread_id(config: Any) -> Any:
    try:
        return config["configurable"]["thread_id"]
    except (KeyError, TypeError):
        raise ValueError(
            f'config must be {{"configurable": {{"thread_id": ...}}}} (see cfg()), got {config!r}'
        ) from None


# ---------------------------------------------------------------------------------------
# 4. Replay: run again from a saved point, with the same values.


def replay(app: Any, config: dict, node: str) -> dict:
    """Re-run the thread from the latest point before `node`, with the values saved there.

    Returns {"from": "write", "result": {<final values>}, "added": 2}: `added` is how many
    checkpoints the thread gained (2/3/1 from write/plan/review before langgraph 1.1.7,
    which from then on also writes a "fork" checkpoint first: 3/4/2).
    Rests on `app.invoke(None, snapshot.config)`: input None continues from the saved point
    (any other input would start over). ValueError when the thread has no such point.
    """
    snap = _require_point(app, config, node)
    before = history_len(app, config)
    result = app.invoke(None, snap.config)
    return {"from": node, "result": result, "added": history_len(app, config) - before}


# ---------------------------------------------------------------------------------------
# 5. Fork: change values at a saved point and continue on a new branch.


def _check_values(values: Any) -> None:
    """TypeError/ValueError naming `values` when they could not be a State update."""
    if not isinstance(values, dict):
        raise TypeError(f"values must be a dict of State keys, got {type(values).__name__}")
    unknown = [k for k in values if k not in State.__annotations__]
    if unknown:
        raise ValueError(f"values has keys that are not State keys: {unknown}; "
                         f"State keys are {list(State.__annotations__)}")
    if "angle" in values and values["angle"] not in ANGLES:
        raise ValueError(f"values['angle'] must be one of {list(ANGLES)}, got {values['angle']!r}")
    if "notes" in values and not isinstance(values["notes"], list):
        raise TypeError(f"values['notes'] must be a list of str (it is added to the notes), "
                        f"got {type(values['notes']).__name__}")


def fork(app: Any, config: dict, node: str, values: dict) -> dict:
    """Write `values` at the latest point before `node` and run on from there: a new branch.

    Returns {"forked_config": {<config with the branch's checkpoint_id>}, "result": {<final
    values of the branch>}, "original": {<values at the thread's end before the fork>},
    "total": 8}: `total` is the thread's checkpoints now (5 -> 8 when forking before
    "write" after one run: the branch point, then write and review again).
    Rests on `app.update_state(snapshot.config, values)` and `app.invoke(None, <the config
    it returned>)`. The original branch is kept: `get_state(config)` now shows the new
    branch's end, the old end stays readable through its own config.
    Raises ValueError for a node with no point or "__start__" (a fork there would lose the
    input), TypeError/ValueError for values that are not a dict of State keys; nothing is
    written then.
    """
    if node == "__start__":
        raise ValueError('node must be a node of the graph (plan, write or review), not "__start__": '
                         "a fork before the input would lose the topic")
    _check_values(values)
    snap = _require_point(app, config, node)
    original = app.get_state(config).values
    forked_config = app.update_state(snap.config, values)
    # subtle: continue from the config update_state returned; the old one is the old branch
    result = app.invoke(None, forked_config)
    return {"forked_config": forked_config, "result": result, "original": original,
            "total": history_len(app, config)}


# ---------------------------------------------------------------------------------------
# 6. Bytes: what a checkpoint costs.


def _utf8_len(text: str) -> int:
    """len(text.encode("utf-8")) without holding a second copy of a large text."""
    if text.isascii():
        return len(text)
    step = 1 << 16
    return sum(len(text[i:i + step].encode("utf-8")) for i in range(0, len(text), step))


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)


def state_bytes(values: Any) -> int:
    """Bytes of the state in UTF-8 JSON: {"topic": "가을"} -> 19.

    Exactly len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)
    .encode("utf-8")); the text is counted chunk by chunk, so a large value is not copied
    twice. Values json rejects (datetime, set, bytes) are written as their str().
    """
    return sum(_utf8_len(chunk) for chunk in _ENCODER.iterencode(values))


def _measure_each(app: Any, config: dict, measure: Any) -> list:
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


def history_bytes(app: Any, config: dict) -> List[int]:
    """state_bytes of each snapshot's values, oldest first: [13, 32, 81, 124, 149] (bytes).

    Rests on `app.get_state_history(config, before=..., limit=1)`, read one snapshot at a
    time, so a large value in the state is held once, not once per checkpoint.
    """
    return _measure_each(app, config, lambda snap: state_bytes(snap.values))


def payload_size(payload: Any) -> int:
    """The payload's own size in bytes: UTF-8 length of a str, len of bytes, else state_bytes."""
    if isinstance(payload, str):
        return _utf8_len(payload)
    if isinstance(payload, (bytes, bytearray)):
        return len(payload)
    return state_bytes(payload)


def _check_topic(topic: Any) -> None:
    if not isinstance(topic, str):
        raise TypeError(f"topic must be a str, got {type(topic).__name__}")


def _run_once(inputs: dict, thread_id: str = "run-1") -> Any:
    """A new graph on a new in-memory saver, run once on `thread_id`; returns the app."""
    app = build_graph(new_saver())
    app.invoke(inputs, cfg(thread_id))
    return app


def _check_payload(payload: Any) -> None:
    """Errors naming `payload` when it is empty or the saver cannot serialize it."""
    if payload is None or (hasattr(payload, "__len__") and len(payload) == 0):
        raise ValueError("payload must be a non-empty value (a str, bytes or any value the saver "
                         "can serialize), got an empty one")
    try:
        new_saver().serde.dumps_typed(payload)
    except Exception as exc:  # the saver's serializer decides; name what failed and why
        raise TypeError(f"payload of type {type(payload).__name__} cannot be serialized by the "
                        f"saver: {exc}") from None


def weigh(topic: str, payload: Any) -> dict:
    """Run the graph twice, each on its own new saver: without and with `payload` in "bulk".

    Returns {"checkpoints": 5, "thin_total": 399, "fat_total": 6447, "payload_bytes": 1500,
    "carrying": 4} for topic "가을" and 1,500 "x": totals are sums of history_bytes (bytes),
    `carrying` counts the positions where the fat checkpoint is at least payload_bytes
    larger (the input checkpoint does not carry it). Measures bytes, never time.
    Raises TypeError for a topic that is not a str or a payload the saver cannot
    serialize, ValueError for an empty payload; both before either run.
    """
    _check_topic(topic)
    _check_payload(payload)
    size = payload_size(payload)
    thin_app = _run_once({"topic": topic})
    thin = history_bytes(thin_app, cfg("run-1"))
    del thin_app
    fat_app = _run_once({"topic": topic, "bulk": payload})
    fat = history_bytes(fat_app, cfg("run-1"))
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
    Asking the new saver raises nothing: the loss is silent. TypeError for a non-str topic.
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


def langgraph_version() -> str:
    """The installed langgraph's version string, e.g. "0.2.60" or "1.2.24"."""
    from importlib.metadata import version

    return version("langgraph")


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
            f"pip install 'agckpt[{backend}]' (or pip install {EXTRAS[backend]}); {exc}"
        ) from None


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


@contextlib.contextmanager
def open_saver(backend: str = "memory", url: Optional[str] = None) -> Iterator[Any]:
    """A saver for `backend`, closed (and its temporary store removed) on exit.

        with open_saver("sqlite") as saver:      # a new SQLite file in a temporary folder
            app = build_graph(saver)

    "memory": a new InMemorySaver (url must be None). "sqlite": `url` is the database file's
    path (default: a new file in a temporary folder, removed on exit); the saver is
    langgraph-checkpoint-sqlite's SqliteSaver. "postgres": `url` is required (a libpq
    connection string); PostgresSaver.from_conn_string(url), then its setup() creates the
    tables. Raises ValueError for an unknown backend or a missing url, ImportError naming
    the extra to install, and the driver's error (one line) when the database cannot be
    reached; no temporary file is left behind then.
    """
    _check_backend(backend, url)
    if backend == "memory":
        yield new_saver()
        return
    saver_class = _import_extra(backend)
    if backend == "sqlite":
        folder = None
        if url is None:
            folder = tempfile.mkdtemp(prefix="agckpt-sqlite-")
            url = os.path.join(folder, "checkpoints.sqlite")
        try:
            with saver_class.from_conn_string(url) as saver:
                saver.setup()
                yield saver
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        return
    try:
        manager = saver_class.from_conn_string(url)
        saver = manager.__enter__()
    except Exception as exc:
        raise ConnectionError(f"cannot reach PostgreSQL at url {url!r}: "
                              f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc!r}") from None
    try:
        saver.setup()
        yield saver
    except BaseException:
        if not manager.__exit__(*sys.exc_info()):
            raise
    else:
        manager.__exit__(None, None, None)


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


# --- region: restarts and crashes (issue 6): restart_demo, crash_demo and their helpers ---
# --- end region: restarts and crashes ---

# --- region: anatomy and physical bytes (issue 4): anatomy, stored_bytes, durability_counts, payload_sweep ---
# --- end region: anatomy and physical bytes ---
