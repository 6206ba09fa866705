"""make_report.py: the files a run writes, checked against the lab's figures, and its usage errors.

Two report runs serve every test here (report_fixtures): the default one, as the committed
report was made, and one with an awkward topic and the other options changed.
"""
import json
import os
import re
import subprocess
import sys

import pytest

import ckpt
import make_report
from conftest import LG, ROOT
from report_fixtures import AWKWARD, AWKWARD_ANGLE, AWKWARD_PAYLOAD, FILES, awkward_run, default_run  # noqa: F401

SECTIONS = ["## 무엇이 저장되는가", "## 되감기와 분기는 어떻게 다른가", "## 크기로 잰 것", "## 사라지는 것"]  # SPEC 4
PENDING = ["__start__", "plan", "write", "review", ""]  # the lab's pending() after one run


def setting(md):
    """The header's line naming the versions the report ran on."""
    return next(line for line in md.splitlines() if line.startswith("| 측정 환경 |"))


def sections(md):
    return [line for line in md.splitlines() if line.startswith("## ")]


def outside_code(md):
    """The Markdown without its code spans and fenced blocks: what a reader sees as markup."""
    md = re.sub(r"^```.*?^```", "", md, flags=re.S | re.M)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", md, flags=re.S)


def test_the_committed_report_is_fresh(default_run):
    """The committed files are what make_report writes with its default arguments: the JSON on
    every leg, the Markdown byte for byte on the newest-langgraph leg (its header names the
    versions it ran on)."""
    assert (default_run.folder / FILES[0]).read_bytes() == (ROOT / FILES[0]).read_bytes(), \
        "ckpt_report.json is stale: run `make report` and commit"
    committed_md = (ROOT / FILES[1]).read_text(encoding="utf-8")
    header = setting(committed_md)
    if f"langgraph {ckpt.langgraph_version()}," in header:
        assert default_run.md == committed_md, "ckpt_report.md is stale: run `make report` and commit"
    else:
        assert LG < (1,), f"the committed report was made on another langgraph than this newest leg: {header}"


def test_the_default_json_has_the_ten_keys_in_order_and_the_published_figures(default_run):
    assert default_run.data == {
        "topic": "가을", "checkpoints_per_run": 5, "pending": PENDING, "base_score": 5, "fork_angle": "비교",
        "fork_score": 17, "checkpoints_after_fork": 8, "payload_bytes": 1500, "carrying": 4,
        "survives_restart": False}, default_run.data
    assert list(default_run.data) == ["topic", "checkpoints_per_run", "pending", "base_score", "fork_angle",
                                      "fork_score", "checkpoints_after_fork", "payload_bytes", "carrying",
                                      "survives_restart"]


def test_the_default_markdown_states_the_published_figures_in_their_sentences(default_run):
    saved, travel, size, lost = re.split(r"^## .*$", default_run.md, flags=re.M)[1:]
    # the lab's third mistake: update_state's config thrown away; the thread gains the update's checkpoint on 1.x
    # and a replay's "fork" checkpoint (1 + 3 + 1 on 1.x; 1 + 2 on 0.2.60, SPEC 3)
    after_mistake = 9 if LG >= (1, 1, 7) else 8
    expected = [
        (saved, "그래프를 한 번 실행하면 체크포인트가 5개 남는다"),
        (saved, '(실습의 `pending()`) `["__start__", "plan", "write", "review", ""]` 순서다.'),
        (saved, "초안 `\"가을/기본\"`의 글자 수라서 5점이다."),
        (saved, "`notes`는 3개이고, 그 스레드의 체크포인트는 5개다."),  # another thread, run: it started empty
        (saved, f"점수는 5점이다. 값을 바꾸지 않았을 때와 같다. 체크포인트는 {after_mistake}개가 됐다."),
        (saved, "`get_state_history`는 최신 것부터 준다. 첫 항목은 단계 3(마지막 체크포인트)이다. 실습의 `history()`처럼 "
                "뒤집어야 첫 항목이 단계 -1(입력)이 된다."),
        (travel, "체크포인트는 5개에서 8개가 됐다."),
        (travel, '| 새 가지 (`비교`) | `"가을/비교 가을/비교 가을/비교"` | 17 |'),
        (travel, '`notes`는 `["plan:가을", "replaced"]`가 됐다.'),  # update_state writes through the reducer
        (travel, "`update_state`가 돌려준 config로 `get_state_history`를 부르면 체크포인트가 1개 나온다."),
        (size, "| 합계 | 399 | 6,447 | 6,048 |"),
        (size, "체크포인트 5개 가운데 4개에 페이로드가 들어 있다."),
        (size, "페이로드를 실은 체크포인트마다 정확히 1,512바이트씩이다. 페이로드 1,500바이트에 12바이트를 더한 값이다."),
        (size, "페이로드를 1,500바이트 늘릴 때마다 차이(fat − thin)는 6,000바이트씩 커졌다. 직선의 기울기는 4다."),
        (size, "fat 실행에서 그 채널은 thin보다 1,512바이트(JSON) 컸다."),  # the input, in the input checkpoint
        (size, "| 10 | 12 | 11 | "),  # nodes, checkpoints, checkpoints carrying the value
        (size, "| 30 | 32 | 31 | "),
        (size, "노드 30개에서 페이로드를 상태에 실은 체크포인트는 31개다."),
        (size, "`notes` 목록이다. 1턴 뒤 43바이트, 40턴 뒤 1,720바이트이고, 상태의 나머지는 매 턴 106바이트로 같다."),
        (size, "| #1 loop | 1,544 | "),  # the payload in the state, beside a key to it in a store
        (size, "store는 값을 한 번, 1,500바이트로 보관한다"),
        (size, "`DeltaChannel`은 `langgraph.channels`의 베타 채널이다" if LG >= (1, 2) else
               f"설치된 langgraph {ckpt.langgraph_version()}에는 `DeltaChannel`(아래 참고)이 없어서"),
        (lost, "스레드를 한 번 실행하면 체크포인트가 5개 남는다"),
        (lost, "같은 `thread_id`로 조회하면 체크포인트가 0개다. 값(`values`)도 비어 있다(`{}`)."),
        (lost, "보고서 JSON의 `survives_restart`도 `false`다."),
    ]
    assert [text for where, text in expected if text not in where] == []


def test_markdown_has_exactly_the_four_sections_in_order_and_one_title(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        assert sections(md) == SECTIONS, sections(md)
        titles = [line for line in md.splitlines() if line.startswith("# ")]
        assert titles == ["# 체크포인트 실험 보고서"], titles


def test_the_report_names_no_checkpoint_id_and_no_timestamp(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", md), "a checkpoint id leaked"
        assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:", md), "a timestamp leaked"


def test_the_header_names_the_postgres_saver_only_when_it_was_measured(default_run, awkward_run):
    assert "langgraph-checkpoint-postgres" not in setting(default_run.md)
    header = setting(awkward_run.md)
    assert ("langgraph-checkpoint-postgres" in header) == awkward_run.postgres, header


def test_a_run_with_other_options_reports_the_labs_values_for_them(awkward_run):
    """Expected values from the lab sheet's node formulas (SPEC 2) and figures (SPEC 3)."""
    draft = lambda angle, times: (f"{AWKWARD}/{angle} " * times).strip()  # noqa: E731  write(), as the lab sheet says
    assert awkward_run.data == {
        "topic": AWKWARD, "checkpoints_per_run": 5, "pending": PENDING, "base_score": len(draft("기본", 1)),
        "fork_angle": AWKWARD_ANGLE, "fork_score": len(draft(AWKWARD_ANGLE, 2)), "checkpoints_after_fork": 8,
        "payload_bytes": AWKWARD_PAYLOAD, "carrying": 4, "survives_restart": False}, awkward_run.data


def test_an_awkward_topic_is_shown_as_given_and_cannot_break_a_table_a_chart_or_make_markup(awkward_run):
    md = awkward_run.md
    shown = re.search(r"^\| 주제 \| (`+)(.*?)\1 \|$", md, re.M).group(2)
    assert json.loads(shown.replace("\\|", "|")) == AWKWARD, shown  # the topic as its JSON literal, spaces kept
    seen = outside_code(md)
    for piece in ("a|b", "<b>", "](h)", "# x"):
        assert piece not in seen, f"{piece!r} of the topic is outside a code span"
    in_block, width = False, None
    for line in md.splitlines():
        if line.startswith("```"):
            in_block = not in_block
        elif in_block:
            assert "a|b" not in line and "<b>" not in line, f"the topic reached a Mermaid block: {line}"
        elif line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            width = cells if width is None else width
            assert cells == width, f"a table row has {cells} cells, its header {width}: {line}"
        else:
            width = None
    assert not in_block, "a code block is left open"


NUMBER = re.compile(r"(?<![0-9A-Za-z_.])-?\d[\d,]*(?:\.\d+)*(?![0-9A-Za-z_])")


def _number_values(text):
    """Every number token of `text`, normalized: "6,447" -> 6447.0, "3.17" -> 3.17, "4.3.2" -> "4.3.2"."""
    found = set()
    for token in NUMBER.findall(text):
        token = token.replace(",", "").rstrip(".")
        found.add(token if token.count(".") > 1 else float(token))
    return found


def _str_lengths(value):
    """The length of every str in `value` (a report dict), keys and values."""
    if isinstance(value, dict):
        return {len(k) for k in value} | {n for v in value.values() for n in _str_lengths(v)}
    if isinstance(value, list):
        return {n for v in value for n in _str_lengths(v)}
    return {len(value)} if isinstance(value, str) else set()


def test_every_number_in_the_markdown_was_measured_or_is_a_labelled_reference(awkward_run):
    """A number in the report comes from the run's dict; only paragraphs that start with
    "참고" (reference facts, each naming where it was measured) may hold others. A length shown
    in characters ("36자 UUID") is the length of a str in the dict."""
    allowed = _number_values(json.dumps(awkward_run.report, ensure_ascii=False))
    lengths = _str_lengths(awkward_run.report)
    checked, unmeasured = 0, []
    for paragraph in awkward_run.md.split("\n\n"):
        if paragraph.startswith("참고"):
            continue
        lines = [line for line in paragraph.splitlines() if not line.lstrip().startswith("y-axis")]
        text = "\n".join(lines).replace("UTF-8", "").replace("ISO 8601", "")
        for length in re.findall(r"(?<![0-9A-Za-z_.])(\d+)자", text):
            checked += 1
            if int(length) not in lengths:
                unmeasured.append((f"{length}자", paragraph[:120]))
        for value in _number_values(re.sub(r"\d+자", "", text)):
            checked += 1
            if value not in allowed:
                unmeasured.append((value, paragraph[:120]))
    assert checked > 100, checked  # the check saw the report's numbers
    assert unmeasured == [], unmeasured


WHERE = ("(`make test`)가", "`make bench`", "PyPI", "LangGraph 문서", "langgraph-checkpoint 소스", "langgraph 소스")


def test_reference_paragraphs_say_where_they_were_measured_in_words_a_reader_follows(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        references = [p for p in md.split("\n\n") if p.startswith("참고")]
        assert references, "the report has reference paragraphs"
        for paragraph in references:
            assert any(place in paragraph for place in WHERE), paragraph
            assert "tests/" not in paragraph and "다리에서" not in paragraph, paragraph  # no test files, no test legs


def test_a_missing_out_dir_is_created_with_the_two_files_alone(awkward_run):
    assert awkward_run.folder.name == "folder" and awkward_run.folder.parent.name == "new"
    assert sorted(p.name for p in awkward_run.folder.iterdir()) == FILES


def test_the_report_files_get_ordinary_permissions(awkward_run):
    umask = os.umask(0)
    os.umask(umask)
    for name in FILES:
        assert (awkward_run.folder / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


def _usage_error(capsys, argv):
    """main(argv)'s usage error: argparse's exit status 2 and the message's last line."""
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(argv)
    assert exit_info.value.code == 2, exit_info.value.code
    err = capsys.readouterr().err
    assert err.startswith("usage: make_report.py"), err
    return err.splitlines()[-1]


@pytest.mark.parametrize("args, message", [
    (["--payload-bytes", "299"], "--payload-bytes must be at least 300 and at most 100,000,000, got 299"),
    (["--payload-bytes", "100000001"], "--payload-bytes must be at least 300 and at most 100,000,000"),
    (["--payload-bytes", "lots"], "argument --payload-bytes: invalid int value: 'lots'"),
    (["--fork-angle", "기본"], "--fork-angle must be one of ['요약', '비교'], got '기본'"),
    (["--fork-angle", "없는각도"], "--fork-angle must be one of ['요약', '비교'], got '없는각도'"),
    (["--topic", "가\udcff"], "--topic: topic cannot be written as JSON"),
    (["--topic", "---", "--payload-bytes", "0"], "--payload-bytes must be at least 300"),  # "---" is the topic
], ids=["payload-299", "payload-too-big", "payload-not-int", "angle-default", "angle-unknown",
        "topic-lone-surrogate", "topic-dashes"])
def test_a_bad_argument_is_a_usage_error_and_leaves_the_out_dir_as_it_was(tmp_path, capsys, args, message):
    for name in FILES:
        (tmp_path / name).write_text("old", encoding="utf-8")
    error = _usage_error(capsys, ["--out-dir", str(tmp_path), *args])
    assert error.startswith("make_report.py: error: ") and message in error, error
    assert sorted(p.name for p in tmp_path.iterdir()) == FILES
    assert [(tmp_path / name).read_text(encoding="utf-8") for name in FILES] == ["old", "old"]


def test_an_out_dir_that_is_a_file_is_a_usage_error_saying_so(tmp_path, capsys):
    (tmp_path / "a-file").write_text("keep me", encoding="utf-8")
    error = _usage_error(capsys, ["--out-dir", str(tmp_path / "a-file")])
    assert error.endswith(f"--out-dir {str(tmp_path / 'a-file')!r} is a file, not a folder"), error
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "keep me"


def test_an_out_dir_holding_a_folder_of_a_report_files_name_is_a_usage_error_and_nothing_is_written(tmp_path, capsys):
    (tmp_path / "ckpt_report.md").mkdir()
    error = _usage_error(capsys, ["--out-dir", str(tmp_path)])
    assert error.endswith(f"--out-dir {str(tmp_path)!r} holds a folder named ckpt_report.json or ckpt_report.md"), error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt_report.md"]


def test_an_out_dir_that_cannot_be_made_is_a_usage_error_saying_so(tmp_path, capsys):
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    error = _usage_error(capsys, ["--out-dir", str(tmp_path / "a-file" / "sub")])
    assert f"--out-dir {str(tmp_path / 'a-file' / 'sub')!r} cannot be written" in error, error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


@pytest.mark.postgres  # needs the PostgreSQL saver's package, not a server
def test_an_unreachable_postgres_url_is_one_runtime_error_line_naming_the_flag_and_writes_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        make_report.main(["--out-dir", str(tmp_path), "--postgres-url", "postgresql://nobody@127.0.0.1:1/x"])
    message = exit_info.value.code  # a str: Python prints it on stderr and exits with status 1
    assert isinstance(message, str) and "\n" not in message, message
    assert message.startswith("make_report.py: error: PostgreSQL at the URL from --postgres-url: ConnectionError: "), message
    assert "127.0.0.1" in message and "usage:" not in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.postgres
def test_an_unreachable_postgres_url_from_the_environment_says_so_with_exit_status_1(tmp_path):
    done = subprocess.run([sys.executable, "-W", "ignore", str(ROOT / "make_report.py"), "--out-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, AGCKPT_PG_URL="postgresql://nobody@127.0.0.1:1/x"))
    # langchain-core 0.3 (the 0.2.60 legs) turns its own import-time warnings back on: they are not ours
    lines = [line for line in done.stderr.splitlines() if line.startswith("make_report.py")]
    assert done.returncode == 1 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("make_report.py: error: PostgreSQL at the URL from AGCKPT_PG_URL: ConnectionError: "), lines
    assert list(tmp_path.iterdir()) == []


def test_a_topic_too_long_for_a_command_line_still_reaches_the_demo_children():
    """The child's job goes in on its stdin: 150,000 Hangul characters are more than one
    command-line argument may hold (128 KiB), and the run still completes."""
    result = ckpt.restart_demo("가" * 150_000, "memory")
    assert (result["kept"], result["after_restart"]) == (5, 0), result
