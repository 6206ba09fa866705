"""A real crash inside `review`: what a new saver finds, and a resume that re-runs no finished node.

Each crash_demo call starts a real child process that is killed with SIGKILL inside review
(about a second each), so each group of calls runs once per module, concurrently. Where the
crash races the saver's background writes (the default durability), the tests check the
invariants that hold in every case; where it cannot (durability="sync", wait_saved=True),
the exact numbers.
"""
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest

import ckpt
from conftest import LG

TOPIC = "가을"
ORDER = ("__start__",) + ckpt.NODES  # the tasks of a run, in the order they run
NOTHING = {"checkpoints_after_crash": 0, "pending_after_crash": "", "pending_writes": 0,
           "ran_on_resume": [], "checkpoints_after_resume": 0, "result": None}


def uncrashed():
    """One plain run, written out: what every resumed crash must end with."""
    return {"topic": TOPIC, "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
            "notes": ["plan:가을", "write:기본", "review:5"]}


def concurrently(calls):
    """{name: call()} for zero-argument calls, all running at once."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return dict(zip(calls, pool.map(lambda call: call(), calls.values())))


def durable_cases(backend, url=None):
    """The crash_demo calls each durable backend gets; sync and exit where langgraph has them."""
    crash = partial(ckpt.crash_demo, TOPIC, backend, url)
    cases = {"default": crash, "waited": partial(crash, wait_saved=True)}
    if LG >= (0, 6):
        cases.update({"sync": partial(crash, durability="sync"),
                      "exit": partial(crash, durability="exit")})
    return cases


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """sqlite and memory crashes, all at once, with the temporary folder watched."""
    tmp = tmp_path_factory.mktemp("crash-tmp")
    saved, tempfile.tempdir = tempfile.tempdir, str(tmp)
    try:
        calls = {"sqlite " + name: call for name, call in durable_cases("sqlite").items()}
        results = concurrently(calls)
    finally:
        tempfile.tempdir = saved
    return results, sorted(os.listdir(tmp))


@pytest.fixture(scope="module")
def memory_crash():
    """A crash on the in-memory saver: needs langgraph alone."""
    return ckpt.crash_demo(TOPIC, "memory")


@pytest.fixture(scope="module")
def on_postgres(pg_url):
    return concurrently(durable_cases("postgres", pg_url))


def thread_of(got, backend):
    """The thread the demo ran: "run-1" in a store of its own, "run-1-<hex>" in a given one."""
    thread_id = got.get("thread_id", "")
    pattern = r"run-1-[0-9a-f]{12}" if backend == "postgres" else "run-1"
    assert re.fullmatch(pattern, thread_id), got
    return thread_id


def check_resumed(got, backend):
    """The invariants of every crash that left something: see the module docstring."""
    assert got["backend"] == backend, got
    thread_of(got, backend)
    assert got["checkpoints_after_crash"] >= 1, got
    pending = got["pending_after_crash"]
    assert pending in ORDER, got
    rest = [n for n in ORDER[ORDER.index(pending):] if n in ckpt.NODES]  # pending on: all to run
    after = [n for n in ORDER[ORDER.index(pending) + 1:] if n in ckpt.NODES]  # pending done
    ran = got["ran_on_resume"]
    assert ran in (rest, after), got  # a tail of the graph's nodes, ending with review
    assert ran[-1] == "review", got
    if ran != rest:  # the pending node was skipped: its finished writes were stored
        assert got["pending_writes"] >= 1, got
    assert got["checkpoints_after_resume"] == 5, got
    assert got["result"] == uncrashed(), got
    notes = got["result"]["notes"]
    assert len(notes) == len(set(notes)) == 3, notes  # no note written twice


def check_lost_only_review(got, backend, durability=None):
    want = {"backend": backend, "durability": durability, "checkpoints_after_crash": 4,
            "pending_after_crash": "review", "pending_writes": 0, "ran_on_resume": ["review"],
            "checkpoints_after_resume": 5, "result": uncrashed(), "thread_id": thread_of(got, backend)}
    assert got == want, got


# --- SQLite ---

@pytest.mark.sqlite
def test_sqlite_crash_resumes_from_the_last_checkpoint_without_rerunning_a_node(local):
    check_resumed(local[0]["sqlite default"], "sqlite")


@pytest.mark.sqlite
def test_sqlite_crash_after_review_worked_a_while_loses_only_review(local):
    check_lost_only_review(local[0]["sqlite waited"], "sqlite")


@pytest.mark.sqlite
def test_sqlite_crash_with_sync_durability_keeps_four_checkpoints_and_reruns_only_review(local):
    if LG >= (0, 6):
        check_lost_only_review(local[0]["sqlite sync"], "sqlite", "sync")
    else:  # 0.2.60 has no durability modes: the call says so before any child starts
        with pytest.raises(ValueError, match="durability"):
            ckpt.crash_demo(TOPIC, "sqlite", durability="sync")


@pytest.mark.sqlite
def test_sqlite_crash_with_exit_durability_leaves_nothing_to_resume(local):
    if LG >= (0, 6):
        got = local[0]["sqlite exit"]
        assert got == dict(NOTHING, backend="sqlite", durability="exit", thread_id=thread_of(got, "sqlite")), got
    else:
        with pytest.raises(ValueError, match="durability"):
            ckpt.crash_demo(TOPIC, "sqlite", durability="exit")


@pytest.mark.sqlite
def test_crash_demo_removes_its_temporary_sqlite_stores(local):
    assert local[1] == [], local[1]


# --- memory ---

def test_memory_crash_finds_nothing_and_says_so(memory_crash):
    got = memory_crash
    assert got == dict(NOTHING, backend="memory", durability=None, thread_id=thread_of(got, "memory")), got


# --- PostgreSQL ---

def test_postgres_crash_resumes_from_the_last_checkpoint_without_rerunning_a_node(on_postgres):
    check_resumed(on_postgres["default"], "postgres")


def test_postgres_crash_after_review_worked_a_while_loses_only_review(on_postgres):
    check_lost_only_review(on_postgres["waited"], "postgres")


def test_postgres_crash_with_sync_durability_keeps_four_and_reruns_only_review(on_postgres, pg_url):
    if LG >= (0, 6):
        check_lost_only_review(on_postgres["sync"], "postgres", "sync")
    else:
        with pytest.raises(ValueError, match="durability"):
            ckpt.crash_demo(TOPIC, "postgres", pg_url, durability="sync")


def test_postgres_crash_with_exit_durability_leaves_nothing_to_resume(on_postgres, pg_url):
    if LG >= (0, 6):
        got = on_postgres["exit"]
        assert got == dict(NOTHING, backend="postgres", durability="exit", thread_id=thread_of(got, "postgres")), got
    else:
        with pytest.raises(ValueError, match="durability"):
            ckpt.crash_demo(TOPIC, "postgres", pg_url, durability="exit")
