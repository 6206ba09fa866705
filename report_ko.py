"""The report in Korean: the words of ckpt_report.md, one template per section, and how a template is filled.

A template's lines are the document's paragraphs, headings and blocks (a line ending in a backslash goes on). Fill fills
it from make_report's report dict (derive(report)): a field is a path into the dict, {fork[total]}, {chains[-1][nodes]},
{chains[1:]}, and its spec says how to show the value:
  {x:,} {x:.2f} {x:g}  as format() does          {x:code}  its JSON literal in a code span, shortened when long
  {x:lit}  text in a code span                  {x:nodes}  names as code spans, ", " between; "—" for none
  {x:len}  how many items                       {x:gitgraph}  the thread's tree drawn as a Mermaid gitGraph
  {x:?A|B}  A when x is true, else B; either may hold fields, and only the one shown is filled
  {x:pick=NAME}  the template NAME[x] (NAME[bool(x)] when its keys are True and False), filled in place
  {x:with=NAME}  the template NAME filled with x's keys as its fields
  {x:each=NAME}  NAME = (template, separator): the template filled per item of x, the empty ones left out, joined
  {x:table=NAME}  NAME = (headers, a cell template per column, rows after the items): a Markdown table, a row per item
  {x:chart=NAME}  NAME = (title, x-axis title, y-axis title): a Mermaid xychart of x = {"x": labels, "bar" or "line":
                  values}, {"x": labels, "bars": [values, ...]} (bars on one scale, the first red), or {"x": labels,
                  "savers": {saver: values}}, a line per saver in its colour
An item's template (each, table) has the item's keys as fields, a dict's key as {key}, a scalar item as {value}, and the
whole report as {r}. A mark of PAIRS ({을/를}, {이/가}, {은/는}, {으로/로}, {이다/다}, ...) after a field is the postposition
that fits the word before it, chosen by particles() once the template is filled. A brace meant as a brace is written
twice: {{}}.
"""
import json
import re
import string
from collections import Counter


def doc(text: str) -> str:
    """A template whose lines are the document's paragraphs, headings and blocks, a blank line between each two."""
    return "\n\n".join(text.replace("\\\n", "").splitlines())


# ---- Postpositions: the form that fits the last syllable read before them. ----
PAIRS = ("을/를", "이/가", "은/는", "과/와", "으로/로", "이다/다", "이었다/였다", "이었고/였고", "이고/고", "이며/며")
_DIGITS = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}  # 영 일 이 삼 사 오 육 칠 팔 구
_ZEROS = {1: 17, 2: 1, 3: 4, 4: 4}  # 십 백 천 만: the final consonant of a number ending in 1 to 4 zeros


def final_consonant(text: str) -> int:
    """The final consonant (jongseong index, 0 for none, 8 for ㄹ) of the last syllable read in `text`: marks that
    close a code span or quotation and a trailing "(...)" are skipped, as a reader skips them; a number is read in
    Korean ("3" 삼 -> 16, "10" 십 -> 17), a Latin word by its sound ("plan" -> ㄴ, "SQL" -> 엘 ㄹ)."""
    t, before = text.rstrip(), None
    while t != before:
        before, t = t, re.sub(r"\s*\([^()]*\)$", "", t.rstrip("`\"'”’]}*>. ")).rstrip()
    if not t:
        return 0
    last = t[-1]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28
    if last.isdigit():
        digits = re.search(r"[\d,]*$", t).group().replace(",", "")
        zeros = len(digits) - len(digits.rstrip("0"))
        return _ZEROS.get(min(zeros, 4), 0) if zeros and digits.strip("0") else _DIGITS[last]
    word = re.search(r"[A-Za-z]*$", t).group()
    if not word:
        return 0
    if word.isupper() or len(word) == 1:  # read letter by letter: 엘 엠 엔 알
        return {"L": 8, "M": 16, "N": 4, "R": 8}.get(word[-1].upper(), 0)
    word = word.lower()  # an English word by its Korean reading: angle 앵글, prune 프룬, name 네임, plan 플랜, topic 토픽
    if len(word) <= 3 and word.endswith("t"):  # put 풋, get 겟
        return 19
    for ending, final in (("le", 8), ("ne", 4), ("me", 16), ("ng", 21), ("ic", 1), ("l", 8), ("m", 16), ("n", 4)):
        if word.endswith(ending):
            return final
    return 0


def particles(text: str) -> str:
    """`text` with each {을/를}-style mark replaced by the form that fits what comes before it; a mark inside a code span
    is part of a value shown as it is (a topic may hold one), and stays."""
    spans = [m.span() for m in re.finditer(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", text)]

    def choose(match: "re.Match") -> str:
        """The form of the mark `match` found that fits the text before it; the mark itself inside a code span."""
        if any(start < match.start() < end for start, end in spans):
            return match.group(0)
        with_final, without = match.group(1).split("/")
        final = final_consonant(text[:match.start()])
        if with_final == "으로":
            return "로" if final in (0, 8) else "으로"
        return with_final if final else without
    return re.sub(r"\{(" + "|".join(PAIRS) + r")\}", choose, text)


# ---- Filling a template: each field a path into the report, each spec a way to show a value (the docstring above). ----
def lit(text: str) -> str:
    """Text in a code span, shown exactly: no emphasis (`__start__`), links or HTML."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code(value, limit: int = 80) -> str:
    """A value as its JSON literal in a code span (spaces kept); a long one shortened, its length after it (SHORTENED):
    "x" * 200 -> `"xxx…` (200자)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= limit:
        return lit(text)
    return lit(text[:limit - 1] + "…") + " " + SHORTENED[isinstance(value, str)].format(
        len(value) if isinstance(value, str) else len(text))


def nodes(names: list) -> str:
    """Names as code spans, ", " between: "`plan`, `write`"; "—" for none."""
    return ", ".join(map(lit, names)) if names else "—"


def gitgraph(tree: list) -> str:
    """The thread's checkpoints (derive's tree rows, each with its label) as a Mermaid gitGraph: the first run on its
    lane, each branch on its own lane named in LANES ("되감기", then "되감기-2", ...); update and fork highlighted."""
    kids, lanes, first = {}, Counter(), LANES["run"]
    lines = ["```mermaid", "%%{init: {'gitGraph': {'mainBranchName': '" + first + "'}}}%%", "gitGraph"]
    for row in tree:
        kids.setdefault(row["parent"], []).append(row)

    def walk(row: dict, lane: str) -> None:
        """Add the commands that draw `row`, the rest of its lane, then each branch off it; returns nothing."""
        later = []
        while row is not None:
            kind = " type: HIGHLIGHT" if row["source"] in ("update", "fork") else ""
            lines.append(f'    commit id: "{row["label"]}"{kind}')
            children = kids.get(row["position"], [])
            for kid in children[1:]:  # a branch starts here; it is drawn after this lane
                base = LANES["update" if kid["source"] == "update" else "replay"]
                lanes[base] += 1
                name = base if lanes[base] == 1 else f"{base}-{lanes[base]}"
                lines.extend([f'    branch "{name}"', f'    checkout "{lane}"'])
                later.append((kid, name))
            row = children[0] if children else None
        for kid, name in later:
            lines.append(f'    checkout "{name}"')
            walk(kid, name)
    walk(tree[0], first)
    return "\n".join(lines + ["```"])


def _index(key: str):
    """A list index from a field's path: "0" -> 0, "-1" -> -1, "1:" -> slice(1, None), "4::5" -> slice(4, None, 5)."""
    return slice(*(int(k) if k else None for k in key.split(":"))) if ":" in key else int(key)


def _branches(spec: str) -> tuple:
    """A conditional's two branches, split at its first "|" outside nested fields: "a{x:?b|c}|d" -> ("a{x:?b|c}", "d");
    without a "|": (spec, "")."""
    depth = 0
    for i, char in enumerate(spec):
        depth += (char == "{") - (char == "}")
        if char == "|" and not depth:
            return spec[:i], spec[i + 1:]
    return spec, ""


SHOW = {"code": code, "lit": lit, "nodes": nodes, "len": lambda value: str(len(value)), "gitgraph": gitgraph}
PALETTE = "#1f77b4, #d62728"  # a chart's colours, in turn, when its lines are not savers


class Fill(string.Formatter):
    """str.format over a report dict: each field is a path into it and each spec one the module's docstring lists; a
    NAME in a spec is one of `words` (this module's names); a field named like a mark of PAIRS stays that mark."""

    def __init__(self, report: dict, words: dict = None):
        """A filler of templates from `report`; returns nothing."""
        self.report, self.words, self.cell = report, globals() if words is None else words, False
        self.contexts = [dict(report, r=report)]

    def fill(self, template: str, context: dict = None) -> str:
        """`template` filled in `context`, else in the context of the field being filled (at first, the report)."""
        self.contexts.append(self.contexts[-1] if context is None else context)
        try:
            return self.vformat(template, (), self.contexts[-1])
        finally:
            self.contexts.pop()

    def parse(self, template: str):
        """string.Formatter.parse's (text, field, spec, conversion) tuples; a conditional's spec has its braces doubled,
        so that str.format leaves its branches as written: format_field fills the one it shows."""
        for text, field, spec, conversion in super().parse(template):
            yield text, field, (spec.replace("{", "{{").replace("}", "}}") if spec and spec[0] == "?" else spec), conversion

    def get_field(self, field: str, args, context: dict) -> tuple:
        """(the value at a field's path, its first key): "turns[memory][rows][-1]" gives context["turns"]["memory"]
        ["rows"][-1]; a mark of PAIRS ("을/를") gives the mark ("{을/를}"), for particles()."""
        first = field.split("[", 1)[0]
        if first in PAIRS:
            return "{" + first + "}", first
        value = context[first]
        for key in re.findall(r"\[([^]]*)\]", field):
            value = value[_index(key) if isinstance(value, (list, tuple)) else key]
        return value, first

    def format_field(self, value, spec: str) -> str:
        """`value` shown as `spec` says; in a table cell, a "|" it shows is escaped so it cannot open a column."""
        kind, _, name = spec.partition("=")
        if spec.startswith("?"):
            return self.fill(_branches(spec[1:])[not value])
        if kind in ("pick", "with", "each", "table", "chart"):
            return getattr(self, "_" + kind)(value, self.words[name])
        text = SHOW[spec](value) if spec in SHOW else format(value, spec)
        return text.replace("|", "\\|") if self.cell else text

    def _pick(self, value, choices: dict) -> str:
        """The template `choices` holds for `value` (for its truth, when the keys are True and False), filled here."""
        return self.fill(choices[bool(value) if set(choices) == {True, False} else value])

    def _with(self, value: dict, template: str) -> str:
        """`template` filled with `value`'s keys as its fields, and the report as {r}."""
        return self.fill(template, dict(value, r=self.report))

    def _items(self, value) -> list:
        """The contexts of `value`'s items, each with the report as "r": a list's items, or a dict's values with their
        `key` ({"key": "memory", ...}); a scalar item is {"value": item}."""
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        return [dict(item if isinstance(item, dict) else {"value": item}, key=key, r=self.report) for key, item in pairs]

    def _each(self, value, spec: tuple) -> str:
        """spec = (template, separator): the template filled per item of `value`, the empty ones left out, joined."""
        template, separator = spec
        return separator.join(text for text in (self.fill(template, item) for item in self._items(value)) if text)

    def _table(self, value, spec: tuple) -> str:
        """spec = (headers, cell templates, rows after): a Markdown table, a row per item of `value`, then the rows after
        (filled here); a row whose cells are all empty is left out."""
        headers, cells, after = spec
        head = " | ".join(self.fill(header) for header in headers)
        self.cell = True
        try:
            rows = [[self.fill(cell, item) for cell in cells] for item in (self._items(value) if cells else [])]
            rows += [[self.fill(cell) for cell in row] for row in after]
        finally:
            self.cell = False
        lines = ["| " + head + " |", "|" + "|".join("---" for _ in head.split(" | ")) + "|"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows if any(row)])

    def _chart(self, data: dict, spec: tuple) -> str:
        """spec = (title, x-axis title, y-axis title): a Mermaid xychart-beta of `data`, its y-axis from 0 to a tenth over
        the top value; a line per saver in its colour (COLORS), the colours named in the title."""
        title, x_title, y_title = spec
        series = [("bar", v) for v in data.get("bars", [])] + [(k, data[k]) for k in ("bar", "line") if k in data]
        palette = ", ".join(PALETTE.split(", ")[::-1]) if "bars" in data else PALETTE  # the first bars red, then blue
        if "savers" in data:
            title += " (" + ", ".join(f"{COLORS[b][1]} {SAVERS[b].split()[0]}" for b in data["savers"]) + ")"
            palette, series = ", ".join(COLORS[b][0] for b in data["savers"]), [("line", v) for v in data["savers"].values()]
        top, axis = max(max(values) for _, values in series), ", ".join(f'"{x}"' for x in data["x"])
        lines = ["```mermaid", '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "' + palette + '"}}}}%%',
                 "xychart-beta", f'    title "{title}"', f'    x-axis "{x_title}" [{axis}]',
                 f'    y-axis "{y_title}" 0 --> {int(top + top // 10 + 1)}']
        return "\n".join(lines + [f"    {kind} [" + ", ".join(map(str, values)) + "]" for kind, values in series] + ["```"])


def render(report: dict) -> str:
    """ckpt_report.md from a report dict and the figures its prose relates (make_report.derive's), the checkpoint it
    opens shown as {anatomy_rows}: SECTIONS filled, the blank lines an empty field leaves closed up, each postposition
    mark replaced by the form that fits before it."""
    text = Fill(dict(report, anatomy_rows=anatomy_rows(report["anatomy"]))).fill("\n\n".join(SECTIONS))
    return particles(re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n")


# ---- What make_report runs on unless told otherwise, and the input a replay is given in place of None. ----
TOPIC, FORK_ANGLE, OTHER_TOPIC = "가을", "비교", "겨울"

# ---- Names a template picks by key: {backend:pick=PROSE}. ----
SAVERS = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)", "postgres": "PostgreSQL (PostgresSaver)"}
PROSE = {"memory": "메모리 saver", "sqlite": "SQLite saver", "postgres": "PostgreSQL saver"}  # a saver's name in a sentence
EACH_SAVER = dict({b: name + "로" for b, name in PROSE.items()}, all="saver마다")  # a measure redone on the savers
VIEWS = dict(SAVERS, logical="상태의 JSON 바이트", compressed="PostgreSQL, 압축 후 (pg_column_size)")  # what bytes were read from
YES = {True: "예", False: "아니오"}
COLORS = {"memory": ("#1f77b4", "파랑"), "sqlite": ("#d62728", "빨강"), "postgres": ("#2ca02c", "초록")}  # chart lines
LANES = {"run": "처음 실행", "replay": "되감기", "update": "분기"}  # the thread's gitGraph: the first run, then branches
SHORTENED = {True: "({}자)", False: "(JSON {}자)"}  # after a value shown shortened: a str's length, else its JSON's

# ---- Lists shown joined: (the template of one item, the separator). ----
VERSIONS = ("{key} {value}", ", ")
PLAIN = ("{value}", ", ")
LITS = ("{value:lit}", ", ")
NEXTS = ("{value:?{value[0]:lit}|(끝)}", ", ")  # each checkpoint's next node, oldest first
NODE_COUNTS = ("{nodes}개", ", ")
COPIES_HEADS, COPIES_CELLS = ("{backend:pick=PROSE} (배)", " | "), ("{stored[copies]:.2f}", " | ")  # a column a saver
STORED_HEADS, STORED_CELLS = ("{value:pick=COLUMNS} (바이트)", " | "), ("{value:,}", " | ")  # a column a run of turns
COLUMNS = dict(PROSE, delta="`DeltaChannel`(메모리)")
RAN = "{ran:?{ran:nodes}{이/가} 실행됐고, |노드는 하나도 실행되지 않았고, }\
{added:?체크포인트는 {added}개 늘었다.|체크포인트도 늘지 않았다.}"  # what an invoke(None, ...) ran and added

# ---- The sections. ----
HEADER = doc("""\
# 체크포인트 실험 보고서
LangGraph 그래프를 컴파일할 때 `compile(checkpointer=...)`에 넘기는 객체가 saver다. 그래프는 입력을 받을 때 한 번, 한 \
단계(super-step: 함께 실행되는 노드 묶음)를 마칠 때마다 한 번, 그 순간의 상태 전체를 saver에 체크포인트로 저장한다(이번 실행에서 \
{checkpoints:len}개). 체크포인트를 두는 곳이 저장소다(메모리, SQLite 파일, PostgreSQL 데이터베이스). 저장에는 비용이 든다. 상태에 {weigh[payload_bytes]:,}바이트 값 하나를 넣자 메모리 saver가 \
{parts[0][stored][difference]:,}바이트를 더 보관했다.
측정 환경은 {versions:each=VERSIONS}{이다/다}.{no_sqlite:? SQLite saver는 설치되지 않았다.|} 수치는 모두 이 환경에서 `ckpt.py`(실습의 \
풀이 코드)를 실행해 얻었다. "참고"로 시작하는 문단만 예외로, 출처를 문단 안에 적었다.
같은 `thread_id`(스레드 이름)로 저장한 체크포인트들이 한 스레드다. config는 실행할 때 넘기는 딕셔너리로, \
`{{"configurable": {{"thread_id": ...}}}}` 모양이다. 체크포인트 하나를 가리킬 때는 `checkpoint_id`도 담는다. "`write` 앞"은 다음에 \
실행할 노드가 `write`인 체크포인트다. 실습 그래프는 {nodes:nodes} 세 노드를 차례로 실행하고, 상태의 키는 {state_keys:nodes}{이다/다}. \
분기는 과거 체크포인트의 값을 바꿔 거기서 다시 실행하는 것이다. 부모(바로 앞 체크포인트)를 따라 이어진 체크포인트의 줄이 가지이고, 처음 \
실행한 줄이 원래 가지다. 아래 표는 실습 풀이가 \
`ckpt_report.json`에 적는 값 열 가지다.
{summary:table=SUMMARY_TABLE}
**실습의 네 가지 답**
1. **무엇이 저장되는가?** 한 번 실행하면 체크포인트가 {checkpoints:len}개 저장된다. 입력을 받을 때 하나, 입력이 상태에 들어간 뒤 \
하나, 노드({nodes:nodes})가 하나 끝날 때마다 하나씩이다.
2. **되감기와 분기는 어떻게 다른가?** 둘 다 `write` 앞에서 다시 출발해 {replay_from[write][ran]:nodes}{을/를} 다시 실행하고, \
원래 가지는 남는다. 되감기(그 체크포인트의 config로 `invoke(None, config)`를 부르는 것)는 저장된 값을 그대로 사용하고(점수 \
{fork[base_score]}), 체크포인트가 {replay_from[write][added]}개 늘어난다{replay_kind:pick=FORK_ROW}. 분기(`update_state`로 `angle`{을/를} {summary[fork_angle]:lit}{으로/로} \
바꾼 뒤 돌려받은 config로 이어 가는 것)는 바꾼 값을 사용하고(점수 {fork[fork_score]}), 체크포인트가 {fork_added}개 늘어난다. 그 뒤 \
스레드를 읽으면 마지막에 만든 가지의 끝이 나온다.
3. **큰 값은 몇 번 저장되는가?** 상태를 JSON으로 바꿔 세면 {weigh[payload_bytes]:,}바이트 값은 체크포인트 \
{weigh[checkpoints]}개 가운데 {weigh[carrying]}개에 들어 있다. saver가 이 값 때문에 더 보관한 바이트는 값 크기의 {parts:each=TIMES}{이었다/였다}.
4. **무엇이 사라지는가?** 메모리 saver를 새로 만들면(프로세스를 다시 시작한 것과 같다) 같은 `thread_id`로 읽어도 체크포인트는 \
{lost[after_restart]}개이고 값은 {lost[values_after_restart]:code}{이다/다}. 오류는 나지 않는다.
{replay_kind:pick=OTHER_LINE_REPLAY}
**에이전트를 운영하는 사람에게: 다섯 가지 규칙**
1. 작업마다 `thread_id`를 문자열로 정해 넘기라. 같은 `thread_id`로 다시 실행하자 `notes`가 \
{threads[same_thread_notes][0]}개에서 {threads[same_thread_notes][1]}개로 늘었고, 다른 `thread_id`로 실행하자 빈 상태에서 시작했다. \
{update[int_and_str_ids][1]:?정수 1과 문자열 `"1"`은 이번에는 같은 스레드였지만, 실습이 \
정한 버전에서는 다른 스레드다(아래 참고).|정수 1과 문자열 `"1"`은 이번에 다른 스레드였다.}
2. `update_state`가 돌려준 config로 이어 가라. 원래 config로 이어 가자 초안은 {update[old_config][draft]:code}, 점수는 \
{update[old_config][score]}점 그대로였다. 돌려받은 config로 이어 가자 {fork[fork_score]}점이 됐다.
3. 분기하기 전에 원래 가지 마지막 체크포인트의 config를 변수에 담아 두라. 분기 뒤 스레드를 읽으면 새 가지의 끝(점수 \
{fork[fork_score]})이 나온다. 원래 가지의 끝(점수 {fork[base_score]})은 담아 둔 config로 읽었다.
4. 큰 값은 LangGraph store에 두고 상태에는 키만 넣으라. 그렇게 하자 메모리 saver가 보관한 바이트가 \
{pointer[in_state][stored]:,}바이트에서 {pointer[pointer][stored]:,}바이트로 줄었다{thread_note:?(스레드 이름이 달라 아래 크기 \
표와는 {thread_bytes}바이트 다르다)|}. LangGraph store(`InMemoryStore` 등)는 체크포인트와 따로 값을 두고 키로 찾아 읽는 곳으로, \
체크포인트의 저장소와는 다르다.
5. 운영에는 프로세스가 끝나도 남고 애플리케이션만 쓰기 권한을 가진 저장소를 사용하라. 재시작 뒤 새 saver가 찾은 체크포인트는 \
{demo_savers:each=RESTARTS}{이었다/였다}. {reader[rows]:?저장소의 행 하나를 세 가지로 고쳐 LangGraph의 SQLite saver로 읽자, \
saver는 고친 행 {reader[rows]:len}개 가운데 {built_rows}개에서 객체를 만들거나 함수를 불렀다.|{reader[surrogate][built]:?그리고 입력도 저장하기 전에 검사하라. 저장소에 손대지 않아도, UTF-8로 인코딩할 수 없는 문자와 \
클래스를 만들라고 적은 딕셔너리(아래 "JSON 방식의 생성자")를 함께 넣은 입력 하나 때문에, LangGraph는 저장된 체크포인트를 다시 \
읽으면서 시험용 클래스 `Marker`(만들어질 때 횟수만 센다)의 객체를 {reader[surrogate][built]}번 만들었다.|}}
""")
SUMMARY_TABLE = (["키", "값", "뜻"], [], [
    ["`topic`", "{summary[topic]:code}", "그래프에 준 주제"],
    ["`checkpoints_per_run`", "{summary[checkpoints_per_run]}", "한 번 실행한 뒤의 체크포인트 수"],
    ["`pending`", "{summary[pending]:code}", "체크포인트마다 다음에 실행할 노드, 오래된 것부터(끝난 체크포인트는 빈 문자열 `\"\"`)"],
    ["`base_score`", "{summary[base_score]}", "`angle`{을/를} {default_angle:lit}{으로/로} 두고 한 번 실행한 점수(초안 {fork[base_draft]:code}의 글자 수)"],
    ["`fork_angle`", "{summary[fork_angle]:code}", "`write` 앞에서 분기할 때 바꾼 `angle`"],
    ["`fork_score`", "{summary[fork_score]}", "`angle`을 바꿔 분기한 가지의 점수(초안 {fork[fork_draft]:code}의 글자 수)"],
    ["`checkpoints_after_fork`", "{summary[checkpoints_after_fork]}", "분기한 뒤 스레드의 체크포인트 수"],
    ["`payload_bytes`", "{summary[payload_bytes]:,}", "상태의 `bulk`에 넣은 값의 크기(바이트)"],
    ["`carrying`", "{summary[carrying]}", "그 값이 들어 있는 체크포인트 수"],
    ["`survives_restart`", "{summary[survives_restart]:code}", "메모리 saver를 새로 만든 뒤에도 스레드가 남는지"]])
OTHER_LINE_REPLAY = {  # the replay count of the other langgraph line, from the tests
    "fork": "참고: 실습이 정한 langgraph 0.2.60에서는 `write` 앞으로 되감으면 체크포인트가 2개 늘어난다. 이 프로젝트의 테스트가 그 환경에서 "
            "확인한다.",
    "plain": "참고: langgraph 1.1.7부터는 `write` 앞으로 되감으면 체크포인트가 3개 늘어난다. 이 프로젝트의 테스트가 langgraph "
             "1.2.24에서 확인한다.", "other": ""}
FORK_ROW = {"fork": "(분기와 무관한 `fork` 체크포인트 하나 포함)", "plain": "", "other": ""}  # the replay's first row
TIMES = ("{stored[copies]:.2f}배({backend:pick=PROSE})", ", ")  # the stored difference over the payload, per saver
RESTARTS = ("{backend:pick=PROSE}에서 {restart[after_restart]}개", ", ")

SAVED = doc("""\
## 무엇이 저장되는가
체크포인트는 입력을 받을 때와 단계가 끝날 때마다 저장되는 상태 전체의 기록이다. 한 번 실행하면 {checkpoints:len}개가 생기고, 각 \
체크포인트를 읽으면 그때의 값과 다음에 실행할 노드(`next`)가 함께 나온다. 같은 `thread_id`로 다시 실행하면 마지막 상태에서 \
이어진다(`notes` {threads[same_thread_notes][0]}개 → {threads[same_thread_notes][1]}개).
{checkpoints:table=CHECKPOINTS_TABLE}
표는 오래된 것부터 적었다. `get_state_history`는 최신 것부터 주므로 뒤집었다. 상태의 바이트는 상태를 JSON으로 바꾼 UTF-8 바이트 수이고, 단계 -1은 입력이다. "생긴 경위"는 체크포인트의 `metadata.source`다. 입력을 \
받아 생기면 input, 실행 중에 단계가 끝나 생기면 loop다. 다음 노드만 모으면 실습의 `pending()`이 돌려주는 {pending:code}{이/가} \
된다.
### 같은 스레드와 다른 스레드
같은 `thread_id`로 한 번 더 실행하자 스레드의 체크포인트는 {threads[same_thread_checkpoints]}개가 됐다. 이어서 다른 `thread_id`로 \
실행한 스레드는 `notes` {threads[other_thread_notes]}개, 체크포인트 {threads[other_thread_checkpoints]}개였다.
`thread_id`에 정수 1을 주고 실행한 뒤 읽었다. {update[int_and_str_ids][1]:?정수 1로도 문자열 `"1"`로도 체크포인트가 \
{update[int_and_str_ids][0]}개 나왔다. 이 langgraph에서는 둘이 같은 스레드다.|정수 1로는 체크포인트가 \
{update[int_and_str_ids][0]}개 나왔고, 문자열 `"1"`로는 하나도 나오지 않았다. 이 langgraph에서는 둘이 다른 스레드다.}
{update[int_and_str_ids][1]:?참고: langgraph 0.2.60에서는 둘이 다른 스레드다(문자열 `"1"`로는 0개). 이 프로젝트의 테스트가 그 \
환경에서 확인한다.|참고: langgraph 1.2.24에서는 둘이 같은 스레드다. 이 프로젝트의 테스트가 그 환경에서 확인한다.}
### 실습 안내문이 꼽는 실수 네 가지
실습 안내문(과제와 각 함수의 입력·출력을 적은 문서)이 꼽는 흔한 실수를 하나씩 그대로 해 보았다.
{r:table=MISTAKES_TABLE}
### 저장소를 읽을 때 만들어지는 것
{reader[rows]:?요점: 저장소의 행은 읽힐 때 saver가 클래스의 객체를 만들거나 함수를 부르게 할 수 있다(아래 고친 행 {reader[rows]:len}개 \
가운데 {built_rows}개). 그래서 저장소에 쓰기 권한이 있는 사람은 그 저장소를 읽는 프로세스에서 자기가 고른 객체를 만들고 \
함수를 부를 수 있다.|참고: 저장소의 행은 읽힐 때 클래스의 객체를 만들거나 함수를 부르게 \
할 수 있다. 이 프로젝트의 테스트가 SQLite saver가 있는 환경(langgraph 0.2.60과 1.2.24)에서 확인한다.}
참고: langgraph-checkpoint {versions[langgraph-checkpoint]} 소스(`serde/jsonplus.py`)에 따르면 행이 클래스나 함수를 \
가리키는 방법은 두 가지다. JSON 방식의 생성자는 `{{"lc": 2, "type": "constructor", "id": [모듈, 클래스]}}` 형태의 \
딕셔너리로, 만들 객체의 클래스를 적는다. msgpack 확장 타입은 msgpack(값을 바이트로 적는 이진 형식) 바이트 안에 모듈과 클래스(또는 함수) 이름을 적는 칸이다.
{reader[rows]:?스레드 하나를 한 번 실행한 뒤, SQLite 저장소에 있는 그 스레드의 최신 체크포인트 행을 세 가지로 고쳤다. 고친 \
행은 해가 없는 클래스 `Marker`(객체가 만들어질 때 횟수만 센다)나 함수 `mark`(불릴 때 횟수만 센다)를 가리킨다. 같은 행을 LangGraph의 SQLite saver와 `ckpt.py`의 \
`open_saver`(행의 형식과 바이트를 먼저 검사하고 읽는 이 프로젝트의 함수)로 읽었다.|이 기계에는 SQLite saver가 없어, 저장소의 행을 \
고쳐 쓰는 시험은 하지 않았다.}
{reader[rows]:?{reader[rows]:table=ROWS_TABLE}|}
{reader[rows]:?`open_saver`의 오류는 세 행 모두 같은 형태였다(경로와 id는 줄였다. 메시지의 store는 저장소, agckpt는 이 프로젝트다): {reader[rows][0][agckpt][error]:lit}|}
참고: langgraph-checkpoint 3.0 전의 직렬화기(값을 바이트로 바꾸고 되돌리는 부분, 2.1.2 소스의 \
`JsonPlusSerializer.dumps_typed`)는 UTF-8로 인코딩할 수 없는 문자가 있어 \
msgpack으로 바꾸지 못한 값을 `json` 형식으로 저장한다. langgraph 0.2.60에서는 그렇게 저장된 입력에 JSON 방식의 생성자가 있으면 다시 읽을 때 `Marker` 객체가 만들어진다. 이 프로젝트의 \
테스트가 그 환경에서 확인한다.
저장소에 손대지 않고 애플리케이션의 입력만으로 JSON 방식의 생성자가 저장소에 들어가는지도 시험했다. 입력의 `topic`에 짝이 없는 \
서로게이트 문자(`\\ud800`, UTF-8로 인코딩할 수 없는 문자)를 넣고, `bulk`에 JSON 방식의 생성자 형태의 딕셔너리를 넣었다. \
langgraph-checkpoint {versions[langgraph-checkpoint]}의 직렬화기는 이 입력을 {reader[surrogate][type]:lit} 형식으로 저장했고, 다시 읽을 때 `Marker` \
객체를 {reader[surrogate][built]:?{reader[surrogate][built]}번 만들었다|하나도 만들지 않았다}. `ckpt.invoke`(입력을 검사한 뒤 \
`app.invoke`를 부르는 이 프로젝트의 함수)는 아무것도 저장하기 전에 이 입력을 거절했다: {reader[surrogate][refused]:lit}
{reader[strict]:?LangGraph의 엄격 모드(`serde=JsonPlusSerializer(allowed_msgpack_modules=None)`: 허용 목록에 없는 타입은 만들지 않는다)로 메모리 saver를 \
만들고 스레드 셋을 실행했다. 첫째는 실습의 값 그대로, 둘째는 `bulk`에 날짜와 시각을, 셋째는 `bulk`에 애플리케이션이 정의한 \
클래스 `Marker`의 객체를 넣었다.|}
{reader[strict]:?{strict_rows:table=STRICT_TABLE}|}
{reader[strict]:?엄격 모드는 실습의 값은 그대로, 애플리케이션의 클래스는 오류 없이 {reader[strict][-1][back]:lit}{으로/로} 돌려준다.|}
{reader[filter]:?스레드 `a`와 `b`를 한 번씩 실행한 뒤, SQLite saver의 `list`로 스레드 `a`의 체크포인트만 물으면서 metadata 필터의 \
키에 SQL을 넣었다({reader[filter][key]:lit}). {reader[filter][error]:?langgraph-checkpoint-sqlite \
{versions[langgraph-checkpoint-sqlite]}{은/는} 그 키를 거절했다: {reader[filter][error]:lit}|스레드 `b`의 체크포인트 \
{reader[filter][other_rows]}개가 함께 나왔다.}|}
{reader[encrypted]:?SQLite saver의 직렬화기를 LangGraph의 `EncryptedSerializer`(값을 바이트로 바꿀 때 암호화하는 직렬화기)로 바꾸고, \
config에 비밀 값을 넣어 한 번 실행했다. 암호화는 시험용으로, 바이트마다 0x5A와 XOR하는 방식을 사용했다. 체크포인트 행과 대기 기록(pending \
writes: 노드나 LangGraph 내부 작업이 끝나자마자 따로 저장되는 그 작업의 출력) 행을 합한 {reader[encrypted][rows]}개 가운데 {reader[encrypted][config]}개에 config의 비밀 값이 평문으로 남았다. \
{reader[encrypted][output]:?노드 `write`가 돌려준 초안이 평문으로 남은 행은 {reader[encrypted][output]}개다.|노드 `write`가 돌려준 \
초안이 평문으로 남은 행은 없었다.}
참고: langgraph-checkpoint 4.3.2 소스의 `get_checkpoint_metadata`는 config의 `configurable`과 `metadata`에 든 문자열과 숫자 \
값을 metadata에 옮겨 적는다(`thread_id` 같은 LangGraph의 키와 `__`로 시작하는 키는 빼고).{thread_note:? 다만 이번 실행의 \
langgraph-checkpoint {versions[langgraph-checkpoint]}{은/는} `thread_id`도 metadata에 옮겨 적었다(아래 표의 `metadata.thread_id`).|} SQLite saver는 metadata를 \
직렬화기에 넘기지 않고 JSON으로 저장하므로 암호화되지 않는다.|}
참고: 이와 관련된 공개 보안 권고는 세 가지다(GitHub 보안 권고 데이터베이스, 2026-12-02에 읽음). JSON 방식의 생성자 문제(CVE-2025-64439)는 \
langgraph-checkpoint 3.0.0에서, SQLite saver의 `list`에 준 metadata 필터 키로 SQL을 넣을 수 있던 문제(CVE-2025-67644)는 \
langgraph-checkpoint-sqlite 3.0.1에서 고쳐졌다. msgpack 확장 타입 문제(CVE-2026-28277)는 langgraph 1.0.10부터 \
{reader[strict]:?엄격 모드|엄격 모드(허용 목록에 없는 타입은 만들지 않는 설정)}로 막을 수 있지만, 엄격 모드는 기본으로 꺼져 있다. 실습의 langgraph 0.2.60은 langgraph-checkpoint 3.0 미만만 의존성으로 허용하므로 고쳐진 \
버전을 설치할 수 없다. 그 환경과 엄격 모드를 켜지 않은 환경에서는 애플리케이션 말고는 아무도 저장소에 쓸 수 없어야 한다.
### 체크포인트 하나를 열어 보면
`run-1` 스레드를 한 번 실행한 뒤 마지막 체크포인트를 saver에서 직접 꺼냈다(`app.checkpointer.get_tuple(config)`). 채널은 체크포인트 \
안에서 값 하나가 담기는 자리다. 상태의 키마다 채널이 하나 있고, LangGraph가 안에서 사용하는 채널(`__start__`, 그리고 다음에 실행할 \
노드를 표시하는 채널)도 있다. 채널 버전은 실행마다 바뀌는 뒷부분을 떼고 `채널@번호` 꼴로 \
줄였다.
참고: "뜻" 열은 langgraph-checkpoint {versions[langgraph-checkpoint]} 소스의 `Checkpoint`와 `CheckpointMetadata` 주석을 풀어 쓴 것이다.
{anatomy_rows:table=ANATOMY_TABLE}
""")
CHECKPOINTS_TABLE = (["체크포인트", "생긴 경위", "단계", "다음 노드(`next`)", "이 단계에서 바뀐 키", "상태의 바이트"],
                     ["#{position}", "{source}", "{step}", "{next:?{next[0]:lit}|(끝)}", "{changed:nodes}", "{bytes:,}"], [])
MISTAKES_TABLE = (["실수", "이번 실행에서 일어난 일"], [], [
    ["`compile()`에 saver를 넘기지 않고 `get_state`를 부른다", "오류가 났다({threads[no_checkpointer_error]:lit}). 같은 config로 두 번 "
     "실행해도 `notes`는 첫 실행 {threads[no_checkpointer_notes][0]}개, 둘째 실행 {threads[no_checkpointer_notes][1]}개로 매번 처음부터 "
     "쌓였다."],
    ["되감을 때 `None` 대신 입력을 준다", "{rerun[input]:code}{을/를} 주자 {rerun[ran]:nodes}{이/가} 처음부터 다시 실행되고 "
     "체크포인트가 {rerun[added]}개 늘었다."],
    ["`update_state` 뒤에 원래 config로 이어 간다", "초안은 {update[old_config][draft]:code}, 점수는 {update[old_config][score]}점이었다. "
     "바꾼 값은 사용되지 않았다."],
    ["`get_state_history`를 뒤집지 않고 읽는다", "첫 항목이 단계 {update[first_steps][get_state_history]}(마지막 체크포인트){이었다/였다}. "
     "뒤집어야 단계 {update[first_steps][history]}(입력)부터 읽혔다."]])
ROWS_TABLE = (["고친 행이 가리키는 것", "행의 형식", "LangGraph의 SQLite saver", "LangGraph가 남긴 경고 로그", "`open_saver`"],
              ["{row:pick=ROW_NAMES}", "{type:lit}", "{default[built]:?{row:pick=ROW_DID}({default[built]}번)|{row:pick=ROW_DIDNT}}",
               "{default[warned]}개", "{agckpt[built]:?{row:pick=ROW_DID}|{row:pick=ROW_DIDNT}(오류로 멈춤)}"], [])
ROW_NAMES = {"json": "JSON 방식의 생성자(`Marker`)", "msgpack_class": "msgpack 확장 타입(`Marker`)",
             "msgpack_function": "msgpack 확장 타입(함수 `mark`)"}
ROW_DID = {"json": "객체를 만들었다", "msgpack_class": "객체를 만들었다", "msgpack_function": "함수를 불렀다"}
ROW_DIDNT = {"json": "객체를 만들지 않았다", "msgpack_class": "객체를 만들지 않았다", "msgpack_function": "함수를 부르지 않았다"}
STRICT_TABLE = (["키", "넣은 값의 타입", "돌아온 값의 타입", "같은가"],
                ["{names:each=STRICT_NAMES}", "{given:lit}", "{back:lit}", "{same:pick=YES}"], [])
STRICT_NAMES = ("{value:pick=STRICT_KEYS}", ", ")
STRICT_KEYS = dict({k: f"`{k}`" for k in ("topic", "angle", "draft", "stage", "score", "notes", "bulk")},
                   **{"bulk (datetime)": "`bulk`(날짜와 시각)", "bulk (marker)": "`bulk`(애플리케이션의 클래스)"})
ANATOMY_TABLE = (["필드", "뜻", "값 또는 크기"], ["{field:lit}", "{purpose}", "{value}"], [])

TRAVEL = doc("""\
## 되감기와 분기는 어떻게 다른가
되감기(replay)는 과거 config(`thread_id`와 `checkpoint_id`가 든 config)로 `invoke(None, config)`를 불러, 그 체크포인트 뒤의 노드를 저장된 \
값 그대로 다시 실행하는 것이다. 분기는 `update_state`로 값을 바꾼 체크포인트를 하나 저장하고, 돌려받은 config로 이어 가는 \
것이다.
{r:table=VERSUS_TABLE}
되감기와 분기는 각각 새 스레드를 한 번 실행한 뒤 `write` 앞에서 시작했고, 노드 함수가 불릴 때마다 이름을 적어 다시 \
실행된 노드를 셌다. 되감기는 노드 함수를 실제로 다시 부른다(이번에 {replay_from[write][ran]:nodes}). \
그러므로 노드 안의 부수 효과(메일 보내기, 모델 호출)도 되감을 때마다 다시 일어난다.
{replay_kind:pick=REPLAY}
### 노드마다 되감기
{replays:table=REPLAYS_TABLE}
되감을 때 `None` 대신 입력을 주면(앞의 실수 표) 되감기가 아니라, 그 체크포인트의 값에 새 입력을 더해 처음부터 다시 실행하는 \
것이 된다. `notes`는 {rerun[notes]:code}{이/가} 됐다.
### `update_state`가 실제로 하는 일
reducer는 새 값을 기존 값과 합치는 함수다. `update_state`는 reducer가 있는 키의 값을 덮어쓰지 않고 reducer로 합친다. 이 그래프에서는 `notes`에만 \
reducer(`operator.add`)가 있어 목록을 이어 붙인다. `write` 앞 체크포인트에 `{{"notes": ["replaced"]}}`를 주자 `notes`는 \
{update[reducer][notes]:code}{이/가} 됐다. 새 체크포인트가 생긴 경위는 {update[reducer][source]:lit}, 다음 노드는 \
{update[reducer][next]:nodes}{이다/다}.
참고: LangGraph 문서(Use time-travel)에 따르면 `update_state`는 그 체크포인트 직전에 끝난 노드가 값을 쓴 것처럼 처리한다.
`update_state`가 돌려준 config를 버리고 원래 체크포인트의 config로 이어 가면(실습 안내문이 꼽는 실수), 값을 바꾸기 전의 \
체크포인트로 되감는 것과 같다. 값을 바꾼 새 체크포인트는 이어 가는 가지 없이 남았고, 스레드의 체크포인트는 \
{update[old_config][checkpoints]}개가 됐다.
### config가 가리키는 것
`checkpoint_id`가 든 config는 그 체크포인트 하나만 가리킨다. `update_state`가 돌려준 config로 `get_state_history`를 부르면 체크포인트가 \
{update[named_lists]}개 나온다. 끝난 스레드의 config(`thread_id`만 든 것)로 `invoke(None, config)`를 부르자 {update[finished]:with=RAN} \
마지막 체크포인트의 config로 되감자 {update[end_replay]:with=RAN}
### 체크포인트는 어디서 왔나
이번에는 한 스레드에서 한 번 실행하고, `write` 앞으로 되감은 다음, `write` 앞에서 분기했다. 부모 관계대로 그리면 아래와 같다. 점 하나가 \
체크포인트 하나이고 선은 가지다. 강조한 점은 생긴 경위가 {highlighted:each=OR_LITS}인 체크포인트다.
{tree:gitgraph}
{branch[points][1:]:?되감은 뒤에는 다음 노드가 `write`인 체크포인트가 {branch[points]:len}개({branch[points]:each=PLAIN})다. 실습의 \
`fork()` 함수는 그 가운데 가장 최근 것을 실습 함수 `snapshot_before`로 고른다. 그래서 분기의 첫 체크포인트({branch[at]})는 {branch[parent]}에서 갈라진다.|다음 노드가 `write`인 체크포인트는 {branch[points][0]} 하나이고, 분기의 첫 체크포인트({branch[at]})는 거기서 갈라진다.}
""")
VERSUS_TABLE = (["", "되감기", "분기"], [], [
    ["부르는 것", "`invoke(None, 과거 config)`", "`update_state(과거 config, 값)` 뒤 `invoke(None, 돌려받은 config)`"],
    ["사용하는 값", "그 체크포인트에 저장된 값 그대로", "{fork_update:code}{으로/로} 바꾼 값"],
    ["새 체크포인트가 생긴 경위", "{replay_from[write][sources]:each=PLAIN}", "{fork[sources]:each=PLAIN}"],
    ["다시 실행된 노드", "{replay_from[write][ran]:nodes}", "{fork[ran]:nodes}"],
    ["늘어난 체크포인트", "{replay_from[write][added]}", "{fork_added}"],
    ["원래 가지", "{replay_from[write][old_end_readable]:?남는다(담아 둔 config로 읽힌다)|읽히지 않았다}",
     "{fork[old_end_readable]:?남는다(담아 둔 config로 읽으면 점수 {fork[base_score]})|읽히지 않았다}"],
    ["그 뒤 스레드의 config로 읽으면", "{replay_from[write][current_is_new_end]:?되감기가 만든 끝|다른 체크포인트}",
     "{fork[current_is_new_end]:?새 가지의 끝(점수 {fork[fork_score]})|다른 체크포인트}"]])
OR_LITS = ("{value:lit}", "나 ")
REPLAYS_TABLE = (["어느 노드 앞으로", "늘어난 체크포인트", "다시 실행된 노드", "새 체크포인트가 생긴 경위"],
                 ["{from:lit}", "{added}", "{ran:nodes}", "{sources:each=PLAIN}"], [])
REPLAY = {  # how a replay's added checkpoints compare with the nodes it ran again
    "fork": doc("""\
langgraph {versions[langgraph]}에서는 되감으면 다시 실행한 노드 수보다 체크포인트가 하나 더 늘어난다. 되감기가 새로 만든 첫 \
체크포인트가 생긴 경위는 `fork`다. 이름은 fork지만 분기가 아니라 되감기가 저장한 것이다(실습의 `fork()`와 `fork_*` 키는 분기를 뜻한다).
참고: 되감을 때 이 `fork` 체크포인트를 저장하는 동작은 langgraph 1.1.7에서 들어왔다(langgraph PR #7498). 그 전(실습의 0.2.60 \
포함)에는 이 체크포인트가 없어, `plan`·`write`·`review` 앞으로 되감으면 체크포인트가 \
3·2·1개 늘어난다. 이 프로젝트의 테스트가 langgraph 0.2.60에서 확인하는 값이다."""),
    "plain": doc("""\
langgraph {versions[langgraph]}에서는 되감으면 다시 실행한 노드 수만큼 체크포인트가 늘어난다.
참고: langgraph 1.1.7부터는 되감을 때, 생긴 경위가 `fork`인 체크포인트가 먼저 하나 생긴다(langgraph PR #7498). 그래서 `plan`·`write`·`review` 앞으로 \
되감으면 체크포인트가 4·3·2개 늘어난다. 이 프로젝트의 테스트가 langgraph 1.2.24에서 확인하는 값이다."""),
    "other": "늘어난 체크포인트 수와 다시 실행된 노드 수는 위 표와 같다."}

SIZE = doc("""\
## 크기로 잰 것
상태를 실습의 방식(`json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)`의 UTF-8 바이트)으로 재면, 체크포인트마다 \
상태 전체의 크기가 나온다. 페이로드는 크기를 재려고 상태에 일부러 넣은 큰 값이다. 여기서는 `bulk`에 넣은 \
{weigh[payload_bytes]:,}바이트 문자열이다. 페이로드는 체크포인트 {weigh[checkpoints]}개 가운데 {weigh[carrying]}개에 \
들어갔고, 상태 바이트의 합계는 {weigh[thin_total]:,}바이트에서 {weigh[fat_total]:,}바이트가 됐다. saver가 더 보관한 바이트를 페이로드 크기로 나누면 {parts:each=TIMES}{이었다/였다}.
{size_rows:table=SIZE_TABLE}
{charts[thin_fat]:chart=SIZE_CHART}
{size_rows[0][difference]:?|입력 체크포인트(#0)의 상태에는 더해진 바이트가 없다. 입력은 아직 상태가 아니라 `__start__` 채널에 있다.} \
{exact:?페이로드가 든 체크포인트마다 정확히 {rows[carried][0]:,}바이트가 더해졌다. 페이로드 {weigh[payload_bytes]:,}바이트에 키와 \
구분자 `, "bulk": ""`의 {rows[key_bytes]}바이트를 더한 크기다.|}
### 페이로드 크기를 바꿔 가며
{sweep:table=SWEEP_TABLE}
{sweep_step:?페이로드가 {sweep_step[payload_bytes]:,}바이트 늘 때마다 차이는 {sweep_step[extra]:,}바이트씩 늘었다. 기울기 \
{sweep_step[per_byte]:g}({sweep_step[extra]:,} ÷ {sweep_step[payload_bytes]:,}){은/는} 페이로드가 든 체크포인트 수{slope_is_carrying:?와 같다|와 다르다}.|늘어난 바이트가 고르게 \
늘지는 않았다(위 표).}
### saver가 실제로 보관한 바이트
같은 두 실행(페이로드 없이 한 번, 넣고 한 번)을 {each_saver:pick=EACH_SAVER} 다시 하고, 저장소를 직접 읽어 직렬화된 값의 바이트를 \
셌다. 조회 키와 인덱스는 세지 않았다. saver가 채널 버전 문자열에 붙이는 무작위 수는 실행마다 바이트가 같도록 시드 0으로 고정했다.
{views:each=PAYLOAD_TABLES}
{postgres:?PostgreSQL은 큰 값을 압축해 저장한다. 실제로 차지한 바이트(`pg_column_size`)로 재면 `"x"` 페이로드는 \
{pg_copies[x]:.2f}배로 줄었고, 압축할 수 없는 무작위 문자는 {pg_copies[random]:.2f}배였다.|{same[bytes]:?같은 길이의 무작위 \
문자열(압축할 수 없는 값)로 바꿔 재도 바이트 수가 같았다. 여기서 잰 saver는 압축하지 않는다.|같은 길이의 무작위 문자열로 바꿔 재자 \
바이트 수가 달랐다.}}
### 노드가 늘면
`write`와 `review` 사이에 값을 바꾸지 않고 넘기기만 하는 노드를 넣어 노드 {chains[1:]:each=NODE_COUNTS}의 사슬을 만들고, 같은 두 \
실행을 다시 했다.
참고: 실습 해설(실습의 배경과 수치를 설명하는 글)은 "노드가 서른 개면 한 번 넣은 값이 거의 서른 번 저장된다"고 한다.
{chains:table=CHAIN_TABLE}
{chain_savers:each=CLAIMS}
### 턴이 늘면
한 스레드에서 그래프를 {turns[memory][rows][-1][turn]}번 이어서 실행하며(한 번이 한 턴) 턴마다 saver가 그 스레드에 보관한 바이트를 \
셌다. 늘어나는 것은 `notes` 목록이다. 체크포인트마다 그때까지의 `notes` 전체가 저장되므로, 한 턴이 더하는 바이트도 턴마다 커진다. \
{turns:each=GROWN}.{has_delta:? `DeltaChannel` 열은 `notes`의 채널을 `DeltaChannel`(새 항목만 기록하는 채널, 아래 "줄이는 방법과 그 대가")로 바꿔 잰 값이다.|}
{turn_rows:table=TURN_TABLE}
{charts[turns]:chart=TURN_CHART}
### 줄이는 방법과 그 대가
**큰 값을 LangGraph store에 두기.** 페이로드를 LangGraph store(`InMemoryStore`)에 한 번 넣고 상태의 `bulk`에는 그 키만 넣자, 메모리 saver가 \
보관한 바이트가 {pointer[in_state][stored]:,}바이트에서 {pointer[pointer][stored]:,}바이트로 줄었다. LangGraph store에는 값이 \
{pointer[pointer][store]:,}바이트 하나만 들어 있다.{thread_note:? "saver가 실제로 보관한 바이트"의 표와는 \
스레드 이름이 달라서 {thread_bytes}바이트 다르다(이 langgraph는 체크포인트의 metadata에 `thread_id`를 적는다).|}
참고: 대가가 있다. 값이 체크포인트 밖에 있으므로 그 값을 나중에 바꾸면 되감거나 분기해도 예전 값으로 돌아가지 않고, 스레드를 지워도 LangGraph store의 값은 남는다. 이 \
프로젝트의 테스트가 langgraph 0.2.60과 1.2.24에서 확인한다.
**`notes`를 `DeltaChannel`로 바꾸기.**
{has_delta:pick=DELTA}
**지우기와 가지치기.** 스레드를 두 번 실행한 뒤 `prune`(마지막 체크포인트만 남기기, `strategy="keep_latest"`)과 `delete_thread`(스레드 \
전체 지우기)를 {each_saver:pick=EACH_SAVER} 불러 보았다.
{pruning:table=PRUNE_TABLE}
{vacuum:?SQLite 파일은 `delete_thread` 뒤에도 {vacuum[after_delete][file_bytes]:,}바이트 그대로였고, 지운 행이 \
있던 페이지(파일의 고정 크기 단위) {vacuum[after_delete][free_pages]}개가 빈 채로 파일 안에 남았다. `VACUUM`(파일을 새로 써서 빈 페이지를 없애는 SQLite 명령)을 실행한 뒤에야 {vacuum[after_vacuum][file_bytes]:,}바이트로 \
줄었다.|}
{pg_pruned:?PostgreSQL saver에서 `prune` 뒤에 담아 둔 과거 config로 `get_state`를 부르자 오류 없이 빈 값 \
{pg_pruned[old_values]:code}{이/가} 나왔고, `invoke(None, config)`는 {pg_pruned[old_invoke]:lit}{을/를} 냈다. 조용히 비어 있는 읽기가 \
더 위험하다.|참고: langgraph 1.2.24 환경의 PostgreSQL saver(langgraph-checkpoint-postgres 3.2.0)는 `prune`을 지원한다. `prune` 뒤에 과거 config로 `get_state`를 부르면 \
오류 없이 빈 값 `{{}}`가 나오고, `invoke(None, config)`는 `EmptyInputError`를 낸다. 이 프로젝트의 테스트가 그 환경에서 확인한다.}
### 보관한 바이트를 부분으로 나누면
saver마다, 페이로드를 넣어 늘어난 바이트를 세 부분으로 나누었다. 체크포인트 본문은 `checkpoint`와 `metadata`를 합한 것이다. blob은 채널 값을 \
체크포인트 밖에 따로 담은 것으로, 값의 버전마다 하나씩 생긴다. 대기 기록은 다음 체크포인트보다 먼저 저장된다. 괄호 안의 수는 페이로드 크기의 몇 배인지를 나타낸다.
{parts:table=PARTS_TABLE}
{placement:?PostgreSQL의 테이블을 읽어 보니 체크포인트 행 안(jsonb)에는 {placement[inline]:each=LITS}{이/가}, blob 테이블에는 \
{placement[blob]:each=LITS}{이/가} 있다.|}
{parts:each=PARTS_SUMS}
입력 체크포인트(#0)는 입력 전체를 `__start__` 채널에 담는다. 이 채널은 상태의 값이 아니어서 상태의 JSON 바이트에는 보이지 않지만, \
saver는 보관한다. 페이로드를 넣은 실행에서 그 채널은 {input_start[difference]:,}바이트(JSON) 더 컸다.{in_meta:? 이 langgraph는 입력 \
체크포인트의 metadata에도 입력을 적는다(페이로드를 넣은 실행에서 metadata가 {input_metadata[difference]:,}바이트 더 컸다).|} \
노드 {nodes:nodes}{은/는} `bulk`에 값을 쓰지 않는다. 그러므로 대기 기록 {parts[0][share][writes]:.2f}배는 입력을 \
채널로 옮기는 LangGraph 내부 작업 `__start__`(같은 이름의 채널과는 다르다)가 남긴 대기 기록 하나다. 이 대기 기록은 입력 체크포인트(#0)에 딸려 있어 실행이 끝난 뒤에도 지워지지 않는다(마지막 체크포인트에 딸린 대기 \
기록은 {anatomy[pending_writes]}개다).
{physical[x][0][stored][parts][blobs]:?|참고: langgraph-checkpoint 2.0.22 전의 메모리 saver는 blob 없이 체크포인트마다 채널 값을 통째로 \
싣는다. 2.0.22부터는 blob에 버전마다 한 번만 담아, 같은 실행이 7.18배에서 4.16배가 된다(langgraph 0.2.60). 이 프로젝트의 테스트가 두 \
환경에서 확인한다.}
""")
SIZE_TABLE = (["체크포인트", "페이로드 없이 (바이트)", "페이로드를 넣고 (바이트)", "차이"],
              ["{label}", "{thin:,}", "{fat:,}", "{difference:,}"],
              [["합계", "{weigh[thin_total]:,}", "{weigh[fat_total]:,}", "{extra:,}"]])
SIZE_CHART = ("체크포인트별 상태의 바이트 (파랑 페이로드 없이, 빨강 넣고)", "체크포인트", "바이트")
SWEEP_TABLE = (["페이로드 (바이트)", "없이 합계", "넣고 합계", "차이", "페이로드가 든 체크포인트"],
               ["{payload_bytes:,}", "{thin_total:,}", "{fat_total:,}", "{extra:,}", "{carrying}"], [])
PAYLOAD_TABLES = ("페이로드 {kind:pick=PAYLOADS}:\n\n{rows:table=BYTES_TABLE}", "\n\n")  # a table per payload measured
PAYLOADS = {"x": '`"x"` × {r[weigh][payload_bytes]:,}', "random": "무작위 문자 {r[weigh][payload_bytes]:,}개 (압축 불가)"}
BYTES_TABLE = (["무엇으로 잰 값", "없이 (바이트)", "넣고 (바이트)", "차이", "페이로드의 몇 배"],
               ["{view:pick=VIEWS}", "{thin:,}", "{fat:,}", "{difference:,}", "{copies:.2f}"], [])
PARTS_TABLE = (["saver", "체크포인트 본문", "blob", "대기 기록"],
               ["{backend:pick=SAVERS}", "{stored[parts][checkpoints]:,} ({share[checkpoints]:.2f})",
                "{stored[parts][blobs]:,} ({share[blobs]:.2f})", "{stored[parts][writes]:,} ({share[writes]:.2f})"], [])
PARTS_SUMS = ("{backend:pick=PROSE}{은/는} {kind:pick=PARTS_KINDS}", "\n\n")  # where each saver's copies come from
PARTS_KINDS = {  # by how a saver keeps a channel's value
    "blob": "체크포인트 본문에 채널 값 대신 버전 번호만 적고, 값은 blob에 값의 버전마다 한 번 넣는다(앞 표의 "
            "`channel_values`는 읽을 때 blob에서 채운 값이다). `bulk`는 한 번 쓰인 뒤 "
            "바뀌지 않으므로 뒤의 체크포인트는 모두 같은 blob을 가리킨다. blob {share[blobs]:.2f}배는 `__start__`의 입력 하나와 "
            "`bulk`의 값 하나다. {r[in_meta]:?체크포인트 본문 {share[checkpoints]:.2f}배 가운데 {r[input_metadata][difference]:,}바이트는 "
            "metadata에 적힌 입력이다|체크포인트 본문에서 늘어난 {stored[parts][checkpoints]:,}바이트({share[checkpoints]:.2f}배)는 "
            "페이로드 하나보다 작다. 그러므로 페이로드 값은 본문에 실리지 않았다}.",
    "inline": "blob 없이 체크포인트 본문마다 채널 값을 통째로 싣는다. 그래서 값이 바뀌지 않아도 체크포인트 수만큼 다시 저장된다. "
              "체크포인트 본문 {share[checkpoints]:.2f}배는 입력 체크포인트의 `__start__`에 하나, 페이로드가 든 체크포인트 "
              "{logical[carrying]}개에 하나씩{r[in_meta]:?, metadata에 적힌 입력에 하나|}{이다/다}.",
    "pg_parts": "`bulk` 같은 문자열 값을 체크포인트 행(jsonb) 안에 싣고, 목록과 입력은 blob 테이블에 버전마다 한 번 넣는다. 체크포인트 "
                "본문 {share[checkpoints]:.2f}배는 페이로드가 든 체크포인트 {logical[carrying]}개에 하나씩이고, blob "
                "{share[blobs]:.2f}배는 `__start__`의 입력 하나다."}
CHAIN_TABLE = (["노드 수", "체크포인트 수", "페이로드가 든 체크포인트", "{chains[0][savers]:each=COPIES_HEADS}"],
               ["{nodes}", "{savers[0][checkpoints]}", "{savers[0][logical][carrying]}", "{savers:each=COPIES_CELLS}"], [])
CLAIMS = ("{follows:?{backend:pick=PROSE}{은/는} {copies[-1]:.2f}배를 보관해, 실습 해설의 말{more:?보다도 조금 많다|대로다}.|"
          "{backend:pick=PROSE}{은/는} 노드 {r[chains][0][nodes]}개에서 {copies[0]:.2f}배, {r[chains][-1][nodes]}개에서 "
          "{copies[-1]:.2f}배로 조금만 늘어, 실습 해설의 말과 다르다. 바뀌지 않은 값을 다시 싣지 않고, 새 체크포인트에 그 값의 버전 번호만 적기 "
          "때문이다.}", " ")
TURN_TABLE = (["턴", "{turn_columns:each=STORED_HEADS}", "`notes` (JSON 바이트)"],
              ["{turn}", "{stored:each=STORED_CELLS}", "{notes:,}"], [])
TURN_CHART = ("턴에 따른 보관 바이트", "턴", "바이트")
GROWN = ("{key:pick=PROSE}에서 처음 10턴에 {first_ten:,}바이트, 마지막 10턴에 {last_ten:,}바이트가 쌓였다({ratio:.2f}배)", ". ")
DELTA = {  # notes as a DeltaChannel, where langgraph has it
    True: doc("""\
참고: `DeltaChannel`은 체크포인트에 목록 대신 표시만 남기고, 읽을 때 앞 체크포인트들의 대기 기록을 reducer로 다시 합쳐 \
목록을 만드는 채널이다. 갱신이 `snapshot_frequency`번 쌓일 때마다 목록 전체를 한 번 저장한다. 베타 기능이라 API와 저장 형식이 바뀔 수 \
있다(langgraph {versions[langgraph]} 소스 `channels/delta.py`의 설명).
`notes`를 이 채널로 바꿔 메모리 saver에서 같은 {turns[memory][rows][-1][turn]}턴을 다시 실행했다. `snapshot_frequency`는 \
{delta[every]}{이었다/였다}. 이 그래프에서는 노드 {nodes:len}개가 턴마다 `notes`를 한 번씩 갱신한다. LangGraph가 센 갱신 횟수가 \
`snapshot_frequency`에 이른 {delta[snapshot_turns]:each=PLAIN}턴에 목록 전체가 저장됐다. {turns[memory][rows][-1][turn]}턴 뒤 보관 바이트는 {turns[memory][rows][-1][stored]:,}바이트에서 \
{delta[rows][-1][stored]:,}바이트로 줄었다. 마지막 10턴에 쌓인 바이트는 처음 10턴의 {delta[ratio]:.2f}배다(일반 채널은 \
{turns[memory][ratio]:.2f}배). 매 턴의 상태는 두 실행에서 {same[states]:?같았다|달랐다}."""),
    False: doc("""\
참고: `DeltaChannel`은 체크포인트에 목록 전체 대신 새로 붙은 항목만 남기는 채널이다. langgraph 1.2.0에서 처음 나왔다(PyPI의 \
langgraph 1.1.10과 1.2.0 설치 파일을 2026-12-01에 읽어 확인).
설치된 langgraph {versions[langgraph]}에는 `DeltaChannel`이 없어(`{delta[error]}`) 재지 않았다.""")}
PRUNE_TABLE = (["saver", "두 번 실행한 뒤", "`prune`", "`prune` 뒤", "`delete_thread` 뒤"], [
    "{key:pick=SAVERS}", "{checkpoints:,}개, {stored:,}바이트", "{prune:pick=PRUNE}",
    "{after_prune:?{after_prune[checkpoints]:,}개, {after_prune[stored]:,}바이트|—}",
    "{after_delete:?{after_delete[checkpoints]:,}개, {after_delete[stored]:,}바이트|메서드 없음}"], [])
PRUNE = {"": "지원함", "NotImplementedError": "구현되지 않음", "AttributeError": "메서드 없음"}  # what calling prune() found

LOST = doc("""\
## 사라지는 것
메모리 saver의 체크포인트는 그 saver와 함께 사라진다(`survives_restart`는 \
{summary[survives_restart]:code}). 실제 프로세스로도 확인했다. 새로 \
띄운 자식 프로세스가 스레드를 실행하고 끝난 뒤, 부모 프로세스가 새 saver를 만들어 같은 `thread_id`의 체크포인트를 읽었다.
{demo_savers:table=RESTART_TABLE}
{no_sqlite:?이 기계에는 SQLite saver가 없어 재지 않았다.
참고: langgraph 0.2.60과 SQLite saver가 있는 환경에서는 자식이 남긴 체크포인트 5개를 새 saver가 모두 찾는다. 이 프로젝트의 테스트가 \
그 환경에서 확인한다.|}
### durability와 크래시
{modes:pick=DURABILITY}
가운데 세 열은 각 경우가 끝난 뒤 남은 체크포인트 수이고, 마지막 열은 예외 뒤 재개했을 때 실행된 노드다. 끝까지 실행한 경우와 \
예외를 던진 경우는 메모리 saver로{no_sqlite:?|, SIGKILL은 SQLite saver로} 쟀다. 재개는 멈춘 스레드의 config(`thread_id`만 든 것)로 `invoke(None, config)`를 불러 그 스레드를 이어 가는 것이다.
{matrix:table=MATRIX_TABLE}
{no_sqlite:?이 기계에는 SQLite saver가 없어 SIGKILL 열은 재지 않았다(—).|{modes:pick=MATRIX_NOTE}}
### 크래시 뒤 재개
{demo_savers[0][crash][durability]:?durability {demo_savers[0][crash][durability]:lit}{으로/로} 실행하던 중 |}`review`에서 \
SIGKILL을 받은 스레드를, 새 자식 프로세스에서 재개해 보았다.
{demo_savers:table=CRASH_TABLE}
### 다음 노드(`next`)가 숨기는 크래시
{trap:pick=TRAP}
### 기다리지 않은 크래시
참고: `review`가 아무것도 기다리지 않고 시작하자마자 죽는 \
경우는 `make bench`로 따로 쟀다(2코어 기계, SQLite saver, 모드마다 20번). 2026-12-02에 langgraph 1.2.24에서 `exit`는 20번 모두 0개, \
`sync`는 20번 모두 4개, `async`는 20번 모두 1개였고, langgraph 0.2.60(durability 설정 없음)은 20번 모두 1개였다. 2026-12-01에는 \
`async`가 1개 16번, 2개 4번이었고, 바쁜 기계에서는 `async`와 0.2.60 모두 1개에서 4개까지였다.
### 이번 실행에서 다시 확인한 것
{checks:table=CHECKS_TABLE}
{trap:?|이 기계에는 SQLite saver가 없어, 그것이 필요한 두 항목(크래시 뒤 재개, `next`가 숨긴 크래시)은 확인하지 않았다.}
""")
RESTART_TABLE = (["saver", "자식이 저장한 체크포인트", "새 saver가 찾은 체크포인트", "살아남았나"],
                 ["{backend:pick=SAVERS}", "{restart[kept]}", "{restart[after_restart]}", "{restart[survives]:pick=YES}"], [])
DURABILITY = {  # the durability modes, where langgraph has them
    True: doc("""\
참고: durability는 `invoke`에 주는 설정으로, 체크포인트를 언제 저장할지 정한다. langgraph 0.6부터 있다(LangGraph API 문서의 `Durability`). 같은 문서에 따르면 \
`exit`는 실행이 끝날 때, `async`는 다음 단계를 실행하는 동안 뒤에서, `sync`는 다음 단계로 가기 전에 저장한다. `async`가 기본값이다.
세 모드(`exit`, `async`, `sync`)마다 끝까지 실행한 경우, `review`가 예외를 던진 경우, `review` 안에서 프로세스가 \
SIGKILL(정리할 틈 없이 프로세스를 끝내는 신호)을 받은 경우를 시험했다."""),
    False: doc("""\
참고: durability는 `invoke`에 주는 설정으로, 체크포인트를 언제 저장할지 정한다. langgraph 0.6부터 있다(LangGraph API 문서의 `Durability`). 실습의 0.2.60에는 없다. langgraph 1.2.24에서 \
`exit`, `async`, `sync`는 끝까지 실행한 뒤 1·5·5개, 예외 뒤 1·4·4개를 남긴다. 이 프로젝트의 테스트가 그 환경에서 확인한다.
설치된 langgraph {versions[langgraph]}에는 durability가 없어 `durability="sync"`를 주자 오류가 났다({durability[error]:lit}). 그래서 \
기본 동작 하나만 쟀다. 그래프를 끝까지 실행한 경우, `review`가 예외를 던진 경우{no_sqlite:?|, `review` 안에서 프로세스가 \
SIGKILL(정리할 틈 없이 프로세스를 끝내는 신호)을 받은 경우}마다 남은 체크포인트를 셌다.""")}
MATRIX_TABLE = (["모드", "끝까지 실행한 뒤", "`review`가 예외를 던진 뒤", "`review`에서 SIGKILL을 받은 뒤", "예외 뒤 재개할 때 실행된 노드"],
                ["{mode:?{mode:lit}|(durability 없음)}", "{done}", "{failed}", "{measured:?{killed}{waited:? (기다린 뒤)|}|—}",
                 "{ran:nodes}"], [])
MATRIX_NOTE = {  # what made each SIGKILL cell the same on every run
    True: "`exit`와 `sync`에서는 `review`가 기다리지 않고 바로 프로세스를 끝냈고, `async`에서는 앞 "
          "체크포인트가 저장소에 다 저장될 때까지 `review` 안에서 기다렸다가 끝냈다. 그래서 `async`의 SIGKILL 값은 다른 두 모드와 "
          "조건이 다르다(기다리지 않은 경우는 아래 참고).",
    False: "기다리지 않고 끝내면 남는 체크포인트 수가 실행마다 다를 수 있어(아래 참고), 실행마다 같은 "
           "값이 나오도록 `review` 안에서 앞 체크포인트가 저장소에 다 저장될 때까지 기다렸다가 프로세스를 끝냈다."}
CRASH_TABLE = (["saver", "크래시 뒤 찾은 체크포인트", "남은 작업", "재개할 때 실행된 노드", "재개 뒤 체크포인트"], [
    "{backend:pick=SAVERS}", "{crash[checkpoints_after_crash]}", "{crash[pending_after_crash]:?{crash[pending_after_crash]:lit}|—}",
    "{crash[ran_on_resume]:nodes}", "{resumed:?{crash[checkpoints_after_resume]}|—}"], [])
TRAP = {  # the crash that next hides, where the SQLite saver is here to show it
    True: doc("""\
요점: 크래시 뒤 `get_state(config).next`가 비어 있어도 실행이 끝나지 않았을 수 있다. 끝났는지는 스냅샷(`get_state`가 돌려주는 \
체크포인트)의 `tasks`(그 체크포인트에서 실행할 작업 목록)로 확인한다. `tasks`가 비어 있지 않으면 아직 끝나지 않은 것이다.
이 크래시는 일부러 만들었다. 자식 프로세스에서 saver의 `put`(체크포인트를 저장하는 메서드)을 가로채 `plan` 뒤의 체크포인트만 저장되지 \
않게 하고, `write`에서 SIGKILL로 프로세스를 끝냈다. 체크포인트 저장이 끝나기 전에 죽은 상태를 흉내 낸 것이다.
새 SQLite saver에서 `get_state_history`로 읽으면 체크포인트는 {trap[history_next]:len}개이고, 오래된 것부터 각 체크포인트의 `next`는 \
{trap[history_next]:each=NEXTS}{이다/다}. 그런데 같은 스레드를 `get_state(config)`로 읽으면 `next`가 \
{trap[next_after_crash]:?비어 있지 않다.|비어 있다. 끝난 것처럼 보인다.} 마지막 스냅샷의 `tasks`에는 {trap[pending_after_crash]:lit}{이/가} \
있고, 그 작업의 대기 기록 {trap[pending_writes]}개({trap[pending_channels]:each=LITS})가 저장돼 있다. 재개하자 \
{trap[ran_on_resume]:nodes}만 실행됐다{trap[replanned]:?(`plan`도 다시 실행됐다)|(`plan`은 다시 실행되지 않았다)}. 결과는 크래시 없이 \
끝까지 간 실행과 {trap[same]:?같았다|달랐다}.
참고: langgraph {versions[langgraph]} 소스(`get_state`)를 보면, config에 `checkpoint_id`가 없을 때 `next`에는 대기 기록이 아직 없는 작업만 들어간다. \
`get_state_history`는 대기 기록을 반영하지 않는다. 그래서 `get_state`에서는 대기 기록이 저장된 `plan`이 빠지고, \
그 뒤의 `write`는 `plan` 다음 체크포인트가 없어 아직 작업으로 만들어지지 않았다."""),
    False: doc("""\
이 기계에는 SQLite saver가 없어, 체크포인트 저장을 일부러 빠뜨린 크래시 시험은 하지 않았다.
참고: 크래시 뒤 `get_state(config).next`가 비어 있어도 실행이 끝나지 않았을 수 있다. langgraph 0.2.60과 SQLite saver가 있는 환경에서, \
saver의 `put`을 가로채 `plan` 뒤의 체크포인트만 저장되지 않게 하고 `write`에서 프로세스를 끝냈다. 그러자 `next`는 비었지만 `tasks`(스냅샷에서 실행할 작업 목록)에는 \
`plan`이 있었고 대기 기록 4개가 저장돼 있었다. 재개하면 `write`와 `review`만 실행된다. 이 프로젝트의 테스트가 그 환경에서 \
확인한다.""")}
CHECKS_TABLE = (["확인한 것", "결과"], ["{check:pick=CHECKS}", "{ok:pick=YES}"], [])
CHECKS = {  # every yes-or-no answer the prose states, by what it checks
    "new_end": "분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다",
    "old_end": "분기 전에 담아 둔 config로 읽으면 원래 끝이 그대로 있다",
    "original": "분기하기 전에 `fork()`가 읽어 둔 원래 가지의 끝이 처음 실행의 결과와 같다",
    "replay_end": "되감기 뒤 스레드의 config로 읽으면 되감기가 만든 끝이 나온다",
    "bytes": "압축할 수 없는 페이로드로 재도 saver의 바이트가 같다",
    "delta": "`notes`를 `DeltaChannel`로 바꿔도 매 턴의 상태가 같다",
    "crash": "{backend:pick=PROSE}: 크래시 뒤 재개한 결과가 크래시 없는 실행과 같다",
    "trap": "`next`가 숨긴 크래시: 재개한 결과가 크래시 없는 실행과 같다",
    "reader": "`open_saver`는 고친 행이 가리키는 것을 하나도 만들지 않았다"}
SECTIONS = [HEADER, SAVED, TRAVEL, SIZE, LOST]  # the report, in its order
FIELD_PURPOSES = {  # what each field a langgraph version may write is for, in the table's order
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 id(`checkpoint_id`). 정렬하면 시간 순서가 된다",
    "checkpoint.ts": "체크포인트를 저장한 시각",
    "checkpoint.channel_values": "채널별 값(여기서는 바이트 수)",
    "checkpoint.channel_versions": "채널별 현재 버전 번호. 채널이 바뀔 때마다(값이 쓰이거나 비워질 때) 커진다",
    "checkpoint.versions_seen": "노드마다, 지난번 실행될 때 본 채널 버전. 다음에 실행할 노드를 정하는 데 사용한다",
    "checkpoint.pending_sends": "아직 실행되지 않은 `Send` 작업(실행 중에 노드를 더 띄우는 기능). 이 그래프는 사용하지 않는다",
    "checkpoint.updated_channels": "이 체크포인트를 만든 단계가 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step(단계) 번호. 입력은 -1, 그 뒤로 0, 1, 2, …",
    "metadata.parents": "서브그래프로 돌 때 바깥 그래프의 체크포인트 id. 최상위 그래프에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 단계에서 각 노드가 쓴 키(여기서는 키 이름만)",
    "metadata.thread_id": "config에서 옮겨 적은 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "바로 앞(부모) 체크포인트의 config. 스레드를 거슬러 올라가는 사슬이다",
    "pending_writes": "이 체크포인트 다음 단계에서 이미 끝난 작업의 대기 기록",
}


# ---- How each field of a checkpoint is shown: nothing that changes from run to run. ----

def _counter(version) -> str:
    """A channel version as its counter, the random tail dropped: "000...0005.0.4930..." -> "5" (an int as it is)."""
    head = str(version).split(".", 1)[0]
    return str(int(head)) if head.isdigit() else str(version)


def _shown(field: str, value) -> str:
    """A field's value as the report shows it, in Markdown: names and values in code spans, nothing that changes from
    run to run (an id or a time said in words, a channel version as its counter)."""
    versions = lambda seen: ", ".join(lit(f"{k}@{_counter(v)}") for k, v in seen.items()) or "—"  # noqa: E731
    shown = {"checkpoint.id": lambda: f"{len(value)}자 UUID (실행마다 다름)",
             "checkpoint.ts": lambda: "ISO 8601 시각 (실행마다 다름)",
             "checkpoint.channel_values": lambda: ", ".join(f"{lit(k)} {v}바이트" for k, v in value.items()),
             "checkpoint.channel_versions": lambda: versions(value),
             "checkpoint.versions_seen": lambda: "; ".join(f"{lit(k)}: {versions(v)}" for k, v in value.items()),
             "metadata.writes": lambda: ", ".join(f"{lit(k)} → {nodes(sorted(v)) if isinstance(v, dict) else code(v)}"
                                                  for k, v in value.items())}
    if field in shown and (field != "metadata.writes" or isinstance(value, dict)):
        return shown[field]()
    return "`null` (이 langgraph는 채우지 않는다)" if value is None else code(value)


def anatomy_rows(anat: dict) -> list:
    """ckpt.anatomy() as rows the same on every run, in FIELD_PURPOSES' order, then the rest:
    [{"field": "checkpoint.v", "purpose": "...", "value": "4"}, ...]."""
    order = {field: i for i, field in enumerate(FIELD_PURPOSES)}  # unknown fields after, in their order
    fields = [(f"{part}.{k}", _shown(f"{part}.{k}", v)) for part in ("checkpoint", "metadata")
              for k, v in sorted(anat[part].items(), key=lambda kv: order.get(f"{part}.{kv[0]}", len(order)))]
    fields += [("parent_config", "있음" if anat["has_parent_config"] else "없음"),
               ("pending_writes", f"{anat['pending_writes']}개")]
    return [{"field": f, "purpose": FIELD_PURPOSES.get(f, ""), "value": v} for f, v in fields]
