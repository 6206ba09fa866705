"""The report runs the report's tests share: a full run takes seconds, so each runs once a session.

    from report_fixtures import default_run, awkward_run  # the fixtures, in a test module

`default_run`: `python -m make_report` as an installed copy runs it (ckpt.py and make_report.py
copied into a folder named site-packages), in a fresh folder, default arguments, no PostgreSQL:
the committed report's run, and where an installed copy writes. `awkward_run`: make_report.main
in this process with a topic made to break Markdown, the other options not their defaults, and
PostgreSQL when AGCKPT_PG_URL is set; it keeps the report dict main rendered.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
from types import SimpleNamespace

import pytest

import make_report
from conftest import ROOT

# Spaces at both ends, a pipe, a backtick, HTML, a link, a newline, a heading mark; short enough
# that no value shown with it is shortened (a shortened value shows its length, which no run measured).
AWKWARD = "  a|b `c` <b>[g](h)\n# x  "
AWKWARD_ANGLE, AWKWARD_PAYLOAD = "요약", 777
FILES = ["ckpt_report.json", "ckpt_report.md"]

_runs = {}  # both runs, once a session, whichever test module asks first


def _read(folder):
    return SimpleNamespace(
        folder=folder, data=json.loads((folder / FILES[0]).read_text(encoding="utf-8")),
        md=(folder / FILES[1]).read_text(encoding="utf-8"))


def _start_installed_copy_run(base):
    """Start `python -m make_report` from an installed copy; the run goes on in the background."""
    site = base / "lib" / "site-packages"
    site.mkdir(parents=True)
    for name in ("ckpt.py", "make_report.py", "report_ko.py"):
        shutil.copy(ROOT / name, site / name)
    work, log = base / "work", base / "stderr.txt"
    work.mkdir()
    with open(log, "w", encoding="utf-8") as err:
        child = subprocess.Popen([sys.executable, "-m", "make_report"], cwd=str(work), stdout=subprocess.DEVNULL,
                                 stderr=err, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    return SimpleNamespace(child=child, site=site, work=work, log=log)


def _stop(child):
    """End a run still going as Ctrl-C would, so it removes its demos' stores; kill it if it hangs."""
    child.send_signal(signal.SIGINT)
    try:
        child.wait(timeout=30)
    finally:
        child.kill()  # a no-op once it has ended
        child.wait()


def _installed_copy_run(started):
    try:
        status = started.child.wait(timeout=300)
    finally:
        if started.child.poll() is None:
            _stop(started.child)
    assert status == 0, started.log.read_text(encoding="utf-8")
    site, work = started.site, started.work
    return SimpleNamespace(site=site, site_files=sorted(p.name for p in site.iterdir() if p.name != "__pycache__"),
                           stderr=started.log.read_text(encoding="utf-8"),
                           work_files=sorted(p.name for p in work.iterdir()), **vars(_read(work)))


def _awkward_run(base):
    out, kept = base / "new" / "folder", []  # a folder that does not exist yet
    measure = make_report.measure
    with pytest.MonkeyPatch.context() as patch:  # a spy: main measures as ever; its dict is kept
        patch.setattr(make_report, "measure", lambda *a, **kw: kept.append(measure(*a, **kw)) or kept[-1])
        try:
            status = make_report.main(["--out-dir", str(out), "--topic", AWKWARD, "--fork-angle", AWKWARD_ANGLE,
                                       "--payload-bytes", str(AWKWARD_PAYLOAD)])
        except SystemExit as exc:  # a usage error: the message is on stderr
            raise AssertionError(f"make_report.main exited with status {exc.code}") from None
    assert status == 0 and len(kept) == 1, (status, len(kept))
    return SimpleNamespace(report=kept[0], postgres=bool(os.environ.get("AGCKPT_PG_URL")), **vars(_read(out)))


def _both(tmp_path_factory):
    """Both runs, one after the other (each keeps this 2-core machine busy: side by side they took longer than
    in turn)."""
    if not _runs:
        try:
            _runs["default"] = _installed_copy_run(_start_installed_copy_run(tmp_path_factory.mktemp("default")))
            _runs["awkward"] = _awkward_run(tmp_path_factory.mktemp("awkward"))
        except Exception as exc:  # a run that failed fails every test that needs it, without running again
            _runs["failed"] = exc
    if "failed" in _runs:
        raise _runs["failed"]
    return _runs


@pytest.fixture(scope="session")
def default_run(tmp_path_factory):
    """`python -m make_report` from an installed copy: .folder (the current folder it ran in),
    .data, .md, .site, .site_files (site-packages after the run), .work_files, .stderr."""
    return _both(tmp_path_factory)["default"]


@pytest.fixture(scope="session")
def awkward_run(tmp_path_factory):
    """make_report.main with AWKWARD, 요약, 777 bytes, into a missing folder: .folder, .data,
    .md, .report (the dict it rendered), .postgres (whether it measured PostgreSQL)."""
    return _both(tmp_path_factory)["awkward"]
