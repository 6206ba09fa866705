"""What a newcomer reads first: the README's example runs, and the report lands where it should.

`python make_report.py` in a checkout writes next to ckpt.py (where the lab expects it); the
`agckpt-report` command and an installed copy write into the current folder, never into
site-packages.
"""
import re
import subprocess
import sys

import pytest

import ckpt
import make_report
from conftest import LG, ROOT
from report_fixtures import FILES, default_run  # noqa: F401


def readme_examples():
    """The code blocks of the README's "Using the module": the example, then the durable saver's."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Using the module"):]
    return re.findall(r"```python\n(.*?)```", section, re.S)[:2]


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    """Each example run by a new Python in a new folder, both started at once (a second or four each):
    {"example": (its code, the folder, the process's CompletedProcess)}; the durable saver's only where the
    SQLite saver is installed."""
    names = ["example"] + (["durable"] if ckpt.has_backend("sqlite") else [])
    started = {}
    for name, code in zip(names, readme_examples()):
        folder = tmp_path_factory.mktemp(name)
        started[name] = (code, folder, subprocess.Popen(
            [sys.executable, "-c", code], cwd=str(folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}))
    done = {}
    try:
        for name, (code, folder, child) in started.items():
            out, err = child.communicate(timeout=120)
            done[name] = (code, folder, subprocess.CompletedProcess(child.args, child.returncode, out, err))
    finally:
        for _, _, child in started.values():
            child.kill()  # a no-op once it has ended
            child.wait()
    return done


def test_the_readme_example_runs_and_prints_what_its_comments_say(examples):
    code, _, done = examples["example"]
    assert len(code.strip().splitlines()) <= 12, code
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "가을/기본",
        "['__start__', 'plan', 'write', 'review', '']",
        "17 8",
        "2" if LG >= (1, 1, 7) else "1",  # from 1.1.7 a replay first writes a "fork" checkpoint
        "{'checkpoints': 5, 'thin_total': 399, 'fat_total': 6447, 'payload_bytes': 1500, 'carrying': 4}",
    ], done.stdout


@pytest.mark.sqlite
def test_the_readmes_durable_saver_example_runs_and_prints_what_its_comments_say(examples):
    _, folder, done = examples["durable"]
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["5", "5", "4"], done.stdout
    assert (folder / "my.db").exists()


def test_the_agckpt_report_command_is_make_report_cli():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^agckpt-report = "make_report:cli"$', text, re.M), text


def test_a_checkout_writes_next_to_ckpt_py_by_default():
    assert make_report.default_out_dir() == str(ROOT)


def test_an_installed_copy_runs_as_a_module_and_writes_into_the_current_folder_only(default_run):
    """`python -m make_report` with ckpt.py and make_report.py in site-packages: exit 0 (the
    fixture checks it), both files in the current folder, nothing new in site-packages."""
    assert default_run.work_files == FILES
    assert default_run.site_files == ["ckpt.py", "make_report.py", "report_ko.py"]


def test_an_installed_copy_names_each_saver_it_could_not_measure(default_run):
    said = [" SQLite saver는 설치되지 않았다.", "이 기계에는 SQLite saver가 없어"]  # beside the versions, and where a measure needs it
    assert [text in default_run.md for text in said] == [not ckpt.has_backend("sqlite")] * 2, default_run.md


def test_the_agckpt_report_command_hands_main_the_current_folder(tmp_path, monkeypatch):
    asked = []
    monkeypatch.chdir(tmp_path)
    # main measures for seconds; what cli must do is hand it the current folder as out_dir
    monkeypatch.setattr(make_report, "main", lambda argv=None, out_dir=None, prog=None: asked.append((out_dir, prog)) or 0)
    with pytest.raises(SystemExit) as exit_info:
        make_report.cli()
    assert (exit_info.value.code, asked) == (0, [(str(tmp_path), "agckpt-report")])


def test_main_writes_into_the_out_dir_it_is_given_unless_out_dir_says_otherwise(tmp_path, capsys):
    given = tmp_path / "a-file"  # a file: main stops at it, before measuring anything
    given.write_text("keep me", encoding="utf-8")
    with pytest.raises(SystemExit):
        make_report.main([], out_dir=str(given))
    assert f"--out-dir {str(given)!r} is a file, not a folder" in capsys.readouterr().err
    assert make_report.parser(str(given)).parse_args(["--out-dir", str(tmp_path)]).out_dir == str(tmp_path)
