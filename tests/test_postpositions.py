"""Korean postpositions after the values the report shows: each fits the word before it.

The report is rendered with values whose last syllable has a final consonant and values whose
last syllable has none (Hangul, numbers, English words), and with every number made distinct
(test_render.distinct); every postposition right after a code span, a saver's name or a number
is then checked against how a Korean reader reads that word, by rules written out here (the
jongseong of a Hangul syllable; digits, English words and marks from a table).
"""
import copy
import re

import make_report
from report_fixtures import awkward_run  # noqa: F401
from test_render import distinct

PAIRS = {"을": "를", "이": "가", "은": "는", "과": "와", "으로": "로", "이다": "다", "이고": "고", "이며": "며", "이었다": "였다",
         "이었고": "였고"}
WITHOUT = {v: k for k, v in PAIRS.items()}
# the last syllable of each English word or name the report puts before a postposition, as read in Korean:
# True where it ends in a consonant (플랜, 앵글, 프룬, ...큐엘), "ㄹ" where that consonant is ㄹ
ENGLISH = {"plan": True, "write": False, "review": False, "angle": "ㄹ", "prune": True, "exit": False, "async": False,
           "sync": False, "update": False, "fork": False, "loop": False, "input": True, "start": False, "invoke": False,
           "state": False, "history": False, "pending": True, "config": False, "notes": False, "replaced": False,
           "bulk": False, "original": "ㄹ", "next": False, "id": False, "thread": False, "delete": False, "true": False,
           "false": False, "none": True, "durability": False, "sqlite": False, "postgresql": "ㄹ", "put": True,
           "tasks": False, "py": False, "stream": True, "replay": False, "postgressaver": False, "inmemorysaver": False, "sqlitesaver": False, "before": False, "bench": False, "checkpoint": False, "dumps": False,
           "test": False, "valueerror": False, "weigh": False, "writes": False, "source": False, "checkpointer": False, "deltachannel": "ㄹ", "channels": False, "values": False,
           "memory": False, "saver": False, "score": False, "draft": False, "topic": True, "stage": False, "b": False,
           "emptyinputerror": False, "encryptedserializer": False, "marker": False, "mark": False, "vacuum": True,
           "dict": False, "metadata": False, "frequency": False, "restart": False, "a": False, "configurable": "ㄹ",
           "list": False}
# a code span of marks alone (or a list ending in them), read by their names: 따옴표 (`""`), 중괄호 (`{}`), 대괄호
# (`[]`); none ends in a consonant
SYMBOLS = {'""': False, "{}": False, "[]": False}
DIGITS = {"0": True, "1": "ㄹ", "2": False, "3": True, "4": False, "5": False, "6": True, "7": "ㄹ", "8": "ㄹ", "9": False}
PARTICLE = "(이었다|이었고|였다|였고|으로|이다|이고|이며|을|를|이|가|은|는|과|와|로|다|고|며)(?![가-힣])"
CODE_THEN_PARTICLE = re.compile(r"(`+)([^`]+)\1(?!`)" + PARTICLE)
NAME_THEN_PARTICLE = re.compile(r"((?:메모리|SQLite|PostgreSQL) (?:\(\w+\)|saver))" + PARTICLE)  # "(...)" is not read
# a number, a version or a step ("3.1.2", "-1"), perhaps with a remark in parentheses, right before a postposition
NUMBER_THEN_PARTICLE = re.compile(r"(?<![\w.,])(-?\d[\d,.]*)(?<![,.])(?:\([^()]*\))?" + PARTICLE)


def final(word):
    """True, "ㄹ" or False: whether the last syllable read in `word` ends in a consonant (and which)."""
    for marks, ending in SYMBOLS.items():  # marks alone, or last in a list or dict: `[..., ""]`
        if re.search(re.escape(marks) + r"[\]}]*$", word.strip()):
            return ending
    # closing marks, an ellipsis (not read aloud) and the colon before it, a remark in parentheses: all skipped
    word = re.sub(r"\([^()]*\)$", "", word.strip().rstrip("\"'}]>`.…: ")).rstrip("\"'}]>`.…: ")
    last = word[-1]
    if "가" <= last <= "힣":
        jong = (ord(last) - 0xAC00) % 28
        return "ㄹ" if jong == 8 else bool(jong)
    if last.isdigit():
        digits = re.search(r"\d+$", word).group()
        return True if digits.endswith("0") and digits.strip("0") else DIGITS[last]  # 십 백 천 만
    english = re.search(r"[A-Za-z]*$", word).group().lower()
    assert english or last in "_", f"how does a Korean reader end {word!r}?"
    if not english:  # __start__: the name inside the underscores; `__` alone read by its name, 언더스코어
        return final(word.rstrip("_")) if word.strip("_") else False
    assert english in ENGLISH, f"how does a Korean reader end {english!r} (in {word!r})? add it to ENGLISH"
    return ENGLISH[english]


def fits(particle, ending):
    if particle in ("으로", "로"):
        return particle == ("로" if ending in (False, "ㄹ") else "으로")
    return particle == (particle if particle in PAIRS else WITHOUT[particle]) if ending else particle in WITHOUT


def variants(report):
    """The report with values ending with and without a final consonant where the report shows them, and with every
    number distinct (1001, 1002, ...: every last digit, and tens)."""
    yield distinct(report)
    for topic, angle in (("바다", "비교"), ("가을", "요약"), ("서울숲", "비교"), ("3", "요약"), ("10", "비교"), ("2", "요약")):
        r = copy.deepcopy(report)
        r["rerun"]["input"] = {"topic": topic}
        r["summary"]["fork_angle"] = angle
        yield r


def test_every_postposition_after_a_value_fits_the_word_before_it(awkward_run):
    checked, wrong = {True: 0, False: 0}, []
    for r in variants(awkward_run.report):
        md = make_report.render(r)
        found = [(m.group(2), m.group(3)) for m in CODE_THEN_PARTICLE.finditer(md)]
        found += [(m.group(1), m.group(2)) for m in NAME_THEN_PARTICLE.finditer(md)]
        found += [(m.group(1), m.group(2)) for m in NUMBER_THEN_PARTICLE.finditer(md)]
        for word, particle in found:
            ending = final(word)
            checked[bool(ending)] += 1
            if not fits(particle, ending):
                wrong.append(f"{word}{particle}")
    assert wrong == [], wrong
    assert checked[True] > 20 and checked[False] > 20, checked  # both forms were met, many times


def test_the_values_a_learner_chooses_take_their_own_postposition(awkward_run):
    forms = {"요약": ("`angle`을 `요약`으로 바꾼 뒤", '`{"angle": "요약"}`으로 바꾼 값'),
             "비교": ("`angle`을 `비교`로 바꾼 뒤", '`{"angle": "비교"}`로 바꾼 값')}
    for r in list(variants(awkward_run.report))[1:]:
        md = make_report.render(r)
        topic, angle = r["rerun"]["input"]["topic"], r["summary"]["fork_angle"]
        other = {"바다": "를", "가을": "을", "서울숲": "을", "3": "을", "10": "을", "2": "를"}[topic]
        assert f'`{{"topic": "{topic}"}}`{other} 주자' in md, topic
        assert all(form in md for form in forms[angle]), angle
