"""A grader simulation: load ckpt.py by file path from another folder, in a fresh interpreter,
call every name of the contract with random topics and payloads, and compare with values the
script computes itself on its own graph (its own State, nodes and saver, built from langgraph).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ["ANGLES", "State", "plan", "write", "review", "build_graph", "new_saver", "cfg",
            "history", "history_len", "pending", "snapshot_before", "replay", "fork",
            "state_bytes", "history_bytes", "weigh", "lost_demo"]
SEEDS = [1, 22, 333, 4444]

GRADER = r'''
import datetime, importlib.util, json, operator, random, sys, typing
from importlib.metadata import version
from typing import Annotated, Any, TypedDict

from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, StateGraph

spec = importlib.util.spec_from_file_location("graded_ckpt", sys.argv[1])
m = importlib.util.module_from_spec(spec)
if sys.argv[2] == "registered":  # the importlib docs' recipe; "unregistered" is the common shortcut
    sys.modules["graded_ckpt"] = m
spec.loader.exec_module(m)
assert sys.modules["graded_ckpt"] is m, "the module in sys.modules is not the module the grader loaded"

LG_TEXT = version("langgraph")
LG = tuple(int(p) for p in LG_TEXT.split(".")[:3])
ADDED = {"plan": 4, "write": 3, "review": 2} if LG >= (1, 1, 7) else {"plan": 3, "write": 2, "review": 1}
ANGLES = {"기본": 1, "요약": 2, "비교": 3}
ALPHABET = "abcxyz 가을하늘🍂🍁/\"'\\\n\t-_é"


class MyState(TypedDict, total=False):
    topic: str
    angle: str
    draft: str
    stage: str
    score: int
    notes: Annotated[list, operator.add]
    bulk: Any


def my_draft(topic, angle):
    return (f"{topic}/{angle} " * ANGLES[angle]).strip()


def my_graph():
    def plan(s):
        return {"stage": "plan", "angle": s.get("angle") or "기본", "notes": ["plan:" + s["topic"]]}
    def write(s):
        return {"draft": my_draft(s["topic"], s["angle"]), "stage": "write", "notes": ["write:" + s["angle"]]}
    def review(s):
        return {"stage": "review", "score": len(s["draft"]), "notes": ["review:%d" % len(s["draft"])]}
    g = StateGraph(MyState)
    for f in (plan, write, review):
        g.add_node(f.__name__, f)
    g.add_edge(START, "plan"); g.add_edge("plan", "write"); g.add_edge("write", "review"); g.add_edge("review", END)
    return g.compile(checkpointer=MemorySaver())


def size(values):
    return len(json.dumps(values, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))


def my_sizes(inputs):
    app, c = my_graph(), {"configurable": {"thread_id": "g"}}
    app.invoke(inputs, c)
    return [size(s.values) for s in app.get_state_history(c)][::-1]


def ids(snaps):
    return [s.config["configurable"]["checkpoint_id"] for s in snaps]


def end(topic, angle="기본"):
    d = my_draft(topic, angle)
    return {"topic": topic, "angle": angle, "draft": d, "stage": "review", "score": len(d),
            "notes": ["plan:" + topic, "write:" + angle, "review:%d" % len(d)]}


checked, bad = set(), []


def check(name, got, want):
    checked.add(name)
    if got != want:
        bad.append([name, repr(got)[:300], repr(want)[:300]])


for seed in [int(a) for a in sys.argv[3:]]:
    rng = random.Random(seed)
    topic = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))
    payload = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(300, 20000)))
    angle = rng.choice(["요약", "비교"])
    tid = "grader-%d" % seed

    check("ANGLES", m.ANGLES, ANGLES)
    hints = typing.get_type_hints(m.State, include_extras=True)
    check("State", (sorted(hints), getattr(hints["notes"], "__metadata__", None)),
          (sorted(MyState.__annotations__), (operator.add,)))
    check("plan", m.plan({"topic": topic}), {"stage": "plan", "angle": "기본", "notes": ["plan:" + topic]})
    for a in ANGLES:
        check("write", m.write({"topic": topic, "angle": a}),
              {"draft": my_draft(topic, a), "stage": "write", "notes": ["write:" + a]})
    check("review", m.review({"draft": payload[:50]}),
          {"stage": "review", "score": len(payload[:50]), "notes": ["review:%d" % len(payload[:50])]})
    check("cfg", m.cfg(tid), {"configurable": {"thread_id": tid}})
    check("new_saver", (m.new_saver() is m.new_saver(), list(m.new_saver().list(None))), (False, []))

    plain = m.build_graph()
    check("build_graph", plain.invoke({"topic": topic}, m.cfg(tid)), end(topic))
    try:
        plain.get_state(m.cfg(tid))
        check("build_graph", "get_state without a checkpointer returned", "ValueError")
    except ValueError as exc:
        check("build_graph", "No checkpointer set" in str(exc), True)

    app, c = m.build_graph(m.new_saver()), m.cfg(tid)
    check("build_graph", app.invoke({"topic": topic}, c), end(topic))
    newest_first = list(app.get_state_history(c))
    check("history", ids(m.history(app, c)), ids(newest_first)[::-1])
    check("history", [s.next for s in m.history(app, c)],
          [("__start__",), ("plan",), ("write",), ("review",), ()])
    check("history_len", m.history_len(app, c), 5)
    check("pending", m.pending(app, c), ["__start__", "plan", "write", "review", ""])
    check("snapshot_before", ids([m.snapshot_before(app, c, "write")]), ids(newest_first[2:3]))
    check("snapshot_before", m.snapshot_before(app, c, "no-such-node"), None)
    check("state_bytes", [m.state_bytes(v) for v in (newest_first[0].values, {"t": topic, "p": payload},
          {"at": datetime.datetime(2020, 1, 2, 3, 4, 5), "s": {topic}, "b": topic.encode("utf-8")})],
          [size(v) for v in (newest_first[0].values, {"t": topic, "p": payload},
          {"at": datetime.datetime(2020, 1, 2, 3, 4, 5), "s": {topic}, "b": topic.encode("utf-8")})])
    check("history_bytes", m.history_bytes(app, c), [size(s.values) for s in newest_first][::-1])
    check("history_bytes", m.history_bytes(app, c), my_sizes({"topic": topic}))

    for node in ("plan", "write", "review"):
        app, c = m.build_graph(m.new_saver()), m.cfg(tid)
        app.invoke({"topic": topic}, c)
        got = m.replay(app, c, node)
        check("replay", (got["from"], got["result"], got["added"]), (node, end(topic), ADDED[node]))
        check("replay", sum(1 for _ in app.get_state_history(c)), 5 + ADDED[node])

    app, c = m.build_graph(m.new_saver()), m.cfg(tid)
    app.invoke({"topic": topic}, c)
    old_end = app.get_state(c).config
    got = m.fork(app, c, "write", {"angle": angle})
    check("fork", (got["total"], got["result"], got["original"]), (8, end(topic, angle), end(topic)))
    check("fork", (app.get_state(c).values, app.get_state(old_end).values), (end(topic, angle), end(topic)))
    check("fork", app.get_state(got["forked_config"]).next, ("write",))

    thin, fat = my_sizes({"topic": topic}), my_sizes({"topic": topic, "bulk": payload})
    p = len(payload.encode("utf-8"))
    check("weigh", m.weigh(topic, payload),
          {"checkpoints": 5, "thin_total": sum(thin), "fat_total": sum(fat), "payload_bytes": p,
           "carrying": sum(1 for t, f in zip(thin, fat) if f - t >= p)})
    check("weigh", sum(1 for t, f in zip(thin, fat) if f - t >= p), 4)
    check("lost_demo", m.lost_demo(topic), {"kept": 5, "after_restart": 0, "values_after_restart": {}})

check("weigh", m.weigh("가을", "x" * 1500),
      {"checkpoints": 5, "thin_total": 399, "fat_total": 6447, "payload_bytes": 1500, "carrying": 4})
print(json.dumps({"langgraph": LG_TEXT, "checked": sorted(checked), "mismatches": bad}))
'''


MODES = ["registered", "unregistered"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{mode: (the folder it ran in, its script, returncode, stdout, stderr)}: the grader in each mode, each in a
    fresh interpreter and a folder of its own, both started at once (a second or two each)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    started = {}
    for mode in MODES:
        folder = tmp_path_factory.mktemp(mode)
        script = folder / "grader.py"
        script.write_text(GRADER, encoding="utf-8")
        started[mode] = (folder, script, subprocess.Popen(
            [sys.executable, str(script), str(ROOT / "ckpt.py"), mode] + [str(s) for s in SEEDS], cwd=str(folder),
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"))
    done = {}
    try:
        for mode, (folder, script, proc) in started.items():
            out, err = proc.communicate(timeout=300)
            done[mode] = (folder, script, proc.returncode, out, err)
    finally:
        for _, _, proc in started.values():
            proc.kill()  # a no-op once it has ended
            proc.wait()
    return done


@pytest.mark.parametrize("mode", MODES)
def test_a_grader_loading_ckpt_by_path_from_elsewhere_gets_every_contract_value(graded, mode):
    folder, script, returncode, stdout, stderr = graded[mode]
    assert returncode == 0, stderr[-3000:]
    report = json.loads(stdout.strip().splitlines()[-1])
    assert report["mismatches"] == [], json.dumps(report, ensure_ascii=False, indent=1)
    assert report["checked"] == sorted(CONTRACT), report["checked"]
    assert list(folder.iterdir()) == [script], list(folder.iterdir())
