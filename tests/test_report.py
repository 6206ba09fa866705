"""make_report.py: the report's files, cross-checked against direct calls of ckpt."""
import json
import os
import re
from pathlib import Path

import pytest

import ckpt
import make_report
from conftest import LG, ROOT

KEYS = ["topic", "checkpoints_per_run", "pending", "base_score", "fork_angle", "fork_score",
        "checkpoints_after_fork", "payload_bytes", "carrying", "survives_restart"]


def run(tmp_path, *args):
    assert make_report.main(["--out-dir", str(tmp_path), *args]) == 0
    data = json.loads((tmp_path / "ckpt_report.json").read_text(encoding="utf-8"))
    md = (tmp_path / "ckpt_report.md").read_text(encoding="utf-8")
    return data, md


@pytest.fixture(scope="module")
def default(tmp_path_factory):
    return run(tmp_path_factory.mktemp("default"))


def test_default_report_has_the_ten_keys_in_order_and_the_published_figures(default):
    data, _ = default
    assert list(data) == KEYS, list(data)
    assert data == {
        "topic": "가을", "checkpoints_per_run": 5, "pending": ["__start__", "plan", "write", "review", ""],
        "base_score": 5, "fork_angle": "비교", "fork_score": 17, "checkpoints_after_fork": 8,
        "payload_bytes": 1500, "carrying": 4, "survives_restart": False,
    }, data


def test_default_markdown_shows_399_and_6447_bytes(default):
    _, md = default
    assert "| 합계 | 399 | 6,447 | 6,048 |" in md, md
    assert "값을 실은 체크포인트마다 정확히 1,512바이트 = 페이로드 1,500 + 키가 더하는 12" in md, md


def test_markdown_has_exactly_the_four_sections_in_order(default):
    _, md = default
    assert [line for line in md.splitlines() if line.startswith("## ")] == make_report.SECTIONS
    assert not re.search(r"^# .*\n(?:.*\n)*^# ", md, re.M), "only one top-level heading"


def test_json_values_match_direct_calls_of_ckpt(tmp_path):
    topic, angle, size = "  봄 | `x` <b>\n끝  ", "요약", 777
    data, _ = run(tmp_path, "--topic", topic, "--fork-angle", angle, "--payload-bytes", str(size))
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("check")
    base = app.invoke({"topic": topic}, config)
    per_run, pending = ckpt.history_len(app, config), ckpt.pending(app, config)
    weighed = ckpt.weigh(topic, "x" * size)
    forked = ckpt.fork(app, config, "write", {"angle": angle})
    expected_draft = (f"{topic}/{angle} " * ckpt.ANGLES[angle]).strip()
    assert data == {
        "topic": topic, "checkpoints_per_run": per_run, "pending": pending,
        "base_score": base["score"], "fork_angle": angle, "fork_score": len(expected_draft),
        "checkpoints_after_fork": forked["total"], "payload_bytes": weighed["payload_bytes"],
        "carrying": weighed["carrying"], "survives_restart": ckpt.lost_demo(topic)["after_restart"] > 0,
    }, data
    assert data["fork_score"] == forked["result"]["score"]


AWKWARD = "a|b `c` <script>alert(1)</script> d\ne *f* [g](h) $x$ ~~s~~ # h"


def test_an_awkward_topic_cannot_break_a_table_a_chart_or_inject_html(tmp_path):
    data, md = run(tmp_path, "--topic", AWKWARD)
    assert data["topic"] == AWKWARD
    outside_code = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", md)  # code spans show text, never HTML
    assert "<script" not in outside_code and "<b>" not in outside_code, "raw HTML from the topic"
    assert "](h)" not in outside_code, "a link from the topic"
    in_block, width = False, None
    for line in md.splitlines():
        if line.startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            assert "script" not in line and "a|b" not in line, f"the topic reached a Mermaid block: {line}"
        elif line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            width = cells if width is None else width
            assert cells == width, f"a table row has {cells} cells, its header {width}: {line}"
        else:
            width = None
    assert md.count("```") % 2 == 0
    assert [line for line in md.splitlines() if line.startswith("## ")] == make_report.SECTIONS


def test_two_runs_write_identical_files(tmp_path, monkeypatch):
    monkeypatch.delenv("AGCKPT_PG_URL", raising=False)  # PostgreSQL's compressed sizes vary by a few bytes
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    run(tmp_path / "a")
    run(tmp_path / "b")
    for name in ("ckpt_report.json", "ckpt_report.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_the_report_names_no_checkpoint_id_and_no_timestamp(default):
    data, md = default
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", md), "a checkpoint id leaked"
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:", md), "a timestamp leaked"


def test_the_committed_report_is_fresh(tmp_path, monkeypatch):
    """The committed files are what `make report` writes: the JSON on every leg, the Markdown
    byte for byte on the newest-langgraph leg (its header names the versions it ran on)."""
    monkeypatch.delenv("AGCKPT_PG_URL", raising=False)
    run(tmp_path)
    committed_json = (ROOT / "ckpt_report.json").read_bytes()
    assert (tmp_path / "ckpt_report.json").read_bytes() == committed_json, "run `make report` and commit"
    fresh_md = (tmp_path / "ckpt_report.md").read_text(encoding="utf-8")
    committed_md = (ROOT / "ckpt_report.md").read_text(encoding="utf-8")
    header = committed_md.splitlines()[2]
    if f"langgraph {ckpt.langgraph_version()}," in header:
        assert fresh_md == committed_md, "ckpt_report.md is stale: run `make report` and commit"
    else:
        assert LG < (1,), f"the committed report was made on another langgraph than this newest leg: {header}"
        assert [l for l in fresh_md.splitlines() if l.startswith("## ")] == make_report.SECTIONS


@pytest.mark.parametrize("args, needle", [
    (["--payload-bytes", "299"], "--payload-bytes"),
    (["--payload-bytes", "0"], "--payload-bytes"),
    (["--fork-angle", "기본"], "--fork-angle"),
    (["--fork-angle", "없는각도"], "--fork-angle"),
])
def test_a_bad_argument_is_a_usage_error_and_writes_nothing(tmp_path, args, needle, capsys):
    for name in ("ckpt_report.json", "ckpt_report.md"):
        (tmp_path / name).write_text("old", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--out-dir", str(tmp_path), *args])
    assert exit_info.value.code == 2, exit_info.value.code  # argparse's status for every usage error
    err = capsys.readouterr().err
    assert err.startswith("usage: make_report.py") and f"error: {needle}" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt_report.json", "ckpt_report.md"]
    for name in ("ckpt_report.json", "ckpt_report.md"):
        assert (tmp_path / name).read_text(encoding="utf-8") == "old"


def test_a_missing_out_dir_is_created(tmp_path):
    missing = tmp_path / "new" / "folder"
    assert make_report.main(["--out-dir", str(missing)]) == 0
    assert sorted(p.name for p in missing.iterdir()) == ["ckpt_report.json", "ckpt_report.md"]


def test_an_out_dir_that_is_a_file_is_a_usage_error_saying_so(tmp_path, capsys):
    (tmp_path / "a-file").write_text("keep me")
    with pytest.raises(SystemExit) as caught:
        make_report.main(["--out-dir", str(tmp_path / "a-file")])
    assert caught.value.code == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert (tmp_path / "a-file").read_text() == "keep me"


def test_an_out_dir_that_cannot_be_created_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--out-dir", str(tmp_path / "a-file" / "sub")])
    assert exit_info.value.code == 2
    assert "error: --out-dir" in capsys.readouterr().err


def test_a_non_integer_payload_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--payload-bytes", "lots"])
    assert exit_info.value.code == 2
    assert "--payload-bytes" in capsys.readouterr().err


def test_the_report_files_get_ordinary_permissions(tmp_path):
    run(tmp_path)
    umask = os.umask(0)
    os.umask(umask)
    for name in ("ckpt_report.json", "ckpt_report.md"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_an_unreachable_postgres_url_is_one_usage_line_and_writes_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--out-dir", str(tmp_path), "--postgres-url", "postgresql://nobody@127.0.0.1:1/x"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith("make_report.py: error: --postgres-url: cannot reach PostgreSQL"), error
    assert list(tmp_path.iterdir()) == []


def test_the_header_names_the_postgres_saver_only_when_it_was_measured(default):
    _, md = default
    header = md.splitlines()[2]
    assert ("langgraph-checkpoint-postgres" in header) == bool(os.environ.get("AGCKPT_PG_URL")), header


def test_make_report_runs_as_a_script_with_the_installed_savers_and_writes_the_committed_lab_values(tmp_path):
    """`python make_report.py` as a learner runs it, also where langgraph is all there is (pod leg):
    exit 0, the committed JSON, the four sections, and one line naming each saver not installed."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "AGCKPT_PG_URL"}
    done = subprocess.run([sys.executable, str(ROOT / "make_report.py"), "--out-dir", str(tmp_path)],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ckpt_report.json").read_bytes() == (ROOT / "ckpt_report.json").read_bytes()
    md = (tmp_path / "ckpt_report.md").read_text(encoding="utf-8")
    assert [line for line in md.splitlines() if line.startswith("## ")] == make_report.SECTIONS, md
    sqlite_missing = "`langgraph-checkpoint-sqlite`가 설치되어 있지 않아" in md
    assert sqlite_missing == (not ckpt.has_backend("sqlite")), md


NUMBER = re.compile(r"(?<![0-9A-Za-z_.])-?\d[\d,]*(?:\.\d+)*(?![0-9A-Za-z_])")


def _number_values(text):
    """Every number token of `text`, normalized: "6,447" -> 6447.0, "3.17" -> 3.17, "4.3.2" -> "4.3.2"."""
    found = set()
    for token in NUMBER.findall(text):
        token = token.replace(",", "").rstrip(".")
        found.add(token if token.count(".") > 1 else float(token))
    return found


@pytest.fixture(scope="module")
def measured():
    report = make_report.measure("가을", 1500, "비교")
    return report, make_report.render(report)


def test_every_number_in_the_markdown_was_measured_or_is_a_labelled_reference(measured):
    """A number in the report comes from the run's dict; only paragraphs that start with
    "참고" (reference facts, each naming where it was measured) may hold others."""
    report, md = measured
    allowed = _number_values(json.dumps(report, ensure_ascii=False))
    checked, unmeasured = 0, []
    for paragraph in md.split("\n\n"):
        if paragraph.startswith("참고"):
            continue
        lines = [line for line in paragraph.splitlines() if not line.lstrip().startswith("y-axis")]
        text = "\n".join(lines).replace("UTF-8", "").replace("ISO 8601", "")
        for value in _number_values(text):
            checked += 1
            if value not in allowed:
                unmeasured.append((value, paragraph[:120]))
    assert checked > 100, checked  # the check saw the report's numbers
    assert unmeasured == [], unmeasured


def test_reference_paragraphs_say_where_they_were_measured(measured):
    _, md = measured
    references = [p for p in md.split("\n\n") if p.startswith("참고")]
    assert references, "the report has reference lines"
    for paragraph in references:
        assert "make test" in paragraph and "tests/test_" in paragraph, paragraph


AWKWARD_TOPICS = ["  lead/trail  ", "<b>|pipe|</b>", "`code` [link](http://x)", "x" * 200, "---"]


@pytest.mark.parametrize("topic", AWKWARD_TOPICS, ids=["spaces", "html-pipes", "code-link", "long", "dashes"])
def test_a_topic_keeps_the_four_sections_the_tables_and_the_numbers(tmp_path, topic):
    data, md = run(tmp_path, "--topic", topic)
    assert data["topic"] == topic and data["checkpoints_per_run"] == 5, data
    assert [line for line in md.splitlines() if line.startswith("## ")] == make_report.SECTIONS
    outside_code = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", md)
    assert "<b>" not in outside_code and "http://x" not in outside_code, "the topic became markup"
    width = None
    for line in md.splitlines():
        if line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            width = cells if width is None else width
            assert cells == width <= 5, f"{cells} cells, header {width}: {line}"
        else:
            width = None
    assert "| 합계 | " in md and f"주제 {make_report.code(topic)}" in md, md[:400]
    if len(topic) > 80:  # a long topic is shortened where it is shown, with its full length
        assert f"({len(topic)}자)" in md, md[:400]


def test_a_topic_too_long_for_a_command_line_still_reaches_the_demo_children(tmp_path):
    """The child's job goes in on its stdin: 150,000 Hangul characters are more than one
    command-line argument may hold (128 KiB), and the run still completes."""
    topic = "가" * 150_000
    result = ckpt.restart_demo(topic, "memory")
    assert (result["kept"], result["after_restart"]) == (5, 0), result


@pytest.mark.parametrize("args, needle", [
    (["--payload-bytes", "100000001"], "--payload-bytes must be at least 300 and at most 100,000,000"),
    (["--topic", "가\udcff"], "--topic: topic has a lone surrogate"),
])
def test_a_topic_or_payload_no_run_can_take_is_a_usage_error(tmp_path, capsys, args, needle):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--out-dir", str(tmp_path), *args])
    assert exit_info.value.code == 2
    assert needle in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
