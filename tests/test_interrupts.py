"""Ctrl-C at any moment of the demos and of make_report.py: no crash, nothing left behind.

A driver (a child Python with a TMPDIR of its own) runs restart, crash and trap demos in a
loop and catches KeyboardInterrupt; before each demo it sets a timer that sends its own
process SIGINT at a random moment of that demo: anywhere between its start and the time that
demo took the last time it ran uninterrupted (the first crash demo's until then), so every
phase is hit: a child starting, running or dying, this process reading the store, the resume's
child, the cleanup; and a first demo slowed by a busy machine does not leave every later moment
past the end of the demo. Then: no exit by a signal (SIGSEGV), no folder left in its TMPDIR, no
thread left in the SQLite file the demos shared, and no process of ours alive 2 s after it
ended. `make test` runs 10 interrupts of the demos and 3 of make_report.py; `make stress` 200
and 21.
"""
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

import ckpt
from conftest import ROOT

DRIVERS = 2  # the interrupts are split over drivers running side by side
MARK = "AGCKPT_INTERRUPT_TEST"  # an environment variable that marks every process of a run

DRIVER = r"""
import importlib.util, json, os, random, signal, sys, threading, time
# Ctrl-C raises KeyboardInterrupt here even when the tests were started with SIGINT ignored (as a
# shell without job control starts a background command): Python then leaves SIGINT ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
ckpt = importlib.util.module_from_spec(spec)
sys.modules["ckpt"] = ckpt
spec.loader.exec_module(ckpt)
want, shared, rng = int(sys.argv[2]), sys.argv[3], random.Random(sys.argv[4])
demos = [lambda: ckpt.crash_demo("가을"), lambda: ckpt.restart_demo("가을"),
         lambda: ckpt.crash_demo("가을", "sqlite", shared), lambda: ckpt.restart_demo("가을", "sqlite", shared),
         lambda: ckpt.trap_demo("가을", "sqlite", shared)]
began = time.monotonic()
demos[0]()
spans = {0: time.monotonic() - began}  # each demo's time uninterrupted, the last time it ran so
caught = finished = 0
while caught < want and finished < 20 * want:  # a demo finishes first now and then; not 20 times as often
    pick = rng.randrange(len(demos))
    timer = threading.Timer(rng.uniform(0, spans.get(pick, spans[0])), os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        began = time.monotonic()
        demos[pick]()
        took = time.monotonic() - began
        timer.cancel()
        timer.join()  # a SIGINT sent meanwhile is raised in here
        finished += 1
        spans[pick] = took
    except KeyboardInterrupt:
        caught += 1
print(json.dumps({"caught": caught, "finished": finished, "spans": spans}))
"""


def ours(mark):
    """Pids of live processes whose environment holds MARK=mark (zombies have none)."""
    needle = f"{MARK}={mark}".encode()
    pids = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if needle in handle.read().split(b"\0"):
                    pids.append(int(name))
        except (OSError, ValueError):
            continue
    return pids


def gone_within(mark, seconds):
    """The processes still alive after `seconds` (empty when all are gone sooner)."""
    deadline = time.monotonic() + seconds
    while ours(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    return ours(mark)


def threads_in(path):
    """The threads in each table of the SQLite store at `path`, read with SQL."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {t: sorted(r[0] for r in conn.execute(f"SELECT DISTINCT thread_id FROM {t}"))
                for t in ("checkpoints", "writes")}


@pytest.mark.sqlite
@pytest.mark.parametrize("interrupts", [10, pytest.param(200, marks=pytest.mark.stress)])
def test_demos_interrupted_at_random_moments_never_crash_and_leave_nothing(tmp_path, interrupts):
    mark = uuid.uuid4().hex
    shared = tmp_path / "shared.sqlite"
    with ckpt.open_saver("sqlite", str(shared)):  # its tables, whichever demos the drivers pick
        pass
    drivers = []
    for n in range(DRIVERS):
        tmp = tmp_path / f"tmp-{n}"
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp), **{MARK: mark})
        argv = [sys.executable, "-c", DRIVER, str(ROOT / "ckpt.py"), str(interrupts // DRIVERS),
                str(shared), f"{mark}-{n}"]
        drivers.append((tmp, subprocess.Popen(argv, env=env, cwd=str(tmp_path), stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True)))
    caught, results_of = 0, []
    try:
        results = [(tmp, driver, *driver.communicate(timeout=600)) for tmp, driver in drivers]
    finally:  # a driver still running (the other timed out) would go on interrupting demos after the test
        for _, driver in drivers:
            driver.kill()  # a no-op once it has ended
            driver.wait()
    for tmp, driver, out, err in results:
        assert driver.returncode != -signal.SIGSEGV, f"the driver crashed (SIGSEGV):\n{err[-3000:]}"
        assert driver.returncode == 0, f"exit status {driver.returncode}:\n{err[-3000:]}"
        result = json.loads(out.splitlines()[-1])
        caught += result["caught"]
        results_of.append(result)
        assert sorted(os.listdir(tmp)) == [], (sorted(os.listdir(tmp)), result)
    assert caught >= interrupts, results_of
    assert gone_within(mark, 2.0) == [], "processes of the demos outlived their caller"
    assert threads_in(str(shared)) == {"checkpoints": [], "writes": []}, "a demo left its thread in the shared store"


@pytest.mark.parametrize("wanted, within", [(3, 3.0), pytest.param(21, None, marks=pytest.mark.stress)])
def test_make_report_interrupted_at_random_moments_ends_within_2_s(tmp_path, wanted, within):
    """SIGINT to make_report.py alone, or to its whole process group as a terminal's Ctrl-C, or SIGTERM to it
    alone (kill, timeout), at a random moment of its first `within` seconds (its demos' children run then) or, for
    None, of a whole run, timed first; a run that ends before the moment narrows `within` to that moment."""
    mark, rng, interrupted = uuid.uuid4().hex, random.Random(13), 0
    (tmp_path / "tmp").mkdir()
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), **{MARK: mark})
    env.pop("AGCKPT_PG_URL", None)

    def start(out):  # SIGINT's default action in the child, as a terminal gives it, even if ignored here
        return subprocess.Popen([sys.executable, str(ROOT / "make_report.py"), "--out-dir", str(out)],
                                env=env, cwd=str(tmp_path), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    if within is None:
        began = time.monotonic()
        whole = start(tmp_path / "whole")
        assert whole.wait(timeout=300) == 0, whole.stderr.read()
        whole.stderr.close()
        within = time.monotonic() - began  # an uninterrupted run, imports included
    for attempt in range(4 * wanted):
        out = tmp_path / f"out-{attempt}"
        report = start(out)
        pause = rng.uniform(0.05, 0.95) * within
        time.sleep(pause)
        if report.poll() is not None:  # it finished first: not an interrupt; aim within its time from now on
            report.stderr.close()
            within = pause
            continue
        how = [(os.kill, signal.SIGINT), (os.killpg, signal.SIGINT), (os.kill, signal.SIGTERM)][interrupted % 3]
        how[0](report.pid, how[1])  # SIGINT alone, to the group, SIGTERM alone, ...
        sent = time.monotonic()
        try:
            report.wait(timeout=10)
        finally:
            took = time.monotonic() - sent
            report.stderr.close()
        assert took <= 2.0, f"make_report.py took {took:.2f} s to end after {how[1].name}"
        if report.returncode == 0:  # the signal came as it was finishing: both files were written
            assert sorted(os.listdir(out)) == ["ckpt_report.json", "ckpt_report.md"], os.listdir(out)
            continue
        assert report.returncode in (1, -how[1], 130), report.returncode  # -how[1]: before run() set its handler
        assert gone_within(mark, 2.0) == [], "make_report's demo processes outlived it"
        assert not out.exists() or sorted(os.listdir(out)) == ["ckpt_report.json", "ckpt_report.md"], os.listdir(out)
        interrupted += 1
        if interrupted == wanted:
            break
    assert interrupted == wanted, interrupted
    assert sorted(os.listdir(tmp_path / "tmp")) == [], sorted(os.listdir(tmp_path / "tmp"))
