"""Run ckpt.py live and write ckpt_report.json and ckpt_report.md from one report dict.

    python make_report.py                       # topic 가을, 1,500-byte payload, fork angle 비교
    python make_report.py --topic "내 주제" --payload-bytes 4000 --out-dir /tmp/out

Every number in both files comes from running the module; nothing is typed by hand. The
Markdown is rendered from the same dict the JSON is cut from, and holds no timestamps and no
checkpoint ids, so two runs with the same arguments write identical files.
"""

import argparse
import json
import os
import platform
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version

import ckpt

JSON_NAME, MD_NAME = "ckpt_report.json", "ckpt_report.md"
SECTIONS = ["## 무엇이 저장되는가", "## 되감기와 분기는 어떻게 다른가", "## 크기로 잰 것", "## 사라지는 것"]
MIN_PAYLOAD = 300
# What each part of a stored checkpoint is for (ckpt.FIELD_PURPOSES, in Korean for the report).
PURPOSES = {
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 고유하고 시간순인 id (config의 checkpoint_id)",
    "checkpoint.ts": "체크포인트를 쓴 시각",
    "checkpoint.channel_values": "채널마다의 값, 곧 상태 그 자체 (여기서는 채널별 바이트)",
    "checkpoint.channel_versions": "채널마다의 현재 버전: 쓰기가 있을 때마다 올라간다",
    "checkpoint.versions_seen": "노드마다 마지막으로 보고 실행한 채널 버전: 다음에 무엇이 실행될지를 정한다",
    "checkpoint.pending_sends": "아직 실행되지 않은 Send 작업 (동적 분기)",
    "checkpoint.updated_channels": "이 체크포인트를 만든 super-step이 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step 번호: 입력은 -1, 이후 0, 1, 2, …",
    "metadata.parents": "부모 그래프(서브그래프)의 checkpoint id; 최상위에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 super-step에서 각 노드가 쓴 값",
    "metadata.thread_id": "config에서 복사한 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "바로 앞 체크포인트의 config: 스레드를 거슬러 올라가는 사슬",
    "pending_writes": "다음 super-step에서 이미 끝난 작업의 쓰기: 저장됐지만 아직 적용되지 않음",
}
PACKAGES = ("langgraph", "langgraph-checkpoint", "langgraph-checkpoint-sqlite", "langgraph-checkpoint-postgres")


# ---------------------------------------------------------------------------------------
# Measuring: one dict, built from live runs.


def _versions(postgres: bool) -> dict:
    """The versions the report was measured with: the PostgreSQL saver only when it was used."""
    found = {"python": platform.python_version()}
    for name in PACKAGES if postgres else PACKAGES[:-1]:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


def _changed(before: dict, after: dict) -> list:
    """The state keys whose values differ between two snapshots' values, sorted."""
    missing = object()
    return sorted(k for k in set(before) | set(after) if before.get(k, missing) != after.get(k, missing))


def _checkpoint_rows(app, config) -> list:
    """One row per checkpoint, oldest first: position, metadata step and source, next, changed keys, bytes."""
    rows, previous = [], {}
    for position, snap in enumerate(ckpt.history(app, config)):
        rows.append({
            "position": position,
            "step": snap.metadata.get("step"),
            "source": snap.metadata.get("source"),
            "next": list(snap.next),
            "changed": _changed(previous, snap.values),
            "bytes": ckpt.state_bytes(snap.values),
        })
        previous = snap.values
    return rows


def _threads(topic: str) -> dict:
    """Same thread continues, another thread starts empty, no checkpointer keeps nothing."""
    app = ckpt.build_graph(ckpt.new_saver())
    first = len(app.invoke({"topic": topic}, ckpt.cfg("t1"))["notes"])
    second = len(app.invoke({"topic": topic}, ckpt.cfg("t1"))["notes"])
    bare = ckpt.build_graph()
    runs = [len(bare.invoke({"topic": topic}, ckpt.cfg("t1"))["notes"]) for _ in range(2)]
    try:
        bare.get_state(ckpt.cfg("t1"))
        error = ""
    except ValueError as exc:
        error = f"ValueError: {exc}"
    return {
        "same_thread_notes": [first, second],
        "same_thread_checkpoints": ckpt.history_len(app, ckpt.cfg("t1")),
        "other_thread_checkpoints": ckpt.history_len(app, ckpt.cfg("t2")),
        "other_thread_values": dict(app.get_state(ckpt.cfg("t2")).values),
        "no_checkpointer_notes": runs,
        "no_checkpointer_error": error,
    }


def _tree(app, config) -> list:
    """The thread's checkpoints oldest first, each with the position of its parent (None for the first)."""
    rows, position_of = [], {}
    for position, snap in enumerate(ckpt.history(app, config)):
        position_of[snap.config["configurable"]["checkpoint_id"]] = position
        parent = snap.parent_config["configurable"]["checkpoint_id"] if snap.parent_config else None
        rows.append({"position": position, "parent": position_of.get(parent), "step": snap.metadata.get("step"),
                     "source": snap.metadata.get("source"), "next": list(snap.next)})
    return rows


def _version_number(version) -> str:
    """A channel version as its counter: "00000000000000000000000000000005.0.4930..." -> "5".

    The part after the dot is random on every run, so only the counter is shown."""
    text = str(version)
    head = text.split(".", 1)[0]
    return str(int(head)) if head.isdigit() else text


def anatomy_rows(anat: dict) -> list:
    """ckpt.anatomy() as [{"field": "checkpoint.v", "value": "4"}, ...], with nothing that
    changes from run to run: ids and timestamps are described, versions shown as counters."""
    rows = []
    for part in ("checkpoint", "metadata"):
        for field, value in anat[part].items():
            name = f"{part}.{field}"
            if name == "checkpoint.id":
                shown = f"{len(value)}자 UUID (실행마다 다름)"
            elif name == "checkpoint.ts":
                shown = "ISO 8601 시각 (실행마다 다름)"
            elif name == "checkpoint.channel_values":
                shown = ", ".join(f"{k} {v} B" for k, v in value.items())
            elif name == "checkpoint.channel_versions":
                shown = ", ".join(f"{k}@{_version_number(v)}" for k, v in value.items())
            elif name == "checkpoint.versions_seen":
                shown = "; ".join(f"{node}: " + (", ".join(f"{k}@{_version_number(v)}" for k, v in seen.items()) or "—")
                                  for node, seen in value.items())
            elif name == "metadata.writes" and isinstance(value, dict):
                shown = ", ".join(f"{node} → {sorted(w) if isinstance(w, dict) else w}" for node, w in value.items())
            else:
                shown = json.dumps(value, ensure_ascii=False)
            rows.append({"field": name, "value": shown})
    rows.append({"field": "parent_config", "value": "있음" if anat["has_parent_config"] else "없음"})
    rows.append({"field": "pending_writes", "value": f"{anat['pending_writes']}개"})
    return rows


def _durable_jobs(topic: str, postgres_url) -> dict:
    """The restart and crash demos the report shows: name -> (function, kwargs).

    Crash figures come only from deterministic settings: durability="sync" where the
    installed langgraph has it, else a review that works until the earlier checkpoints
    are stored (wait_saved). The race of an instant crash under "async" is left to tests.
    """
    backends = [b for b in ("memory", "sqlite") if ckpt.has_backend(b)] + (["postgres"] if postgres_url else [])
    steady = {"durability": "sync"} if ckpt.has_durability() else {"wait_saved": True}
    jobs = {}
    for backend in backends:
        url = postgres_url if backend == "postgres" else None
        jobs[f"restart:{backend}"] = (ckpt.restart_demo, dict(topic=topic, backend=backend, url=url))
        jobs[f"crash:{backend}"] = (ckpt.crash_demo, dict(topic=topic, backend=backend, url=url, **steady))
    if ckpt.has_durability() and ckpt.has_backend("sqlite"):
        jobs["durability:exit"] = (ckpt.crash_demo, dict(topic=topic, backend="sqlite", durability="exit"))
        jobs["durability:async"] = (ckpt.crash_demo, dict(topic=topic, backend="sqlite", durability="async",
                                                          wait_saved=True))
    return jobs


def _start_durable(topic: str, postgres_url) -> dict:
    """Start the demos' child processes now, in threads; their results are read later."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=4)
    futures = {name: pool.submit(fn, **kwargs) for name, (fn, kwargs) in _durable_jobs(topic, postgres_url).items()}
    pool.shutdown(wait=False)
    return futures


def measure(topic: str, payload_bytes: int, fork_angle: str, postgres_url=None) -> dict:
    """Every figure of the report, from live runs of ckpt. Returns one JSON-ready dict."""
    durable = _start_durable(topic, postgres_url)  # child processes run while we measure here
    config = ckpt.cfg("run-1")
    app = ckpt.build_graph(ckpt.new_saver())
    base = app.invoke({"topic": topic}, config)
    checkpoints = _checkpoint_rows(app, config)
    pending = ckpt.pending(app, config)

    replays = []
    for node in ckpt.NODES:
        replay_app = ckpt.build_graph(ckpt.new_saver())
        replay_app.invoke({"topic": topic}, config)
        added = ckpt.replay(replay_app, config, node)["added"]
        sources = [s.metadata.get("source") for s in ckpt.history(replay_app, config)][len(checkpoints):]
        replays.append({"from": node, "added": added, "sources": sources})

    fork_app = ckpt.build_graph(ckpt.new_saver())
    fork_app.invoke({"topic": topic}, config)
    before = ckpt.history_len(fork_app, config)
    old_end_config = next(iter(fork_app.get_state_history(config))).config
    forked = ckpt.fork(fork_app, config, "write", {"angle": fork_angle})
    fork = {
        "before": before,
        "total": forked["total"],
        "base_score": base["score"],
        "fork_score": forked["result"]["score"],
        "base_draft": base["draft"],
        "fork_draft": forked["result"]["draft"],
        "original_equals_base": forked["original"] == base,
        "current_is_branch": fork_app.get_state(config).values == forked["result"],
        "old_end_readable": fork_app.get_state(old_end_config).values == base,
    }

    tree_app = ckpt.build_graph(ckpt.new_saver())
    tree_app.invoke({"topic": topic}, config)
    ckpt.replay(tree_app, config, "write")
    ckpt.fork(tree_app, config, "write", {"angle": fork_angle})

    payload = "x" * payload_bytes
    weighed = ckpt.weigh(topic, payload)
    thin_app = ckpt.build_graph(ckpt.new_saver())
    thin_app.invoke({"topic": topic}, config)
    fat_app = ckpt.build_graph(ckpt.new_saver())
    fat_app.invoke({"topic": topic, "bulk": payload}, config)
    thin, fat = ckpt.history_bytes(thin_app, config), ckpt.history_bytes(fat_app, config)
    bulk_key_bytes = ckpt.state_bytes({"bulk": payload, "topic": ""}) - ckpt.state_bytes({"topic": ""}) - weighed["payload_bytes"]
    identity = (weighed["fat_total"] - weighed["thin_total"]
                == weighed["carrying"] * (weighed["payload_bytes"] + bulk_key_bytes))
    if not identity or sum(thin) != weighed["thin_total"] or sum(fat) != weighed["fat_total"]:
        raise AssertionError(f"size identity failed: {weighed}, thin {thin}, fat {fat}, key {bulk_key_bytes}")

    lost = ckpt.lost_demo(topic)
    sweep_sizes = sorted({300, 750, payload_bytes, 3000, 6000})
    sweep = ckpt.payload_sweep(topic, sweep_sizes)
    for row in sweep:
        if row["extra"] != row["carrying"] * (row["payload_bytes"] + bulk_key_bytes):
            raise AssertionError(f"sweep is not linear: {row}")
    physical = {
        "x": ckpt.physical_vs_logical(topic, payload, url=postgres_url),
        "incompressible": ckpt.physical_vs_logical(topic, ckpt.incompressible(payload_bytes), url=postgres_url),
    }

    summary = {
        "topic": topic,
        "checkpoints_per_run": len(checkpoints),
        "pending": pending,
        "base_score": base["score"],
        "fork_angle": fork_angle,
        "fork_score": fork["fork_score"],
        "checkpoints_after_fork": forked["total"],
        "payload_bytes": weighed["payload_bytes"],
        "carrying": weighed["carrying"],
        "survives_restart": lost["after_restart"] > 0,
    }
    return {
        "summary": summary,
        "versions": _versions(bool(postgres_url)),
        "checkpoints": checkpoints,
        "threads": _threads(topic),
        "replays": replays,
        "fork": fork,
        "tree": _tree(tree_app, config),
        "size": {"thin": thin, "fat": fat, "thin_total": weighed["thin_total"], "fat_total": weighed["fat_total"],
                 "payload_bytes": weighed["payload_bytes"], "carrying": weighed["carrying"],
                 "checkpoints": weighed["checkpoints"], "bulk_key_bytes": bulk_key_bytes},
        "lost": lost,
        "anatomy": anatomy_rows(ckpt.anatomy(app, config)),
        "sources": [row["source"] for row in _tree(tree_app, config)],
        "sweep": sweep,
        "physical": physical,
        "durability_counts": ckpt.durability_counts(topic),
        "postgres": bool(postgres_url),
        "missing": [b for b in ("sqlite", "postgres") if not ckpt.has_backend(b)],
        "durable": {name: future.result() for name, future in durable.items()},
    }


# ---------------------------------------------------------------------------------------
# Rendering: Markdown from the dict, never recomputed.


def esc(text) -> str:
    """Text made inert for Markdown: it cannot break a table, start markup or inject HTML.

    <, > and & become entities; every other character Markdown (GFM) acts on is
    backslash-escaped; a newline cannot occur (callers pass JSON literals or names).
    """
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for char in "\\`*_[]|#~$":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ").replace("\r", " ")


def quoted(value) -> str:
    """A value shown as its JSON literal, inert for Markdown: 가을 -> "가을", a newline -> \\n."""
    return esc(json.dumps(value, ensure_ascii=False))


def table(header: list, rows: list) -> list:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def fmt(n: int) -> str:
    return f"{n:,}"


def _label(row: dict) -> str:
    return f"#{row['position']} {row['source']}"


def gitgraph(tree: list) -> list:
    """A Mermaid gitGraph of the thread's checkpoints: one commit each, one branch per fork or replay."""
    children = {}
    for row in tree:
        children.setdefault(row["parent"], []).append(row)
    lines = ["```mermaid", "gitGraph"]
    names = {"main": 0}

    def commit(row):
        kind = " type: HIGHLIGHT" if row["source"] in ("update", "fork") else ""
        lines.append(f'    commit id: "{_label(row)} step {row["step"]}"{kind}')

    def walk(row, branch):
        while True:
            commit(row)
            kids = children.get(row["position"], [])
            if not kids:
                return
            later = []
            for kid in kids[1:]:
                base = "fork" if kid["source"] == "update" else "replay"
                names[base] = names.get(base, 0) + 1
                name = base if names[base] == 1 else f"{base}-{names[base]}"
                lines.append(f"    branch {name}")
                lines.append(f"    checkout {branch}")
                later.append((kid, name))
            walk(kids[0], branch)
            for kid, name in later:
                lines.append(f"    checkout {name}")
                walk(kid, name)
            return

    for root in children.get(None, []):
        walk(root, "main")
    return lines + ["```"]


def xychart(title: str, labels: list, series: list, y_label: str) -> list:
    """A Mermaid xychart-beta: series are (kind, values), drawn in order (later on top)."""
    top = max(max(values) for _, values in series)
    lines = ["```mermaid",
             '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#1f77b4, #ff7f0e"}}}}%%',
             "xychart-beta", f'    title "{title}"',
             "    x-axis [" + ", ".join(f'"{label}"' for label in labels) + "]",
             f'    y-axis "{y_label}" 0 --> {top + top // 10 + 1}']
    lines += [f"    {kind} [" + ", ".join(str(v) for v in values) + "]" for kind, values in series]
    return lines + ["```"]


def render(report: dict) -> str:
    s, v, size, fork = report["summary"], report["versions"], report["size"], report["fork"]
    threads, lost = report["threads"], report["lost"]
    out = ["# 체크포인트 실험 보고서", ""]
    out.append("측정 환경: " + ", ".join(f"{k} {val}" for k, val in v.items()) + ". "
               f"주제 {quoted(s['topic'])}, 페이로드 {fmt(size['payload_bytes'])} 바이트, 분기 angle {esc(s['fork_angle'])}. "
               "모든 수치는 `make_report.py`가 `ckpt.py`를 실제로 실행해 얻은 값이다.")
    out.append("")

    # 1 ------------------------------------------------------------------
    out += [SECTIONS[0], ""]
    out.append(f"checkpointer를 붙인 그래프를 한 번 실행하면 체크포인트가 {s['checkpoints_per_run']}개 남는다: "
               "입력을 받은 지점, `__start__` 직후, 그리고 세 노드가 끝날 때마다 하나씩. "
               "각 체크포인트는 그 순간의 상태 전체를 담는다. 아래 표는 오래된 것부터 나열한 것이다 "
               "(`get_state_history`는 최신 것부터 주므로 뒤집었다).")
    out.append("")
    rows = [[r["position"], r["step"], esc(r["source"]), esc(r["next"][0]) if r["next"] else "(끝)",
             ", ".join(esc(k) for k in r["changed"]) or "—", fmt(r["bytes"])] for r in report["checkpoints"]]
    out += table(["위치", "step", "source", "next", "이 단계에서 바뀐 키", "바이트"], rows)
    out.append("")
    out.append(f"`pending()` = {quoted(s['pending'])}. "
               f"기본 실행의 점수(`base_score`)는 {fmt(s['base_score'])}: 초안의 글자 수다.")
    out.append("")
    a, b = threads["same_thread_notes"]
    out.append(f"같은 `thread_id`로 한 번 더 실행하면 저장된 상태 위에서 이어진다: `notes`가 {a}개에서 {b}개로 늘고 "
               f"체크포인트는 {threads['same_thread_checkpoints']}개가 된다. 다른 `thread_id`는 빈 상태에서 시작한다: "
               f"체크포인트 {threads['other_thread_checkpoints']}개, 값 {quoted(threads['other_thread_values'])}.")
    out.append("")
    n1, n2 = threads["no_checkpointer_notes"]
    out.append(f"checkpointer 없이 컴파일한 그래프는 아무것도 남기지 않는다: 같은 config로 두 번 실행해도 "
               f"`notes`는 두 번 모두 {n1}개, {n2}개로 매번 처음부터 시작하고, `get_state`는 "
               f"{quoted(threads['no_checkpointer_error'])}를 던진다.")
    out.append("")

    out += ["### 체크포인트 하나를 열어 보면", ""]
    out.append("마지막 체크포인트를 saver가 돌려주는 그대로(`checkpointer.get_tuple(config)`) 펼쳤다. "
               "상태 값만 있는 것이 아니다: 어느 노드가 다음에 실행될지 정하는 채널 버전과 노드별로 본 버전, "
               "체크포인트가 생긴 경위(metadata), 앞 체크포인트로 가는 고리가 함께 저장된다. "
               "이 langgraph가 쓰는 필드만 나열했다 (버전은 실행마다 달라지는 뒷부분을 빼고 카운터만 보였다).")
    out.append("")
    rows = [[esc(r["field"]), esc(PURPOSES.get(r["field"], "")), esc(r["value"])] for r in report["anatomy"]]
    out += table(["필드", "무엇을 위한 것인가", "값 또는 크기"], rows)
    out.append("")
    out += ["### 체크포인트는 어디서 왔나", ""]
    counts = {}
    for source in report["sources"]:
        counts[source] = counts.get(source, 0) + 1
    out.append("아래 되감기와 분기를 한 스레드에서 차례로 한 뒤, 체크포인트마다 `metadata[\"source\"]`를 "
               "오래된 것부터 읽으면: " + ", ".join(esc(x) for x in report["sources"]) + ". "
               "모두 " + ", ".join(f"{esc(k)} {v}개" for k, v in counts.items()) + ". "
               "`input`은 입력을 받은 지점, `loop`는 super-step이 끝난 지점, `update`는 `update_state`가 쓴 지점"
               + (", `fork`는 되감기가 먼저 쓰는 분기 지점이다." if "fork" in counts else
                  "이다 (이 langgraph의 되감기는 `fork` 체크포인트를 쓰지 않는다)."))
    out.append("")

    # 2 ------------------------------------------------------------------
    out += [SECTIONS[1], ""]
    out.append("되감기(replay)는 저장된 지점의 config로 `invoke(None, config)`를 호출해 같은 값으로 다시 실행한다. "
               "입력이 `None`이어야 이어서 실행되고, 다른 입력을 주면 처음부터 다시 시작한다. "
               "각 노드 앞 지점에서 되감았을 때 늘어난 체크포인트 수:")
    out.append("")
    rows = [[esc(r["from"]), r["added"], ", ".join(esc(x) for x in r["sources"])] for r in report["replays"]]
    out += table(["어느 노드 앞에서", "늘어난 체크포인트", "새 체크포인트의 source (오래된 것부터)"], rows)
    out.append("")
    if any("fork" in r["sources"] for r in report["replays"]):
        out.append("이 langgraph(1.1.7 이후)는 되감기 전에 `source`가 `fork`인 체크포인트를 하나 먼저 쓴다. "
                   "그래서 다시 실행한 노드 수보다 하나 더 늘어난다 (langgraph 0.2.60에서는 plan/write/review 순으로 3/2/1).")
    else:
        out.append("다시 실행한 노드 수만큼만 늘어난다 (langgraph 1.1.7부터는 `fork` 체크포인트가 하나 더 생겨 하나씩 더 많다).")
    out.append("")
    out.append(f"분기(fork)는 값을 바꿔 다른 길로 간다. `write` 앞 지점에서 `update_state(snapshot.config, "
               f"{{\"angle\": {quoted(s['fork_angle'])}}})`로 가지를 만들고, 그것이 돌려준 config로 이어서 실행했다. "
               f"체크포인트는 {fork['before']}개에서 {fork['total']}개가 된다: 가지를 만든 지점 하나, "
               "그리고 다시 실행한 `write`와 `review`.")
    out.append("")
    out += table(["", "초안", "점수"], [
        ["원래 가지", quoted(fork["base_draft"]), fork["base_score"]],
        [f"새 가지 ({esc(s['fork_angle'])})", quoted(fork["fork_draft"]), fork["fork_score"]],
    ])
    out.append("")
    yes = {True: "예", False: "아니오"}
    out.append(f"분기 뒤 `thread_id`만으로 `get_state`를 부르면 새 가지의 끝이 나온다 ({yes[fork['current_is_branch']]}). "
               f"원래 가지는 지워지지 않는다: 분기 전에 잡아 둔 config로 읽으면 원래 끝이 그대로 있다 "
               f"({yes[fork['old_end_readable']]}). `fork()`가 돌려준 `original`도 분기 전 끝과 같다 "
               f"({yes[fork['original_equals_base']]}).")
    out.append("")
    out.append("한 스레드에서 한 번 실행하고, `write` 앞에서 되감고, 다시 `write` 앞에서 분기한 뒤의 체크포인트를 "
               "부모 관계대로 그리면 이렇다 (커밋 하나가 체크포인트 하나, 강조된 것은 `update`/`fork` 체크포인트):")
    out.append("")
    out += gitgraph(report["tree"])
    out.append("")

    # 3 ------------------------------------------------------------------
    out += [SECTIONS[2], ""]
    out.append(f"상태를 `json.dumps(..., ensure_ascii=False, sort_keys=True, default=str)`로 직렬화해 UTF-8 바이트를 셌다. "
               f"시간은 기계와 부하에 따라 다르지만 같은 상태의 크기는 언제나 같다. `bulk` 없이(thin) 한 번, "
               f"`bulk`에 {fmt(size['payload_bytes'])} 바이트 값을 넣고(fat) 한 번 실행했다.")
    out.append("")
    labels = [_label(r) for r in report["checkpoints"]]
    rows = [[labels[i], fmt(t), fmt(f), fmt(f - t)] for i, (t, f) in enumerate(zip(size["thin"], size["fat"]))]
    rows.append(["합계", fmt(size["thin_total"]), fmt(size["fat_total"]), fmt(size["fat_total"] - size["thin_total"])])
    out += table(["체크포인트", "thin (바이트)", "fat (바이트)", "차이"], rows)
    out.append("")
    out += xychart("체크포인트별 바이트: 막대 fat, 선 thin", labels,
                   [("bar", size["fat"]), ("line", size["thin"])], "bytes")
    out.append("")
    out.append(f"체크포인트 {size['checkpoints']}개 중 {size['carrying']}개가 그 값을 싣고 있다 "
               "(입력 체크포인트는 아직 채널에 값이 들어가기 전이라 싣지 않는다). 한 번 넣은 값이 "
               f"{size['carrying']}번 저장된 셈이다. 차이는 정확히 다음과 같다 (코드에서 검사한 등식):")
    out.append("")
    diff = size["fat_total"] - size["thin_total"]
    out.append(f"fat_total − thin_total = {fmt(size['fat_total'])} − {fmt(size['thin_total'])} = {fmt(diff)} "
               f"= carrying × (페이로드 {fmt(size['payload_bytes'])} + `\"bulk\": \"\"` 키가 더하는 {size['bulk_key_bytes']}) "
               f"= {size['carrying']} × {fmt(size['payload_bytes'] + size['bulk_key_bytes'])}")
    out.append("")
    out.append("노드가 늘수록 이 배수도 커진다. 큰 원문이나 표는 상태 밖(파일, 저장소)에 두고 상태에는 그것을 가리키는 값만 두는 편이 낫다.")
    out.append("")

    out += ["### 페이로드 크기를 바꿔 가며", ""]
    sweep = report["sweep"]
    out.append("같은 그래프를 `bulk`의 크기만 바꿔 가며 `weigh`로 쟀다. 늘어난 바이트(fat − thin)는 "
               "언제나 carrying × (페이로드 + 키 " + str(size["bulk_key_bytes"]) + ")이다: 크기가 한 단계 커질 때마다 "
               "정확히 carrying × 그 증가분만큼 커진다 (코드에서 행마다 검사했다).")
    out.append("")
    rows = [[fmt(r["payload_bytes"]), fmt(r["thin_total"]), fmt(r["fat_total"]), fmt(r["extra"]), r["carrying"]]
            for r in sweep]
    out += table(["페이로드 (바이트)", "thin 합계", "fat 합계", "늘어난 바이트", "carrying"], rows)
    out.append("")
    out += xychart("페이로드 크기에 따른 늘어난 바이트", [fmt(r["payload_bytes"]) for r in sweep],
                   [("bar", [r["extra"] for r in sweep])], "bytes")
    out.append("")

    out += ["### 논리 바이트와 실제로 저장된 바이트", ""]
    out.append("위의 바이트는 논리적인 값이다: 체크포인트마다 상태 전체를 JSON으로 직렬화해 더했다. saver가 실제로 "
               "보관하는 바이트는 다르다. 메모리 saver와 PostgreSQL은 채널 값을 버전마다 한 번 blob으로 두고 "
               "체크포인트가 그것을 가리키게 하며, SQLite saver는 체크포인트마다 전체를 한 행에 쓴다. 모두 pending "
               "writes(입력도 그 하나다)도 보관한다. 같은 두 실행(thin, fat)을 saver별로 다시 하고 저장소를 직접 읽어 "
               "셌다 (키와 인덱스, 행 헤더는 빼고 직렬화된 값만). \"실제 저장된 사본\" = 저장 바이트 차이 ÷ 페이로드 바이트.")
    out.append("")
    names = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)", "postgres": "PostgreSQL (PostgresSaver)"}
    kinds = {"x": f"\"x\" × {fmt(size['payload_bytes'])}", "incompressible": f"무작위 문자 {fmt(size['payload_bytes'])}개 (압축 불가)"}
    rows = []
    for kind, measured in report["physical"].items():
        for r in measured:
            if r is measured[0]:
                rows.append([kinds[kind], "논리 (JSON)", fmt(r["logical"]["thin"]), fmt(r["logical"]["fat"]),
                             fmt(r["logical"]["difference"]), f"{r['logical']['copies']:.2f}"])
            st = r["stored"]
            rows.append([kinds[kind], names[r["backend"]], fmt(st["thin"]["total"]), fmt(st["fat"]["total"]),
                         fmt(st["difference"]), f"{st['copies']:.2f}"])
            if r["backend"] == "postgres":
                pk = r["stored_compressed"]
                rows.append([kinds[kind], "PostgreSQL, 압축 후 (pg_column_size)", fmt(pk["thin"]["total"]),
                             fmt(pk["fat"]["total"]), fmt(pk["difference"]), f"{pk['copies']:.2f}"])
    out += table(["페이로드", "무엇으로 잰 값", "thin (바이트)", "fat (바이트)", "차이", "실제 저장된 사본"], rows)
    out.append("")
    out += _missing_lines(report, "sqlite", "SQLite 행은 같은 두 실행을 SQLite 파일에 저장하고 그 파일의 행 바이트를 센 값이다")
    by = {r["backend"]: r for r in report["physical"]["x"]}
    split = by["memory"]["stored"]["fat"]["blobs"] > 0
    out.append(f"논리적으로는 값이 {size['carrying']}번 저장된다. 메모리 saver는 "
               f"{by['memory']['stored']['copies']:.2f}개분을 보관한다: "
               + ("입력 전체를 담은 `__start__` 채널 값 하나, `bulk` 채널 값 하나, 입력 체크포인트의 pending write 하나 "
                  "(langgraph 0.2.x는 입력 체크포인트 metadata의 `writes`에 한 번 더)." if split else
                  "이 langgraph-checkpoint의 메모리 saver에는 blob 맵이 없어 체크포인트마다 값 전체를 직렬화해 둔다.")
               + ("" if "sqlite" not in by else f" SQLite는 "
                  f"{by['sqlite']['stored']['copies']:.2f}개분이다: 값을 실은 체크포인트 행 {size['carrying']}개마다 전체가 다시 쓰이고, "
                  "입력 체크포인트 행이 `__start__` 채널에 입력을, pending write가 또 한 번 담는다.") + " "
               "PostgreSQL은 문자열 값을 체크포인트 행 안에 두므로 SQLite와 비슷하게 쌓이지만, 2 kB가 넘는 행은 "
               "스스로 압축한다: 같은 글자가 반복되는 값은 거의 사라지고, 압축할 수 없는 값은 그대로 남는다."
               + ("" if report["postgres"] else " (PostgreSQL 행은 `--postgres-url`을 줄 때 추가된다.)"))
    out.append("")

    out += ["### durability 모드별로 남는 체크포인트", ""]
    counts = report["durability_counts"]
    if counts is None:
        out.append(f"설치된 langgraph {esc(v['langgraph'])}에는 `durability` 인자가 없다 (0.6부터 있다). "
                   "이 버전은 super-step마다 체크포인트를 쓰며, 쓰기는 백그라운드에서 진행된다.")
    else:
        out.append("한 번 실행한 뒤 남은 체크포인트 수 (`invoke(..., durability=mode)`, 모드마다 새 saver):")
        out.append("")
        explain = {"exit": "실행이 끝날(또는 멈출) 때 마지막 체크포인트만 쓴다",
                   "async": "super-step마다 쓰되 백그라운드에서 쓴다 (기본값)",
                   "sync": "super-step마다 쓰고, 다음 단계로 가기 전에 쓰기가 끝나기를 기다린다"}
        out += table(["모드", "남은 체크포인트", "언제 쓰나"], [[esc(m), n, explain[m]] for m, n in counts.items()])
    out.append("")

    # 4 ------------------------------------------------------------------
    out += [SECTIONS[3], ""]
    out.append(f"메모리 saver(`InMemorySaver`)로 `run-1` 스레드를 한 번 실행하면 체크포인트가 {lost['kept']}개 남는다. "
               "새 saver로 그래프를 다시 만들고(프로세스 재시작의 정직한 대역) 같은 `thread_id`를 물으면 "
               f"체크포인트 {lost['after_restart']}개, 값 {quoted(lost['values_after_restart'])}가 돌아온다. "
               "오류는 나지 않는다: 손실은 조용히 일어난다. 그래서 메모리 saver는 실험과 테스트에는 맞지만 "
               f"운영에는 맞지 않는다. `survives_restart` = `{json.dumps(s['survives_restart'])}`.")
    out.append("")
    out += _render_durable(report)
    return "\n".join(out)


def _missing_lines(report: dict, backend: str, would_show: str) -> list:
    """One line naming the package a backend needs, when it is not installed here."""
    if backend not in report["missing"]:
        return []
    return [f"{would_show}. 이 기계에는 `{ckpt.EXTRAS[backend]}`가 설치되어 있지 않아 이 행은 측정하지 않았다 "
            f"(`pip install {ckpt.EXTRAS[backend]}`).", ""]


def _ran(nodes: list) -> str:
    return ", ".join(esc(n) for n in nodes) if nodes else "—"


def _render_durable(report: dict) -> list:
    d, v = report["durable"], report["versions"]
    out = ["### 진짜 재시작과 진짜 크래시", ""]
    steady = ("`durability=\"sync\"`로 실행했다" if "durability:exit" in d
              else "`review`가 앞 체크포인트가 저장될 때까지 일한 뒤 죽게 했다")
    out.append("위의 재시작은 같은 프로세스 안에서 saver를 새로 만든 것이었다. 여기서는 진짜 자식 프로세스"
               "(langgraph를 한 번 불러 둔 새 인터프리터 `sys.executable`에서 fork한 별도 프로세스: 호출한 쪽과 아무것도 "
               "공유하지 않는다)가 스레드를 한 번 실행하고 종료한 뒤, 그 프로세스가 끝난 다음에 연 새 saver가 "
               "같은 저장소를 읽는다. 크래시는 자식이 `review` 안에서 SIGKILL로 죽는 것이다 (정리 작업 없이 끝난다). "
               f"그 뒤 새 saver로 `invoke(None, config)`를 불러 이어서 실행했다. 크래시 행은 {steady}: "
               "그래야 몇 개가 남는지가 매번 같다.")
    out.append("")
    names = {"memory": "메모리", "sqlite": "SQLite (파일)", "postgres": "PostgreSQL"}
    rows = []
    for backend in ("memory", "sqlite", "postgres"):
        if f"restart:{backend}" not in d:
            continue
        r, c = d[f"restart:{backend}"], d[f"crash:{backend}"]
        rows.append([names[backend], f"{r['kept']} → {r['after_restart']}", "예" if r["survives"] else "아니오",
                     c["checkpoints_after_crash"], esc(c["pending_after_crash"]) or "—", _ran(c["ran_on_resume"]),
                     c["checkpoints_after_resume"]])
    out += table(["saver", "재시작 전 → 후 체크포인트", "살아남나", "크래시 뒤 찾은 체크포인트", "다음 노드",
                  "재개할 때 다시 실행된 노드", "재개 뒤 체크포인트"], rows)
    out.append("")
    out += _missing_lines(report, "sqlite", "SQLite 행은 자식 프로세스가 SQLite 파일에 쓴 스레드를 새 saver가 다시 읽고 이어서 실행한 결과다")
    mem = d["crash:memory"]
    out.append(f"메모리 saver는 자식 프로세스와 함께 사라진다: 재시작 뒤 {d['restart:memory']['after_restart']}개, "
               f"크래시 뒤 {mem['checkpoints_after_crash']}개를 찾았고, 이어서 실행할 것이 없다 "
               "(빈 스레드에 `invoke(None, ...)`를 부르면 LangGraph가 `EmptyInputError`를 던지므로 재개하지 않았다). "
               + ("" if "crash:sqlite" not in d else
               "SQLite는 파일에 남아 같은 값으로 이어진다: 끝난 노드는 다시 실행하지 않고 `review`만 실행했으며, "
               "결과는 크래시 없이 한 번 실행한 것과 같다 (`notes`가 두 번 쓰이지 않는다).")
               + (" PostgreSQL도 같다." if "restart:postgres" in d else " PostgreSQL 행은 `--postgres-url`을 주면 추가된다."))
    out.append("")
    out += ["### 크래시와 durability", ""]
    if "durability:exit" in d:
        rows = []
        explain = {"exit": "끝날 때만 쓰므로 도중에 죽으면 아무것도 남지 않는다: 처음부터 다시 해야 한다",
                   "async": "super-step마다 백그라운드에서 쓴다. `review`가 잠시 일한 뒤 죽으면 앞의 체크포인트는 이미 저장돼 있다",
                   "sync": "다음 super-step으로 가기 전에 쓰기를 기다린다: `review`가 시작하자마자 죽어도 앞의 체크포인트가 있다"}
        for mode, key in (("exit", "durability:exit"), ("async", "durability:async"), ("sync", "crash:sqlite")):
            c = d[key]
            rows.append([esc(mode), c["checkpoints_after_crash"], _ran(c["ran_on_resume"]), explain[mode]])
        out += table(["모드 (SQLite)", "크래시 뒤 찾은 체크포인트", "재개할 때 다시 실행된 노드", "왜"], rows)
        out.append("")
        out.append("기본값인 `async`에서 `review`가 시작하자마자 죽으면 결과는 경쟁에 달려 있다: 방금 끝난 단계의 "
                   "체크포인트 쓰기가 아직 저장소에 닿지 않았을 수 있어, 새 saver가 1~4개를 찾고 그만큼 더 많은 노드를 "
                   "다시 실행한다. 끝난 노드의 출력이 pending writes로 저장돼 있으면 그 노드는 건너뛴다 (부분 복구). "
                   "어느 경우든 재개한 뒤의 결과는 크래시 없는 실행과 같다. 이 경쟁은 매번 숫자가 달라서 보고서에는 "
                   "넣지 않고, 테스트가 불변식으로 확인한다.")
    else:
        out.append(f"설치된 langgraph {esc(v['langgraph'])}에는 `durability` 인자가 없다. 체크포인트는 super-step마다 "
                   "백그라운드에서 쓰이므로, `review`가 시작하자마자 죽으면 방금 끝난 단계의 체크포인트가 아직 "
                   "저장되지 않았을 수 있다 (테스트가 불변식으로 확인한다). 위 표는 `review`가 잠시 일한 뒤 죽은 경우다.")
    out.append("")
    return out


# ---------------------------------------------------------------------------------------
# Writing: both files atomically, only after everything was measured.


def _atomic_write(path: str, text: str) -> None:
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.basename(path), dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # subtle: mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _check_out_dir(folder: str) -> None:
    if not os.path.isdir(folder):
        raise SystemExit(f"make_report: --out-dir {folder!r} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
    except OSError as exc:
        raise SystemExit(f"make_report: --out-dir {folder!r} cannot be written: {exc.strerror}") from None
    os.close(fd)
    os.unlink(probe)


def write_report(report: dict, folder: str) -> tuple:
    """Write ckpt_report.json (the ten summary keys) and ckpt_report.md; returns their paths."""
    json_path, md_path = os.path.join(folder, JSON_NAME), os.path.join(folder, MD_NAME)
    texts = {json_path: json.dumps(report["summary"], ensure_ascii=False, indent=2) + "\n", md_path: render(report)}
    for path, text in texts.items():  # both rendered before either is written
        _atomic_write(path, text)
    return json_path, md_path


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="make_report.py",
        description="Run ckpt.py live and write ckpt_report.json and ckpt_report.md.")
    p.add_argument("--topic", default="가을", help="the topic to run the graph on (default: %(default)s)")
    p.add_argument("--payload-bytes", type=int, default=1500, metavar="N",
                   help=f"size of the large value put into 'bulk', N 'x' characters, at least {MIN_PAYLOAD} (default: %(default)s)")
    p.add_argument("--fork-angle", default="비교",
                   help=f"angle to fork with before 'write': one of {[a for a in ckpt.ANGLES if a != ckpt.DEFAULT_ANGLE]} (default: %(default)s)")
    p.add_argument("--postgres-url", default=os.environ.get("AGCKPT_PG_URL") or None, metavar="URL",
                   help="also measure a PostgreSQL saver at this libpq URL (default: $AGCKPT_PG_URL, else none)")
    p.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(ckpt.__file__)),
                   help="folder to write both files into (default: the folder of ckpt.py)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.payload_bytes < MIN_PAYLOAD:
        raise SystemExit(f"make_report: --payload-bytes must be at least {MIN_PAYLOAD}, got {args.payload_bytes}")
    if args.fork_angle not in ckpt.ANGLES or args.fork_angle == ckpt.DEFAULT_ANGLE:
        choices = [a for a in ckpt.ANGLES if a != ckpt.DEFAULT_ANGLE]
        raise SystemExit(f"make_report: --fork-angle must be one of {choices}, got {args.fork_angle!r}")
    _check_out_dir(args.out_dir)
    if args.postgres_url:
        try:
            with ckpt.open_saver("postgres", args.postgres_url):
                pass
        except (ImportError, ConnectionError, ValueError) as exc:
            raise SystemExit(f"make_report: --postgres-url: {exc}") from None
    report = measure(args.topic, args.payload_bytes, args.fork_angle, args.postgres_url)
    for path in write_report(report, args.out_dir):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
