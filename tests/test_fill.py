"""report_ko.Fill: how a template's field reads the report by path and how its spec shows the value, each on a small
dict, with the exact text expected."""
import pytest

from report_ko import Fill, particles

REPORT = {"fork": {"before": 5, "total": 8}, "weigh": {"payload_bytes": 1500}, "copies": 6.1875, "per_byte": 4.0,
          "angle": "비교", "names": ["plan", "write", "review"], "none": [], "yes": True, "no": False, "backend": "sqlite",
          "rows": [{"name": "a|b", "bytes": 1500}, {"name": "c", "bytes": 2}], "total": 1502,
          "versions": {"python": "3.9.18", "langgraph": "0.2.60"}}
WORDS = {  # what the specs' NAMEs name, as report_ko's own do
    "ROWS_TABLE": (["이름", "바이트"], ["{name:lit}", "{bytes:,}"], [["합계", "{total:,}"], ["{no:?숨은 행|}", "{no:?1|}"]]),
    "COLUMNS_TABLE": (["{versions:each=HEADS}"], ["{value}"], []),
    "HEADS": ("{key}", " | "),
    "VERSIONS": ("{key} {value}", ", "),
    "KEPT": ("{value:?{value:lit}|}", "·"),
    "PROSE": {"memory": "메모리 saver", "sqlite": "SQLite saver"},
    "YES": {True: "예", False: "아니오"},
    "ENDED": "{before}개에서 {total}개가 됐다",
    "CHART": ("제목", "x축", "바이트"),
}


def fill(template, report=REPORT):
    return Fill(report, WORDS).fill(template)


def test_a_field_reads_the_report_by_path_with_negative_indices_and_slices():
    assert fill("{fork[before]}개에서 {fork[total]}개, {names[-1]}, {names[1:]}, {names[::2]}") == \
        "5개에서 8개, review, ['write', 'review'], ['plan', 'review']"


def test_standard_specs_format_as_str_format_does():
    assert fill("{weigh[payload_bytes]:,}바이트, {copies:.2f}개, 기울기 {per_byte:g}, {yes}") == \
        "1,500바이트, 6.19개, 기울기 4, True"


def test_a_conditional_shows_one_branch_and_fills_only_that_one():
    # the branch not shown names a field the report lacks: it is never read
    assert fill("[{yes:?있다 {fork[total]}개|{missing[x]}}] [{no:?{missing[x]}|없다}] [{none:?비지 않음|빔}]") == \
        "[있다 8개] [없다] [빔]"


def test_a_conditional_may_hold_another_and_a_field_whose_spec_holds_a_pipe():
    assert fill("{yes:?{no:?a|b {names:each=KEPT}}|c} {no:?x|{yes:?y|z}}") == "b `plan`·`write`·`review` y"


def test_a_postposition_mark_after_a_field_stays_a_mark_until_particles_chooses_its_form():
    text = fill("`angle`{을/를} {angle:lit}{으로/로} 바꾼 {fork[total]}{이/가} {yes:?{backend:pick=PROSE}{은/는}|}")
    assert text == "`angle`{을/를} `비교`{으로/로} 바꾼 8{이/가} SQLite saver{은/는}"
    assert particles(text) == "`angle`을 `비교`로 바꾼 8이 SQLite saver는"


def test_a_brace_is_written_twice_outside_a_field_and_inside_a_conditional():
    assert fill('`{{"notes": ["replaced"]}}`를 주자 {yes:?비어 있다(`{{}}`)|{{아님}}}') == \
        '`{"notes": ["replaced"]}`를 주자 비어 있다(`{}`)'


def test_a_table_has_a_row_per_item_then_its_rows_after_escapes_a_pipe_in_a_value_and_leaves_an_empty_row_out():
    assert fill("{rows:table=ROWS_TABLE}") == "\n".join([
        "| 이름 | 바이트 |", "|---|---|", "| `a\\|b` | 1,500 |", "| `c` | 2 |", "| 합계 | 1,502 |"])


def test_a_header_or_cell_joined_with_a_pipe_spans_a_column_per_item():
    assert fill("{none:table=COLUMNS_TABLE}") == "| python | langgraph |\n|---|---|"


def test_each_joins_the_filled_items_leaving_out_the_empty_ones():
    assert fill("{versions:each=VERSIONS}; {names:each=KEPT}; [{none:each=KEPT}]") == \
        "python 3.9.18, langgraph 0.2.60; `plan`·`write`·`review`; []"


def test_pick_fills_the_template_a_key_or_a_truth_names_and_with_fills_one_with_a_dicts_keys():
    assert fill("{backend:pick=PROSE}: {yes:pick=YES}, {no:pick=YES}, {fork:with=ENDED}") == \
        "SQLite saver: 예, 아니오, 5개에서 8개가 됐다"


def test_code_nodes_lit_and_len_show_values_as_code():
    report = {"topic": "  a|b `c` ", "long": "x" * 200, "list": list(range(40)), "names": ["plan"], "none": []}
    assert fill("{topic:code} {names:nodes} {none:nodes} {names:len} {topic:lit}", report) == \
        '``"  a|b `c` "`` `plan` — 1 ``  a|b `c` ``'  # a fence longer than the text's longest run of backticks
    assert fill("{long:code}", report) == "`\"" + "x" * 78 + "…` (200자)"
    assert fill("{list:code}", report).endswith("…` (JSON 150자)")


def chart(lines, palette, title, axis, top):
    """A Mermaid xychart-beta as Fill writes it, with WORDS["CHART"]'s axis titles."""
    return "\n".join(["```mermaid", '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "' + palette + '"}}}}%%',
                      "xychart-beta", f'    title "{title}"', f'    x-axis "x축" [{axis}]', f'    y-axis "바이트" 0 --> {top}',
                      *lines, "```"])


def test_a_chart_is_a_mermaid_xychart_with_a_line_per_saver_in_its_colour_named_in_its_title():
    data = {"charts": {"x": [3, 10], "savers": {"memory": [3.17, 3.44], "sqlite": [6.19, 13.5]}}}
    assert Fill(data, WORDS).fill("{charts:chart=CHART}") == chart(
        ["    line [3.17, 3.44]", "    line [6.19, 13.5]"], "#1f77b4, #d62728", "제목 (파랑 메모리, 빨강 SQLite)",
        '"3", "10"', 15)  # the y-axis from 0 to a tenth over the top value, and one


def test_bars_are_several_bar_series_on_one_scale_the_first_red():
    data = {"charts": {"x": ["#0 input", "#1 loop"], "bars": [[13, 1544], [13, 32]]}}
    assert Fill(data, WORDS).fill("{charts:chart=CHART}") == chart(
        ["    bar [13, 1544]", "    bar [13, 32]"], "#d62728, #1f77b4", "제목", '"#0 input", "#1 loop"', 1699)


def test_a_single_line_is_drawn_in_the_first_colour():
    data = {"charts": {"x": ["5", "10"], "line": [28153, 60893]}}
    assert Fill(data, WORDS).fill("{charts:chart=CHART}") == chart(
        ["    line [28153, 60893]"], "#1f77b4, #d62728", "제목", '"5", "10"', 66983)


def test_a_field_the_report_lacks_is_an_error_not_an_empty_text():
    with pytest.raises(KeyError):
        fill("{fork[after]}")
