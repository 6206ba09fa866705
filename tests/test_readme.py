"""What a newcomer reads first: the README's example runs, and the report lands where it should.

`python make_report.py` in a checkout writes next to ckpt.py (where the lab expects it); the
`agckpt-report` command and an installed copy write into the current folder, never into
site-packages.
"""
import re
import shutil
import subprocess
import sys

import make_report
from conftest import ROOT


def readme_example():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Using the module"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs_and_prints_what_its_comments_say(tmp_path):
    code = readme_example()
    assert len(code.strip().splitlines()) <= 12, code
    done = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["가을/기본", "['__start__', 'plan', 'write', 'review', '']", "17 8"], lines
    assert lines[3] in ("1", "2"), lines
    assert lines[4] == ("{'checkpoints': 5, 'thin_total': 399, 'fat_total': 6447, 'payload_bytes': 1500, "
                        "'carrying': 4}"), lines


def test_the_agckpt_report_command_is_make_report_cli():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^agckpt-report = "make_report:cli"$', text, re.M), text


def test_a_checkout_writes_next_to_ckpt_py_by_default():
    assert make_report.default_out_dir() == str(ROOT)


def test_an_installed_copy_and_the_command_write_into_the_current_folder(tmp_path):
    site = tmp_path / "lib" / "site-packages"
    site.mkdir(parents=True)
    for name in ("ckpt.py", "make_report.py"):
        shutil.copy(ROOT / name, site / name)
    before = sorted(p.name for p in site.iterdir())
    runs = [(site, "import make_report; make_report.run()"),  # python -m make_report, installed
            (ROOT, "import make_report; make_report.cli()")]  # agckpt-report, even from a checkout
    for n, (where, how) in enumerate(runs):
        work = tmp_path / f"work-{n}"
        work.mkdir()
        done = subprocess.run([sys.executable, "-c", how], cwd=str(work), capture_output=True, text=True,
                              timeout=300, env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        assert sorted(p.name for p in work.iterdir()) == ["ckpt_report.json", "ckpt_report.md"], how
    assert sorted(p.name for p in site.iterdir() if p.name != "__pycache__") == before
