"""Run ckpt.py live and write ckpt_report.json and ckpt_report.md from one report dict.

    python make_report.py                       # topic 가을, 1,500-byte payload, fork angle 비교
    python make_report.py --topic "내 주제" --payload-bytes 4000 --out-dir /tmp/out

Every number in both files comes from calling ckpt's measures; this file calls no graph and imports no
langgraph. The Markdown is a template per section (its Korean words in report_ko.py), filled from the dict the JSON is
cut from; it holds no timestamps or checkpoint ids, so two runs with the same arguments write identical files.
"""
import argparse, json, os, random, re, signal, string, sys, sysconfig, tempfile, time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

try:
    import ckpt
except KeyboardInterrupt:  # Ctrl-C while langgraph is still being imported: nothing to clean up
    print("make_report.py: interrupted", file=sys.stderr)
    raise SystemExit(130) from None
from report_ko import (CHECKED, DELTA, DURABILITY, GLOSSARY, GROWTH, HEADER, LOST, MISTAKES, MODEL, NO_DELTA,
                       NO_DURABILITY, NO_TRAP, REPLAY_FORK, REPLAY_PLAIN, SAVED, SIZE, SPREAD, TRAP, TRAVEL, anatomy_rows,
                       particles, phrase)

JSON_NAME, MD_NAME = "ckpt_report.json", "ckpt_report.md"
MIN_PAYLOAD, MAX_PAYLOAD = 300, 100_000_000  # bytes: enough to see the difference; fits in memory
OTHER_TOPIC = "겨울"  # the input given at a past checkpoint, in place of None
FORK_ANGLES = [a for a in ckpt.ANGLES if a != ckpt.DEFAULT_ANGLE]
SAVER_NAMES = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)", "postgres": "PostgreSQL (PostgresSaver)"}
PROSE = {"memory": "메모리 saver", "sqlite": "SQLite saver", "postgres": "PostgreSQL saver"}  # a saver's name in a sentence
COLORS = {"memory": ("#1f77b4", "파랑"), "sqlite": ("#d62728", "빨강"), "postgres": ("#2ca02c", "초록")}  # chart lines
CHAIN_NODES, TURNS, TABLE_TURNS = (3, 10, 30), 40, (1, 10, 20, 30, 40)  # 3 nodes: the lab's graph

# ---- Measuring: one dict, every value from a call of ckpt. ----
def _savers(postgres_url: str) -> list:
    return [b for b in ("memory", "sqlite") if ckpt.has_backend(b)] + ["postgres"] * bool(postgres_url)

def _demos(topic: str, postgres_url: str) -> dict:
    """The restart and crash demos, on every saver installed here. Crash rows come from deterministic settings only:
    durability="sync" where langgraph has it, else a review that waits until the earlier checkpoints are stored."""
    steady, jobs = {"durability": "sync"} if ckpt.has_durability() else {"wait_saved": True}, {}
    for backend in _savers(postgres_url):
        where = dict(topic=topic, backend=backend, url=postgres_url if backend == "postgres" else None)
        jobs.update({f"restart:{backend}": (ckpt.restart_demo, where),
                     f"crash:{backend}": (ckpt.crash_demo, dict(where, **steady))})
    if ckpt.has_durability() and ckpt.has_backend("sqlite"):
        jobs["mode:exit"] = (ckpt.crash_demo, dict(topic=topic, durability="exit"))
        jobs["mode:async"] = (ckpt.crash_demo, dict(topic=topic, durability="async", wait_saved=True))
    if ckpt.has_backend("sqlite"):
        jobs["trap"] = (ckpt.trap_demo, dict(topic=topic))
    return jobs

def _grown(rows: list) -> dict:
    """turn_bytes' rows and their growth: bytes the first and last ten turns add, their ratio, last ÷ turn 20, the rest."""
    s = [row["stored"] for row in rows]
    return {"rows": rows, "first_ten": s[9], "last_ten": s[-1] - s[-11], "ratio": round((s[-1] - s[-11]) / s[9], 2),
            "doubled": round(s[-1] / s[19], 2), "rest": sorted({row["state"] - row["notes"] for row in rows})}

def _growth(topic: str, payload: str, physical: list, postgres_url: str) -> dict:
    """What a checkpoint costs as the work grows: longer chains, more turns, and the remedies."""
    url, savers, found = {"postgres": postgres_url}, _savers(postgres_url), {}
    try:
        found["delta"] = _grown(ckpt.turn_bytes(topic, TURNS, delta=True))
    except ImportError as exc:  # langgraph before 1.2
        found["delta"] = {"error": type(exc).__name__}
    return dict(found, turns={b: _grown(ckpt.turn_bytes(topic, TURNS, b, url.get(b))) for b in savers},
                pruning={b: ckpt.pruning(topic, b, url.get(b)) for b in savers}, pointer=ckpt.pointer_bytes(topic, payload),
                chains=[{"nodes": k, "savers": ckpt.physical_vs_logical(topic, payload, url=postgres_url, nodes=k)
                         if k > 3 else physical} for k in CHAIN_NODES])

def _measured(topic: str, payload_bytes: int, fork_angle: str, postgres_url: str, say) -> dict:
    """The figures measured in this process, while the demos' children run."""
    payload = "x" * payload_bytes
    say(f"measuring runs, replays, forks and bytes with a {payload_bytes:,}-byte payload")
    packages = ["langgraph", "langgraph-checkpoint", ckpt.EXTRAS["sqlite"]] + [ckpt.EXTRAS["postgres"]] * bool(postgres_url)
    r = dict(ckpt.first_run(topic), **{
        "versions": {"python": ".".join(map(str, sys.version_info[:3])),
                     **{name: v for name in packages if (v := ckpt.package_version(name))}},
        "threads": ckpt.thread_demo(topic), "replays": ckpt.replay_rows(topic),
        "rerun": ckpt.rerun_with_input(topic, OTHER_TOPIC), "fork": ckpt.fork_demo(topic, fork_angle),
        "update": ckpt.update_state_demo(topic, fork_angle),
        "tree": ckpt.time_travel_tree(topic, fork_angle), "weigh": ckpt.weigh(topic, payload),
        "sweep": [dict(row, extra=row["fat_total"] - row["thin_total"]) for row in
                  (ckpt.weigh(topic, "x" * (payload_bytes * n)) for n in range(1, 6))],
        "physical": {kind: ckpt.physical_vs_logical(topic, value, url=postgres_url) for kind, value
                     in (("x", payload), ("random", incompressible(payload_bytes)))},
        "durability": ckpt.durability_counts(topic), "lost": ckpt.lost_demo(topic),
        "failed": {mode or "default": ckpt.failed_run(topic, mode)
                   for mode in (ckpt.MODES if ckpt.has_durability() else [None])},
        "missing": [b for b in ("sqlite", "postgres") if not ckpt.has_backend(b)], "postgres": bool(postgres_url)})
    say(f"measuring longer chains, {TURNS} turns and the remedies")
    r.update(_growth(topic, payload, r["physical"]["x"], postgres_url))
    return _related(r, ckpt.first_run(topic, payload))

def _related(r: dict, fat: dict) -> dict:
    """Figures the report relates, from the measures: input checkpoint sizes, bytes a payload adds per checkpoint, parts
    in payloads, the sweep's slope, PostgreSQL's placement, whether an incompressible payload or DeltaChannel differ."""
    runs, payload_bytes = (r, fat), r["weigh"]["payload_bytes"]
    inputs = [x["input_anatomy"] for x in runs]  # the input checkpoint of the thin run and of the fat one
    for key, (thin, fat) in (("input_start", [a["checkpoint"]["channel_values"]["__start__"] for a in inputs]),
                             ("input_metadata", [ckpt.state_bytes(a["metadata"]) for a in inputs])):
        r[key] = {"thin": thin, "fat": fat, "difference": fat - thin}
    thin, fat = [[c["bytes"] for c in run["checkpoints"]] for run in runs]
    difference = [f - t for t, f in zip(thin, fat)]  # each 0, or the payload and what its key adds
    r["rows"] = {"thin": thin, "fat": fat, "difference": difference, "carried": sorted(set(difference) - {0}),
                 "key_bytes": ckpt.state_bytes({"bulk": "", "topic": ""}) - ckpt.state_bytes({"topic": ""})}
    r["parts_copies"] = {m["backend"]: {k: round(v / payload_bytes, 2) for k, v in m["stored"]["parts"].items()}
                         for m in r["physical"]["x"]}  # each part of the stored difference, in payloads
    steps = sorted({(b["payload_bytes"] - a["payload_bytes"], b["extra"] - a["extra"])
                    for a, b in zip(r["sweep"], r["sweep"][1:])})
    r["sweep_step"] = {"payload_bytes": steps[0][0], "extra": steps[0][1], "per_byte": round(steps[0][1] / steps[0][0], 2)
                       } if len(steps) == 1 else None  # the slope, where the sweep is a straight line
    r["placement"] = next((m["placement"] for m in r["physical"]["x"] if m["backend"] == "postgres"), None)
    stored = [[(m["backend"], m["stored"]["thin"], m["stored"]["fat"]) for m in r["physical"][k]] for k in ("x", "random")]
    kept = [[(row["notes"], row["state"]) for row in x.get("rows", [])] for x in (r["turns"]["memory"], r["delta"])]
    r["same"] = {"bytes": stored[0] == stored[1], "states": kept[0] == kept[1]}  # an incompressible payload; DeltaChannel
    return r

def measure(topic: str, payload_bytes: int, fork_angle: str, postgres_url: str = None, say=None) -> dict:
    """Every figure of the report, from live calls of ckpt: one JSON-ready dict. say(text): told each phase."""
    say, pool, demos = say or (lambda text: None), ThreadPoolExecutor(max_workers=os.cpu_count() or 2), {}
    try:  # the demos run in the pool meanwhile
        demos = {name: pool.submit(fn, **kw) for name, (fn, kw) in _demos(topic, postgres_url).items()}
        say(f"started {len(demos)} restart and crash demos in child processes")
        r = _measured(topic, payload_bytes, fork_angle, postgres_url, say)
        say("waiting for the restart and crash demos")
        r["demos"] = {name: future.result() for name, future in demos.items()}
    except KeyboardInterrupt:  # subtle: a SIGINT sent to this process alone never reaches the demos' children, and
        if os.getpgrp() == os.getpid():  # a demo may start its next child (a resume) after it: pass it on to our group
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # until every demo has ended, so they end now, not in seconds
            pool.shutdown(wait=False, cancel_futures=True)
            while os.killpg(0, signal.SIGINT) or not all(future.done() for future in demos.values()):
                time.sleep(0.05)
        raise
    finally:  # subtle: not `with`, whose exit would run every queued demo after a Ctrl-C
        pool.shutdown(cancel_futures=True)  # waits for the demos already running: they clean up
    f, w = r["fork"], r["weigh"]
    r["summary"] = {  # the lab's ten keys, in the lab's order
        "topic": topic, "checkpoints_per_run": len(r["checkpoints"]), "pending": r["pending"],
        "base_score": f["base_score"], "fork_angle": fork_angle, "fork_score": f["fork_score"],
        "checkpoints_after_fork": f["total"], "payload_bytes": w["payload_bytes"], "carrying": w["carrying"],
        "survives_restart": r["lost"]["after_restart"] > 0}
    return r

def incompressible(size: int, seed: int = 0) -> str:
    """`size` ASCII letters and digits from random.Random(seed): "0UAqFzWs" for 8; no repeats for pglz or lz4."""
    return "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size))

# ---- Small helpers: values shown as code, tables, charts. ----
def lit(text: str) -> str:
    """Text in a code span, shown exactly: no emphasis (`__start__`), links or HTML."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"

def code(value, limit: int = 80) -> str:
    """A value as its JSON literal in a code span (spaces kept); a long one shortened: "x" * 200 -> `"xxx…` (200자)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= limit:
        return lit(text)
    return f"{lit(text[:limit - 1] + '…')} ({f'{len(value)}자' if isinstance(value, str) else f'JSON {len(text)}자'})"

def table(header: list, rows: list) -> str:
    """A Markdown table; a "|" inside a cell is escaped so it cannot open a column."""
    cells = [header] + [[str(cell).replace("|", "\\|") for cell in row] for row in rows]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells[1:]])

def n(number) -> str: return f"{number:,}"
def nodes(names: list) -> str: return ", ".join(map(lit, names)) if names else "—"
def _label(row: dict) -> str: return f"#{row['position']} {row['source']}"
def said(flag: bool, yes: str, no: str) -> str: return yes if flag else no

def xychart(title: str, x_title: str, labels: list, series, y_title: str) -> str:
    """A Mermaid xychart-beta with titles on both axes. series: [(kind, values)], coloured in turn, or
    {saver: values}: a line per saver in its colour (COLORS), the colours named in the title."""
    palette = "#1f77b4, #d62728"
    if isinstance(series, dict):
        title += " (" + ", ".join(f"{COLORS[b][1]} {SAVER_NAMES[b].split()[0]}" for b in series) + ")"
        palette, series = ", ".join(COLORS[b][0] for b in series), [("line", v) for v in series.values()]
    top, axis = max(max(values) for _, values in series), ", ".join(f'"{x}"' for x in labels)
    lines = ["```mermaid", '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "' + palette + '"}}}}%%',
             "xychart-beta", f'    title "{title}"', f'    x-axis "{x_title}" [{axis}]',
             f'    y-axis "{y_title}" 0 --> {int(top + top // 10 + 1)}']
    return "\n".join(lines + [f"    {kind} [" + ", ".join(map(str, values)) + "]" for kind, values in series] + ["```"])

def gitgraph(tree: list) -> str:
    """The thread as a Mermaid gitGraph: the first run on the lane "처음 실행", each branch on its own (되감기, 분기)."""
    kids, lanes = {}, {}
    lines = ["```mermaid", "%%{init: {'gitGraph': {'mainBranchName': '처음 실행'}}}%%", "gitGraph"]
    for row in tree:
        kids.setdefault(row["parent"], []).append(row)
    def walk(row: dict, lane: str) -> None:
        later = []
        while row is not None:
            kind = " type: HIGHLIGHT" if row["source"] in ("update", "fork") else ""
            lines.append(f'    commit id: "{_label(row)}"{kind}')
            children = kids.get(row["position"], [])
            for kid in children[1:]:  # a branch starts here; it is drawn after this lane
                base = "분기" if kid["source"] == "update" else "되감기"
                lanes[base] = lanes.get(base, 0) + 1
                name = base if lanes[base] == 1 else f"{base}-{lanes[base]}"
                lines.extend([f'    branch "{name}"', f'    checkout "{lane}"'])
                later.append((kid, name))
            row = children[0] if children else None
        for kid, name in later:
            lines.append(f'    checkout "{name}"')
            walk(kid, name)
    walk(tree[0], "처음 실행")
    return "\n".join(lines + ["```"])

def _missing(r: dict, backend: str, what: str) -> str:
    """One line saying a saver's package is not installed here, so `what` was not measured ("" otherwise)."""
    return (f"\n이 기계에는 {PROSE[backend]}의 패키지(`{ckpt.EXTRAS[backend]}`)가 설치되어 있지 않아 {what} 재지 않았다.\n"
            if backend in r["missing"] else "")

# ---- Filling the templates: one function per section. ----
def header_fields(r: dict, s: dict) -> dict:
    setting = [["측정 환경", ", ".join(f"{k} {v}" for k, v in r["versions"].items())], ["주제", code(s["topic"])],
               ["페이로드", f"{n(r['weigh']['payload_bytes'])}바이트"], ["분기에 쓴 `angle`", lit(s["fork_angle"])]]
    setting += [[PROSE[b], f"설치되지 않음(`{ckpt.EXTRAS[b]}`). 이 saver가 필요한 행과 절은 재지 않았다"]
                for b in r["missing"] if b == "sqlite"]
    return dict(setting_table=table(["항목", "값"], setting))

def model_fields(r: dict) -> dict:
    return dict(node_count=len(ckpt.NODES), per_run=len(r["checkpoints"]), node_chain=" → ".join(map(lit, ckpt.NODES)),
                glossary_table=table(["용어", "뜻", "처음 쓰이는 곳"], [list(row) for row in GLOSSARY]))

def mistakes_fields(r: dict) -> dict:
    t, rerun, u = r["threads"], r["rerun"], r["update"]
    old, steps = u["old_config"], u["first_steps"]
    return dict(mistakes_table=table(["실수", "이 실행에서 일어난 일"], [
        ["checkpointer 없이 컴파일하고 `get_state`를 부른다", f"예외가 난다({lit(t['no_checkpointer_error'])}). 두 번 실행해도 "
         f"`notes`는 {t['no_checkpointer_notes'][0]}개, {t['no_checkpointer_notes'][1]}개로 매번 처음부터 시작한다."],
        ["되감을 때 `None` 대신 입력을 준다", f"{code(rerun['input'])}{{을/를}} 주자 {nodes(rerun['ran'])}{{이/가}} 다시 실행되고 "
         f"체크포인트가 {rerun['added']}개 늘었다."],
        ["`update_state` 뒤에 원래 config로 이어서 실행한다", f"초안은 {code(old['draft'])}, 점수는 {old['score']}점이다. 값을 바꾸지 "
         f"않았을 때와 같다. 체크포인트는 {old['checkpoints']}개가 됐다."],
        ["기록을 뒤집지 않고 읽는다", f"`get_state_history`는 최신 것부터 준다. 첫 항목은 단계 {steps['get_state_history']}(마지막 "
         f"체크포인트){{이다/다}}. 실습의 `history()`처럼 뒤집어야 첫 항목이 단계 {steps['history']}(입력){{이/가}} 된다."]]))

def saved_fields(r: dict) -> dict:
    t = r["threads"]
    rows = [[_label(c), c["step"], lit(c["next"][0]) if c["next"] else "(끝)", nodes(c["changed"]), n(c["bytes"])]
            for c in r["checkpoints"]]
    anatomy = [[lit(a["field"]), a["purpose"], lit(a["value"])] for a in anatomy_rows(r["anatomy"])]
    return dict(
        per_run=len(r["checkpoints"]), pending=code(r["pending"]), base_draft=code(r["fork"]["base_draft"]),
        newest_first=" `get_state_history`가 최신 것부터 주기 때문에 뒤집었다." if t["history_newest_first"] else "",
        rows_table=table(["체크포인트", "단계", "다음 노드(`next`)", "이 단계에서 바뀐 키", "바이트"], rows),
        base_score=r["fork"]["base_score"], notes_first=t["same_thread_notes"][0], notes_second=t["same_thread_notes"][1],
        same_checkpoints=t["same_thread_checkpoints"], other_notes=t["other_thread_notes"],
        other_checkpoints=t["other_thread_checkpoints"], bare_first=t["no_checkpointer_notes"][0],
        bare_second=t["no_checkpointer_notes"][1], bare_error=lit(t["no_checkpointer_error"]),
        anatomy_table=table(["필드", "뜻", "값 또는 크기"], anatomy))

def _replay_note(r: dict) -> str:
    extra = [row["added"] - len(row["ran"]) for row in r["replays"]]
    if all(e == 1 and row["sources"][:1] == ["fork"] for e, row in zip(extra, r["replays"])):
        return REPLAY_FORK.substitute(version=r["versions"]["langgraph"])
    if all(e == 0 for e in extra):
        return REPLAY_PLAIN.substitute(version=r["versions"]["langgraph"])
    return "늘어난 체크포인트 수와 다시 실행된 노드 수는 위 표와 같다."

def _ran(x: dict) -> str:
    """What an invoke(None, ...) ran and added, as the rest of a sentence."""
    return (said(x["ran"], f"{nodes(x['ran'])}{{이/가}} 실행됐고, ", "노드는 하나도 실행되지 않았고, ")
            + said(x["added"], f"체크포인트는 {x['added']}개 늘었다.", "체크포인트도 늘지 않았다."))

def _ids(r: dict) -> dict:
    ids, version = r["update"]["int_and_str_ids"], r["versions"]["langgraph"]
    return dict(int_id=ids[0], str_id=ids[1], same_thread=phrase("ids_same" if ids[1] else "ids_apart", version=version),
                other_line_ids=phrase("ids_0260" if ids[1] else "ids_latest"))

def _branch(tree: list) -> dict:
    """Where the fork's branch hangs, and why: the points before write it could start from; whether continuing from
    the update wrote a fork checkpoint, where replays write one (tree rows are in position order)."""
    branch = next(row for row in tree if row["source"] == "update")
    points = [row for row in tree[:branch["position"]] if row["next"] == ["write"] and row["source"] != "update"]
    forks = [row["position"] for row in tree if row["source"] == "fork"]
    return dict(update_no_fork=said(forks and max(forks) < branch["position"], phrase("update_no_fork"), ""),
                branch=_label(branch), branch_parent=_label(tree[branch["parent"]]), points=said(
        len(points) > 1, f"되감은 뒤에는 다음 노드가 `write`인 체크포인트가 {len(points)}개({', '.join(map(_label, points))})다. "
        "실습의 `fork()` 함수는 그 가운데 가장 최근 것을 고른다.", f"다음 노드가 `write`인 체크포인트는 {_label(points[0])} 하나다."))

def travel_fields(r: dict, s: dict) -> dict:
    f, rerun, tree, u = r["fork"], r["rerun"], r["tree"], r["update"]
    counts = Counter(row["source"] for row in tree)  # in the order the sources first appear
    replays = [[lit(x["from"]), x["added"], nodes(x["ran"]), ", ".join(x["sources"])] for x in r["replays"]]
    drafts = [["원래 가지", code(f["base_draft"]), f["base_score"]],
              [f"새 가지 ({lit(s['fork_angle'])})", code(f["fork_draft"]), f["fork_score"]]]
    ends = [phrase(which + said(f[flag], "", "_not")) for flag, which in (
        ("current_is_new_end", "new_end"), ("old_end_readable", "old_end"), ("original_is_old_end", "original"))]
    return dict(
        replay_table=table(["어느 노드 앞에서", "늘어난 체크포인트", "다시 실행된 노드", "새 체크포인트의 source"], replays),
        replay_note=_replay_note(r), write_ran=nodes(next(x["ran"] for x in r["replays"] if x["from"] == "write")),
        rerun_input=code(rerun["input"]), rerun_ran=nodes(rerun["ran"]), rerun_added=rerun["added"],
        rerun_notes=code(rerun["notes"]), fork_values=code({"angle": s["fork_angle"]}), fork_before=f["before"],
        fork_total=f["total"], fork_table=table(["가지", "초안", "점수"], drafts), fork_ends=" ".join(ends),
        reducer_notes=code(u["reducer"]["notes"]), reducer_source=lit(u["reducer"]["source"]),
        reducer_next=nodes(u["reducer"]["next"]), update_values=code({"angle": u["old_config"]["update_angle"]}),
        update_angle=lit(u["old_config"]["update_angle"]), old_draft=code(u["old_config"]["draft"]),
        old_score=u["old_config"]["score"], old_checkpoints=u["old_config"]["checkpoints"], named_lists=u["named_lists"],
        finished=_ran(u["finished"]), end_replay=_ran(u["end_replay"]), **_ids(r), **_branch(tree),
        sources=", ".join(row["source"] for row in tree), source_counts=", ".join(f"{k} {v}개" for k, v in counts.items()),
        highlighted="·".join(lit(k) for k in ("update", "fork") if k in counts), gitgraph=gitgraph(tree),
        source_names=said(counts.get("fork"), f" source가 `fork`인 체크포인트 {counts.get('fork')}개는 되감기가 쓴 것이고, 분기가 쓴 "
                          "체크포인트의 source는 `update`다.", ""))

def _slope(r: dict) -> str:
    """The sweep's slope from its rows: the extra bytes per payload byte, when the steps are all alike."""
    step, carrying = r["sweep_step"], r["sweep"][0]["carrying"]
    if step is None:
        return "늘어난 바이트가 고르게 늘지는 않았다(위 표)."
    per = step["per_byte"]
    return (f"페이로드를 {n(step['payload_bytes'])}바이트 늘릴 때마다 차이(fat − thin)는 {n(step['extra'])}바이트씩 커졌다. 직선의 "
            f"기울기는 {per:g}{{이다/다}}. 페이로드 1바이트가 상태 전체로는 {per:g}바이트가 된다."
            + said(per == carrying, f" 페이로드를 실은 체크포인트 수({carrying}개)와 같다.", ""))

def _each(r: dict) -> str: return "saver마다" if len(r["physical"]["x"]) > 1 else PROSE[r["physical"]["x"][0]["backend"]] + "로"

def size_fields(r: dict) -> dict:
    w, rows, sweep = r["weigh"], r["rows"], r["sweep"]
    labels, extra = [_label(c) for c in r["checkpoints"]], w["fat_total"] - w["thin_total"]
    by_checkpoint = [[label, n(t), n(f), n(d)]
                     for label, t, f, d in zip(labels, rows["thin"], rows["fat"], rows["difference"])]
    sizes = [[*(n(x[k]) for k in ("payload_bytes", "thin_total", "fat_total", "extra")), x["carrying"]] for x in sweep]
    exact = rows["carried"] == [w["payload_bytes"] + rows["key_bytes"]]  # every carrying checkpoint alike
    return dict(
        payload_bytes=n(w["payload_bytes"]), checkpoints=w["checkpoints"], carrying=w["carrying"], each=_each(r),
        size_table=table(["체크포인트", "thin (바이트)", "fat (바이트)", "차이"],
                         by_checkpoint + [["합계", n(w["thin_total"]), n(w["fat_total"]), n(extra)]]),
        thin_chart=xychart("thin: 체크포인트별 상태 바이트", "체크포인트", labels, [("bar", rows["thin"])], "바이트"),
        fat_chart=xychart("fat: 체크포인트별 상태 바이트", "체크포인트", labels, [("bar", rows["fat"])], "바이트"),
        fat_total=n(w["fat_total"]), thin_total=n(w["thin_total"]), difference=n(extra),
        equation=(f" 페이로드를 실은 체크포인트마다 정확히 {n(rows['carried'][0])}바이트씩이다. 페이로드 {n(w['payload_bytes'])}바이트에 "
                  f"{rows['key_bytes']}바이트를 더한 값이다. {rows['key_bytes']}바이트는 키와 구분자, 곧 "
                  '`, "bulk": ""`의 길이다.') if exact else "",
        sweep_table=table(["페이로드 (바이트)", "thin 합계 (바이트)", "fat 합계 (바이트)", "차이 (바이트)",
                           "페이로드를 실은 체크포인트 수"], sizes),
        sweep_chart=xychart("페이로드 크기에 따른 차이 (fat − thin)", "페이로드 (바이트)",
                            [row[0] for row in sizes], [("line", [x["extra"] for x in sweep])], "바이트"),
        slope=_slope(r), **physical_fields(r))

def _parts_kind(r: dict, m: dict) -> str:
    """How a saver keeps the payload, from what it stored: in each checkpoint, once in a blob, or (PostgreSQL) inline."""
    if m["backend"] == "postgres" and "bulk" in (r["placement"] or {}).get("inline", []):
        return "pg_parts"
    return "blob" if m["stored"]["parts"]["blobs"] else "inline"

def _parts_said(r: dict) -> str:
    """Each saver's difference as the sum of its parts, in payloads, and where the copies come from."""
    meta = r["input_metadata"]["difference"]
    in_meta = meta >= r["weigh"]["payload_bytes"] / 2  # the input written into the input checkpoint's metadata as well
    out = [phrase("input", start=n(r["input_start"]["difference"])) + said(in_meta, phrase("input_meta", meta=n(meta)), "")]
    for m in r["physical"]["x"]:
        p, c = m["stored"]["parts"], {k: f"{v:.2f}" for k, v in r["parts_copies"][m["backend"]].items()}
        seen = {"meta": said(in_meta, phrase("inline_meta"), ""), "seen": said(in_meta, phrase("blob_meta", **c), "")}
        out.append(phrase("sum", name=PROSE[m["backend"]], difference=n(m["stored"]["difference"]),
                          copies=f"{m['stored']['copies']:.2f}", **{k: n(v) for k, v in p.items()},
                          each=", ".join(c[k] for k in ("checkpoints", "blobs", "writes")))
                   + phrase(_parts_kind(r, m), carrying=m["logical"]["carrying"], **c, **seen))
    first = r["parts_copies"][r["physical"]["x"][0]["backend"]]
    return "\n\n".join(out + [phrase("writes", writes=f"{first['writes']:.2f}", last=r["anatomy"]["pending_writes"])])

def physical_fields(r: dict) -> dict:
    row = lambda name, thin, fat, difference, copies: [name, n(thin), n(fat), n(difference), f"{copies:.2f}"]  # noqa: E731
    size, tables = n(r["weigh"]["payload_bytes"]), []
    kinds = [("x", f"`\"x\"` × {size}")] + ([("random", f"무작위 문자 {size}개 (압축 불가)")] if r["postgres"] else [])
    for kind, title in kinds:
        logical = r["physical"][kind][0]["logical"]
        rows = [row("논리 (JSON)", logical["thin"], logical["fat"], logical["difference"], logical["copies"])]
        for m in r["physical"][kind]:
            views = [("stored", SAVER_NAMES[m["backend"]])]
            if m["backend"] == "postgres":
                views.append(("stored_compressed", "PostgreSQL, 압축 후 (pg_column_size)"))
            rows += [row(name, m[v]["thin"]["total"], m[v]["fat"]["total"], m[v]["difference"], m[v]["copies"])
                     for v, name in views]
        tables.append(f"페이로드 {title}:\n\n" + table(["무엇으로 잰 값", "thin (바이트)", "fat (바이트)", "차이", "사본"], rows))
    tables.append(phrase("pg_compressed", **{k: f"{m['stored_compressed']['copies']:.2f}" for k, ms in r["physical"].items()
                                             for m in ms if m["backend"] == "postgres"}) if r["postgres"]
                  else phrase(said(r["same"]["bytes"], "same_bytes", "same_bytes_not")))
    parts = [[SAVER_NAMES[m["backend"]]] + [f"{n(m['stored']['parts'][k])} ({r['parts_copies'][m['backend']][k]:.2f})"
                                            for k in ("checkpoints", "blobs", "writes")] for m in r["physical"]["x"]]
    where, memory = {k: ", ".join(map(lit, names)) for k, names in (r["placement"] or {}).items()}, r["physical"]["x"][0]
    return dict(
        physical_tables="\n\n".join(tables) + "\n", parts_said=_parts_said(r),
        placement=(f"\nPostgreSQL이 값을 어디에 두는지 테이블에서 읽었다. 체크포인트 행 안(jsonb)에는 {where['inline']}{{이/가}} "
                   f"있고, blob 테이블에는 {where['blob']}{{이/가}} 있다.\n") if where else "",
        missing_sqlite=_missing(r, "sqlite", "SQLite 행은"),
        memory_note=said(memory["stored"]["parts"]["blobs"] == 0, phrase("memory_note"), ""),
        parts_table=table(["saver", "체크포인트 (checkpoint + metadata)", "blob", "대기 중인 쓰기"], parts))

def chain_fields(r: dict) -> dict:
    chains = r["chains"]
    copies = {m["backend"]: [c["savers"][i]["stored"]["copies"] for c in chains] for i, m in enumerate(chains[0]["savers"])}
    carrying, first, last = [c["savers"][0]["logical"]["carrying"] for c in chains], chains[0]["nodes"], chains[-1]["nodes"]
    return dict(
        chain_nodes=", ".join(f"{c['nodes']}개" for c in chains[1:]), lab_nodes=first, most=last,
        chain_table=table(["노드 수", "체크포인트 수", "페이로드를 실은 체크포인트 수"] + [f"{PROSE[b]} 사본" for b in copies],
                          [[c["nodes"], c["savers"][0]["checkpoints"], carrying[i]]
                           + [f"{v[i]:.2f}" for v in copies.values()] for i, c in enumerate(chains)]),
        chain_chart=xychart("노드 수에 따른 사본 수", "노드 수", [c["nodes"] for c in chains], copies, "사본"),
        missing=_missing(r, "sqlite", "이 절과 아래 절들의 SQLite 값은"),
        most_carrying=carrying[-1], claim="".join(  # about a copy per node, or hardly more than with the fewest
            phrase("chain_copies", name=PROSE[b], copies=f"{v[-1]:.2f}")
            + phrase(said(v[-1] > carrying[-1], "chain_more", "chain_right"))
            + said(b == "memory", phrase("memory_copies"), "") if v[-1] >= carrying[-1] / 2 else
            phrase("chain_flat", name=PROSE[b], first=first, last=last, low=f"{v[0]:.2f}", high=f"{v[-1]:.2f}")
            for b, v in copies.items()))

def growth_fields(r: dict) -> dict:
    turns, point = r["turns"], r["pointer"]
    rows, rest = (turns["memory"][k] for k in ("rows", "rest"))
    return dict(
        turns=rows[-1]["turn"], turn_table=table(["턴"] + [f"{PROSE[b]} 보관 바이트" for b in turns]
                                                 + ["`notes` (JSON 바이트)", "상태 전체 (JSON 바이트)"], [
            [rows[t - 1]["turn"]] + [n(x["rows"][t - 1]["stored"]) for x in turns.values()]
            + [n(rows[t - 1]["notes"]), n(rows[t - 1]["state"])] for t in TABLE_TURNS]),
        turn_chart=xychart("턴에 따른 저장 바이트", "턴", [x["turn"] for x in rows[4::5]],  # every 5th turn: legible
                           {b: [x["stored"] for x in t["rows"][4::5]] for b, t in turns.items()}, "바이트"),
        ten=rows[9]["turn"], last_range=f"{rows[-10]['turn']}–{rows[-1]['turn']}", grown="였다. ".join(
            f"{PROSE[b]}에서는 {n(t['first_ten'])}바이트와 {n(t['last_ten'])}바이트로 {t['ratio']:.2f}배" for b, t in turns.items())
        + "였다", pace=" 한 턴이 더하는 바이트가 턴마다 커진다. 저장 바이트는 턴 수에 비례하는 것보다 빠르게 늘어난다." * all(
            t["ratio"] > 1.05 for t in turns.values()),
        first_turn=rows[0]["turn"], first_notes=n(rows[0]["notes"]), last_turn=rows[-1]["turn"],
        last_notes=n(rows[-1]["notes"]),
        rest=f"매 턴 {n(rest[0])}바이트로 같다" if len(rest) == 1 else f"{n(rest[0])}–{n(rest[-1])}바이트다",
        pointer_table=table(["체크포인트", "값을 상태에", "키만 상태에"], [
            [_label(c), n(a), n(b)] for c, a, b in zip(r["checkpoints"], *(point[k]["checkpoints"] for k in point))]
            + [["saver가 보관한 바이트"] + [n(point[k]["stored"]) for k in point],
               ["store가 보관한 바이트", "—", n(point["pointer"]["store"])]]),
        thread_note=said("thread_id" in r["anatomy"]["metadata"], phrase("thread_note"), ""),
        store=n(point["pointer"]["store"]), delta=_delta(r), each=_each(r), **_pruning(r), **chain_fields(r))

def _delta(r: dict) -> str:
    plain, delta = r["turns"]["memory"], r["delta"]
    if "error" in delta:
        return NO_DELTA.substitute(version=r["versions"]["langgraph"], error=delta["error"])
    rows = plain["rows"]
    return DELTA.substitute(  # stored after turns 20 and 40, each run
        {f"{k}_{t}": n(x["rows"][t - 1]["stored"]) for k, x in (("plain", plain), ("delta", delta)) for t in (20, 40)},
        turns=rows[-1]["turn"], twenty=rows[19]["turn"], forty=rows[39]["turn"], ten=rows[9]["turn"],
        plain_doubled=plain["doubled"], delta_doubled=delta["doubled"], plain_ratio=plain["ratio"],
        delta_ratio=delta["ratio"], same=said(r["same"]["states"], "같았다", "달랐다"),
        delta_pace=said(delta["ratio"] < plain["ratio"], " 한 턴이 더하는 바이트가 일반 실행보다 덜 커진다.", ""))

def _pruning(r: dict) -> dict:
    answer = {"": "지원함", "NotImplementedError": "구현되지 않음", "AttributeError": "메서드 없음"}
    kept = lambda x: f"{n(x['checkpoints'])}개, {n(x['stored'])}바이트" if x else "—"  # noqa: E731
    rows = [[SAVER_NAMES[b], kept(p), answer.get(p["prune"], "") + (f" ({lit(p['prune'])})" if p["prune"] else ""),
             kept(p["after_prune"]), kept(p["after_delete"]) if p["after_delete"] else "메서드 없음 (`AttributeError`)"]
            for b, p in r["pruning"].items()]
    notes = [f"{PROSE[b]}에서 `prune` 뒤 `write` 앞에서 되감자 " + (
        f"체크포인트가 {replay[6:]}개 늘었다." if replay.startswith("added ") else f"그 지점이 없어 실패했다({lit(replay)}).")
        for b, p in r["pruning"].items() if (replay := (p["after_prune"] or {}).get("replay"))]
    notes += [f"이 환경의 {PROSE[b]}에는 `delete_thread`도 없다." for b, p in r["pruning"].items() if not p["after_delete"]]
    gone = all(p["after_delete"] == {"checkpoints": 0, "stored": 0} for p in r["pruning"].values())
    return dict(prune_table=table(["saver", "두 번 실행한 뒤", "`prune`", "`prune` 뒤", "`delete_thread` 뒤"], rows),
                prune_pg=phrase("prune_pg") if "postgres" not in r["pruning"]  # measured here: the other line, if any
                else phrase("prune_pg_0260") if ckpt.has_durability() else "",
                prune_note=" ".join(["`prune`을 지원하는 saver가 없어서, 가지치기 뒤의 되감기는 재지 못했다."] * (not any(
                    p["after_prune"] for p in r["pruning"].values())) + notes)
                + " `delete_thread` 뒤에는 어느 saver에도 그 스레드의 체크포인트와 바이트가 남지 않았다." * gone)

def _steady(r: dict) -> str:
    """What made the crash rows the same on every run, in words; "" without a durable saver."""
    durable = [b for b in ("sqlite", "postgres") if f"crash:{b}" in r["demos"]]
    if not durable:
        return ""
    c, rows = r["demos"][f"crash:{durable[0]}"], "와 ".join(PROSE[b] for b in durable)
    found = f"다음 노드가 {', '.join(lit(x[0]) for x in c['history_next'] if x)}인 체크포인트 {c['checkpoints_after_crash']}개"
    return phrase("steady_sync" if ckpt.has_durability() else "steady_wait", savers=rows, found=found,
                  version=r["versions"]["langgraph"])

def _killed_modes(r: dict) -> str:
    """The SIGKILL per durability mode on SQLite (langgraph >= 0.6), as a table and what made each row steady."""
    killed = {m: r["demos"].get(k) for m, k in (("exit", "mode:exit"), ("async", "mode:async"), ("sync", "crash:sqlite"))}
    if not all(killed.values()):
        return ""
    rows = [[lit(m), f"{k['checkpoints_after_crash']}" + " (기다린 뒤)" * (m == "async"), nodes(k["ran_on_resume"])]
            for m, k in killed.items()]
    return (phrase("killed") + "\n\n" + table(["모드", "크래시 뒤 찾은 체크포인트", "재개할 때 실행된 노드"], rows)
            + "\n\n" + phrase("killed_exit", exit=killed["exit"]["checkpoints_after_crash"]))

def _as_never_crashed(r: dict, demo: str, backend: str) -> bool:
    """Whether a crashed demo's resumed thread ended with the values of a run that never crashed (the restart demo's)."""
    return r["demos"][demo]["result"] == r["demos"][f"restart:{backend}"]["values_after_restart"]

def lost_fields(r: dict, s: dict) -> dict:
    d, lost, restarts, crashes, notes = r["demos"], r["lost"], [], [], []
    for b in [b for b in ("memory", "sqlite", "postgres") if f"restart:{b}" in d]:
        back, c, name = d[f"restart:{b}"], d[f"crash:{b}"], PROSE[b]
        restarts.append([SAVER_NAMES[b], back["kept"], back["after_restart"], "예" if back["survives"] else "아니오"])
        pending = [c["pending_after_crash"]] if c["pending_after_crash"] else []
        crashes.append([SAVER_NAMES[b], c["checkpoints_after_crash"], nodes(pending), nodes(c["ran_on_resume"]),
                        "—" if c["result"] is None else c["checkpoints_after_resume"]])
        notes.append(said(b == "memory", phrase("gone_memory", name=name), "") + phrase(
            "none_found", name=name, found=c["checkpoints_after_crash"]) if c["result"] is None else phrase(
            said(_as_never_crashed(r, f"crash:{b}", b), "resumed_same", "resumed_other"), name=name))
    resumed = any(d[k]["result"] is not None for k in d if k.startswith("crash:"))
    return dict(
        kept=lost["kept"], after_restart=lost["after_restart"], survives=json.dumps(s["survives_restart"]),
        values_after=said(lost["values_after_restart"] == {}, "값(`values`)도 비어 있다(`{}`).",
                          f"값(`values`)은 {code(lost['values_after_restart'])}{{이다/다}}."),
        restart_table=table(["saver", "자식이 남긴 체크포인트", "새 saver가 찾은 체크포인트", "살아남았나"], restarts),
        missing_sqlite_restart=_missing(r, "sqlite", "SQLite 행은") + "\n" * ("sqlite" in r["missing"])
        + said("sqlite" in r["missing"], phrase("restart_0260"), ""),
        resumed=said(resumed, " 체크포인트가 남은 스레드는 새 자식 프로세스에서 `invoke(None, config)`로 재개했다.", ""), steady=_steady(r),
        crash_table=table(["saver", "크래시 뒤 찾은 체크포인트", "다음 노드", "재개할 때 실행된 노드", "재개 뒤 체크포인트"],
                          crashes), crash_note=" ".join(notes), modes_killed=_killed_modes(r), spread=SPREAD.template,
        durability=_durability(r), trap=_trap(r))

def _durability(r: dict) -> str:
    counts, failed = r["durability"], r["failed"]
    if "error" in counts:
        f = failed["default"]
        return NO_DURABILITY.substitute(version=r["versions"]["langgraph"], error=lit(counts["error"]),
                                        checkpoints=f["checkpoints"], next=nodes(f["next"]), ran=nodes(f["ran_on_resume"]))
    rows = [[lit(mode), counts[mode], failed[mode]["checkpoints"], nodes(failed[mode]["ran_on_resume"])] for mode in counts]
    return DURABILITY.substitute(
        modes_table=table(["모드", "끝까지 실행한 뒤 체크포인트 수", "`review`가 예외로 실패한 뒤 체크포인트 수",
                           "재개할 때 실행된 노드"], rows),
        exit_done=counts["exit"], exit_failed=failed["exit"]["checkpoints"], exit_next=nodes(failed["exit"]["next"]),
        exit_ran=nodes(failed["exit"]["ran_on_resume"]))

def _trap(r: dict) -> str:
    t = r["demos"].get("trap")
    if t is None:
        return NO_TRAP.template
    hidden, skipped = not t["next_after_crash"], "plan" not in t["ran_on_resume"]
    return TRAP.substitute(
        history_next=", ".join(lit(x[0]) if x else "(끝)" for x in t["history_next"]),
        looks_done=said(hidden, "비어 있다. 실행이 끝난 것처럼 보인다.", "비어 있지 않다."), task=lit(t["pending_after_crash"]),
        writes=t["pending_writes"], channels=", ".join(map(lit, t["pending_channels"])), ran=nodes(t["ran_on_resume"]),
        after_resume=t["checkpoints_after_resume"], skipped=said(skipped, " `plan`은 다시 실행되지 않았다.", " `plan`도 다시 실행됐다."),
        rule=said(skipped, "이 결과와 위의 되감기 표를 합치면 규칙이 보인다. 스레드의 config로 재개하면 쓰기가 저장된 작업은 다시 "
                  "실행하지 않는다. 체크포인트 id가 든 config로 되감으면 그 지점 뒤의 노드를 다시 실행한다. ", "")
        + "재개한 결과는 크래시 없이 끝까지 간 실행의 값과 "
        + said(_as_never_crashed(r, "trap", "sqlite"), "같았다.", "달랐다."))

def checks(r: dict) -> list:
    """[(what the run checked, True/False)]: every yes-or-no answer the prose states, in its order."""
    f, d, out = r["fork"], r["demos"], []
    out += [("분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다", f["current_is_new_end"]),
            ("분기 전에 잡아 둔 config로 읽으면 원래 끝이 그대로 있다", f["old_end_readable"]),
            ("실습의 `fork()` 함수가 분기하기 전에 읽어 둔 마지막 상태가 처음 실행의 결과와 같다", f["original_is_old_end"])]
    if not r["postgres"]:
        out.append(("압축할 수 없는 페이로드로 재도 saver의 바이트가 같다", r["same"]["bytes"]))
    if "error" not in r["delta"]:
        out.append(("`notes`를 `DeltaChannel`로 바꿔도 매 턴의 상태가 같다", r["same"]["states"]))
    out += [(f"{PROSE[b]}: 크래시 뒤 재개한 결과가 크래시 없는 실행과 같다", _as_never_crashed(r, f"crash:{b}", b))
            for b in ("memory", "sqlite", "postgres") if f"crash:{b}" in d and d[f"crash:{b}"]["result"] is not None]
    if "trap" in d:
        out.append(("`next`가 숨긴 크래시: 재개한 결과가 크래시 없는 실행과 같다", _as_never_crashed(r, "trap", "sqlite")))
    return out

def render(report: dict) -> str:
    s, r = report["summary"], report
    checked = table(["확인한 것", "결과"], [[what, said(flag, "예", "아니오")] for what, flag in checks(r)])
    unchecked = said("trap" in r["demos"], "", phrase("unchecked"))
    parts = [HEADER.substitute(header_fields(r, s)), MODEL.substitute(model_fields(r)),
             MISTAKES.substitute(mistakes_fields(r)), SAVED.substitute(saved_fields(r)),
             TRAVEL.substitute(travel_fields(r, s)),
             SIZE.substitute(size_fields(r)), GROWTH.substitute(growth_fields(r)), LOST.substitute(lost_fields(r, s)),
             CHECKED.substitute(checked_table=checked, unchecked=unchecked)]
    return particles(re.sub(r"\n{3,}", "\n\n", "\n\n".join(parts)).rstrip("\n") + "\n")

# ---- Writing: both files atomically, only after everything was measured. ----
def write_report(report: dict, folder: str) -> tuple:
    """Write ckpt_report.json (the summary) and ckpt_report.md: both rendered and written to temporary files in `folder`
    first, then each renamed over its name (atomic per file), so a failure before the renames leaves both as they were."""
    texts = {JSON_NAME: json.dumps(report["summary"], ensure_ascii=False, indent=2) + "\n", MD_NAME: render(report)}
    umask, temporary = os.umask(0), {}
    os.umask(umask)
    try:
        for name, text in texts.items():
            fd, temporary[name] = tempfile.mkstemp(prefix=".tmp-", suffix=name, dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.chmod(temporary[name], 0o666 & ~umask)  # subtle: mkstemp makes 0600; a report is an ordinary file
        for name, tmp in temporary.items():
            os.replace(tmp, os.path.join(folder, name))
    finally:
        for tmp in temporary.values():
            if os.path.exists(tmp):
                os.unlink(tmp)
    return os.path.join(folder, JSON_NAME), os.path.join(folder, MD_NAME)

def default_out_dir() -> str:
    """Next to ckpt.py, where the lab expects the report, unless ckpt.py is an installed copy: the current folder."""
    here = os.path.dirname(os.path.abspath(ckpt.__file__))
    installed = {os.path.abspath(sysconfig.get_path(name)) for name in ("purelib", "platlib")}
    return os.getcwd() if os.path.basename(here) in ("site-packages", "dist-packages") or here in installed else here

# ---- The command line. ----
def parser(out_dir: str = None, prog: str = "make_report.py") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description="Run ckpt.py live and write ckpt_report.json and ckpt_report.md.")
    p.add_argument("--topic", default="가을", help="the topic to run the graph on (default: %(default)s)")
    p.add_argument("--payload-bytes", type=int, default=1500, metavar="N", help=f"size of the value put into 'bulk': "
                   f"N 'x' characters, {MIN_PAYLOAD} to {MAX_PAYLOAD:,} (default: %(default)s)")
    p.add_argument("--fork-angle", default="비교",
                   help=f"angle to fork with before 'write': one of {FORK_ANGLES} (default: %(default)s)")
    p.add_argument("--postgres-url", metavar="URL",
                   help="also measure a PostgreSQL saver at this libpq URL (default: $AGCKPT_PG_URL, else none)")
    p.add_argument("--out-dir", default=out_dir or default_out_dir(), help="folder to write both files into, created when "
                   "missing (default: the folder of ckpt.py; the current folder for an installed copy or agckpt-report)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--version", action="version", version=f"%(prog)s {ckpt.package_version('agckpt') or '(not installed)'} "
                   f"(langgraph {ckpt.langgraph_version()})")
    return p

def _unusable(p: argparse.ArgumentParser, args: argparse.Namespace, exc: BaseException) -> SystemExit:
    """The exit for a PostgreSQL that cannot be used: one line on stderr, naming where its URL came from; status 1."""
    line = f"{p.prog}: error: PostgreSQL at the URL from {args.url_from}: {type(exc).__name__}: {exc}"
    return SystemExit(" ".join(line.split()))

def _refused_topic(topic: str, saver) -> str:
    """Why `saver` (None: an in-memory one) would not keep `topic` as it is, or ""."""
    try:
        ckpt.check_value(topic, "topic", saver)
    except (TypeError, ValueError) as exc:
        return str(exc)
    return ""

def _check_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors through the parser (one message, exit status 2); a PostgreSQL that cannot be used, one line on
    stderr naming where its URL came from (exit status 1)."""
    if not MIN_PAYLOAD <= args.payload_bytes <= MAX_PAYLOAD:
        p.error(f"--payload-bytes must be at least {MIN_PAYLOAD} and at most {MAX_PAYLOAD:,}, got {args.payload_bytes}")
    if args.fork_angle not in FORK_ANGLES:
        p.error(f"--fork-angle must be one of {FORK_ANGLES}, got {args.fork_angle!r}")
    refused = _refused_topic(args.topic, None)
    try:
        if args.postgres_url and not refused:
            with ckpt.open_saver("postgres", args.postgres_url) as saver:
                refused = _refused_topic(args.topic, saver)  # PostgreSQL keeps the topic as jsonb
    except (ImportError, ConnectionError, RuntimeError, ValueError) as exc:  # ValueError: a store in a newer format
        raise _unusable(p, args, exc) from None
    if refused:
        p.error(f"--topic: {refused}")
    if os.path.exists(args.out_dir) and not os.path.isdir(args.out_dir):
        p.error(f"--out-dir {args.out_dir!r} is a file, not a folder")
    if any(os.path.isdir(os.path.join(args.out_dir, name)) for name in (JSON_NAME, MD_NAME)):
        p.error(f"--out-dir {args.out_dir!r} holds a folder named {JSON_NAME} or {MD_NAME}")
    args.created = not os.path.exists(args.out_dir)  # removed again if the run writes nothing into it
    try:  # last: a usage error above leaves no new folder behind
        os.makedirs(args.out_dir, exist_ok=True)
        tempfile.TemporaryFile(dir=args.out_dir).close()  # subtle: os.access says yes to root, even on /sys
    except OSError as exc:
        p.error(f"--out-dir {args.out_dir!r} cannot be written: {exc.strerror}")

def _replaced(p: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The note for a run that wrote other arguments' report over the committed one in a checkout ("" otherwise)."""
    here = os.path.dirname(os.path.abspath(ckpt.__file__))
    ours = os.path.samefile(args.out_dir, here) and os.path.exists(os.path.join(here, ".git"))
    other = [f"--{k.replace('_', '-')}" for k in ("topic", "payload_bytes", "fork_angle")
             if getattr(args, k) != p.get_default(k)] + [args.url_from] * bool(args.postgres_url)
    return (f"{p.prog}: note: replaced the committed {JSON_NAME} and {MD_NAME} in {here} with a report for other "
            f"arguments ({', '.join(other)}); to get them back: git -C {here} checkout -- {JSON_NAME} {MD_NAME}"
            ) if ours and other else ""

def main(argv=None, out_dir: str = None, prog: str = "make_report.py") -> int:
    """Measure and write both files; `out_dir` replaces the default of --out-dir. Returns 0."""
    p, argv, i = parser(out_dir, prog), list(sys.argv[1:] if argv is None else argv), 0
    while i < len(argv) - 1:  # subtle: argparse takes "--topic ---" for two options
        if argv[i] == "--topic":
            argv[i:i + 2] = [f"--topic={argv[i + 1]}"]
        i += 1
    args = p.parse_args(argv)
    args.url_from = "AGCKPT_PG_URL" if args.postgres_url is None and os.environ.get("AGCKPT_PG_URL") else "--postgres-url"
    args.postgres_url = os.environ["AGCKPT_PG_URL"] if args.url_from == "AGCKPT_PG_URL" else args.postgres_url or None
    _check_args(p, args)
    say = (lambda text: None) if args.quiet else (lambda text: print(f"{p.prog}: {text}", file=sys.stderr, flush=True))
    try:
        report = measure(args.topic, args.payload_bytes, args.fork_angle, args.postgres_url, say)
        say(f"writing {JSON_NAME} and {MD_NAME} into {args.out_dir}")
        paths = write_report(report, args.out_dir)
    except BaseException as exc:
        if args.created and not os.listdir(args.out_dir):
            os.rmdir(args.out_dir)  # the folder this run made, left empty
        if not args.postgres_url or not (isinstance(exc, ConnectionError) or type(exc).__module__.startswith("psycopg")):
            raise
        raise _unusable(p, args, exc) from None  # a database that fails during the run: one line, not a traceback
    for path in paths:
        print(f"wrote {path}")
    if _replaced(p, args):
        print(_replaced(p, args), file=sys.stderr)
    return 0

def run(out_dir: str = None, prog: str = "make_report.py") -> None:
    """main() as a command: exits 0, 1 when PostgreSQL fails, 2 on a usage error, 130 after Ctrl-C or SIGTERM (which
    cleans up as Ctrl-C does). subtle: after either it leaves through os._exit once the cleanup has run: an interrupted
    LangGraph run can leave a worker thread Python's exit would wait for."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill, timeout, a cancelled job: clean up as for Ctrl-C
    try:
        status = main(out_dir=out_dir, prog=prog)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)
    sys.exit(status)

def cli() -> None:
    """The agckpt-report command: writes into the current folder unless --out-dir says otherwise."""
    run(out_dir=os.getcwd(), prog="agckpt-report")

if __name__ == "__main__":
    run()
