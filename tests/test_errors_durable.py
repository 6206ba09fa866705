"""Bad input to the durable savers and the restart and crash demos: a clear error, raised early.

Each error names the parameter and what was expected, and comes before anything is written:
no child process starts and no temporary file is left behind.
"""
import os
import tempfile

import pytest

import ckpt
from conftest import LG

DEMOS = [ckpt.restart_demo, ckpt.crash_demo]


@pytest.fixture
def nothing_started(monkeypatch, tmp_path):
    """Fails the test if a child process starts; yields the temporary folder, empty at the end."""
    def no_child(*args, **kwargs):
        raise AssertionError(f"a child process was started: {args}")

    monkeypatch.setattr(ckpt, "_run_child", no_child)  # every demo process starts there
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    yield tmp
    assert sorted(os.listdir(tmp)) == [], sorted(os.listdir(tmp))


def unreachable_urls(tmp_path):
    """A socket folder with no server in it, and a TCP port nothing listens on."""
    return [f"postgresql://postgres@/postgres?host={tmp_path / 'no-server'}",
            "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=5"]


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_rejects_an_unknown_backend_naming_backend(demo, nothing_started):
    with pytest.raises(ValueError, match=r"backend must be one of \['memory', 'sqlite'"):
        demo("가을", "mysql")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_on_postgres_without_a_url_names_url(demo, nothing_started):
    with pytest.raises(ValueError, match='url is required for backend "postgres"'):
        demo("가을", "postgres")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_on_memory_with_a_url_names_url(demo, nothing_started):
    with pytest.raises(ValueError, match='url must be None for backend "memory"'):
        demo("가을", "memory", "/tmp/x.sqlite")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_rejects_a_topic_that_is_not_a_str(demo, nothing_started):
    with pytest.raises(TypeError, match="topic must be a str, got int"):
        demo(42)


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_demo_on_an_unreachable_postgres_gives_one_line_naming_url(demo, nothing_started, tmp_path):
    for url in unreachable_urls(tmp_path):
        with pytest.raises(ConnectionError) as caught:
            demo("가을", "postgres", url)
        message = str(caught.value)
        assert "url" in message and repr(url) in message, message
        assert "\n" not in message, message


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.sqlite
def test_demo_on_a_sqlite_file_that_cannot_be_opened_names_the_url(demo, nothing_started, tmp_path):
    url = str(tmp_path / "no-such-folder" / "checkpoints.sqlite")
    with pytest.raises(ConnectionError, match="cannot open the sqlite store at url") as caught:
        demo("가을", "sqlite", url)
    assert "\n" not in str(caught.value), caught.value
    assert not (tmp_path / "no-such-folder").exists(), "the demo created the folder"


def test_crash_demo_rejects_an_unknown_durability_mode_naming_durability(nothing_started):
    with pytest.raises(ValueError, match="durability must be"):
        ckpt.crash_demo("가을", durability="fast")


def test_crash_demo_accepts_durability_modes_only_where_langgraph_has_them(nothing_started):
    if LG >= (0, 6):  # accepted: each call gets as far as starting its child (the crashes: test_crash.py)
        for mode in ("exit", "async", "sync"):
            with pytest.raises(AssertionError, match="a child process was started"):
                ckpt.crash_demo("가을", "memory", durability=mode)
    else:
        with pytest.raises(ValueError, match=r"durability='sync' needs langgraph >= 0.6"):
            ckpt.crash_demo("가을", durability="sync")


def test_crash_demo_rejects_a_wait_saved_that_is_not_a_bool(nothing_started):
    with pytest.raises(TypeError, match="wait_saved must be a bool, got int"):
        ckpt.crash_demo("가을", wait_saved=1)


def test_crash_demo_refuses_to_wait_for_saves_that_exit_durability_never_makes(nothing_started):
    # before 0.6 the mode itself is refused first; both name the durability
    with pytest.raises(ValueError, match="durability"):
        ckpt.crash_demo("가을", durability="exit", wait_saved=True)


def test_open_saver_rejects_an_unknown_backend_naming_backend(nothing_started):
    with pytest.raises(ValueError, match="backend must be one of"):
        with ckpt.open_saver("redis"):
            pass


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_open_saver_on_an_unreachable_postgres_gives_one_line_naming_url(nothing_started, tmp_path):
    for url in unreachable_urls(tmp_path):
        with pytest.raises(ConnectionError) as caught:
            with ckpt.open_saver("postgres", url):
                pass
        assert repr(url) in str(caught.value) and "\n" not in str(caught.value), caught.value


@pytest.mark.sqlite
def test_a_failing_child_is_reported_in_one_line_with_its_error_type_and_its_store_removed(
        monkeypatch, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setattr(ckpt, "_CHILD_PROGRAM", "raise KeyError('the child gave up')")
    with pytest.raises(RuntimeError) as caught:
        ckpt.restart_demo("가을")
    assert str(caught.value) == ("the child process (exit status 1) failed: "
                                 "KeyError: 'the child gave up'"), caught.value
    assert sorted(os.listdir(tmp)) == [], sorted(os.listdir(tmp))


def test_a_childs_multi_line_error_keeps_its_type_in_one_line(monkeypatch):
    monkeypatch.setattr(ckpt, "_CHILD_PROGRAM", "raise ValueError('first line\\nsecond line')")
    with pytest.raises(RuntimeError) as caught:
        ckpt.restart_demo("가을", "memory")
    assert str(caught.value) == ("the child process (exit status 1) failed: "
                                 "ValueError: first line second line"), caught.value


def test_a_child_that_hangs_is_killed_after_the_timeout(monkeypatch, tmp_path):
    pid_file = tmp_path / "pid"
    monkeypatch.setattr(ckpt, "_CHILD_TIMEOUT", 1.0)
    monkeypatch.setattr(ckpt, "_CHILD_PROGRAM", "import os, time; "
                        f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)")
    with pytest.raises(RuntimeError, match=r"the child process did not finish within 1 s"):
        ckpt.restart_demo("가을", "memory")
    with pytest.raises(ProcessLookupError):  # killed and reaped: no such process any more
        os.kill(int(pid_file.read_text()), 0)
