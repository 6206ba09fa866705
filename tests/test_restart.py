"""A real process restart: SQLite and PostgreSQL keep the thread, the in-memory saver does not.

Every restart_demo call starts a real child process (about a second each), so each group of
calls runs once per module, concurrently, and the tests read the results.
"""
import os
import signal
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest

import ckpt

TOPIC = "가을"
SPACED = "  늦은 가을 "  # spaces at both ends, kept as given


def uncrashed(topic):
    """The final values of one plain run in this process: what a kept thread must show."""
    return ckpt.build_graph(ckpt.new_saver()).invoke({"topic": topic}, ckpt.cfg("t"))


def concurrently(calls):
    """{name: call()} for zero-argument calls, all running at once."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return dict(zip(calls, pool.map(lambda call: call(), calls.values())))


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """memory and three sqlite restarts, all at once, with the temporary folder watched."""
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
def memory_restart():
    """A restart on the in-memory saver: needs langgraph alone."""
    return ckpt.restart_demo(TOPIC, "memory")


@pytest.fixture(scope="module")
def on_postgres(pg_url):
    """Two concurrent restarts on the same PostgreSQL database."""
    return concurrently({n: partial(ckpt.restart_demo, TOPIC, "postgres", pg_url) for n in (1, 2)})


@pytest.mark.sqlite
def test_sqlite_keeps_all_five_checkpoints_and_the_values_across_a_real_restart(local):
    got = local[0]["sqlite"]
    want = {"backend": "sqlite", "kept": 5, "after_restart": 5,
            "values_after_restart": uncrashed(TOPIC), "survives": True}
    assert got == want, got


def test_memory_saver_loses_the_thread_when_its_process_ends(memory_restart):
    got = memory_restart
    want = {"backend": "memory", "kept": 5, "after_restart": 0, "values_after_restart": {},
            "survives": False}
    assert got == want, got


@pytest.mark.sqlite
def test_sqlite_is_the_default_backend_and_concurrent_calls_agree(local):
    results = local[0]
    assert results["sqlite-2"] == results["sqlite"], results


@pytest.mark.sqlite
def test_restart_demo_removes_its_temporary_sqlite_store(local):
    assert local[1] == [], local[1]


def test_postgres_keeps_all_five_checkpoints_and_the_values_across_a_real_restart(on_postgres):
    want = {"backend": "postgres", "kept": 5, "after_restart": 5,
            "values_after_restart": uncrashed(TOPIC), "survives": True}
    assert on_postgres[1] == want, on_postgres[1]


def test_postgres_calls_on_one_database_never_count_each_others_checkpoints(on_postgres):
    assert on_postgres[2] == on_postgres[1], on_postgres
    assert on_postgres[2]["after_restart"] == 5, on_postgres[2]


@pytest.mark.sqlite
def test_restart_keeps_a_topic_with_spaces_exactly(local):
    got = local[0]["spaces"]
    assert got["values_after_restart"] == uncrashed(SPACED), got
    assert got["survives"] is True, got


@pytest.mark.sqlite
def test_a_fresh_interpreter_child_gives_the_same_restart_figures(monkeypatch):
    """The fallback where the OS cannot fork (a new sys.executable per demo) agrees with the zygote."""
    monkeypatch.setattr(ckpt, "_spawn", ckpt._spawn_fresh)
    fresh = ckpt.restart_demo("가을")
    monkeypatch.undo()
    assert fresh == ckpt.restart_demo("가을"), fresh
    assert (fresh["kept"], fresh["after_restart"], fresh["survives"]) == (5, 5, True)


def test_each_demo_runs_in_a_process_of_its_own():
    """The demo process is neither this process nor the zygote, and differs from call to call."""
    pids = []
    for _ in range(2):
        child = ckpt._spawn({"backend": "memory", "url": None, "thread_id": "run-1", "topic": "가을",
                             "crash": False, "durability": None})
        out, _ = child.communicate(timeout=60)
        assert child.returncode == 0 and '"kept": 5' in out, (child.returncode, out)
        pids.append(child.pid)
    assert len(set(pids)) == 2 and os.getpid() not in pids, pids


@pytest.mark.sqlite
def test_a_demo_process_starts_in_the_callers_current_folder(tmp_path, monkeypatch):
    """A relative SQLite path means the same file to the demo process and to us, folder after folder."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        result = ckpt.restart_demo("가을", "sqlite", "store.sqlite")
        assert (result["kept"], result["after_restart"], result["survives"]) == (5, 5, True), (name, result)
        assert os.listdir(".") == ["store.sqlite"], os.listdir(".")


@pytest.mark.sqlite
def test_a_zygote_that_died_is_started_again():
    ckpt.restart_demo("가을", "memory")
    os.kill(ckpt._ZYGOTE["process"].pid, signal.SIGKILL)
    ckpt._ZYGOTE["process"].wait()
    result = ckpt.restart_demo("가을")
    assert (result["kept"], result["after_restart"], result["survives"]) == (5, 5, True), result


def test_a_fork_of_the_caller_lets_go_of_the_zygote():
    """A forked copy of us closes its copy of the zygote's socket, so the zygote still ends with us."""
    ckpt.restart_demo("가을", "memory")
    sock = ckpt._ZYGOTE["sock"].fileno()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the forked copy: report whether the socket is still open, then leave
        try:
            os.fstat(sock)
            os.write(write, b"open")
        except OSError:
            os.write(write, b"closed")
        os._exit(0)
    os.close(write)
    said = os.read(read, 16)
    os.waitpid(pid, 0)
    assert said == b"closed", said
