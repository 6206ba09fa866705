"""Run ckpt.py live and write ckpt_report.json and ckpt_report.md from one report dict.

    python make_report.py                       # report_ko's topic and fork angle, a 1,500-byte payload
    python make_report.py --topic "a topic" --payload-bytes 4000 --out-dir /tmp/out

Every number in both files comes from calling ckpt's measures; this file calls no graph, imports no langgraph and
holds no words of the report. measure() builds the report dict, and the JSON is its "summary"; the Markdown is
report_ko's templates filled from derive(report), the dict plus the figures its prose relates, each template field a
path into it ({fork[total]}). It holds no timestamps or checkpoint ids, so two runs with the same arguments write
identical files.
"""
import argparse, json, os, random, signal, string, sys, sysconfig, tempfile, time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

try:
    import ckpt
except KeyboardInterrupt:  # Ctrl-C while langgraph is still being imported: nothing to clean up
    print("make_report.py: interrupted", file=sys.stderr)
    raise SystemExit(130) from None
import report_ko as ko

JSON_NAME, MD_NAME = "ckpt_report.json", "ckpt_report.md"
MIN_PAYLOAD, MAX_PAYLOAD = 300, 100_000_000  # bytes: enough to see the difference; fits in memory
FORK_ANGLES = [a for a in ckpt.ANGLES if a != ckpt.DEFAULT_ANGLE]
CHAIN_NODES, TURNS, TABLE_TURNS = (3, 10, 30), 40, (1, 10, 20, 30, 40)  # 3 nodes: the lab's graph

# ---- Measuring: one dict, every value from a call of ckpt. ----
def _savers(postgres_url: str) -> list:
    """The savers measured here, in the report's order: ["memory", "sqlite", "postgres"] as installed and asked for."""
    return [b for b in ("memory", "sqlite") if ckpt.has_backend(b)] + ["postgres"] * bool(postgres_url)

def _demos(topic: str, postgres_url: str) -> dict:
    """The restart and crash demos, on every saver installed here: {"restart:memory": (ckpt.restart_demo, its keyword
    arguments), ...}. Crash rows come from deterministic settings only: durability="sync" where langgraph has it, else a
    review that waits until the earlier checkpoints are stored."""
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
    """turn_bytes' rows and their growth: bytes the first and last ten turns add, and their ratio;
    with DeltaChannel's counter, the turns a full snapshot was written in and its frequency in updates ("every")."""
    s, since = [row["stored"] for row in rows], [row.get("since_snapshot") for row in rows]
    grown = {"rows": rows, "first_ten": s[9], "last_ten": s[-1] - s[-11], "ratio": round((s[-1] - s[-11]) / s[9], 2)}
    if since[0] is not None:  # a turn's updates are the counter's step before the first snapshot
        snaps = [i for i in range(1, len(rows)) if since[i] < since[i - 1]]
        grown.update(snapshot_turns=[rows[i]["turn"] for i in snaps],
                     every=since[snaps[0] - 1] + (since[1] - since[0]) - since[snaps[0]] if snaps else None)
    return grown

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
        "versions": {"Python": ".".join(map(str, sys.version_info[:3])),
                     **{name: v for name in packages if (v := ckpt.package_version(name))}},
        "threads": ckpt.thread_demo(topic), "replays": ckpt.replay_rows(topic),
        "rerun": ckpt.rerun_with_input(topic, ko.OTHER_TOPIC), "fork": ckpt.fork_demo(topic, fork_angle),
        "update": ckpt.update_state_demo(topic, fork_angle),
        "tree": ckpt.time_travel_tree(topic, fork_angle), "weigh": ckpt.weigh(topic, payload),
        "sweep": [dict(row, extra=row["fat_total"] - row["thin_total"]) for row in
                  (ckpt.weigh(topic, "x" * (payload_bytes * n)) for n in range(1, 6))],
        "physical": {kind: ckpt.physical_vs_logical(topic, value, url=postgres_url) for kind, value
                     in (("x", payload), ("random", incompressible(payload_bytes)))},
        "durability": ckpt.durability_counts(topic), "lost": ckpt.lost_demo(topic),
        "failed": {mode or "default": ckpt.failed_run(topic, mode)
                   for mode in (ckpt.MODES if ckpt.has_durability() else [None])},
        "reader": ckpt.reader_demo(topic),
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
            signal.signal(signal.SIGINT, lambda *_: None)  # until every demo has ended, so they end now, not in seconds;
            # subtle: a handler, not SIG_IGN, which a child started from now on would inherit and so never end on SIGINT
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

# ---- Relating: the figures the prose relates, each under its own key in the dict (the words are in report_ko). ----
def derive(report: dict) -> dict:
    """A copy of `report` with what its templates relate added under their own keys, read by path as the measures are:
    derive(r)["extra"] == r["weigh"]["fat_total"] - r["weigh"]["thin_total"]; each checkpoint and tree row gets its
    "label" ("#3 loop": its position and source). The report itself is left as it is."""
    r = dict(report, nodes=list(ckpt.NODES), state_keys=list(ckpt.State.__annotations__), no_sqlite="sqlite" in report["missing"],
             default_angle=ckpt.DEFAULT_ANGLE, thread_note="thread_id" in report["anatomy"]["metadata"],
             thread_bytes=abs(report["physical"]["x"][0]["stored"]["fat"]["total"] - report["pointer"]["in_state"]["stored"]),
             modes="error" not in report["durability"], strict_rows=_same_types(report["reader"]["strict"]),
             **{k: [dict(row, label=f"#{row['position']} {row['source']}") for row in report[k]]
                for k in ("checkpoints", "tree")})
    for part in (_sizes, _stores, _charts, _scale, _pruned, _travel, _demos_seen):
        r.update(part(r))
    return r

def _same_types(rows: list) -> list:
    """Strict mode's rows, those with the same types and answer as one: [{"names": ["topic", ...], "given": "str", ...}];
    None without strict mode."""
    joined = {}
    for row in rows or []:
        joined.setdefault((row["given"], row["back"], row["same"]), dict(row, names=[]))["names"].append(row["name"])
    return list(joined.values()) if rows is not None else None

def _sizes(r: dict) -> dict:
    """{"extra": fat minus thin, "exact": whether each carrying checkpoint adds just the payload and its key, "size_rows": a
    row per checkpoint, "slope_is_carrying": whether the sweep's slope is the carrying count}."""
    w, rows, step = r["weigh"], r["rows"], r["sweep_step"]
    labels = [c["label"] for c in r["checkpoints"]]
    return {"extra": w["fat_total"] - w["thin_total"], "exact": rows["carried"] == [w["payload_bytes"] + rows["key_bytes"]],
            "size_rows": [{"label": label, "thin": thin, "fat": fat, "difference": d} for label, thin, fat, d
                          in zip(labels, rows["thin"], rows["fat"], rows["difference"])],
            "slope_is_carrying": step is not None and step["per_byte"] == r["sweep"][0]["carrying"]}

def _stores(r: dict) -> dict:
    """{"views": a bytes table per payload measured (the logical row, each saver's, PostgreSQL's also compressed),
    "parts": each saver's measure with its parts in payloads ("share") and how it keeps the payload ("kind": "blob",
    "inline" or "pg_parts"), "in_meta": whether the input checkpoint's metadata holds the input, "pg_copies":
    PostgreSQL's compressed copies per payload, "each_saver": "all" when measured on several savers, else the one}."""
    ms, inline = r["physical"], "bulk" in (r["placement"] or {}).get("inline", [])
    views = [{"kind": k, "rows": [dict(ms[k][0]["logical"], view="logical")] + [
        dict(m[v], view=name, thin=m[v]["thin"]["total"], fat=m[v]["fat"]["total"]) for m in ms[k]
        for v, name in [("stored", m["backend"])] + [("stored_compressed", "compressed")] * (m["backend"] == "postgres")]}
        for k in ["x"] + ["random"] * r["postgres"]]
    parts = [dict(m, share=r["parts_copies"][m["backend"]], kind="pg_parts" if m["backend"] == "postgres" and inline
                  else "blob" if m["stored"]["parts"]["blobs"] else "inline") for m in ms["x"]]
    return {"views": views, "parts": parts, "in_meta": r["input_metadata"]["difference"] >= r["weigh"]["payload_bytes"] / 2,
            "pg_copies": {k: m["stored_compressed"]["copies"] for k, group in ms.items() for m in group
                          if m["backend"] == "postgres"}, "each_saver": "all" if len(ms["x"]) > 1 else ms["x"][0]["backend"]}

def _copies(chains: list) -> dict:
    """Each saver's copies of the payload along the chains: {"memory": [3.17, 3.44, 4.21], ...}."""
    return {m["backend"]: [c["savers"][i]["stored"]["copies"] for c in chains] for i, m in enumerate(chains[0]["savers"])}

def _charts(r: dict) -> dict:
    """{"charts": {"thin_fat": {"x": ["#0 input", ...], "bars": [fat, thin]}, "turns": {"x": [5, 10, ...], "savers":
    {"memory": [...], ...}}}}: both runs' bytes on one scale; the turns chart shows every 5th turn, to stay legible."""
    labels, turns = [c["label"] for c in r["checkpoints"]], r["turns"]
    return {"charts": {
        "thin_fat": {"x": labels, "bars": [r["rows"]["fat"], r["rows"]["thin"]]},  # thin drawn over fat, one scale
        "turns": {"x": [x["turn"] for x in turns["memory"]["rows"][4::5]],
                  "savers": {b: [x["stored"] for x in t["rows"][4::5]] for b, t in turns.items()}}}}

def _scale(r: dict) -> dict:
    """{"chain_savers": each saver's copies along the chains, whether it keeps at least half a copy per carrying
    checkpoint of the longest ("follows") and more than one ("more"); "turn_columns": the savers, then "delta" where
    DeltaChannel ran; "turn_rows": the turns table's (TABLE_TURNS and each turn of a DeltaChannel snapshot, "snapshot"
    marking those), each row's "stored" in turn_columns' order; "has_delta": whether DeltaChannel ran}."""
    chains, turns, delta = r["chains"], r["turns"], r["delta"]
    carrying, rows, has_delta = chains[-1]["savers"][0]["logical"]["carrying"], turns["memory"]["rows"], "error" not in delta
    runs = dict(turns, **({"delta": delta} if has_delta else {}))
    snapshots = delta.get("snapshot_turns", [])
    return {"chain_savers": [{"backend": b, "copies": v, "follows": v[-1] >= carrying / 2, "more": v[-1] > carrying}
                             for b, v in _copies(chains).items()], "turn_columns": list(runs), "has_delta": has_delta,
            "turn_rows": [dict(rows[t - 1], stored=[x["rows"][t - 1]["stored"] for x in runs.values()], snapshot=t in snapshots)
                          for t in sorted(set(TABLE_TURNS) | set(snapshots))]}

def _pruned(r: dict) -> dict:
    """{"vacuum": SQLite's pruning (its file's bytes after delete_thread and after VACUUM), "pg_pruned": what a point
    kept from before PostgreSQL's prune gave back, each None where not measured}."""
    pruning = r["pruning"]
    return {"vacuum": pruning.get("sqlite"), "pg_pruned": (pruning.get("postgres") or {}).get("after_prune")}

def _travel(r: dict) -> dict:
    """{"replay_kind": "fork", "plain" or "other" (how a replay's added checkpoints compare with the nodes it ran),
    "replay_from": each replay by its node, "fork_update": the value the fork wrote, "fork_added", "highlighted": the
    sources drawn highlighted, "branch": where the fork's branch hangs (its first checkpoint, its parent, and the points
    before write it could start from)}."""
    tree, extra = r["tree"], [x["added"] - len(x["ran"]) for x in r["replays"]]
    at = next(row for row in tree if row["source"] == "update")  # tree rows are in position order
    counts = dict(Counter(row["source"] for row in tree))  # in the order the sources first appear
    kind = "fork" if all(e == 1 and x["sources"][:1] == ["fork"] for e, x in zip(extra, r["replays"])) else "plain" \
        if all(e == 0 for e in extra) else "other"
    return {"replay_kind": kind, "replay_from": {x["from"]: x for x in r["replays"]},
            "fork_update": {"angle": r["summary"]["fork_angle"]}, "fork_added": r["fork"]["total"] - r["fork"]["before"],
            "highlighted": [k for k in ("update", "fork") if k in counts], "branch": {
                "at": at["label"], "parent": tree[at["parent"]]["label"],
                "points": [row["label"] for row in tree[:at["position"]]
                           if row["next"] == ["write"] and row["source"] != "update"]}}

def _demos_seen(r: dict) -> dict:
    """{"demo_savers": a row per saver with a restart demo (its "restart", its "crash", whether that "resumed", and to a
    never-crashed run's values: "same"), "trap" (with "replanned" and "same"), "matrix": a row per durability mode (one
    without modes before langgraph 0.6) of what each ending left, "built_rows": how many rewritten rows made LangGraph's
    reader build an object or call a function, "checks": the table of checks}."""
    d = r["demos"]
    savers = [{"backend": b, "restart": d[f"restart:{b}"], "crash": d[f"crash:{b}"], "resumed": d[f"crash:{b}"]["result"]
               is not None, "same": d[f"crash:{b}"]["result"] == d[f"restart:{b}"]["values_after_restart"]}
              for b in ("memory", "sqlite", "postgres") if f"restart:{b}" in d]
    trap = d.get("trap") and dict(d["trap"], replanned="plan" in d["trap"]["ran_on_resume"],
                                  same=d["trap"]["result"] == d["restart:sqlite"]["values_after_restart"])
    rows = r["reader"]["rows"] or []
    return {"demo_savers": savers, "trap": trap, "matrix": _matrix(r, d), "checks": _checks(r, savers, trap),
            "built_rows": sum(row["default"]["built"] > 0 for row in rows)}

def _matrix(r: dict, d: dict) -> list:
    """A row per durability mode ({"mode": None} alone before langgraph 0.6): checkpoints kept when the run ended ("done"),
    when review raised ("failed"), when review was killed ("killed", None without the SQLite saver; "waited" where review
    waited for the earlier checkpoints), and the nodes a resume after the exception ran."""
    modes = list(r["durability"]) if r["modes"] else [None]
    kills = {"exit": "mode:exit", "async": "mode:async", "sync": "crash:sqlite", None: "crash:sqlite"}
    return [{"mode": m, "done": r["durability"][m] if m else r["lost"]["kept"], "failed": r["failed"][m or "default"]["checkpoints"],
             "killed": (d.get(kills[m]) or {}).get("checkpoints_after_crash"), "waited": m in ("async", None),
             "measured": kills[m] in d,
             "ran": r["failed"][m or "default"]["ran_on_resume"]} for m in modes]

def _checks(r: dict, savers: list, trap) -> list:
    """Every yes-or-no answer the prose states, in its order, by report_ko.CHECKS's keys: [{"check": "new_end", "ok":
    True}, ..., {"check": "crash", "backend": "sqlite", "ok": True}, ...]."""
    f, replay, rows = r["fork"], r["replay_from"]["write"], r["reader"]["rows"] or []
    out = [{"check": c, "ok": f[k]} for c, k in (("new_end", "current_is_new_end"), ("old_end", "old_end_readable"),
                                                 ("original", "original_is_old_end"))]
    out += [{"check": "replay_end", "ok": replay["current_is_new_end"]}]
    out += [{"check": "reader", "ok": all(row["agckpt"]["built"] == 0 for row in rows)}] * bool(rows)
    out += [{"check": "bytes", "ok": r["same"]["bytes"]}] * (not r["postgres"])
    out += [{"check": "delta", "ok": r["same"]["states"]}] * r["has_delta"]
    out += [{"check": "crash", "backend": s["backend"], "ok": s["same"]} for s in savers if s["resumed"]]
    return out + ([{"check": "trap", "ok": trap["same"]}] if trap else [])

def render(report: dict) -> str:
    """ckpt_report.md for a report dict (measure()'s): report_ko's sections filled from derive(report)."""
    return ko.render(derive(report))

# ---- Writing: both files atomically, only after everything was measured. ----
def write_report(report: dict, folder: str) -> tuple:
    """Write ckpt_report.json (the summary) and ckpt_report.md: both rendered and written to temporary files in `folder`
    first, then each renamed over its name (atomic per file), so a failure before the renames leaves both as they were.
    Returns the two paths, the JSON's first."""
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
    """The command line's parser; `out_dir` replaces the default of --out-dir, `prog` names the command."""
    p = argparse.ArgumentParser(prog=prog, description="Run ckpt.py live and write ckpt_report.json and ckpt_report.md.")
    p.add_argument("--topic", default=ko.TOPIC, help="the topic to run the graph on (default: %(default)s)")
    p.add_argument("--payload-bytes", type=int, default=1500, metavar="N", help=f"size of the value put into 'bulk': "
                   f"N 'x' characters, {MIN_PAYLOAD} to {MAX_PAYLOAD:,} (default: %(default)s)")
    p.add_argument("--fork-angle", default=ko.FORK_ANGLE,
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
    """Returns nothing when the arguments can be used; else exits: a usage error through the parser (one message, exit
    status 2), a PostgreSQL that cannot be used in one line on stderr naming where its URL came from (exit status 1)."""
    if not MIN_PAYLOAD <= args.payload_bytes <= MAX_PAYLOAD:
        p.error(f"--payload-bytes must be at least {MIN_PAYLOAD} and at most {MAX_PAYLOAD:,}, got {args.payload_bytes}")
    if args.fork_angle not in FORK_ANGLES:
        p.error(f"--fork-angle must be one of {FORK_ANGLES}, got {args.fork_angle!r}")
    refused = _refused_topic(args.topic, None)
    try:
        if args.postgres_url and not refused:
            with ckpt.open_saver("postgres", args.postgres_url) as saver:
                refused = _refused_topic(args.topic, saver)  # PostgreSQL keeps the topic as jsonb
    except (ImportError, ConnectionError, RuntimeError, ValueError) as exc:  # what open_saver raises for a store
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
    """The agckpt-report command: run() writing into the current folder unless --out-dir says otherwise; exits as it does."""
    run(out_dir=os.getcwd(), prog="agckpt-report")

if __name__ == "__main__":
    run()
