"""The command line as a user meets it: its name, --version, progress on stderr, and the note a
checkout run with other arguments leaves about the committed report it replaced."""
import os
import shutil
import subprocess
import sys

import pytest

import ckpt
import make_report
from conftest import ROOT
from report_fixtures import default_run  # noqa: F401

PROGRESS = ["started", "measuring runs, replays, forks and bytes with a", "measuring longer chains, 40 turns and the remedies",
            "waiting for the restart and crash demos", "writing ckpt_report.json and ckpt_report.md into"]


def test_the_agckpt_report_command_names_itself_in_its_help_and_errors(capsys):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--help"], prog="agckpt-report")
    assert exit_info.value.code == 0 and capsys.readouterr().out.startswith("usage: agckpt-report ")
    with pytest.raises(SystemExit):
        make_report.main(["--fork-angle", "기본"], prog="agckpt-report")
    assert capsys.readouterr().err.splitlines()[-1].startswith("agckpt-report: error: --fork-angle")


def test_version_names_the_package_and_the_langgraph_it_runs_on(capsys):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--version"], prog="agckpt-report")
    version = ckpt.package_version("agckpt")  # the project is installed in every test environment (pip install -e)
    assert exit_info.value.code == 0 and version, version
    assert capsys.readouterr().out == f"agckpt-report {version} (langgraph {ckpt.langgraph_version()})\n"


def test_a_run_says_each_phase_on_stderr_once(default_run):
    """The installed copy's run (report_fixtures), default arguments: one line per phase, in order."""
    lines = ours(default_run.stderr)
    assert len(lines) == len(PROGRESS), default_run.stderr
    assert all(line[len("make_report.py: "):].startswith(phase) for line, phase in zip(lines, PROGRESS)), lines


def ours(stderr):
    """make_report's lines on stderr (langchain-core 0.3, on the 0.2.60 legs, turns its import-time warnings back on)."""
    return [line for line in stderr.splitlines() if line.startswith("make_report.py")]


@pytest.fixture(scope="module")
def checkout_run(tmp_path_factory):
    """`python make_report.py -q --payload-bytes 300` in a copy of the checkout (a folder with .git and the
    committed report): writes next to ckpt.py, as the lab expects, over the committed files."""
    folder = tmp_path_factory.mktemp("checkout")
    (folder / ".git").mkdir()
    for name in ("ckpt.py", "make_report.py", "report_ko.py", "ckpt_report.json", "ckpt_report.md"):
        shutil.copy(ROOT / name, folder / name)
    done = subprocess.run([sys.executable, "-W", "ignore", "make_report.py", "-q", "--payload-bytes", "300"],
                          cwd=str(folder), capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "AGCKPT_PG_URL"})
    assert done.returncode == 0, done.stderr
    return folder, done


def test_a_checkout_run_with_other_arguments_writes_next_to_ckpt_py_and_says_how_to_get_the_committed_files_back(
        checkout_run):
    folder, done = checkout_run
    assert (folder / "ckpt_report.md").read_bytes() != (ROOT / "ckpt_report.md").read_bytes()
    assert ours(done.stderr) == [
        f"make_report.py: note: replaced the committed ckpt_report.json and ckpt_report.md in {folder} with a report "
        f"for other arguments (--payload-bytes); to get them back: git -C {folder} checkout -- ckpt_report.json "
        "ckpt_report.md"]


def test_quiet_leaves_no_progress_line(checkout_run):
    assert [line for line in ours(checkout_run[1].stderr) if "note:" not in line] == []


def test_a_run_with_the_default_arguments_or_elsewhere_leaves_no_note(tmp_path):
    for folder, argv in ((ROOT, []), (tmp_path, ["--topic", "바다"])):  # defaults in the checkout; others elsewhere
        p = make_report.parser(str(folder))
        args = p.parse_args(argv)
        args.url_from = "--postgres-url"  # as main sets it
        assert make_report._replaced(p, args) == "", argv
