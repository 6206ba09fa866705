"""A real crash: what a new saver finds, and a resume in a new process that re-runs no finished node.

Each demo starts a child process that is killed with SIGKILL inside a node, reads the store in
this process, and resumes the thread in a second child (a second or two per demo), so the
demos run once per module, side by side. Where the crash races the saver's
background writes (the default durability) the tests check what holds however far those
writes got; where nothing races (durability="sync", or wait_saved=True before langgraph 0.6;
the trap) the exact numbers. `make stress` runs the trap 20 times at once.
"""
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest

import ckpt
from conftest import LG, side_by_side

TOPIC = "가을"
ORDER = ("__start__",) + ckpt.NODES  # the tasks of a run, in the order they run
UNCRASHED = {"topic": TOPIC, "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
             "notes": ["plan:가을", "write:기본", "review:5"]}  # one plain run, written out
NOTHING = {"durability": None, "checkpoints_after_crash": 0, "history_next": [], "next_after_crash": [],
           "pending_after_crash": "", "pending_writes": 0, "pending_channels": [], "ran_on_resume": [],
           "checkpoints_after_resume": 0, "result": None}  # nothing outlived the child: no resume
LOST_ONLY_REVIEW = {"durability": None, "checkpoints_after_crash": 4,
                    "history_next": [["__start__"], ["plan"], ["write"], ["review"]],
                    "next_after_crash": ["review"], "pending_after_crash": "review", "pending_writes": 0,
                    "pending_channels": [], "ran_on_resume": ["review"], "checkpoints_after_resume": 5,
                    "result": UNCRASHED}
# The trap: plan's writes are stored, the checkpoint after plan is not, write dies. Its four
# pending writes are plan's three state keys and the channel that triggers write, named after
# the node on 0.2.60 (measured on 0.2.60 and 1.x).
TRAPPED = {"durability": None, "checkpoints_after_crash": 2, "history_next": [["__start__"], ["plan"]],
           "next_after_crash": [], "pending_after_crash": "plan", "pending_writes": 4,
           "pending_channels": sorted(["angle", "notes", "stage", "branch:to:write" if LG >= (1, 0) else "plan"]),
           "ran_on_resume": ["write", "review"], "checkpoints_after_resume": 5, "result": UNCRASHED}
TRAP_REPEATS = 20  # the stress version: the trap is deterministic, every time


def concurrently(calls):
    """{name: call()} for zero-argument calls, all running at once."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return dict(zip(calls, pool.map(lambda call: call(), calls.values())))


def without_thread(got, backend):
    """`got` without its thread_id, which is "run-1" in a store of the demo's own and
    "run-1-<12 hex>" in a store the caller gave (PostgreSQL's always)."""
    got = dict(got)
    pattern = r"run-1-[0-9a-f]{12}" if backend == "postgres" else "run-1"
    assert re.fullmatch(pattern, got.pop("thread_id")), got
    assert got.pop("backend") == backend, got
    return got


def sqlite_crashes(tmp):
    """The SQLite crashes, each in a temporary store in `tmp`, all at once: (results, what is left in `tmp`
    afterwards). Nothing races the crash with durability="sync" (langgraph >= 0.6) or, before 0.6, with
    wait_saved=True."""
    calls = {"default": partial(ckpt.crash_demo, TOPIC), "trap": partial(ckpt.trap_demo, TOPIC)}
    if LG >= (0, 6):
        calls.update(steady=partial(ckpt.crash_demo, TOPIC, durability="sync"),
                     exit=partial(ckpt.crash_demo, TOPIC, durability="exit"))
    else:
        calls.update(steady=partial(ckpt.crash_demo, TOPIC, wait_saved=True))
    saved, tempfile.tempdir = tempfile.tempdir, str(tmp)
    try:
        results = concurrently(calls)
    finally:
        tempfile.tempdir = saved
    return results, sorted(os.listdir(tmp))


@pytest.fixture(scope="module")
def demos(request, tmp_path_factory):
    """The module's demos side by side, each only where a selected test reads it (the SQLite ones need the
    SQLite saver, the trap on PostgreSQL a server): {fixture name: Future}. The others make no temporary
    store, so the SQLite ones' folder holds only what they leave."""
    calls = {"in_memory": partial(ckpt.crash_demo, TOPIC, "memory")}
    if ckpt.has_backend("sqlite"):
        calls["on_sqlite"] = partial(sqlite_crashes, tmp_path_factory.mktemp("crash-tmp"))
    if os.environ.get("AGCKPT_PG_URL") and ckpt.has_backend("postgres"):
        calls["trap_on_postgres"] = partial(ckpt.trap_demo, TOPIC, "postgres", os.environ["AGCKPT_PG_URL"])
    return side_by_side(request, calls)


@pytest.fixture(scope="module")
def on_sqlite(demos):
    """sqlite_crashes' (results, what is left in their temporary folder)."""
    return demos["on_sqlite"].result()


@pytest.fixture(scope="module")
def in_memory(demos):
    """crash_demo(TOPIC, "memory")."""
    return demos["in_memory"].result()


@pytest.fixture(scope="module")
def trap_on_postgres(pg_url, demos):
    """trap_demo(TOPIC, "postgres", pg_url)."""
    return demos["trap_on_postgres"].result()


# --- the crash races the background writes: what holds however far they got ---

@pytest.mark.sqlite
def test_a_crash_racing_the_background_writes_resumes_from_what_was_saved_running_no_node_twice(on_sqlite):
    got = without_thread(on_sqlite[0]["default"], "sqlite")
    found = got["checkpoints_after_crash"]
    assert got["history_next"] == [[task] for task in ORDER[:found]], got  # saved in order, none skipped
    if found == 0:
        assert got == NOTHING, got
        return
    pending = ORDER[found - 1]  # the task of the newest saved checkpoint
    assert got["pending_after_crash"] == pending, got
    stored = got["next_after_crash"] == []  # `next` leaves out a task whose writes are stored
    assert got["next_after_crash"] in ([], [pending]), got
    assert (got["pending_writes"] > 0) == stored == (got["pending_channels"] != []), got
    assert got["pending_writes"] >= len(got["pending_channels"]), got
    # the resume runs the pending task unless its writes were stored, then every task after it
    assert got["ran_on_resume"] == [n for n in ORDER[ORDER.index(pending) + stored:] if n in ckpt.NODES], got
    assert (got["checkpoints_after_resume"], got["result"], got["durability"]) == (5, UNCRASHED, None), got


# --- nothing races: the exact numbers ---

@pytest.mark.sqlite
def test_a_crash_nothing_races_loses_only_review(on_sqlite):
    if LG >= (0, 6):
        assert without_thread(on_sqlite[0]["steady"], "sqlite") == dict(LOST_ONLY_REVIEW, durability="sync")
    else:  # review dies once the earlier checkpoints are stored; 0.2.60 has no durability modes
        assert without_thread(on_sqlite[0]["steady"], "sqlite") == LOST_ONLY_REVIEW
        with pytest.raises(ValueError, match=r"langgraph >= 0\.6"):
            ckpt.crash_demo(TOPIC, durability="sync")


@pytest.mark.sqlite
def test_a_crash_with_exit_durability_leaves_nothing_to_resume(on_sqlite):
    if LG >= (0, 6):
        assert without_thread(on_sqlite[0]["exit"], "sqlite") == dict(NOTHING, durability="exit")
    else:
        with pytest.raises(ValueError, match=r"langgraph >= 0\.6"):
            ckpt.crash_demo(TOPIC, durability="exit")


@pytest.mark.sqlite
def test_the_trap_leaves_four_pending_writes_that_next_hides_and_the_resume_uses(on_sqlite):
    assert without_thread(on_sqlite[0]["trap"], "sqlite") == TRAPPED


@pytest.mark.sqlite
def test_the_crash_demos_remove_their_temporary_sqlite_stores(on_sqlite):
    assert on_sqlite[1] == [], on_sqlite[1]


def test_a_crash_on_the_in_memory_saver_finds_nothing_and_says_so(in_memory):
    assert without_thread(in_memory, "memory") == NOTHING


def test_the_trap_on_postgres_leaves_the_same_four_pending_writes(trap_on_postgres):
    assert without_thread(trap_on_postgres, "postgres") == TRAPPED


@pytest.mark.sqlite
@pytest.mark.stress
def test_the_trap_gives_the_same_numbers_every_time():
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: without_thread(ckpt.trap_demo(TOPIC), "sqlite"), range(TRAP_REPEATS)))
    assert [r for r in results if r != TRAPPED] == [], f"{sum(r != TRAPPED for r in results)} of {TRAP_REPEATS}"
