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
                  values} or {"x": labels, "savers": {saver: values}}, a line per saver in its colour
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
PAIRS = ("을/를", "이/가", "은/는", "과/와", "으로/로", "이다/다", "이고/고", "이며/며")
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
    """`text` with each {을/를}-style mark replaced by the form that fits what comes before it."""
    def choose(match: "re.Match") -> str:
        """The form of the mark `match` found that fits the text before it."""
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
        series, palette = [(kind, data[kind]) for kind in ("bar", "line") if kind in data], PALETTE
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
VIEWS = dict(SAVERS, logical="논리 (JSON)", compressed="PostgreSQL, 압축 후 (pg_column_size)")  # what bytes were read from
YES = {True: "예", False: "아니오"}
COLORS = {"memory": ("#1f77b4", "파랑"), "sqlite": ("#d62728", "빨강"), "postgres": ("#2ca02c", "초록")}  # chart lines
LANES = {"run": "처음 실행", "replay": "되감기", "update": "분기"}  # the thread's gitGraph: the first run, then branches
SHORTENED = {True: "({}자)", False: "(JSON {}자)"}  # after a value shown shortened: a str's length, else its JSON's

# ---- Lists shown joined: (the template of one item, the separator). ----
VERSIONS = ("{key} {value}", ", ")
PLAIN = ("{value}", ", ")
LITS = ("{value:lit}", ", ")
ARROWS = ("{value:lit}", " → ")
DOTS = ("{value:lit}", "·")
SOURCES = ("{source}", ", ")
COUNTS = ("{key} {value}개", ", ")
NEXTS = ("{value:?{value[0]:lit}|(끝)}", ", ")  # each checkpoint's next node, oldest first
FIRSTS = ("{value:?{value[0]:lit}|}", ", ")  # the same, the last checkpoint's (none) left out
NODE_COUNTS = ("{nodes}개", ", ")
AND_SAVERS = ("{backend:pick=PROSE}", "와 ")
COPIES_HEADS, COPIES_CELLS = ("{backend:pick=PROSE} 사본", " | "), ("{stored[copies]:.2f}", " | ")  # a column a saver
STORED_HEADS, STORED_CELLS = ("{key:pick=PROSE} 보관 바이트", " | "), ("{value:,}", " | ")
RAN = "{ran:?{ran:nodes}{이/가} 실행됐고, |노드는 하나도 실행되지 않았고, }\
{added:?체크포인트는 {added}개 늘었다.|체크포인트도 늘지 않았다.}"  # what an invoke(None, ...) ran and added

# ---- The sections. ----
HEADER = doc("""\
# 체크포인트 실험 보고서
{r:table=SETTING_TABLE}
`ckpt.py`는 LangGraph 체크포인트 실습의 풀이 코드이고, 이 보고서가 말하는 "실습 설명"은 그 실습의 안내문이다. 이 보고서의 수치는 \
모두 위 환경에서 `ckpt.py`를 실제로 실행해 얻었다. "참고"로 시작하는 문단만 예외다. 그런 문단의 내용은 이 \
실행에서 잰 것이 아니다. 문서나 소스에서 가져온 설명이거나 다른 환경에서 잰 값이다. 어느 쪽인지 문단 안에 적었다.
""")
SETTING_TABLE = (["항목", "값"], [], [
    ["측정 환경", "{versions:each=VERSIONS}"], ["주제", "{summary[topic]:code}"],
    ["페이로드", "{weigh[payload_bytes]:,}바이트"], ["분기에 쓴 `angle`", "{summary[fork_angle]:lit}"],
    ["{no_sqlite:?SQLite saver|}", "{no_sqlite:?설치되지 않음(`{extras[sqlite]}`). 이 saver가 필요한 행과 절은 재지 않았다|}"]])
MODEL = doc("""\
## 무엇이 저장되는가
### 먼저, 기본 개념
LangGraph 그래프를 컴파일할 때 checkpointer를 넘기면 실행하는 동안 상태가 저장된다. 이 보고서는 그 checkpointer 객체를 saver라고 \
부른다. 메모리 saver는 `InMemorySaver`, SQLite saver는 `SqliteSaver`, PostgreSQL saver는 `PostgresSaver`다. saver가 체크포인트를 담아 \
두는 곳(메모리, SQLite 파일, PostgreSQL 데이터베이스)은 저장소라고 부른다.
실습의 그래프는 노드 {nodes:len}개({nodes:each=ARROWS})가 한 줄로 이어져 있다. 상태의 키는 `topic`(주제), `angle`(관점), `notes`(노드마다 \
한 줄씩 이어 붙는 기록), `stage`(방금 끝난 노드의 이름), `draft`(`write`가 쓰는 초안), `score`(`review`가 매기는 점수, 곧 초안의 글자 수), `bulk`(크기를 잴 \
때만 넣는 큰 값, 곧 페이로드)다. `write`는 `angle`에 따라 초안을 한 번에서 세 번까지 되풀이한다. 실습 코드의 함수 가운데 \
`history()`는 기록을 오래된 것부터, `pending()`은 체크포인트마다 다음 노드를 돌려준다. `replay()`는 되감기를, `fork()`는 분기를 \
하고, `weigh()`는 크기를 잰다.
- **스레드**(thread)는 `thread_id` 하나로 묶인 실행 기록이다. `thread_id`는 config에 `{{"configurable": {{"thread_id": ...}}}}` 꼴로 \
넣는다. `thread_id`만 든 config를 이 보고서는 "스레드의 config"라고 부른다.
- **super-step**은 그래프가 한 번에 실행하는 노드 묶음이다. 이 보고서는 이것을 "단계"라고 부른다. 입력을 받는 단계를 빼면, 이 그래프에서는 \
단계마다 노드가 하나씩 실행된다.
- **체크포인트**(checkpoint)는 단계마다 남는 상태 전체의 기록이다. 값을 실제로 어떻게 보관하는지는 saver마다 다르다(아래 \
"논리 바이트와 실제로 저장된 바이트"). 이 실행에서 그래프를 한 번 돌리자 체크포인트가 {checkpoints:len}개 \
남았다. 입력을 받을 때 하나, 입력이 상태에 옮겨진 뒤 하나, 그리고 노드가 끝날 때마다 하나다. `get_state`와 `get_state_history`는 \
체크포인트를 **스냅샷**(`StateSnapshot`)으로 돌려준다. 스냅샷에는 값(`values`), 다음 노드(`next`), 다음 단계의 작업(`tasks`), 그 \
체크포인트를 가리키는 config가 들어 있다.
- 같은 스레드에 새 입력을 주면 마지막 상태에서 **이어서 실행**된다. 입력 대신 `None`을 주어 멈춘 스레드를 스레드의 config로 \
계속 실행하는 것은 **재개**라고 부른다. 재개는 쓰기가 이미 저장된 작업을 다시 실행하지 않는다(아래 "다음 노드(`next`)가 숨기는 \
크래시").
- **되감기**(replay)는 과거 체크포인트의 config, 곧 체크포인트 id가 든 config로 `invoke(None, config)`를 부르는 것이다. 그 \
지점의 값에서 다시 출발해 뒤의 노드를 다시 실행한다.
- **분기**는 과거 체크포인트에 `update_state`로 값을 바꿔 쓰고, 돌려받은 config로 이어서 실행하는 것이다. 원래 기록은 그대로 남고 새 \
가지가 생긴다. 분기를 영어로 fork라고 하지만, 체크포인트에 적히는 source 값 `fork`(langgraph 1.x의 되감기가 남긴다)와는 \
다르다.
### 용어
참고: 용어의 뜻은 LangGraph 문서와 langgraph-checkpoint 소스의 설명을 따랐다. 이 실행에서 잰 값이 아니다. 오른쪽 열은 그 용어가 이 \
보고서에서 처음 쓰이는 곳이다.
{r:table=GLOSSARY_TABLE}
""")
GLOSSARY_TABLE = (["용어", "뜻", "처음 쓰이는 곳"], [], [
    ("source", "체크포인트가 생긴 경위(`metadata.source`). 입력을 받아 생기면 input, 실행 도중 단계가 끝나 생기면 loop, `update_state`가 "
     "쓰면 update다. langgraph 1.x의 되감기는 source가 fork인 체크포인트를 하나 먼저 쓴다.", "“먼저, 기본 개념”"),
    ("`__start__`", "입력을 받는 시작 노드와 그 채널. 입력 체크포인트의 다음 노드가 이것이다.", "“한 번 실행하면”"),
    ("reducer", "키에 새 값이 쓰일 때 기존 값과 합치는 함수. 이 그래프에서는 `notes`만 reducer가 있어 목록을 이어 붙이고, 나머지 키는 "
     "새 값으로 바뀐다.", "“되감기와 분기는 어떻게 다른가”"),
    ("채널(channel)", "체크포인트 안에서 값 하나가 담기는 자리. 상태의 키마다 하나씩 있고, 그래프가 안에서 쓰는 채널도 있다.",
     "“체크포인트 하나를 열어 보면”"),
    ("`branch:to:<노드>`", "다음 단계에 그 노드를 실행하라는 표시를 담는 내부 채널. langgraph 버전에 따라 이름이 다르다. 노드와 같은 "
     "이름의 채널(`plan` 등)이나 `start:<노드>`가 이 일을 하기도 한다.", "“체크포인트 하나를 열어 보면”"),
    ("`versions_seen`", "노드마다, 지난번 실행될 때 본 채널 버전. LangGraph가 다음에 실행할 노드를 정할 때 쓴다.",
     "“체크포인트 하나를 열어 보면”"),
    ("`__input__`", "`versions_seen`에 나오는 LangGraph의 내부 항목. 이 그래프에서는 비어 있다(—).", "“체크포인트 하나를 열어 보면”"),
    ("대기 중인 쓰기(pending writes)", "노드가 끝나자마자, 다음 체크포인트보다 먼저 따로 저장되는 그 노드의 쓰기. 다음 체크포인트가 "
     "저장된 뒤에도 지워지지 않는다. 필드 이름은 `pending_writes`다.", "“체크포인트 하나를 열어 보면”"),
    ("페이로드, thin, fat", "페이로드는 `bulk`에 넣는 큰 값이다. `bulk` 없이 한 실행을 thin, 페이로드를 넣고 한 실행을 fat이라고 부른다.",
     "맨 위 표, “크기로 잰 것”"),
    ("사본", "saver가 보관한 바이트의 차이(fat − thin)를 페이로드 바이트로 나눈 값. 페이로드 몇 개 분량이 저장됐는지를 뜻한다.",
     "“크기로 잰 것”"),
    ("blob", "채널 값을 체크포인트와 따로, 값의 버전마다 한 번씩 보관하는 자리. 쓰는 saver도 있고 쓰지 않는 saver도 있다(부분별 표).",
     "“논리 바이트와 실제로 저장된 바이트”"),
    ("store", "체크포인트 밖에서 키로 값을 보관하는 LangGraph의 별도 보관소. 이 보고서의 저장소(saver가 쓰는 곳)와는 다르다.",
     "“줄이는 방법과 그 대가”"),
    ("durability", "체크포인트를 언제 저장소에 쓸지 정하는 `invoke`의 설정(langgraph 1.x).", "“저장 시점(durability)”"),
    ("SIGKILL", "프로세스를 그 자리에서 끝내는 신호. 받은 프로세스는 정리 작업을 하지 못한다.", "“크래시”"),
])
MISTAKES = doc("""\
### 실습이 꼽는 실수 네 가지
실습 설명이 꼽는 흔한 실수를 하나씩 그대로 해 보았다. 각각은 아래 절들에서 더 자세히 다룬다.
{r:table=MISTAKES_TABLE}
""")
MISTAKES_TABLE = (["실수", "이 실행에서 일어난 일"], [], [
    ["checkpointer 없이 컴파일하고 `get_state`를 부른다", "예외가 난다({threads[no_checkpointer_error]:lit}). 두 번 실행해도 "
     "`notes`는 {threads[no_checkpointer_notes][0]}개, {threads[no_checkpointer_notes][1]}개로 매번 처음부터 시작한다."],
    ["되감을 때 `None` 대신 입력을 준다", "{rerun[input]:code}{을/를} 주자 {rerun[ran]:nodes}{이/가} 다시 실행되고 "
     "체크포인트가 {rerun[added]}개 늘었다."],
    ["`update_state` 뒤에 원래 config로 이어서 실행한다", "초안은 {update[old_config][draft]:code}, 점수는 {update[old_config][score]}점이다. "
     "값을 바꾸지 않았을 때와 같다. 체크포인트는 {update[old_config][checkpoints]}개가 됐다."],
    ["기록을 뒤집지 않고 읽는다", "`get_state_history`는 최신 것부터 준다. 첫 항목은 단계 {update[first_steps][get_state_history]}(마지막 "
     "체크포인트){이다/다}. 실습의 `history()`처럼 뒤집어야 첫 항목이 단계 {update[first_steps][history]}(입력){이/가} 된다."]])
SAVED = doc("""\
### 한 번 실행하면
그래프를 한 번 실행하면 체크포인트가 {checkpoints:len}개 남는다. 아래 표는 오래된 것부터 적었다.\
{threads[history_newest_first]:? `get_state_history`가 최신 것부터 주기 때문에 뒤집었다.|} "체크포인트" 열의 \
input·loop는 그 체크포인트의 source다(뜻은 위 용어 표). "단계"는 super-step의 번호이고, "바이트"는 그 순간의 상태 전체를 JSON으로 잰 크기다.
{checkpoints:table=CHECKPOINTS_TABLE}
다음 노드만 오래된 것부터 모으면(실습의 `pending()`) {pending:code} 순서다. 목록의 마지막 항목(빈 문자열)은 다음 노드가 없다는 뜻으로, \
표의 "(끝)"이다. 기본 실행의 점수(`base_score`)는 초안 {fork[base_draft]:code}의 글자 수라서 \
{fork[base_score]}점이다.
같은 `thread_id`(`t1`)로 한 번 더 실행하면 저장된 상태에서 이어진다. `notes`가 {threads[same_thread_notes][0]}개에서 \
{threads[same_thread_notes][1]}개로 늘고, 체크포인트는 \
{threads[same_thread_checkpoints]}개가 된다. 그다음 다른 `thread_id`(`t2`)로 실행하면 빈 상태에서 시작한다. `notes`는 \
{threads[other_thread_notes]}개이고, 그 스레드의 체크포인트는 {threads[other_thread_checkpoints]}개다.
checkpointer 없이 컴파일한 그래프는 아무것도 남기지 않는다. 같은 config로 두 번 실행해도 `notes`가 매번 처음부터 쌓인다(첫 실행 \
{threads[no_checkpointer_notes][0]}개, 두 번째 실행 {threads[no_checkpointer_notes][1]}개). 그 그래프에 `get_state`를 부르면 예외가 \
난다({threads[no_checkpointer_error]:lit}).
### 체크포인트 하나를 열어 보면
`run-1` 스레드를 한 번 실행한 뒤, 마지막 체크포인트를 saver에서 직접 꺼냈다(`checkpointer.get_tuple(config)`). saver가 돌려준 필드를 모두 적었다. 다만 두 가지는 줄여 \
적었다. 채널 값은 값 대신 바이트 수를 적었다. 채널 버전은 실행마다 달라지는 뒷부분을 떼고 앞의 번호만 `채널@번호` 꼴로 적었다.
참고: "뜻" 열은 이 실행에서 잰 것이 아니다. langgraph-checkpoint 소스에 있는 `Checkpoint`와 `CheckpointMetadata`의 주석을 바탕으로 이 \
보고서가 풀어 쓴 것이다. `parent_config`와 `pending_writes`는 그런 주석이 없어 이 보고서가 설명을 붙였다.
{anatomy_rows:table=ANATOMY_TABLE}
""")
CHECKPOINTS_TABLE = (["체크포인트", "단계", "다음 노드(`next`)", "이 단계에서 바뀐 키", "바이트"],
                     ["{label}", "{step}", "{next:?{next[0]:lit}|(끝)}", "{changed:nodes}", "{bytes:,}"], [])
ANATOMY_TABLE = (["필드", "뜻", "값 또는 크기"], ["{field:lit}", "{purpose}", "{value:lit}"], [])
TRAVEL = doc("""\
## 되감기와 분기는 어떻게 다른가
되감기는 과거 체크포인트의 config로 `invoke(None, config)`를 부르는 것이다. `plan`, `write`, `review` 각각이 실행되기 직전의 \
체크포인트(다음 노드가 그 노드인 체크포인트)에서 되감아 보았다. 매번 새 saver에서 한 번 실행한 뒤 되감았다. 노드 함수가 불릴 때마다 이름을 적어, 다시 실행된 노드를 \
셌다.
{replays:table=REPLAYS_TABLE}
{replay_kind:pick=REPLAY}
되감기는 노드 함수를 정말로 다시 부른다. `write` 앞에서 되감자 {replay_from[write][ran]:nodes}{이/가} 한 번씩 더 불렸다. 노드 안에서 \
모델을 부르거나 메일을 보낸다면, 되감을 때 모델도 다시 불리고 메일도 다시 나간다.
되감을 때 `None` 대신 입력을 주면 되감기가 아니다. `write` 앞 지점의 config에 새 입력 {rerun[input]:code}{을/를} 주어 `invoke`를 불렀다. \
그러자 {rerun[ran]:nodes}{이/가} 모두 다시 실행됐고 체크포인트가 {rerun[added]}개 늘었다. 그 지점에 저장된 값 위에서 처음부터 다시 시작한 \
것이다. reducer가 붙은 `notes`는 {rerun[notes]:code}{이/가} 됐다.
분기는 과거 지점의 값을 바꿔 다른 길로 가는 것이다. `write` 앞 지점의 config로 `update_state`를 불러 {fork_update:code}{을/를} 쓴 새 \
체크포인트를 만들었다. 그리고 `update_state`가 돌려준 config로 `invoke(None, config)`를 불러 이어서 실행했다. 체크포인트는 \
{fork[before]}개에서 {fork[total]}개가 됐다.{branch[no_fork]:? `update_state`가 만든 체크포인트에서 이어 갈 때는 source가 `fork`인 \
체크포인트가 생기지 않았다(아래 그림).|}
{fork:table=BRANCHES_TABLE}
{fork[current_is_new_end]:?분기 뒤에 스레드의 config로 `get_state`를 부르면 새 가지의 끝이 나온다.|분기 뒤에 스레드의 config로 \
`get_state`를 부르면 새 가지의 끝이 나오지 않는다.} {fork[old_end_readable]:?원래 가지는 지워지지 않는다. 분기 전에 잡아 둔 config로 \
읽으면 원래 끝이 그대로 있다.|분기 전에 잡아 둔 config로 읽은 값은 원래 끝과 다르다.} {fork[original_is_old_end]:?실습의 `fork()` 함수가 \
분기하기 전에 읽어 둔 마지막 상태도 처음 실행의 결과와 같다.|실습의 `fork()` 함수가 분기하기 전에 읽어 둔 마지막 상태는 처음 실행의 \
결과와 다르다.}
### `update_state`가 실제로 하는 일
`update_state`는 값을 그냥 덮어쓰지 않는다. 그 지점에서 방금 끝난 노드가 쓴 것처럼, reducer를 거쳐 새 체크포인트를 하나 쓴다. 한 번 \
실행한 새 스레드의 `write` 앞 지점에 `{{"notes": ["replaced"]}}`를 주자 `notes`는 {update[reducer][notes]:code}{이/가} 됐다. 새 \
체크포인트의 source는 {update[reducer][source]:lit}, 다음 노드는 {update[reducer][next]:nodes}{이다/다}.
실습이 꼽는 실수가 여기서 나온다. `update_state`가 돌려준 config를 버리고 원래 지점의 config로 `invoke(None, config)`를 부르는 것이다. \
원래 config는 값을 바꾸기 전의 체크포인트를 가리키므로, 이 호출은 그 지점에서 되감은 것과 같다. `write` 앞 지점에 \
{old_update:code}{을/를} 쓰고 그 지점의 원래 config로 이어서 실행하자 초안은 {update[old_config][draft]:code}, 점수는 \
{update[old_config][score]}점이었다. 값을 바꾸지 않았을 때와 같다. 스레드의 체크포인트는 {update[old_config][checkpoints]}개가 됐고, \
`angle`{을/를} {update[old_config][update_angle]:lit}{으로/로} 바꾼 체크포인트는 아무도 이어서 실행하지 않은 채 남았다.
### config가 가리키는 것
체크포인트 id가 든 config는 그 체크포인트 하나를 가리킨다. `update_state`가 돌려준 config로 `get_state_history`를 부르면 \
체크포인트가 {update[named_lists]}개 나온다.
끝난 스레드에 스레드의 config로 `invoke(None, config)`를 부르자 {update[finished]:with=RAN} 마지막 체크포인트의 config로 되감자 \
{update[end_replay]:with=RAN}
`thread_id`에 정수 1을 주고 실행한 뒤 읽으면, 정수 1로는 체크포인트가 {update[int_and_str_ids][0]}개, 문자열 `"1"`로는 \
{update[int_and_str_ids][1]}개 나온다. {update[int_and_str_ids][1]:?langgraph {versions[langgraph]}에서는 둘이 같은 스레드다.|langgraph \
{versions[langgraph]}에서는 둘이 다른 스레드다. `thread_id`는 한 가지 형(보통 문자열)으로만 쓰는 것이 안전하다.}
{update[int_and_str_ids][1]:?참고: langgraph 0.2.60에서는 둘이 다른 스레드다(문자열 `"1"`로는 0개). 이 실행이 아니라 이 프로젝트의 \
테스트(`make test`)가 langgraph 0.2.60 환경에서 확인한다.|참고: langgraph 1.2.24에서는 둘이 같은 스레드다. 이 실행이 아니라 이 \
프로젝트의 테스트(`make test`)가 langgraph 1.2.24 환경에서 확인한다.}
### 체크포인트는 어디서 왔나
한 스레드에서 한 번 실행하고, `write` 앞에서 되감고, 다시 `write` 앞에서 분기했다. 체크포인트마다 source를 오래된 것부터 읽으면 \
{tree:each=SOURCES}{이다/다}. 모두 세면 {source_counts:each=COUNTS}{이다/다}. 부모 관계대로 그리면 아래와 같다. 점 하나가 체크포인트 \
하나이고, 선(가지)은 처음 실행, 되감기, 분기다. 강조한 점은 source가 {highlighted:each=DOTS}인 체크포인트다. 되감기도 분기처럼 새 \
가지를 만든다.
{tree:gitgraph}
{branch[points][1:]:?되감은 뒤에는 다음 노드가 `write`인 체크포인트가 {branch[points]:len}개({branch[points]:each=PLAIN})다. 실습의 \
`fork()` 함수는 그 가운데 가장 최근 것을 고른다.|다음 노드가 `write`인 체크포인트는 {branch[points][0]} 하나다.} 그래서 분기의 첫 \
체크포인트({branch[at]})는 {branch[parent]}에서 갈라진다.{branch[forks]:? source가 `fork`인 체크포인트 {branch[forks]}개는 되감기가 쓴 \
것이고, 분기가 쓴 체크포인트의 source는 `update`다.|}
""")
REPLAYS_TABLE = (["어느 노드 앞에서", "늘어난 체크포인트", "다시 실행된 노드", "새 체크포인트의 source"],
                 ["{from:lit}", "{added}", "{ran:nodes}", "{sources:each=PLAIN}"], [])
REPLAY = {  # how a replay's added checkpoints compare with the nodes it ran again
    "fork": doc("""\
langgraph {versions[langgraph]}에서는 되감으면 체크포인트가 다시 실행한 노드 수보다 하나 더 늘어난다. 늘어난 것 가운데 첫 번째는 \
source가 `fork`인 체크포인트다. source 값 `fork`는 이름과 달리 이 보고서의 분기가 아니라 되감기가 남긴다. 분기(`update_state`)가 \
남기는 체크포인트의 source는 `update`다(아래).
참고: langgraph 0.2.60에서는 `fork` 체크포인트 없이 `plan`·`write`·`review` 앞에서 3·2·1개가 늘어난다. 이 실행이 아니라 이 \
프로젝트의 테스트(`make test`)가 langgraph 0.2.60 환경에서 확인하는 값이다."""),
    "plain": doc("""\
langgraph {versions[langgraph]}에서는 되감으면 체크포인트가 다시 실행한 노드 수만큼 늘어난다.
참고: langgraph 1.2.24에서는 되감기가 먼저 source가 `fork`인 체크포인트를 하나 써서 4·3·2개가 늘어난다. 이 실행이 아니라 이 \
프로젝트의 테스트(`make test`)가 langgraph 1.2.24 환경에서 확인하는 값이다."""),
    "other": "늘어난 체크포인트 수와 다시 실행된 노드 수는 위 표와 같다."}
BRANCHES_TABLE = (["가지", "초안", "점수"], [], [
    ["원래 가지", "{fork[base_draft]:code}", "{fork[base_score]}"],
    ["새 가지 ({summary[fork_angle]:lit})", "{fork[fork_draft]:code}", "{fork[fork_score]}"]])
SIZE = doc("""\
## 크기로 잰 것
상태를 `json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)`로 직렬화해 UTF-8 바이트를 셌다. `bulk` 없이 한 번(thin), \
`bulk`에 {weigh[payload_bytes]:,}바이트짜리 문자열을 넣고 한 번(fat) 실행했다. 두 실행 모두 새 saver에서 했다. `bulk`는 입력으로만 \
들어가고, 어느 노드도 바꾸지 않는다.
{size_rows:table=SIZE_TABLE}
{charts[thin]:chart=THIN_CHART}
{charts[fat]:chart=FAT_CHART}
스냅샷의 값(`values`)으로 보면 체크포인트 {weigh[checkpoints]}개 가운데 {weigh[carrying]}개에 페이로드가 들어 있다. 한 번 넣은 값이 \
상태로는 {weigh[carrying]}번 들어간다. fat 합계에서 thin 합계를 빼면 {weigh[fat_total]:,} − {weigh[thin_total]:,} = {extra:,}바이트다.\
{exact:? 페이로드를 실은 체크포인트마다 정확히 {rows[carried][0]:,}바이트씩이다. 페이로드 {weigh[payload_bytes]:,}바이트에 \
{rows[key_bytes]}바이트를 더한 값이다. {rows[key_bytes]}바이트는 키와 구분자, 곧 `, "bulk": ""`의 길이다.|} 저장소에 실제로 들어간 \
사본 수는 이와 다르다. 아래 "논리 바이트와 실제로 저장된 바이트"에서 저장소를 직접 읽어 쟀다.
### 페이로드 크기를 바꿔 가며
같은 그래프를 `bulk`의 크기만 같은 간격으로 늘려 가며 같은 방법(실습의 `weigh`)으로 쟀다.
{sweep:table=SWEEP_TABLE}
{charts[sweep]:chart=SWEEP_CHART}
{sweep_step:?페이로드를 {sweep_step[payload_bytes]:,}바이트 늘릴 때마다 차이(fat − thin)는 {sweep_step[extra]:,}바이트씩 커졌다. \
직선의 기울기는 {sweep_step[per_byte]:g}{이다/다}. 페이로드 1바이트가 상태 전체로는 {sweep_step[per_byte]:g}바이트가 된다.\
{slope_is_carrying:? 페이로드를 실은 체크포인트 수({sweep[0][carrying]}개)와 같다.|}|늘어난 바이트가 고르게 늘지는 않았다(위 표).}
### 논리 바이트와 실제로 저장된 바이트
위의 바이트는 논리적인 값이다. 체크포인트마다 상태 전체를 JSON으로 셌다. saver가 실제로 보관하는 바이트는 다르다. 같은 두 실행(thin, \
fat)을 {each_saver:pick=EACH_SAVER} 다시 하고, 저장소를 직접 읽어 직렬화된 값의 바이트를 셌다. 저장소의 조회 키, 인덱스, 행 헤더는 \
세지 않았다. "사본"은 저장 바이트의 차이를 페이로드 바이트로 나눈 값으로, 페이로드 몇 개 분량이 저장됐는지를 뜻한다. 채널 버전 문자열의 \
뒷부분은 saver가 무작위 수로 만든다. 실행마다 바이트가 같도록, 이 측정에서는 그 무작위 수를 시드(seed) 0으로 고정했다. 아래 표의 "논리 \
(JSON)" 행에서 사본이 페이로드를 실은 체크포인트 수보다 조금 큰 것은, 체크포인트마다 `bulk` 키가 더하는 바이트 때문이다.
{views:each=PAYLOAD_TABLES}
{postgres:?PostgreSQL은 큰 값을 압축해 저장한다. 값이 실제로 차지하는 바이트(`pg_column_size`)로 재면 `"x"` 페이로드는 \
{pg_copies[x]:.2f}개 분량으로 줄었고, 압축할 수 없는 무작위 문자는 {pg_copies[random]:.2f}개 분량이었다.|{same[bytes]:?같은 길이의 \
무작위 문자(압축할 수 없는 값)로 바꿔 재도 saver의 바이트가 위와 같았다. 여기서 잰 saver는 값을 압축하지 않는다.|같은 길이의 무작위 \
문자(압축할 수 없는 값)로 바꿔 재자 saver의 바이트가 위와 달랐다.}}
{no_sqlite:?이 기계에는 SQLite saver의 패키지(`{extras[sqlite]}`)가 설치되어 있지 않아 SQLite 행은 재지 않았다.|}
fat − thin 차이를 saver가 보관하는 세 부분(체크포인트, blob, 대기 중인 쓰기)으로 나누었다. 단위는 바이트이고, 괄호 안의 수는 그것이 \
페이로드 몇 개 분량인지를 나타낸다. 반올림 때문에 세 수의 합이 "사본"과 마지막 자리에서 다를 수 있다.
{parts:table=PARTS_TABLE}
{placement:?PostgreSQL이 값을 어디에 두는지 테이블에서 읽었다. 체크포인트 행 안(jsonb)에는 {placement[inline]:each=LITS}{이/가} \
있고, blob 테이블에는 {placement[blob]:each=LITS}{이/가} 있다.|}
입력 체크포인트(#0)는 입력 전체를 `__start__` 채널에 담는다. fat 실행에서 그 채널은 thin보다 {input_start[difference]:,}바이트(JSON) \
컸다. 이 채널은 상태의 값(`values`)이 아니어서 위 논리 바이트 표의 #0 input 행에는 보이지 않는다.{in_meta:? 이 langgraph는 입력 \
체크포인트의 metadata(`writes`)에도 입력을 적는다. fat 실행에서 그 metadata는 thin보다 {input_metadata[difference]:,}바이트(JSON) \
컸다.|}
{parts:each=PARTS_SUMS}
노드는 `bulk`를 쓰지 않는다. 그래서 대기 중인 쓰기 {parts[0][share][writes]:.2f}개 분량은 시작 단계(`__start__`)가 입력을 `bulk` \
채널에 옮길 때 남긴 기록 하나다. 이 기록은 실행이 끝난 뒤에도 저장소에 남아 있다(마지막 체크포인트에 붙은 대기 중인 쓰기는 \
{anatomy[pending_writes]}개다).
{physical[x][0][stored][parts][blobs]:?|참고: langgraph-checkpoint 2.0.22 전의 메모리 saver는 blob 없이 체크포인트마다 채널 값을 \
통째로 싣는다. 2.0.22부터는 값을 blob에 버전마다 한 번만 담으므로, 같은 실행의 사본이 7.18개가 아니라 4.16개 분량이 된다(langgraph \
0.2.60, langgraph-checkpoint 2.1.2). 이 실행이 아니라 이 프로젝트의 테스트(`make test`)가 두 환경에서 확인한다.}
""")
SIZE_TABLE = (["체크포인트", "thin (바이트)", "fat (바이트)", "차이"], ["{label}", "{thin:,}", "{fat:,}", "{difference:,}"],
              [["합계", "{weigh[thin_total]:,}", "{weigh[fat_total]:,}", "{extra:,}"]])
THIN_CHART = ("thin: 체크포인트별 상태 바이트", "체크포인트", "바이트")
FAT_CHART = ("fat: 체크포인트별 상태 바이트", "체크포인트", "바이트")
SWEEP_TABLE = (["페이로드 (바이트)", "thin 합계 (바이트)", "fat 합계 (바이트)", "차이 (바이트)", "페이로드를 실은 체크포인트 수"],
               ["{payload_bytes:,}", "{thin_total:,}", "{fat_total:,}", "{extra:,}", "{carrying}"], [])
SWEEP_CHART = ("페이로드 크기에 따른 차이 (fat − thin)", "페이로드 (바이트)", "바이트")
PAYLOAD_TABLES = ("페이로드 {kind:pick=PAYLOADS}:\n\n{rows:table=BYTES_TABLE}", "\n\n")  # a table per payload measured
PAYLOADS = {"x": '`"x"` × {r[weigh][payload_bytes]:,}', "random": "무작위 문자 {r[weigh][payload_bytes]:,}개 (압축 불가)"}
BYTES_TABLE = (["무엇으로 잰 값", "thin (바이트)", "fat (바이트)", "차이", "사본"],
               ["{view:pick=VIEWS}", "{thin:,}", "{fat:,}", "{difference:,}", "{copies:.2f}"], [])
PARTS_TABLE = (["saver", "체크포인트 (checkpoint + metadata)", "blob", "대기 중인 쓰기"],
               ["{backend:pick=SAVERS}", "{stored[parts][checkpoints]:,} ({share[checkpoints]:.2f})",
                "{stored[parts][blobs]:,} ({share[blobs]:.2f})", "{stored[parts][writes]:,} ({share[writes]:.2f})"], [])
PARTS_SUMS = ("{backend:pick=PROSE}에서 생긴 차이 {stored[difference]:,}바이트는 체크포인트 {stored[parts][checkpoints]:,}, blob "
              "{stored[parts][blobs]:,}, 대기 중인 쓰기 {stored[parts][writes]:,}바이트를 더한 것이다. 페이로드로는 각각 "
              "{share[checkpoints]:.2f}, {share[blobs]:.2f}, {share[writes]:.2f}개 분량이다. 세 부분을 합한 차이는 "
              "{stored[copies]:.2f}개 분량이다.{kind:pick=PARTS_KINDS}", "\n\n")  # a paragraph per saver
PARTS_KINDS = {  # where a saver's copies of the payload come from, by how it keeps channel values
    "blob": " 이 saver는 체크포인트에 채널 값 대신 버전 번호만 적고, 값은 blob에 값의 버전마다 한 번만 넣는다. `bulk`는 입력 때 한 번 "
            "쓰인 뒤 바뀌지 않으므로, 뒤의 체크포인트들은 같은 blob 하나를 가리킨다. 그래서 blob은 {share[blobs]:.2f}개 분량, 곧 "
            "`__start__`의 입력 하나와 `bulk`의 값 하나다.{r[in_meta]:? 체크포인트 부분 {share[checkpoints]:.2f}개 분량은 metadata에 "
            "적힌 입력이다.|}",
    "inline": " 이 saver에는 blob이 없고 체크포인트 부분이 {share[checkpoints]:.2f}개 분량이다. 체크포인트마다 채널 값을 통째로 싣기 "
              "때문에, 값이 바뀌지 않아도 체크포인트 수만큼 사본이 생긴다. 입력 체크포인트의 `__start__`에 하나, 페이로드를 실은 "
              "체크포인트 {logical[carrying]}개에 하나씩{r[in_meta]:?, metadata에 적힌 입력에 하나|} 들어 있다.",
    "pg_parts": " 이 saver는 `bulk` 같은 문자열 값을 체크포인트 행(jsonb) 안에 싣고, 어떤 값은 blob 테이블에 버전마다 한 번 넣는다(위 "
                "문단). 그래서 체크포인트 부분 {share[checkpoints]:.2f}개 분량은 페이로드를 실은 체크포인트 {logical[carrying]}개에 "
                "하나씩이고, blob {share[blobs]:.2f}개 분량은 `__start__`의 입력 하나다."}
GROWTH = doc("""\
### 노드가 늘면
`write`와 `review` 사이에 통과 노드(아무 값도 쓰지 않고 상태를 그대로 넘기는 노드)를 넣어 노드 {chains[1:]:each=NODE_COUNTS}의 사슬을 \
만들었다. 그리고 위의 thin·fat 두 실행을 {each_saver:pick=EACH_SAVER} 다시 했다. 노드 {chains[0][nodes]}개는 위 표의 실행이다.
{chains:table=CHAIN_TABLE}
{no_sqlite:?이 기계에는 SQLite saver의 패키지(`{extras[sqlite]}`)가 설치되어 있지 않아 이 절과 아래 절들의 SQLite 값은 재지 않았다.|}
{charts[chains]:chart=CHAIN_CHART}
실습 설명은 “노드가 서른 개면 한 번 넣은 값이 거의 서른 번 저장된다”고 한다. 노드 {chains[-1][nodes]}개에서 페이로드를 상태에 실은 \
체크포인트는 {chains[-1][savers][0][logical][carrying]}개다.{chain_savers:each=CLAIMS}
### 턴이 늘면
한 스레드에서 그래프를 {turns[memory][rows][-1][turn]}번 이어서 실행하며(한 번이 한 턴) 턴마다 saver가 그 스레드에 보관한 바이트를 \
셌다. `notes`와 상태 전체 열은 마지막 체크포인트의 상태를 JSON으로 잰 크기다.{thread_note:? 이 langgraph는 체크포인트마다 `thread_id`를 \
metadata에 적는다(위 필드 표의 `metadata.thread_id`). 그래서 스레드 이름이 다른 실행끼리는 체크포인트 하나마다 이름 길이의 차이만큼 \
saver의 바이트가 다르다. 1턴의 값이 위 thin의 값과 다른 것, 아래 store 표의 값이 위 fat의 값과 다른 것이 이 때문이다.|}
{turn_rows:table=TURN_TABLE}
{charts[turns]:chart=TURN_CHART}
처음 {turns[memory][rows][9][turn]}턴과 마지막 {turns[memory][rows][9][turn]}턴({turns[memory][rows][-10][turn]}–\
{turns[memory][rows][-1][turn]}턴)에 늘어난 바이트를 견주었다. {turns:each=GROWN}.{pace:? 한 턴이 더하는 바이트가 턴마다 커진다. 저장 \
바이트는 턴 수에 비례하는 것보다 빠르게 늘어난다.|} 늘어나는 것은 `notes` 목록이다. {turns[memory][rows][0][turn]}턴 뒤 \
{turns[memory][rows][0][notes]:,}바이트, {turns[memory][rows][-1][turn]}턴 뒤 {turns[memory][rows][-1][notes]:,}바이트이고, 상태의 \
나머지는 {turns[memory][rest][1:]:?{turns[memory][rest][0]:,}–{turns[memory][rest][-1]:,}바이트다|매 턴 \
{turns[memory][rest][0]:,}바이트로 같다}. 체크포인트마다 그때까지의 `notes` 전체가 저장된다.
### 줄이는 방법과 그 대가
**큰 값은 store에, 상태에는 키만.** 두 실행을 새 메모리 saver로 나란히 쟀다. 하나는 페이로드를 상태에 넣었고, 다른 하나는 페이로드를 \
store(여기서는 `InMemoryStore`)에 넣고 상태의 `bulk`에는 그 키만 넣었다. 위 다섯 줄은 체크포인트마다 상태의 JSON 바이트이고, 아래 \
두 줄은 실제로 보관된 바이트다. store는 값을 한 번, {pointer[pointer][store]:,}바이트로 보관한다.
{pointer_rows:table=POINTER_TABLE}
참고: 대가가 있다. 값이 체크포인트 밖에 있으므로 되감기와 분기는 그 값을 되살리지 않는다. store의 값이 바뀐 뒤 되감으면 상태에는 \
키만 돌아오고, 그 키는 바뀐 값을 가리킨다. 스레드를 지우는 `delete_thread`도 store의 값은 지우지 않으므로 store는 따로 \
정리해야 한다. 이 실행이 아니라 \
이 프로젝트의 테스트(`make test`)가 langgraph 0.2.60과 1.2.24 환경에서 확인하는 동작이다.
**`notes`를 `DeltaChannel`로.** {has_delta:pick=DELTA}
**지우기와 가지치기.** `delete_thread`는 스레드의 체크포인트를 모두 지우는 saver 메서드다. `prune`(가지치기)은 일부만 남기고 나머지 \
체크포인트를 지우는 saver 메서드다. 스레드마다 마지막 것만 남기도록(`strategy="keep_latest"`) 불렀다. 스레드를 두 번 실행한 뒤 \
{each_saver:pick=EACH_SAVER} `prune`{을/를} 부르고, 이어서 `delete_thread`를 불렀다.
{pruning:table=PRUNE_TABLE}
{prune_notes:each=PRUNE_NOTES}{gone:? `delete_thread` 뒤에는 어느 saver에도 그 스레드의 체크포인트와 바이트가 남지 않았다.|}
{postgres:?{modes:?참고: langgraph 0.2.60 환경의 PostgreSQL saver에는 `prune`이 없다. 이 실행이 아니라 이 프로젝트의 \
테스트(`make test`)가 그 환경에서 확인한다.|}|참고: langgraph 1.2.24 환경의 PostgreSQL saver(langgraph-checkpoint-postgres 3.2.0)는 \
`prune`을 지원한다. 두 번 실행한 스레드의 체크포인트가 10개에서 1개로 줄고, 그 뒤 `write` 앞에서 되감으면 되감을 지점이 지워져 \
`ValueError`로 실패한다. langgraph 0.2.60 환경의 PostgreSQL saver에는 `prune`이 없다. 이 실행이 아니라 이 프로젝트의 \
테스트(`make test`)가 두 환경에서 확인한다.}
""")
CHAIN_TABLE = (["노드 수", "체크포인트 수", "페이로드를 실은 체크포인트 수", "{chains[0][savers]:each=COPIES_HEADS}"],
               ["{nodes}", "{savers[0][checkpoints]}", "{savers[0][logical][carrying]}", "{savers:each=COPIES_CELLS}"], [])
CHAIN_CHART = ("노드 수에 따른 사본 수", "노드 수", "사본")
CLAIMS = ("{follows:? {backend:pick=PROSE}{은/는} {copies[-1]:.2f}개 분량을 보관한다.{more:? 페이로드를 실은 체크포인트 수보다도 "
          "많다. 이 saver에서는 실습 설명의 말이 맞고, 오히려 조금 더 많다.| 이 saver에서는 실습 설명의 말이 맞다.}"
          "{backend:pick=MEMORY_COPIES}| {backend:pick=PROSE}{은/는} 노드 {r[chains][0][nodes]}개에서 {copies[0]:.2f}개, "
          "{r[chains][-1][nodes]}개에서 {copies[-1]:.2f}개 분량으로, 체크포인트 수만큼 늘지 않는다. 값이 바뀌지 않은 채널은 새 "
          "체크포인트에 버전 번호만 적히기 때문이다.}", "")  # whether a saver stores about a copy per node, as the lab says
MEMORY_COPIES = {"memory": " 이 기계의 메모리 saver는 바뀌지 않은 값도 체크포인트마다 싣는다(위 참고).", "sqlite": "", "postgres": ""}
TURN_TABLE = (["턴", "{turns:each=STORED_HEADS}", "`notes` (JSON 바이트)", "상태 전체 (JSON 바이트)"],
              ["{turn}", "{stored:each=STORED_CELLS}", "{notes:,}", "{state:,}"], [])
TURN_CHART = ("턴에 따른 저장 바이트", "턴", "바이트")
GROWN = ("{key:pick=PROSE}에서는 {first_ten:,}바이트와 {last_ten:,}바이트로 {ratio:.2f}배였다", ". ")
POINTER_TABLE = (["체크포인트", "값을 상태에", "키만 상태에"], ["{label}", "{in_state:,}", "{pointer:,}"], [
    ["saver가 보관한 바이트", "{pointer[in_state][stored]:,}", "{pointer[pointer][stored]:,}"],
    ["store가 보관한 바이트", "—", "{pointer[pointer][store]:,}"]])
DELTA = {  # notes as a DeltaChannel, where langgraph has it
    True: doc("""\
`notes`를 `DeltaChannel`(아래 참고)로 바꿔 {turns[memory][rows][-1][turn]}턴을 다시 실행했다(메모리 saver). 저장 바이트는 \
{turns[memory][rows][19][turn]}턴 뒤 {delta[rows][19][stored]:,}바이트, {turns[memory][rows][39][turn]}턴 뒤 \
{delta[rows][39][stored]:,}바이트다. 일반 실행은 {turns[memory][rows][19][stored]:,}바이트, {turns[memory][rows][39][stored]:,}바이트였다. \
{turns[memory][rows][39][turn]}턴 뒤 보관 바이트는 {turns[memory][rows][19][turn]}턴 뒤의 {delta[doubled]}배다(일반 \
{turns[memory][doubled]}배). 마지막 {turns[memory][rows][9][turn]}턴에 쌓인 바이트는 처음 {turns[memory][rows][9][turn]}턴의 \
{delta[ratio]}배다(일반 {turns[memory][ratio]}배).{delta_pace:? 한 턴이 더하는 바이트가 일반 실행보다 덜 커진다.|} 매 턴의 상태는 두 \
실행에서 {same[states]:?같았다|달랐다}.
참고: `DeltaChannel`은 `langgraph.channels`의 베타 채널이다. langgraph 소스의 설명에 따르면 체크포인트에 목록 전체 대신 새로 붙은 \
항목만 남기고, 읽을 때 앞 체크포인트들의 쓰기로 목록을 다시 만든다. API와 저장 형식은 바뀔 수 있다."""),
    False: doc("""\
설치된 langgraph {versions[langgraph]}에는 `DeltaChannel`(아래 참고)이 없어서(`langgraph.channels`에서 가져오면 `{delta[error]}`) 재지 \
않았다.
참고: `DeltaChannel`은 체크포인트에 목록 전체 대신 새로 붙은 항목만 남기는 채널이다(langgraph 소스의 설명). langgraph 1.2.0에서 처음 \
나왔다. 2026-12-01에 PyPI에 올라간 langgraph 1.1.10과 1.2.0의 설치용 패키지 파일(wheel)을 읽어 확인했다.""")}
PRUNE_TABLE = (["saver", "두 번 실행한 뒤", "`prune`", "`prune` 뒤", "`delete_thread` 뒤"], [
    "{key:pick=SAVERS}", "{checkpoints:,}개, {stored:,}바이트", "{prune:pick=PRUNE}{prune:? ({prune:lit})|}",
    "{after_prune:?{after_prune[checkpoints]:,}개, {after_prune[stored]:,}바이트|—}",
    "{after_delete:?{after_delete[checkpoints]:,}개, {after_delete[stored]:,}바이트|메서드 없음 (`AttributeError`)}"], [])
PRUNE = {"": "지원함", "NotImplementedError": "구현되지 않음", "AttributeError": "메서드 없음"}  # what calling prune() found
PRUNE_NOTES = ("{note:pick=PRUNE_NOTE}", " ")
PRUNE_NOTE = {  # what a pruned thread could still do, saver by saver
    "none": "`prune`을 지원하는 saver가 없어서, 가지치기 뒤의 되감기는 재지 못했다.",
    "added": "{backend:pick=PROSE}에서 `prune` 뒤 `write` 앞에서 되감자 체크포인트가 {added}개 늘었다.",
    "failed": "{backend:pick=PROSE}에서 `prune` 뒤 `write` 앞에서 되감자 그 지점이 없어 실패했다({replay:lit}).",
    "no_delete": "이 환경의 {backend:pick=PROSE}에는 `delete_thread`도 없다."}
LOST = doc("""\
## 사라지는 것
메모리 saver로 `run-1` 스레드를 한 번 실행하면 체크포인트가 {lost[kept]}개 남는다. 새 saver로 그래프를 다시 만들고(프로세스 재시작을 흉내 낸 \
것) 같은 `thread_id`로 조회하면 체크포인트가 {lost[after_restart]}개다. {lost[values_after_restart]:?값(`values`)은 \
{lost[values_after_restart]:code}{이다/다}.|값(`values`)도 비어 있다(`{{}}`).} 오류도 경고도 없다. 손실은 조용히 \
일어난다. 보고서 JSON의 `survives_restart`도 {summary[survives_restart]:code}다.
### 진짜 재시작
이번에는 진짜 자식 프로세스가 스레드를 실행했다. 자식은 같은 파이썬 실행 파일로 새로 띄운 별도 프로세스라서, 보고서를 만드는 \
프로세스(부모)와 메모리를 공유하지 않는다. 자식이 끝난 다음, 부모 프로세스에서 새 saver를 열어 같은 저장소를 읽었다.
{demo_savers:table=RESTART_TABLE}
{no_sqlite:?이 기계에는 SQLite saver의 패키지(`{extras[sqlite]}`)가 설치되어 있지 않아 SQLite 행은 재지 않았다.|}
{no_sqlite:?참고: langgraph 0.2.60과 SQLite saver가 있는 환경에서는 자식이 남긴 체크포인트 5개를 새 saver가 모두 찾는다. 이 실행이 \
아니라 이 프로젝트의 테스트(`make test`)가 그 환경에서 확인한다.|}
### 저장 시점(durability)
{modes:pick=DURABILITY}
### 크래시
크래시는 `review` 노드 안에서 자식 프로세스가 자기 자신에게 SIGKILL을 보내, 정리 작업 없이 바로 죽는 것이다. 그 뒤 부모 프로세스에서 \
새 saver로 저장소를 읽었다.{any_resumed:? 체크포인트가 남은 스레드는 새 자식 프로세스에서 `invoke(None, config)`로 재개했다.|}
{demo_savers:table=CRASH_TABLE}
{durable:?{modes:pick=STEADY}|}
{demo_savers:each=CRASH_NOTES}
{killed:pick=KILLED}
참고: `review`가 아무것도 기다리지 않고 시작하자마자 죽으면, 남는 체크포인트 수가 실행마다 다를 수 있다. 이 보고서는 실행할 때마다 \
같은 값이 나오는 것만 싣기 때문에, 그 경우는 `make bench`로 따로 쟀다. 2026-12-01, 2코어 기계, SQLite saver, 모드마다 20번이다. \
langgraph 1.2.24에서 `exit`는 20번 모두 0개, `sync`는 20번 모두 4개가 남았다. `async`는 1개가 16번, 2개가 4번이었다. 같은 날 기계가 \
바쁠 때 다시 재자 `async`는 1개에서 4개까지 흩어졌다. 기다리지 않아도 앞의 체크포인트 4개를 매번 남긴 것은 `sync`뿐이다.
참고: 같은 `make bench`에서 langgraph 0.2.60은 20번 모두 1개를 남겼고, 기계가 바쁠 때는 1개에서 4개까지 흩어졌다. 저장 시점 설정이 \
없는 langgraph 0.2.60에서는, 기다리지 않은 실제 크래시 뒤에 남는 체크포인트가 4개보다 적을 수 있다.
### 다음 노드(`next`)가 숨기는 크래시
{trap:pick=TRAP}
""")
RESTART_TABLE = (["saver", "자식이 남긴 체크포인트", "새 saver가 찾은 체크포인트", "살아남았나"],
                 ["{backend:pick=SAVERS}", "{restart[kept]}", "{restart[after_restart]}",
                  "{restart[survives]:pick=YES}"], [])
DURABILITY = {  # the durability modes, where langgraph has them
    True: doc("""\
durability는 `invoke`에 주는 설정으로, 체크포인트를 언제 저장소에 쓸지 정한다. 모드는 `exit`, `async`, `sync` 세 가지다.
참고: 세 모드의 뜻은 LangGraph 문서의 설명이다. `exit`는 실행이 끝날 때 한 번, `async`는 다음 단계를 실행하는 동안 뒤에서, `sync`는 \
다음 단계로 가기 전에 쓴다. `async`가 기본값이다.
모드마다 새 메모리 saver로 그래프를 끝까지 실행하고, 또 `review`가 예외를 던져 실패하게 해 보았다.
{mode_rows:table=MODES_TABLE}
`exit`{은/는} 끝까지 실행해도 체크포인트를 {durability[exit]}개만 남긴다. 예외로 실패할 때도 멈춘 지점의 체크포인트 \
{failed[exit][checkpoints]}개를 남기고(다음 노드 {failed[exit][next]:nodes}), 재개하면 {failed[exit][ran_on_resume]:nodes}만 실행된다."""),
    False: doc("""\
durability는 체크포인트를 언제 저장소에 쓸지 정하는 `invoke`의 설정이다. 설치된 langgraph {versions[langgraph]}에는 이 설정이 없다. \
`durability="sync"`를 주자 `invoke`가 오류를 냈다({durability[error]:lit}). 오류가 `stream()`을 말하는 것은 `invoke`가 안에서 `stream`을 \
부르기 때문이다. 이 langgraph에서 `review`가 예외를 던져 실패하면 체크포인트 {failed[default][checkpoints]}개가 \
남고 다음 노드는 {failed[default][next]:nodes}{이다/다}. 재개하면 {failed[default][ran_on_resume]:nodes}만 실행된다.
참고: langgraph 1.2.24에는 `exit`, `async`, `sync` 세 모드가 있다. LangGraph 문서에 따르면 `exit`는 실행이 끝날 때 한 번, `async`는 다음 \
단계를 실행하는 동안 뒤에서, `sync`는 다음 단계로 가기 전에 체크포인트를 쓴다. 세 모드는 끝까지 실행한 뒤 체크포인트를 1·5·5개, \
`review`가 예외로 실패한 뒤 1·4·4개 남긴다. 이 값은 이 실행이 아니라 이 프로젝트의 테스트(`make test`)가 langgraph 1.2.24 환경에서 \
확인한다.""")}
MODES_TABLE = (["모드", "끝까지 실행한 뒤 체크포인트 수", "`review`가 예외로 실패한 뒤 체크포인트 수", "재개할 때 실행된 노드"],
               ["{mode:lit}", "{checkpoints}", "{failed[checkpoints]}", "{failed[ran_on_resume]:nodes}"], [])
CRASH_TABLE = (["saver", "크래시 뒤 찾은 체크포인트", "다음 노드", "재개할 때 실행된 노드", "재개 뒤 체크포인트"], [
    "{backend:pick=SAVERS}", "{crash[checkpoints_after_crash]}",
    "{crash[pending_after_crash]:?{crash[pending_after_crash]:lit}|—}",
    "{crash[ran_on_resume]:nodes}", "{resumed:?{crash[checkpoints_after_resume]}|—}"], [])
STEADY = {  # what made the crash rows of the durable savers the same on every run
    True: "{durable:each=AND_SAVERS}의 행은 `durability=\"sync\"`로 실행했다. `sync`는 체크포인트를 저장한 뒤에야 다음 단계로 간다. "
          "그래서 `review`가 시작할 때는 다음 노드가 {durable[0][history_next]:each=FIRSTS}인 체크포인트 "
          "{durable[0][checkpoints_after_crash]}개{이/가} 이미 저장돼 있었다.",
    False: "langgraph {versions[langgraph]}에는 저장 시점 설정이 없고, 아무것도 기다리지 않으면 체크포인트가 4개보다 적게 남았다(아래 "
           "참고). 그래서 {durable:each=AND_SAVERS}의 행은 `review` 노드 안에서 앞의 체크포인트가 모두 기록될 때까지 기다렸다가 죽게 "
           "했다. 다음 노드가 {durable[0][history_next]:each=FIRSTS}인 체크포인트 {durable[0][checkpoints_after_crash]}개{이/가} "
           "남았다."}
CRASH_NOTES = ("{resumed:?{backend:pick=PROSE}에서 재개한 결과는 크래시 없이 끝까지 간 실행의 값과 {same:?같았다|달랐다}.|"
               "{backend:pick=GONE}{backend:pick=PROSE}에서는 찾은 체크포인트가 {crash[checkpoints_after_crash]}개라 재개하지 "
               "않았다.}", " ")  # each saver's crashed thread: resumed, or why not
GONE = {"memory": "메모리 saver의 체크포인트는 자식 프로세스의 메모리에만 있었으므로 프로세스와 함께 사라졌다. ", "sqlite": "",
        "postgres": ""}
KILLED = {  # the SIGKILL per durability mode on SQLite, where langgraph has the modes and the SQLite saver is here
    True: doc("""\
모드마다 SQLite saver로 크래시를 냈다. 다만 `async` 행은 `review` 안에서, 앞 체크포인트가 저장소에 다 기록될 때까지 기다렸다가 죽게 \
했다. `exit`와 `sync` 행은 기다리지 않았다. 기다리지 않은 `async`는 더 적게 남길 수 있다(아래 참고).
{killed:table=KILLED_TABLE}
`exit`{은/는} 실행이 끝날 때만 쓴다. 예외로 끝날 때는 그때 썼지만(위 저장 시점 표), SIGKILL은 그 틈을 주지 않아 도중에 죽자 \
{killed[0][checkpoints_after_crash]}개가 남았다."""),
    False: ""}
KILLED_TABLE = (["모드", "크래시 뒤 찾은 체크포인트", "재개할 때 실행된 노드"],
                ["{mode:lit}", "{checkpoints_after_crash}{waited:? (기다린 뒤)|}", "{ran_on_resume:nodes}"], [])
TRAP = {  # the crash that next hides, where the SQLite saver is here to show it
    True: doc("""\
요점부터 말하면, 크래시 뒤 `get_state(config).next`가 비어 있다고 해서 실행이 끝난 것은 아니다. 끝났는지는 스냅샷의 `tasks`와 대기 중인 \
쓰기로 확인한다.
이 절의 크래시는 일부러 만든 것이다. 자식 프로세스에서 saver의 `put`(체크포인트를 저장하는 메서드)을 가로채, `plan`이 끝난 뒤의 \
체크포인트가 저장되지 않게 했다. `plan`의 쓰기는 대기 중인 쓰기로 저장됐다. 그다음 `write`가 SIGKILL로 죽었다. 뒤에서 하던 \
체크포인트 저장이 끝나기 전에 프로세스가 죽은 상태를 흉내 낸 것이다. 이런 상태가 저절로 얼마나 자주 생기는지는 재지 않았다.
새 saver로 기록의 다음 노드를 오래된 것부터 읽으면 {trap[history_next]:each=NEXTS}{이다/다}. `plan`이 아직 남은 것처럼 보인다. 그런데 \
`get_state(config).next`는 {trap[next_after_crash]:?비어 있지 않다.|비어 있다. 실행이 끝난 것처럼 보인다.} 마지막 스냅샷의 `tasks`에는 \
{trap[pending_after_crash]:lit}{이/가} 있고, 이미 끝난 그 작업의 쓰기 {trap[pending_writes]}개({trap[pending_channels]:each=LITS})가 \
저장돼 있다.
스레드의 config로 `invoke(None, config)`를 불러 재개하자 {trap[ran_on_resume]:nodes}만 실행됐다.{trap[replanned]:? `plan`도 다시 \
실행됐다.| `plan`은 다시 실행되지 않았다.} 체크포인트는 {trap[checkpoints_after_resume]}개가 됐다. {trap[replanned]:?|이 결과와 위의 \
되감기 표를 합치면 규칙이 보인다. 스레드의 config로 재개하면 쓰기가 저장된 작업은 다시 실행하지 않는다. 체크포인트 id가 든 config로 \
되감으면 그 지점 뒤의 노드를 다시 실행한다. }재개한 결과는 크래시 없이 끝까지 간 실행의 값과 {trap[same]:?같았다.|달랐다.}
참고: langgraph 소스(`get_state`)를 보면, `next`에는 다음 단계의 작업 가운데 쓰기가 아직 없는 작업만 들어간다. 스레드의 최신 \
체크포인트를 읽을 때는 저장된 대기 중인 쓰기를 그 작업에 붙이므로, 쓰기가 저장된 `plan`은 `next`에서 빠진다. 그 뒤의 `write`는 \
`plan` 다음 체크포인트가 없어 아직 작업으로 잡히지 않는다. 그래서 `next`가 빈다."""),
    False: doc("""\
이 기계에는 SQLite saver가 없어 이 절의 실험은 하지 않았다. 요점은 크래시 뒤 `get_state(config).next`가 비어 있다고 해서 실행이 끝난 \
것은 아니라는 것이다. 끝났는지는 스냅샷의 `tasks`와 대기 중인 쓰기로 확인한다.
참고: 이 절의 실험은 saver의 `put`을 가로채 `plan` 뒤의 체크포인트만 저장되지 않게 한 다음, `write`에서 프로세스를 죽이는 것이다. \
langgraph 0.2.60과 SQLite saver가 있는 환경에서 이렇게 하면 `get_state(config).next`가 비어 있다. 그래도 스냅샷의 `tasks`에는 \
`plan`이 있고 쓰기 4개가 저장돼 있으며, 재개하면 `write`와 `review`만 \
실행된다. 이 실행이 아니라 이 프로젝트의 테스트(`make test`)가 그 환경에서 확인한다.""")}
CHECKED = doc("""\
### 이 실행이 확인한 것
본문의 주장 가운데 예·아니오로 확인할 수 있는 것을 이 실행에서 검사한 결과다. 보고서 전체에 걸친 표다.
{checks:table=CHECKS_TABLE}
{trap:?|이 기계에는 SQLite saver가 없어, 그것이 필요한 두 항목(크래시 뒤 재개, `next`가 숨긴 크래시)은 재지 않았다.}
""")
CHECKS_TABLE = (["확인한 것", "결과"], ["{check:pick=CHECKS}", "{ok:pick=YES}"], [])
CHECKS = {  # every yes-or-no answer the prose states, by what it checks
    "new_end": "분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다",
    "old_end": "분기 전에 잡아 둔 config로 읽으면 원래 끝이 그대로 있다",
    "original": "실습의 `fork()` 함수가 분기하기 전에 읽어 둔 마지막 상태가 처음 실행의 결과와 같다",
    "bytes": "압축할 수 없는 페이로드로 재도 saver의 바이트가 같다",
    "delta": "`notes`를 `DeltaChannel`로 바꿔도 매 턴의 상태가 같다",
    "crash": "{backend:pick=PROSE}: 크래시 뒤 재개한 결과가 크래시 없는 실행과 같다",
    "trap": "`next`가 숨긴 크래시: 재개한 결과가 크래시 없는 실행과 같다"}
SECTIONS = [HEADER, MODEL, MISTAKES, SAVED, TRAVEL, SIZE, GROWTH, LOST, CHECKED]  # the report, in its order
FIELD_PURPOSES = {  # what each field a langgraph version may write is for, in the table's order
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 id. 고유하며, 정렬하면 시간 순서가 된다(config의 checkpoint_id)",
    "checkpoint.ts": "체크포인트를 쓴 시각",
    "checkpoint.channel_values": "채널별 값(여기서는 바이트 수)",
    "checkpoint.channel_versions": "채널별 현재 버전 번호. 채널에 값이 쓰이면, 그 체크포인트까지 나온 가장 큰 번호보다 큰 번호를 받는다",
    "checkpoint.versions_seen": "노드마다, 지난번 실행될 때 본 채널 버전. 다음에 실행할 노드를 정하는 데 쓴다",
    "checkpoint.pending_sends": "아직 실행되지 않은 `Send` 작업(실행 중에 노드를 더 띄우는 기능). 이 그래프는 쓰지 않는다",
    "checkpoint.updated_channels": "이 체크포인트를 만든 단계가 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step(단계) 번호. 입력은 -1, 그 뒤로 0, 1, 2, …",
    "metadata.parents": "이 그래프가 다른 그래프 안에서 서브그래프로 돌 때, 바깥 그래프의 체크포인트 id. 최상위 그래프에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 단계에서 각 노드가 쓴 키(여기서는 키 이름만)",
    "metadata.thread_id": "config에서 옮겨 적은 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "바로 앞(부모) 체크포인트의 config. 스레드를 거슬러 올라가는 사슬이다",
    "pending_writes": "이 체크포인트 다음 단계에서 이미 끝난 노드의 쓰기(대기 중인 쓰기)",
}


# ---- How each field of a checkpoint is shown: nothing that changes from run to run. ----

def _counter(version) -> str:
    """A channel version as its counter, the random tail dropped: "000...0005.0.4930..." -> "5" (an int as it is)."""
    head = str(version).split(".", 1)[0]
    return str(int(head)) if head.isdigit() else str(version)


def _shown(field: str, value) -> str:
    """A field's value as the report shows it: nothing that changes from run to run."""
    versions = lambda seen: ", ".join(f"{k}@{_counter(v)}" for k, v in seen.items())  # noqa: E731
    shown = {"checkpoint.id": lambda: f"{len(value)}자 UUID (실행마다 다름)",
             "checkpoint.ts": lambda: "ISO 8601 시각 (실행마다 다름)",
             "checkpoint.channel_values": lambda: ", ".join(f"{k} {v}바이트" for k, v in value.items()),
             "checkpoint.channel_versions": lambda: versions(value),
             "checkpoint.versions_seen": lambda: "; ".join(f"{k}: {versions(v) or '—'}" for k, v in value.items()),
             "metadata.writes": lambda: ", ".join(f"{k} → {sorted(v) if isinstance(v, dict) else v}"
                                                  for k, v in value.items())}
    if field in shown and (field != "metadata.writes" or isinstance(value, dict)):
        return shown[field]()
    return "null (이 langgraph는 채우지 않는다)" if value is None else json.dumps(value, ensure_ascii=False)


def anatomy_rows(anat: dict) -> list:
    """ckpt.anatomy() as rows the same on every run, in FIELD_PURPOSES' order, then the rest:
    [{"field": "checkpoint.v", "purpose": "...", "value": "4"}, ...]."""
    order = {field: i for i, field in enumerate(FIELD_PURPOSES)}  # unknown fields after, in their order
    fields = [(f"{part}.{k}", _shown(f"{part}.{k}", v)) for part in ("checkpoint", "metadata")
              for k, v in sorted(anat[part].items(), key=lambda kv: order.get(f"{part}.{kv[0]}", len(order)))]
    fields += [("parent_config", "있음" if anat["has_parent_config"] else "없음"),
               ("pending_writes", f"{anat['pending_writes']}개")]
    return [{"field": f, "purpose": FIELD_PURPOSES.get(f, ""), "value": v} for f, v in fields]
