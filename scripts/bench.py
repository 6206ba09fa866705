"""`make bench`: speed and memory on the installed langgraph. A benchmark, never a test.

Prints: `weigh` at 1 MB and 10 MB (seconds, peak RSS above the interpreter's start, ratio to
the payload; goal: at most WEIGH_GOAL times the payload at 10 MB), one thread run 1,000 times on
each saver here (bytes and seconds per turn at the start and at the end), how many checkpoints a
crash the moment review starts leaves, 20 times per durability mode on this leg and on
langgraph 0.2.60 (.venv39) when it is there, `make_report.py` end to
end against a fresh interpreter that only imports langgraph's graph API (medians, run side by
side; goal: at most REPORT_GOAL times), and the test suite's time.
Each measurement runs in a fresh child process so one cannot inflate another.
Exits with status 1, saying which, when a figure misses its goal.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
RUNS = 5
WEIGH_GOAL = 8.0  # weigh's peak memory at 10 MB: at most this many times the payload
TURNS = 1000
REPORT_GOAL = 5.5  # make_report.py end to end: at most this many times a fresh `import langgraph.graph`

WEIGH = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[2])
import ckpt
size = int(sys.argv[1])
start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
payload = "x" * size
began = time.perf_counter()
result = ckpt.weigh("가을", payload)
seconds = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
assert result["carrying"] == 4 and result["payload_bytes"] == size, result
print(json.dumps({"seconds": seconds, "above_start": peak - start}))
"""


TURN_LOOP = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import ckpt
backend, url, turns = sys.argv[2], sys.argv[3] or None, int(sys.argv[4])
thread, rows = f"bench-{time.time_ns()}", []
with ckpt.open_saver(backend, url) as saver:
    app, before = ckpt.build_graph(saver), 0
    for turn in range(1, turns + 1):
        began = time.perf_counter()
        app.invoke({"topic": "가을"}, ckpt.cfg(thread))
        seconds = time.perf_counter() - began
        if turn in (1, 2, turns - 1, turns):  # stored_bytes reads the whole store: only where printed
            stored = ckpt.stored_bytes(saver, thread)["total"]
            rows.append({"turn": turn, "seconds": seconds, "stored": stored, "added": stored - before})
            before = stored
    saver.delete_thread(thread)
print(json.dumps(rows))
"""


SPREAD = r"""
import collections, json, sys
sys.path.insert(0, sys.argv[1])
import ckpt
modes = list(ckpt.MODES) if ckpt.has_durability() else [None]
print(json.dumps({str(mode): dict(collections.Counter(ckpt.crash_demo("가을", durability=mode)["checkpoints_after_crash"]
                                                      for _ in range(int(sys.argv[2]))))
                  for mode in modes}))
"""
CRASHES = 20  # unstaged crashes (killed the moment review starts) per durability mode


def spread(python: str) -> dict:
    """{mode: {checkpoints found: runs}} of CRASHES unstaged SQLite crashes under `python`."""
    out = subprocess.run([python, "-c", SPREAD, ROOT, str(CRASHES)], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def turns(backend: str, url: str = "") -> list:
    out = subprocess.run([PY, "-c", TURN_LOOP, ROOT, backend, url, str(TURNS)], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def timed(cmd, **kwargs) -> float:
    began = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - began


def weigh(size: int) -> dict:
    out = subprocess.run([PY, "-c", WEIGH, str(size), ROOT], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def ckpt_has(backend: str, python: str = PY) -> bool:
    return subprocess.run([python, "-c", f"import sys; sys.path.insert(0, {ROOT!r}); import ckpt; "
                           f"sys.exit(not ckpt.has_backend({backend!r}))"]).returncode == 0


def main() -> int:
    print(f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
          f"langgraph {version('langgraph')}, langgraph-checkpoint {version('langgraph-checkpoint')}")
    print()
    print("weigh(topic, 'x' * N), in a fresh process each:")
    print(f"  {'payload':>8}  {'seconds':>8}  {'peak RSS above start':>21}  {'ratio to payload':>16}")
    rows = {}
    for size in (1_000_000, 10_000_000):
        rows[size] = weigh(size)
        r = rows[size]
        print(f"  {size // 1_000_000:>5} MB  {r['seconds']:8.3f}  {r['above_start'] / 1e6:18.1f} MB  "
              f"{r['above_start'] / size:16.2f}")
    per_mb = {size: rows[size]["seconds"] / (size / 1_000_000) for size in rows}
    print(f"  seconds per MB: {per_mb[1_000_000]:.4f} at 1 MB, {per_mb[10_000_000]:.4f} at 10 MB "
          f"(linear or better when it does not grow)")
    ratio10 = rows[10_000_000]["above_start"] / 10_000_000
    missed = [] if ratio10 <= WEIGH_GOAL else [f"weigh at 10 MB peaked at {ratio10:.2f} x the payload "
                                               f"(goal: at most {WEIGH_GOAL:g})"]
    print()

    print(f"one thread run {TURNS:,} times (the lab's graph, topic 가을), in a fresh process per saver:")
    print(f"  {'saver':>9}  {'bytes added, turn 2':>20}  {'turn ' + str(TURNS):>12}  {'seconds, turn 2':>16}  "
          f"{'turn ' + str(TURNS):>12}  {'stored at the end':>18}")
    savers = [("memory", "")] + ([("sqlite", "")] if ckpt_has("sqlite") else [])
    savers += [("postgres", os.environ["AGCKPT_PG_URL"])] if os.environ.get("AGCKPT_PG_URL") else []
    for backend, url in savers:
        got = {row["turn"]: row for row in turns(backend, url)}
        print(f"  {backend:>9}  {got[2]['added']:>20,}  {got[TURNS]['added']:>12,}  {got[2]['seconds']:>16.4f}  "
              f"{got[TURNS]['seconds']:>12.4f}  {got[TURNS]['stored']:>18,}")
    print()

    print(f"checkpoints a new saver finds after a crash the moment review starts ({CRASHES} runs per mode, "
          "SQLite; found: runs):")
    legs = [(PY, "this leg")] + [(os.path.join(ROOT, ".venv39", "bin", "python"), "langgraph 0.2.60 (.venv39)")]
    for python, name in legs:
        if os.path.exists(python) and ckpt_has("sqlite", python):
            for mode, counts in spread(python).items():
                shown = ", ".join(f"{found}: {runs}" for found, runs in sorted(counts.items()))
                print(f"  {name}, durability {mode}: {shown}")
    print()

    imports, reports = [], []
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ)
        env.pop("AGCKPT_PG_URL", None)  # the default report: no PostgreSQL row
        for _ in range(RUNS):  # side by side, so both see the same machine load
            imports.append(timed([PY, "-c", "import langgraph.graph"]))
            reports.append(timed([PY, os.path.join(ROOT, "make_report.py"), "-q", "--out-dir", out], env=env, cwd=ROOT))
    imp, rep = statistics.median(imports), statistics.median(reports)
    print(f"make_report.py end to end: median {rep:.2f} s over {RUNS} runs")
    print(f"fresh interpreter importing langgraph.graph: median {imp:.2f} s")
    ratio = rep / imp
    missed += [] if ratio <= REPORT_GOAL else [f"make_report.py took {ratio:.2f} x a fresh import of "
                                                f"langgraph.graph (goal: at most {REPORT_GOAL:g})"]
    print(f"ratio: {ratio:.2f} (goal: at most {REPORT_GOAL:g}){'' if not missed else '  MISSED'}")
    print()

    suite = timed([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ROOT)
    print(f"test suite on this leg: {suite:.1f} s")
    for line in missed:
        print(f"make bench: goal missed: {line}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
