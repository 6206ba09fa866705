"""Bad input to the durable savers and the restart and crash demos, and a child that fails.

A caller's mistake is refused in one line naming the parameter, before a store is made:
no temporary folder is left behind. A child process that fails or hangs is reported in one
line with its own error, and one that hangs is killed.
"""
import importlib.util
import os
import shutil
import sys
import tempfile
import uuid

import pytest

import ckpt
from conftest import ROOT

DEMOS = [ckpt.restart_demo, ckpt.crash_demo]


@pytest.fixture
def tmp_watched(monkeypatch, tmp_path):
    """The temporary folder the demos make their stores in: empty again at the end of the test."""
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
def test_demo_rejects_an_unknown_backend_naming_backend(demo, tmp_watched):
    with pytest.raises(ValueError, match=r"backend must be one of \['memory', 'sqlite'"):
        demo("가을", "mysql")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_on_postgres_without_a_url_names_url(demo, tmp_watched):
    with pytest.raises(ValueError, match='url is required for backend "postgres"'):
        demo("가을", "postgres")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_on_memory_with_a_url_names_url(demo, tmp_watched):
    with pytest.raises(ValueError, match='url must be None for backend "memory"'):
        demo("가을", "memory", "/tmp/x.sqlite")


@pytest.mark.parametrize("demo", DEMOS)
def test_demo_rejects_a_topic_that_is_not_a_str(demo, tmp_watched):
    with pytest.raises(TypeError, match="topic must be a str, got int"):
        demo(42)


def test_crash_demo_rejects_an_unknown_durability_mode_naming_durability(tmp_watched):
    with pytest.raises(ValueError, match="durability must be None or one of"):
        ckpt.crash_demo("가을", durability="fast")


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_demo_on_an_unreachable_postgres_gives_one_line_naming_url(demo, tmp_watched, tmp_path):
    for url in unreachable_urls(tmp_path):
        with pytest.raises(ConnectionError) as caught:
            demo("가을", "postgres", url)
        message = str(caught.value)
        assert message.startswith(f"cannot open the postgres store at {url!r}: "), message
        assert "\n" not in message, message


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.sqlite
def test_demo_on_a_sqlite_file_that_cannot_be_opened_names_it_and_makes_no_folder(demo, tmp_watched, tmp_path):
    url = str(tmp_path / "no-such-folder" / "checkpoints.sqlite")
    with pytest.raises(ConnectionError) as caught:
        demo("가을", "sqlite", url)
    assert str(caught.value) == f"cannot open the sqlite store at {url!r}: unable to open database file"
    assert not (tmp_path / "no-such-folder").exists(), "the demo created the folder"


def test_open_saver_rejects_an_unknown_backend_naming_backend(tmp_watched):
    with pytest.raises(ValueError, match="backend must be one of"):
        with ckpt.open_saver("redis"):
            pass


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_open_saver_on_an_unreachable_postgres_gives_one_line_naming_url(tmp_path):
    for url in unreachable_urls(tmp_path):
        with pytest.raises(ConnectionError) as caught:
            with ckpt.open_saver("postgres", url):
                pass
        message = str(caught.value)
        assert message.startswith(f"cannot open the postgres store at {url!r}: ") and "\n" not in message, message


@pytest.fixture
def lab_copy(tmp_path):
    """A copy of ckpt.py, imported from tmp_path, and its file. A demo's children load the file
    of the module they run for, anew: what the test writes there is what they run."""
    path = tmp_path / "lab" / "ckpt.py"
    path.parent.mkdir()
    shutil.copy(str(ROOT / "ckpt.py"), str(path))
    name = f"ckpt_copy_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module, path
    sys.modules.pop(name, None)  # registered by the module itself on Python 3.9


@pytest.mark.sqlite
def test_a_failing_child_is_reported_in_one_line_with_its_error_and_its_store_removed(lab_copy, tmp_watched):
    copy, path = lab_copy
    path.write_text("raise KeyError('the child gave up')\n", encoding="utf-8")
    with pytest.raises(RuntimeError) as caught:
        copy.restart_demo("가을")
    assert str(caught.value) == "the child process (exit status 1) failed: KeyError: 'the child gave up'"


def test_a_childs_error_of_several_lines_keeps_its_type_in_one_line(lab_copy):
    copy, path = lab_copy
    path.write_text("raise ValueError('first line\\nsecond line')\n", encoding="utf-8")
    with pytest.raises(RuntimeError) as caught:
        copy.restart_demo("가을", "memory")
    assert str(caught.value) == "the child process (exit status 1) failed: ValueError: first line second line"


def test_a_child_that_hangs_is_killed_after_the_timeout(lab_copy, tmp_path):
    copy, path = lab_copy
    pid_file = tmp_path / "pid"
    path.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)\n",
                    encoding="utf-8")
    job = {"do": "run", "backend": "memory", "url": None, "thread_id": "run-1", "topic": "가을"}
    with pytest.raises(RuntimeError, match=r"^the child process did not finish within 1 s$"):
        copy._run_child(job, timeout=1)  # private: no public call takes a timeout (the demos wait 120 s)
    with pytest.raises(ProcessLookupError):  # killed and reaped: no such process any more
        os.kill(int(pid_file.read_text()), 0)


@pytest.mark.parametrize("backend, url", [("sqlite", None), ("postgres", "postgresql://u@h/db")])
def test_a_missing_extra_is_an_importerror_naming_the_package_to_install(monkeypatch, backend, url):
    # the extras are installed on two legs: make the import fail as it does where they are not
    monkeypatch.setitem(sys.modules, f"langgraph.checkpoint.{backend}", None)
    with pytest.raises(ImportError) as info:
        with ckpt.open_saver(backend, url):
            pass
    assert str(info.value).startswith(f'backend "{backend}" needs the package langgraph-checkpoint-{backend}: '
                                      f"pip install langgraph-checkpoint-{backend}"), info.value


def test_invoke_refuses_inputs_postgres_cannot_store_before_anything_is_written(pg_url):
    thread = ckpt.cfg(f"nan-{uuid.uuid4().hex}")
    with ckpt.open_saver("postgres", pg_url) as saver:
        app = ckpt.build_graph(saver)
        with pytest.raises(ValueError, match=r'^inputs\["bulk"\] cannot be written as JSON for PostgreSQL'):
            ckpt.invoke(app, {"topic": "가을", "bulk": float("nan")}, thread)
        assert ckpt.history_len(app, thread) == 0


