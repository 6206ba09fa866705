"""A real process restart: SQLite and PostgreSQL keep the thread, the in-memory saver does not.

Every restart_demo call starts a fresh Python process (well under a second each), so each
group of calls runs once per module, concurrently, and the tests read the results.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest

import ckpt
from conftest import ROOT

TOPIC = "가을"
SPACED = "  늦은 가을 "  # spaces at both ends, kept as given
UNCRASHED = {"topic": TOPIC, "angle": "기본", "draft": "가을/기본", "stage": "review", "score": 5,
             "notes": ["plan:가을", "write:기본", "review:5"]}  # one plain run, written out
MEMORY_LOST = {"backend": "memory", "thread_id": "run-1", "kept": 5, "after_restart": 0, "values_after_restart": {},
               "survives": False}


def concurrently(calls):
    """{name: call()} for zero-argument calls, all running at once (threads of this process)."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return dict(zip(calls, pool.map(lambda call: call(), calls.values())))


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """Three sqlite restarts from three threads at once, with the temporary folder watched."""
    tmp = tmp_path_factory.mktemp("restart-tmp")
    saved, tempfile.tempdir = tempfile.tempdir, str(tmp)
    try:
        results = concurrently({
            "sqlite": partial(ckpt.restart_demo, TOPIC, "sqlite"),
            "sqlite-2": partial(ckpt.restart_demo, TOPIC),
            "spaces": partial(ckpt.restart_demo, SPACED, "sqlite"),
        })
    finally:
        tempfile.tempdir = saved
    return results, sorted(os.listdir(tmp))


@pytest.fixture(scope="module")
def on_postgres(pg_url):
    """Two concurrent restarts on the same PostgreSQL database."""
    return concurrently({n: partial(ckpt.restart_demo, TOPIC, "postgres", pg_url) for n in (1, 2)})


@pytest.mark.sqlite
def test_sqlite_keeps_all_five_checkpoints_and_the_values_across_a_real_restart(local):
    got = local[0]["sqlite"]
    want = {"backend": "sqlite", "thread_id": "run-1", "kept": 5, "after_restart": 5, "values_after_restart": UNCRASHED,
            "survives": True}
    assert got == want, got


def test_memory_saver_loses_the_thread_when_its_process_ends():
    got = ckpt.restart_demo(TOPIC, "memory")
    assert got == MEMORY_LOST, got


@pytest.mark.sqlite
def test_sqlite_is_the_default_backend_and_concurrent_calls_agree(local):
    results = local[0]
    assert results["sqlite-2"] == results["sqlite"], results


@pytest.mark.sqlite
def test_restart_demo_removes_its_temporary_sqlite_store(local):
    assert local[1] == [], local[1]


def test_postgres_keeps_all_five_checkpoints_and_the_values_across_a_real_restart(on_postgres):
    got = dict(on_postgres[1])
    assert re.fullmatch(r"run-1-[0-9a-f]{12}", got.pop("thread_id")), on_postgres[1]
    want = {"backend": "postgres", "kept": 5, "after_restart": 5, "values_after_restart": UNCRASHED,
            "survives": True}
    assert got == want, on_postgres[1]


def test_postgres_calls_on_one_database_never_count_each_others_checkpoints(on_postgres):
    assert on_postgres[2]["thread_id"] != on_postgres[1]["thread_id"], on_postgres
    without_ids = [{k: v for k, v in on_postgres[n].items() if k != "thread_id"} for n in (1, 2)]
    assert without_ids[0] == without_ids[1], on_postgres
    assert on_postgres[2]["after_restart"] == 5, on_postgres[2]


@pytest.mark.sqlite
def test_restart_keeps_a_topic_with_spaces_exactly(local):
    got = local[0]["spaces"]
    assert got["values_after_restart"]["topic"] == "  늦은 가을 ", got
    assert got["values_after_restart"]["draft"] == "늦은 가을 /기본", got  # strip() acts on the ends
    assert got["survives"] is True, got


def test_each_demo_runs_in_a_process_of_its_own():
    """The child is neither this process nor the previous child."""
    job = {"backend": "memory", "url": None, "thread_id": "run-1", "topic": TOPIC,
           "durability": None}
    pids = []
    for _ in range(2):
        done = ckpt._run_child(job)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.splitlines()[-1])
        assert (result["kept"], result["values"]) == (5, UNCRASHED), result
        pids.append(result["pid"])
    assert len(set(pids + [os.getpid()])) == 3, (pids, os.getpid())


@pytest.mark.sqlite
def test_a_relative_sqlite_path_is_the_callers_file_folder_after_folder(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        result = ckpt.restart_demo(TOPIC, "sqlite", "store.sqlite")
        assert (result["kept"], result["after_restart"], result["survives"]) == (5, 5, True), (name, result)
        assert sorted(os.listdir(".")) == ["store.sqlite"], os.listdir(".")


SCRIPT = """\
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("ckpt", sys.argv[1])
ckpt = importlib.util.module_from_spec(spec)
sys.modules["ckpt"] = ckpt
spec.loader.exec_module(ckpt)
restart = ckpt.restart_demo("가을", "memory")
crash = ckpt.crash_demo("가을", "memory")
print(json.dumps([restart["after_restart"], crash["checkpoints_after_crash"]]))
"""


@pytest.mark.parametrize("how", ["script", "-c"])
def test_a_plain_script_without_a_main_guard_runs_both_demos(tmp_path, how):
    """No `if __name__ == "__main__":` in the caller: the demos still start their children."""
    (tmp_path / "plain.py").write_text(SCRIPT, encoding="utf-8")
    argv = [str(tmp_path / "plain.py")] if how == "script" else ["-c", SCRIPT]
    done = subprocess.run([sys.executable, *argv, str(ROOT / "ckpt.py")], cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [0, 0], done.stdout


RELATIVE = """\
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("ckpt_by_relative_path", "ckpt.py")
ckpt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ckpt)
os.chdir(sys.argv[1])  # the module was found relative to the old folder
print(json.dumps(ckpt.restart_demo("가을", "memory")["kept"]))
"""


def test_a_module_loaded_by_a_relative_path_still_runs_demos_after_a_chdir(tmp_path):
    done = subprocess.run([sys.executable, "-c", RELATIVE, str(tmp_path)], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "5", done.stdout
