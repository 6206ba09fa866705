"""make_report.py: the files a run writes, checked against the lab's figures, and its usage errors.

Two report runs serve every test here (report_fixtures): the default one, as the committed
report was made, and one with an awkward topic and the other options changed.
"""
import inspect
import json
import os
import re
import subprocess
import sys

import pytest

import ckpt
import make_report
from conftest import CK, LG, ROOT
from report_fixtures import AWKWARD, AWKWARD_ANGLE, AWKWARD_PAYLOAD, FILES, awkward_run, default_run  # noqa: F401

SECTIONS = ["## 무엇이 저장되는가", "## 되감기와 분기는 어떻게 다른가", "## 크기로 잰 것", "## 사라지는 것"]  # SPEC 4
PENDING = ["__start__", "plan", "write", "review", ""]  # the lab's pending() after one run
KEYS = ["topic", "checkpoints_per_run", "pending", "base_score", "fork_angle", "fork_score", "checkpoints_after_fork",
        "payload_bytes", "carrying", "survives_restart"]  # the lab's ten JSON keys, in its order
PUBLISHED = {"topic": "가을", "checkpoints_per_run": 5, "pending": PENDING, "base_score": 5, "fork_angle": "비교",
             "fork_score": 17, "checkpoints_after_fork": 8, "payload_bytes": 1500, "carrying": 4,
             "survives_restart": False}  # the lab sheet's figures for the default run
FIRST_SCREEN, WHOLE = 3_500, 23_500  # characters: what a reader sees before the first section; the whole report


def setting(md):
    """The first screen's sentence naming the versions the report ran on."""
    return next(line for line in md.splitlines() if line.startswith("측정 환경은 "))


def first_screen(md):
    """What comes before the first "##" section."""
    return md.split("\n## ")[0]


def is_reference(paragraph):
    """A paragraph that says where its facts come from: it starts with "참고", after its bold lead-in if it has one."""
    return re.sub(r"^\*\*.*?\*\* ", "", paragraph).startswith("참고")


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
    assert default_run.data == PUBLISHED, default_run.data
    assert list(default_run.data) == KEYS


def test_the_default_markdown_states_the_published_figures_in_their_sentences(default_run):
    top, saved, travel, size, lost = re.split(r"^## .*$", default_run.md, flags=re.M)
    sqlite, durability = ckpt.has_backend("sqlite"), ckpt.has_durability()
    # the lab's third mistake: update_state's config thrown away; the thread gains the update's checkpoint on 1.x
    # and a replay's "fork" checkpoint (1 + 3 + 1 on 1.x; 1 + 2 on 0.2.60, SPEC 3)
    after_mistake, replay = (9, "| `write` | 3 | `write`, `review` | fork, loop, loop |") if LG >= (1, 1, 7) else \
        (8, "| `write` | 2 | `write`, `review` | loop, loop |")
    expected = [
        (top, "상태 전체를 saver에 체크포인트로 저장한다(이번 실행에서 5개)."),
        (top, "상태를 JSON으로 바꿔 세면 1,500바이트 값은 체크포인트 5개 가운데 4개에 들어 있다."),
        (top, "| `base_score` | 5 | `angle`을 `기본`으로 두고 한 번 실행한 점수(초안 `\"가을/기본\"`의 글자 수) |"),
        (top, "1. **무엇이 저장되는가?** 한 번 실행하면 체크포인트가 5개 저장된다."),
        (top, "분기(`update_state`로 `angle`을 `비교`로 바꾼 뒤 돌려받은 config로 이어 가는 것)는 바꾼 값을 사용하고(점수 17), "
              "체크포인트가 3개 늘어난다."),
        (top, "같은 `thread_id`로 읽어도 체크포인트는 0개이고 값은 `{}`다. 오류는 나지 않는다."),
        (top, "원래 config로 이어 가자 초안은 `\"가을/기본\"`, 점수는 5점 그대로였다. 돌려받은 config로 이어 가자 17점이 됐다."),
        (top, "분기 뒤 스레드를 읽으면 새 가지의 끝(점수 17)이 나온다. 원래 가지의 끝(점수 5)은 담아 둔 config로 읽었다."),
        (top, "재시작 뒤 새 saver가 찾은 체크포인트는 " + ("메모리 saver에서 0개, SQLite saver에서 5개였다." if sqlite else
                                                   "메모리 saver에서 0개였다.")),
        (saved, "한 번 실행하면 5개가 생기고"),
        (saved, '실습의 `pending()`이 돌려주는 `["__start__", "plan", "write", "review", ""]`가 된다.'),
        (saved, "실행한 스레드는 `notes` 3개, 체크포인트 5개였다."),  # another thread, run: it started empty
        (saved, "| `update_state` 뒤에 원래 config로 이어 간다 | 초안은 `\"가을/기본\"`, 점수는 5점이었다. 바꾼 값은 사용되지 않았다. |"),
        (saved, "| `get_state_history`를 뒤집지 않고 읽는다 | 첫 항목이 단계 3(마지막 체크포인트)이었다. 뒤집어야 단계 -1(입력)부터 읽혔다. |"),
        (travel, "| 늘어난 체크포인트 | " + replay.split(" | ")[1] + " | 3 |"),  # the replay's, then the fork's 5 -> 8
        (travel, "| 그 뒤 스레드의 config로 읽으면 | 되감기가 만든 끝 | 새 가지의 끝(점수 17) |"),
        (travel, replay),
        (travel, '`notes`는 `["plan:가을", "replaced"]`가 됐다.'),  # update_state writes through the reducer
        (travel, f"값을 바꾼 새 체크포인트는 이어 가는 가지 없이 남았고, 스레드의 체크포인트는 {after_mistake}개가 됐다."),
        (travel, "`update_state`가 돌려준 config로 `get_state_history`를 부르면 체크포인트가 1개 나온다."),
        (size, "| 합계 | 399 | 6,447 | 6,048 |"),
        (size, "| #1 loop | 32 | 1,544 | 1,512 |"),
        (size, "페이로드는 체크포인트 5개 가운데 4개에 들어갔고, 상태 바이트의 합계는 399바이트에서 6,447바이트가 됐다."),
        (size, "페이로드가 든 체크포인트마다 정확히 1,512바이트가 더해졌다. 페이로드 1,500바이트에 키와 구분자 `, \"bulk\": \"\"`의 "
               "12바이트를 더한 크기다."),
        (size, "페이로드가 1,500바이트 늘 때마다 차이는 6,000바이트씩 늘었다. 기울기 4(6,000 ÷ 1,500)는 페이로드가 든 체크포인트 수와 같다."),
        (size, "페이로드를 넣은 실행에서 그 채널은 1,512바이트(JSON) 더 컸다."),  # the input, in the input checkpoint
        (size, "| 10 | 12 | 11 | "),  # nodes, checkpoints, checkpoints carrying the value
        (size, "| 30 | 32 | 31 | "),
        (size, " | 43 |\n"), (size, " | 1,720 |\n"),  # the notes' JSON bytes after turn 1 and turn 40
        (size, "LangGraph store에는 값이 1,500바이트 하나만 들어 있다."),
        (size, "`snapshot_frequency`에 이른 34턴에 목록 전체가 저장됐다" if LG >= (1, 2) else
               f"설치된 langgraph {ckpt.langgraph_version()}에는 `DeltaChannel`이 없어(`ImportError`) 재지 않았다."),
        (lost, "(`survives_restart`는 `false`)"),
        (lost, "| 메모리 (InMemorySaver) | 5 | 0 | 아니오 |"),
    ]
    if LG >= (1, 2):
        expected.append((size, "| 34 | "))  # DeltaChannel's full snapshot, a row of the turns table
    if sqlite:
        # the rewritten rows: LangGraph's reader built from all three before langgraph-checkpoint 3.0, from the two
        # msgpack rows after it (JSON-mode constructors fixed in 3.0.0)
        expected += [(top, f"LangGraph의 SQLite saver로 읽자, saver는 고친 행 3개 가운데 {2 if CK >= (3,) else 3}개에서 객체를 만들거나 "
                           "함수를 불렀다."),
                     (size, "SQLite 파일은 `delete_thread` 뒤에도 36,864바이트 그대로였고, 지운 행이 있던 페이지(파일의 고정 크기 "
                            "단위) 4개가 빈 채로 파일 안에 남았다. `VACUUM`(파일을 새로 써서 빈 페이지를 없애는 SQLite "
                            "명령)을 실행한 뒤에야 20,480바이트로 줄었다."),
                     (lost, "| SQLite (SqliteSaver) | 5 | 5 | 예 |"),
                     (lost, "| SQLite (SqliteSaver) | 4 | `review` | `review` | 5 |")]  # resumed after the crash
    # the durability matrix: after the end, after review raised, after review was killed (SQLite), resumed nodes
    expected += [(lost, row) for row in (
        ["| `exit` | 1 | 1 | 0 | `review` |", "| `async` | 5 | 4 | 4 (기다린 뒤) | `review` |", "| `sync` | 5 | 4 | 4 | `review` |"]
        if durability else [f"| (durability 없음) | 5 | 4 | {'4 (기다린 뒤)' if sqlite else '—'} | `review` |"])]
    assert [text for where, text in expected if text not in where] == []


def test_the_first_screen_shows_the_ten_json_keys_in_one_table_with_their_values(default_run, awkward_run):
    """Before the first "##": one table holds the ten keys, in the lab's order, each with its value as the run gave it
    (the default run's: the lab sheet's figures; the awkward run's: the summary of the dict it rendered)."""
    for md, summary in ((default_run.md, PUBLISHED), (awkward_run.md, awkward_run.report["summary"])):
        tables = re.findall(r"(?:^\|.*\|\n)+", first_screen(md), re.M)
        keyed = [t for t in tables if "| `topic` |" in t]
        assert len(keyed) == 1 and keyed[0] == tables[0], tables  # the first table of the report, and the only one
        rows = [re.split(r"(?<!\\)\|", line)[1:-1] for line in keyed[0].splitlines()[2:]]
        assert [key.strip() for key, *_ in rows] == [f"`{key}`" for key in KEYS], rows
        for (key, value, meaning), name in zip(rows, KEYS):
            value = value.strip().replace("\\|", "|")
            if isinstance(summary[name], int) and not isinstance(summary[name], bool):
                assert int(value.replace(",", "")) == summary[name], (name, value)
            else:  # a JSON literal in a code span, its fence longer than any run of backticks inside
                fence = re.match(r"`+", value).group()
                assert value.endswith(fence) and json.loads(value[len(fence):-len(fence)].strip()) == summary[name], (name, value)
            assert meaning.strip(), name


def test_the_first_screen_fits_a_screen_and_the_whole_report_its_length_on_the_newest_line(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        assert len(first_screen(md)) <= FIRST_SCREEN, len(first_screen(md))
    if LG >= (1,):  # the newest line's report, with every row its savers and langgraph measure
        assert len(default_run.md) <= WHOLE, len(default_run.md)


def test_each_section_opens_with_a_table_before_its_first_subsection(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        for section in re.split(r"^## ", md, flags=re.M)[1:]:
            opening = re.split(r"^### ", section, flags=re.M)[0]
            assert re.search(r"^\|---", opening, re.M), section.splitlines()[0]


def test_the_report_has_no_glossary_and_names_no_internal_function_of_ckpt_and_no_test_file(default_run, awkward_run):
    internal = [name for name, value in vars(ckpt).items() if name.startswith("_") and not name.startswith("__")
                and (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == "ckpt"]
    assert len(internal) > 10, internal  # the check sees ckpt's helpers
    for md in (default_run.md, awkward_run.md):
        headings = [line for line in md.splitlines() if line.startswith("#")]
        assert not [h for h in headings if re.search(r"용어|낱말|뜻풀이|glossary", h, re.I)], headings
        assert [name for name in internal if re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", md)] == []
        assert not re.search(r"\btests?/|\btest_\w+\.py|conftest|report_fixtures", md), "a test file is named"


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
    shown = re.search(r"^\| `topic` \| (`+)(.*?)\1 \| 그래프에 준 주제 \|$", md, re.M).group(2)
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
        if is_reference(paragraph):
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


WHERE = ("이 프로젝트의 테스트가", "`make bench`", "PyPI", "LangGraph 문서", "LangGraph API 문서", r"langgraph-checkpoint( [\d.]+)? 소스",
         r"langgraph( [\d.]+)? 소스", "GitHub 보안 권고 데이터베이스", "실습 해설")  # patterns


def test_reference_paragraphs_say_where_they_were_measured_in_words_a_reader_follows(default_run, awkward_run):
    for md in (default_run.md, awkward_run.md):
        references = [p for p in md.split("\n\n") if is_reference(p)]
        assert references, "the report has reference paragraphs"
        for paragraph in references:
            assert any(re.search(place, paragraph) for place in WHERE), paragraph
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
