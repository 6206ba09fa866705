"""make_report.render: each number the Markdown shows sits in the sentence or table row of its own field.

The real report of this leg (its shape: durability modes or not, SQLite and PostgreSQL rows or not) with every number
but zero replaced by a distinct one, so a template that reads the wrong field shows a value that belongs elsewhere (a
zero stays, so the sentences the run chose for "none" are the ones rendered). What is expected is written once, as the
few words each number must sit beside, with the number named by its path in the report: ("#", "체크포인트가
{fork[before]}개에서 {fork[total]}개로"). FIELD below fills those paths (its own reader, not report_ko's); a
template reading {fork[before]} twice fails the fragment.
"""
import copy
import itertools
import json
import re
from collections import Counter

import ckpt
import make_report
import report_ko
from report_fixtures import awkward_run  # noqa: F401

SAVERS = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)",
          "postgres": "PostgreSQL (PostgresSaver)"}
# each saver's name in a sentence, and with the topic postposition a Korean reader puts after it (...saver는)
PROSE = {"memory": "메모리 saver", "sqlite": "SQLite saver", "postgres": "PostgreSQL saver"}
TOPIC_FORM = {backend: name + "는" for backend, name in PROSE.items()}
YES = {True: "예", False: "아니오"}
ROW_NAMES = {"json": "JSON 방식의 생성자(`Marker`)", "msgpack_class": "msgpack 확장 타입(`Marker`)",
             "msgpack_function": "msgpack 확장 타입(함수 `mark`)"}  # the rows rewritten to name Marker or mark
# what LangGraph's reader did with each row kind, and what it did not
ROW_DID = {"json": "객체를 만들었다", "msgpack_class": "객체를 만들었다", "msgpack_function": "함수를 불렀다"}
ROW_DIDNT = {"json": "객체를 만들지 않았다", "msgpack_class": "객체를 만들지 않았다", "msgpack_function": "함수를 부르지 않았다"}
STRICT_NAMES = {"bulk (datetime)": "`bulk`(날짜와 시각)", "bulk (marker)": "`bulk`(애플리케이션의 클래스)"}
PRUNED = {"": "지원함", "NotImplementedError": "구현되지 않음", "AttributeError": "메서드 없음"}
TABLE_TURNS = (1, 10, 20, 30, 40)  # the turns the turns table shows, besides a DeltaChannel snapshot's
KILLED = {"exit": "mode:exit", "async": "mode:async", "sync": "crash:sqlite", None: "crash:sqlite"}  # the SIGKILL demos
FIRST = 1001  # the distinct values start here, above every number a run shows that is not a measure
VERSION = re.compile(r"^\d{32}\.")  # a channel version: "00000000000000000000000000000005.0.4930..."
FIELD = re.compile(r"\{([\w-]+(?:\[[^\]]+\])*)(?::([^{}]*))?\}")  # {path} or {path:spec}; "{}" and JSON stay as they are
SEPARATOR = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,234" -> "1234": values are compared, not their format


def distinct(report):
    """A copy of `report` in which every number but zero is a different value (1001, 1002, ...; floats 1001.25, ...),
    channel versions too; the thread's tree keeps its shape (its positions index it), DeltaChannel's snapshot turns
    stay turns of the run, and the summary is recomputed from the measures, as SPEC 4 defines its keys."""
    r, counter = copy.deepcopy(report), itertools.count(FIRST)

    def fresh(value):
        if isinstance(value, dict):
            return {k: fresh(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fresh(v) for v in value]
        if isinstance(value, bool) or value is None or value == 0:
            return value
        if isinstance(value, int):
            return next(counter)
        if isinstance(value, float):
            return next(counter) + 0.25
        if isinstance(value, str) and VERSION.match(value):
            return f"{next(counter):032d}.0.5"
        return value

    for key in r:
        if key not in ("tree", "summary", "versions"):
            r[key] = fresh(r[key])
    r["versions"] = {name: f"{next(counter)}.0.0" for name in r["versions"]}
    if "snapshot_turns" in report["delta"]:  # the turns table finds a snapshot's row by its turn
        r["delta"]["snapshot_turns"] = report["delta"]["snapshot_turns"]
    # Values the report relates, made to relate again: fat = thin + extra, and the bytes a carrying
    # checkpoint adds = payload + what the key adds (both far above every other value, so distinct).
    w, rows = r["weigh"], r["rows"]
    w["fat_total"] = w["thin_total"] + 100_000 + next(counter)
    rows["key_bytes"] = 200_000 + next(counter)
    rows["carried"] = [w["payload_bytes"] + rows["key_bytes"]]
    # The longest chain carries the value far more often than any saver copies it, but for the last saver:
    # so the sentence on the lab's claim names the savers that follow it and those that do not.
    chains = r["chains"]
    for chain in chains[1:]:
        chain["savers"][0]["logical"]["carrying"] = 300_000 + next(counter)
    chains[-1]["savers"][-1]["stored"]["copies"] = chains[-1]["savers"][0]["logical"]["carrying"] + 0.25
    f, lost = r["fork"], r["lost"]
    r["summary"].update(checkpoints_per_run=len(r["checkpoints"]), pending=r["pending"],
                        base_score=f["base_score"], fork_score=f["fork_score"], checkpoints_after_fork=f["total"],
                        payload_bytes=w["payload_bytes"], carrying=w["carrying"],
                        survives_restart=lost["after_restart"] > 0)
    return r


def read(context, path):
    """The value at `path` in `context`: "turns[memory][rows][-1][turn]"."""
    first, *keys = re.findall(r"[^\[\]]+", path)
    value = context[first]
    for key in keys:
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def fill(fragment, context):
    """`fragment` (a str, or the (start, end) of one line) with each {path} or {path:spec} read from `context`."""
    if isinstance(fragment, tuple):
        return tuple(fill(part, context) for part in fragment)
    return FIELD.sub(lambda m: format(read(context, m.group(1)), m.group(2) or ""), fragment)


def code_list(names):
    """Names as the report lists them: `a`, `b`; "—" for none."""
    return ", ".join(f"`{name}`" for name in names) if names else "—"


def row(*cells):
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def savers_with(r, demo):
    """The savers, in the report's order, that ran `demo` ("restart" or "crash")."""
    return [b for b in SAVERS if f"{demo}:{b}" in r["demos"]]


def thread_named(r):
    """Whether this langgraph writes the thread's name into each checkpoint's metadata (0.2.60 does)."""
    return "thread_id" in r["anatomy"]["metadata"]


def thread_bytes(r):
    """How far the key-in-a-store run's stored bytes (thread "pointer" names) are from the size table's memory run."""
    return abs(r["physical"]["x"][0]["stored"]["fat"]["total"] - r["pointer"]["in_state"]["stored"])


def replayed(r, node):
    """The index in r["replays"] of the replay before `node`."""
    return [x["from"] for x in r["replays"]].index(node)


def times(r):
    """Each saver's stored difference over the payload, as the report lists them: "{...:.2f}배(메모리 saver), ..."."""
    return ", ".join(f"{{physical[x][{i}][stored][copies]:.2f}}배({PROSE[m['backend']]})"
                     for i, m in enumerate(r["physical"]["x"]))


# Each function below: [(heading, fragment)] filled in the report, or [(heading, fragment, item)] filled in the item
# with the report as {r}; a fragment is a str found in its section (a table row, starting "|", as a whole line), or
# (start, end) found at both ends of one line. "#" is the part before the first "##": the first screen.
def first_screen(r):
    w, top = replayed(r, "write"), "#"
    x, angle = r["replays"][w], r["summary"]["fork_angle"]
    out = [(top, f"체크포인트로 저장한다(이번 실행에서 {len(r['checkpoints'])}개)."),
           (top, "상태에 {weigh[payload_bytes]}바이트 값 하나를 넣자 메모리 saver가 {physical[x][0][stored][difference]}바이트를 더 "
                 "보관했다.")]
    # right under the opening: the versions measured on, and the saver that could not be
    out.append((top, "측정 환경은 " + ", ".join(f"{name} {{versions[{name}]}}" for name in r["versions"])))
    if "sqlite" in r["missing"]:
        out.append((top, " SQLite saver는 설치되지 않았다. 수치는 모두 이 환경에서"))
    # the ten JSON keys, each with its value, in one table
    out += [(top, (f"| `{key}` | {{summary[{key}]}} | ", " |")) for key in (
        "checkpoints_per_run", "base_score", "fork_score", "checkpoints_after_fork", "payload_bytes", "carrying")]
    out += [(top, (f"| `{key}` | `{json.dumps(r['summary'][key], ensure_ascii=False)}` | ", " |"))
            for key in ("pending", "fork_angle", "survives_restart")]
    # the four answers
    out += [(top, f"1. **무엇이 저장되는가?** 한 번 실행하면 체크포인트가 {len(r['checkpoints'])}개 저장된다."),
            (top, f"노드({code_list(ckpt.NODES)})가 하나 끝날 때마다 하나씩이다."),
            (top, f"2. **되감기와 분기는 어떻게 다른가?** 둘 다 `write` 앞에서 다시 출발해 {code_list(x['ran'])}"),
            (top, "저장된 값을 그대로 사용하고(점수 {fork[base_score]}), 체크포인트가 " + f"{{replays[{w}][added]}}개 늘어난다."),
            (top, f"(`update_state`로 `angle`을 `{angle}`" + ("으로" if angle == "요약" else "로") + " 바꾼 뒤 돌려받은 "
                  "config로 이어 가는 것)는 바꾼 값을 사용하고(점수 {fork[fork_score]}), 체크포인트가 "
                  f"{r['fork']['total'] - r['fork']['before']}개 늘어난다."),
            (top, "3. **큰 값은 몇 번 저장되는가?** 상태를 JSON으로 바꿔 세면 {weigh[payload_bytes]}바이트 값은 체크포인트 "
                  "{weigh[checkpoints]}개 가운데 {weigh[carrying]}개에 들어 있다. saver가 이 값 때문에 더 보관한 바이트는 값 크기의 " + times(r)),
            (top, "같은 `thread_id`로 읽어도 체크포인트는 {lost[after_restart]}개이고")]
    # the five rules, each with a number of the run
    restarts = ", ".join(f"{PROSE[b]}에서 {{demos[restart:{b}][after_restart]}}개" for b in savers_with(r, "restart"))
    rows, surrogate = r["reader"]["rows"], r["reader"]["surrogate"]
    out += [(top, "`notes`가 {threads[same_thread_notes][0]}개에서 {threads[same_thread_notes][1]}개로 늘었고"),
            (top, "점수는 {update[old_config][score]}점 그대로였다. 돌려받은 config로 이어 가자 {fork[fork_score]}점이 됐다."),
            (top, "새 가지의 끝(점수 {fork[fork_score]})이 나온다. 원래 가지의 끝(점수 {fork[base_score]})은 담아 둔 config로 읽었다."),
            (top, "보관한 바이트가 {pointer[in_state][stored]}바이트에서 {pointer[pointer][stored]}바이트로 줄었다"
                  + (f"(스레드 이름이 달라 아래 크기 표와는 {thread_bytes(r)}바이트 다르다)." if thread_named(r) else ".")),
            (top, f"재시작 뒤 새 saver가 찾은 체크포인트는 {restarts}였다.")]
    if rows:  # the rewritten rows, and how many of them made LangGraph's reader build something
        out.append((top, f"LangGraph의 SQLite saver로 읽자, saver는 고친 행 {len(rows)}개 가운데 "
                         f"{sum(x['default']['built'] > 0 for x in rows)}개에서 객체를 만들거나 함수를 불렀다."))
    elif surrogate["built"]:
        out.append((top, "LangGraph는 저장된 체크포인트를 다시 읽으면서 시험용 클래스 `Marker`(만들어질 때 횟수만 센다)의 객체를 "
                         "{reader[surrogate][built]}번 만들었다."))
    return out


def saved(r):
    top, threads, mistakes = "## 무엇이 저장되는가", "### 같은 스레드와 다른 스레드", "### 실습 안내문이 꼽는 실수 네 가지"
    out = [(top, f"한 번 실행하면 {len(r['checkpoints'])}개가 생기고"),
           (top, "이어진다(`notes` {threads[same_thread_notes][0]}개 → {threads[same_thread_notes][1]}개)."),
           (top, "최신 것부터 주므로 뒤집었다.")]
    out += [(top, row("#{position}", "{source}", "{step}", code_list(c["next"][:1]) if c["next"] else "(끝)",
                      code_list(c["changed"]), "{bytes}"), c) for c in r["checkpoints"]]
    same = r["update"]["int_and_str_ids"][1]
    out += [(threads, "같은 `thread_id`로 한 번 더 실행하자 스레드의 체크포인트는 {threads[same_thread_checkpoints]}개가 됐다."),
            (threads, "실행한 스레드는 `notes` {threads[other_thread_notes]}개, 체크포인트 {threads[other_thread_checkpoints]}개였다."),
            (threads, "정수 1로도 문자열 `\"1\"`로도 체크포인트가 {update[int_and_str_ids][0]}개 나왔다." if same
             else "정수 1로는 체크포인트가 {update[int_and_str_ids][0]}개 나왔고, 문자열 `\"1\"`로는 하나도 나오지 않았다.")]
    out += [(mistakes, ("| `compile()`에 saver를 넘기지 않고 `get_state`를 부른다 | ",
                        "`notes`는 첫 실행 {threads[no_checkpointer_notes][0]}개, 둘째 실행 "
                        "{threads[no_checkpointer_notes][1]}개로 매번 처음부터 쌓였다. |")),
            (mistakes, ("| 되감을 때 `None` 대신 입력을 준다 | ", "체크포인트가 {rerun[added]}개 늘었다. |")),
            (mistakes, ("| `update_state` 뒤에 원래 config로 이어 간다 | ",
                        "점수는 {update[old_config][score]}점이었다. 바꾼 값은 사용되지 않았다. |")),
            (mistakes, ("| `get_state_history`를 뒤집지 않고 읽는다 | 첫 항목이 단계 {update[first_steps][get_state_history]}"
                        "(마지막 체크포인트)", "뒤집어야 단계 {update[first_steps][history]}(입력)부터 읽혔다. |"))]
    return out + reader(r) + anatomy(r)


def reader(r):
    """What a reader of the store builds: the rewritten rows, the surrogate input, strict mode, the filter, encryption."""
    top, found = "### 저장소를 읽을 때 만들어지는 것", r["reader"]
    out = []
    for i, x in enumerate(found["rows"] or []):  # per row kind: an object made, or a function called
        did, didnt = ROW_DID[x["row"]], ROW_DIDNT[x["row"]]
        made = f"{did}({{reader[rows][{i}][default][built]}}번)" if x["default"]["built"] else didnt
        warned = f"{{reader[rows][{i}][default][warned]}}개"
        out.append((top, row(ROW_NAMES[x["row"]], f"`{x['type']}`", made, warned,
                             did if x["agckpt"]["built"] else f"{didnt}(오류로 멈춤)")))
    if not found["rows"]:
        out.append((top, "이 기계에는 SQLite saver가 없어, 저장소의 행을 고쳐 쓰는 시험은 하지 않았다."))
    out.append((top, "다시 읽을 때 `Marker` 객체를 " + ("{reader[surrogate][built]}번 만들었다." if found["surrogate"]["built"]
                                                      else "하나도 만들지 않았다.")))
    joined = {}  # the rows with the same types and answer, as one row naming every key
    for x in found["strict"] or []:
        joined.setdefault((x["given"], x["back"], x["same"]), []).append(STRICT_NAMES.get(x["name"], f"`{x['name']}`"))
    out += [(top, row(", ".join(names), f"`{given}`", f"`{back}`", YES[same])) for (given, back, same), names in joined.items()]
    if found["filter"]:
        out.append((top, "그 키를 거절했다: " if found["filter"]["error"] else
                    "스레드 `b`의 체크포인트 {reader[filter][other_rows]}개가 함께 나왔다."))
    if found["encrypted"]:
        out += [(top, "그 작업의 출력) 행을 합한 {reader[encrypted][rows]}개 "
                      "가운데 {reader[encrypted][config]}개에 config의 비밀 값이 평문으로 남았다."),
                (top, "노드 `write`가 돌려준 초안이 평문으로 남은 행은 " + (
                    "{reader[encrypted][output]}개다." if found["encrypted"]["output"] else "없었다."))]
    return out


def anatomy(r):
    """The checkpoint opened: each value that holds a number, now Markdown with code spans."""
    top, c = "### 체크포인트 하나를 열어 보면", r["anatomy"]["checkpoint"]
    counter = lambda version: int(str(version).split(".")[0])  # noqa: E731  what the report shows of a version
    versions = lambda seen: ", ".join(f"`{k}@{counter(v)}`" for k, v in seen.items()) or "—"  # noqa: E731
    shown = {"checkpoint.v": "`{anatomy[checkpoint][v]}`",
             "checkpoint.channel_values": ", ".join(f"`{k}` {{anatomy[checkpoint][channel_values][{k}]}}바이트"
                                                    for k in c["channel_values"]),
             "checkpoint.channel_versions": versions(c["channel_versions"]),
             "checkpoint.versions_seen": "; ".join(f"`{node}`: {versions(seen)}"
                                                   for node, seen in c["versions_seen"].items()),
             "metadata.step": "`{anatomy[metadata][step]}`", "pending_writes": "{anatomy[pending_writes]}개"}
    return [(top, (f"| `{field}` | ", f" | {value} |")) for field, value in shown.items()]


def travel(r):
    top, replays, update, config, tree = ("## 되감기와 분기는 어떻게 다른가", "### 노드마다 되감기", "### `update_state`가 실제로 하는 일",
                                          "### config가 가리키는 것", "### 체크포인트는 어디서 왔나")
    w, f = replayed(r, "write"), r["fork"]
    x, fork_value = r["replays"][w], json.dumps({"angle": r["summary"]["fork_angle"]}, ensure_ascii=False)
    out = [(top, row("", "되감기", "분기")),  # replay and fork side by side
           (top, (f"| 사용하는 값 | 그 체크포인트에 저장된 값 그대로 | `{fork_value}`", " 바꾼 값 |")),
           (top, row("새 체크포인트가 생긴 경위", ", ".join(x["sources"]), ", ".join(f["sources"]))),
           (top, row("다시 실행된 노드", code_list(x["ran"]), code_list(f["ran"]))),
           (top, row("늘어난 체크포인트", f"{{replays[{w}][added]}}", f["total"] - f["before"])),
           (top, row("원래 가지", "남는다(담아 둔 config로 읽힌다)" if x["old_end_readable"] else "읽히지 않았다",
                     "남는다(담아 둔 config로 읽으면 점수 {fork[base_score]})" if f["old_end_readable"] else "읽히지 않았다")),
           (top, row("그 뒤 스레드의 config로 읽으면", "되감기가 만든 끝" if x["current_is_new_end"] else "다른 체크포인트",
                     "새 가지의 끝(점수 {fork[fork_score]})" if f["current_is_new_end"] else "다른 체크포인트"))]
    out += [(replays, row("`{from}`", "{added}", code_list(x["ran"]), ", ".join(x["sources"])), x) for x in r["replays"]]
    out += [(update, "값을 바꾼 새 체크포인트는 이어 가는 가지 없이 남았고, 스레드의 체크포인트는 "
                     "{update[old_config][checkpoints]}개가 됐다."),
            (config, "`update_state`가 돌려준 config로 `get_state_history`를 부르면 체크포인트가 {update[named_lists]}개 나온다."),
            (config, "(`thread_id`만 든 것)로 `invoke(None, config)`를 부르자 " + ran(r["update"]["finished"], "finished")),
            (config, "마지막 체크포인트의 config로 되감자 " + ran(r["update"]["end_replay"], "end_replay"))]
    at = next(c for c in r["tree"] if c["source"] == "update")
    out += [(tree, f'commit id: "#{c["position"]} {c["source"]}"' + " type: HIGHLIGHT" * (c["source"] in ("update", "fork"))
             + "\n") for c in r["tree"]]  # a point per checkpoint of the thread, its position and source
    return out + [(tree, f"분기의 첫 체크포인트(#{at['position']} update)")]


def ran(found, key):
    """What an invoke(None, ...) ran and added, as the report says it (the nodes' own postposition left out)."""
    nodes = "실행됐고, " if found["ran"] else "노드는 하나도 실행되지 않았고, "
    return nodes + (f"체크포인트는 {{update[{key}][added]}}개 늘었다." if found["added"] else "체크포인트도 늘지 않았다.")


def size(r):
    top, sweep, rows, w = "## 크기로 잰 것", "### 페이로드 크기를 바꿔 가며", r["rows"], r["weigh"]
    labels = [f"#{c['position']} {c['source']}" for c in r["checkpoints"]]
    out = [(top, "여기서는 `bulk`에 넣은 {weigh[payload_bytes]}바이트 문자열이다. 페이로드는 체크포인트 {weigh[checkpoints]}개 "
                 "가운데 {weigh[carrying]}개에 들어갔고, 상태 바이트의 합계는 {weigh[thin_total]}바이트에서 {weigh[fat_total]}바이트가 "
                 "됐다."),
           (top, "saver가 더 보관한 바이트를 페이로드 크기로 나누면 " + times(r))]
    out += [(top, row(label, f"{{rows[thin][{i}]}}", f"{{rows[fat][{i}]}}", f"{{rows[difference][{i}]}}"))
            for i, label in enumerate(labels)]
    bars = lambda run: ", ".join(f"{{rows[{run}][{i}]}}" for i in range(len(labels)))  # noqa: E731
    out += [(top, row("합계", "{weigh[thin_total]}", "{weigh[fat_total]}", w["fat_total"] - w["thin_total"])),
            (top, f'x-axis "체크포인트" [{", ".join(chr(34) + label + chr(34) for label in labels)}]'),
            (top, f"bar [{bars('fat')}]\n    bar [{bars('thin')}]"),  # both runs on one chart: with the payload, without
            (top, "페이로드가 든 체크포인트마다 정확히 {rows[carried][0]}바이트가 더해졌다. 페이로드 {weigh[payload_bytes]}바이트에 "
                  "키와 구분자 `, \"bulk\": \"\"`의 {rows[key_bytes]}바이트를 더한 크기다.")]
    out += [(sweep, row("{payload_bytes}", "{thin_total}", "{fat_total}", "{extra}", "{carrying}"), x) for x in r["sweep"]]
    step = r["sweep_step"]
    if step:
        out += [(sweep, "페이로드가 {sweep_step[payload_bytes]}바이트 늘 때마다 차이는 {sweep_step[extra]}바이트씩 늘었다. "
                        "기울기 {sweep_step[per_byte]:g}({sweep_step[extra]} ÷ {sweep_step[payload_bytes]})"),
                (sweep, "페이로드가 든 체크포인트 수" + ("와 같다." if step["per_byte"] == r["sweep"][0]["carrying"] else "와 다르다."))]
    else:
        out.append((sweep, "늘어난 바이트가 고르게 늘지는 않았다(위 표)."))
    return out + stored(r) + growth(r) + remedies(r) + parts(r)


def stored(r):
    """Each saver's stored bytes, a table per payload measured, then what the incompressible payload showed."""
    top, out = "### saver가 실제로 보관한 바이트", []
    for kind in ["x"] + ["random"] * r["postgres"]:
        title = ('페이로드 `"x"` × {weigh[payload_bytes]}:' if kind == "x" else "페이로드 무작위 문자 {weigh[payload_bytes]}개 (압축 불가):")
        p = f"physical[{kind}]"
        lines = [title, "", row("무엇으로 잰 값", "없이 (바이트)", "넣고 (바이트)", "차이", "페이로드의 몇 배"), "|---|---|---|---|---|",
                 row("상태의 JSON 바이트", *(f"{{{p}[0][logical][{k}]}}" for k in ("thin", "fat", "difference")),
                     f"{{{p}[0][logical][copies]:.2f}}")]
        for i, m in enumerate(r["physical"][kind]):
            views = [("stored", SAVERS[m["backend"]])]
            views += [("stored_compressed", "PostgreSQL, 압축 후 (pg_column_size)")] * (m["backend"] == "postgres")
            lines += [row(name, f"{{{p}[{i}][{v}][thin][total]}}", f"{{{p}[{i}][{v}][fat][total]}}",
                          f"{{{p}[{i}][{v}][difference]}}", f"{{{p}[{i}][{v}][copies]:.2f}}") for v, name in views]
        out.append((top, "\n".join(lines)))
    if r["postgres"]:
        i = [m["backend"] for m in r["physical"]["x"]].index("postgres")
        out.append((top, f"`\"x\"` 페이로드는 {{physical[x][{i}][stored_compressed][copies]:.2f}}배로 줄었고, 압축할 수 없는 "
                         f"무작위 문자는 {{physical[random][{i}][stored_compressed][copies]:.2f}}배였다."))
    else:  # the sentence follows the run's answer
        out.append((top, "바꿔 재도 바이트 수가 같았다." if r["same"]["bytes"] else "바꿔 재자 바이트 수가 달랐다."))
    return out


def growth(r):
    """More nodes, more turns."""
    nodes, turns, chains = "### 노드가 늘면", "### 턴이 늘면", r["chains"]
    last, carried = len(chains) - 1, chains[-1]["savers"][0]["logical"]["carrying"]
    out = [(nodes, "노드 " + ", ".join(f"{{chains[{i}][nodes]}}개" for i in range(1, len(chains))) + "의 사슬을 만들고")]
    out += [(nodes, row(f"{{chains[{i}][nodes]}}", f"{{chains[{i}][savers][0][checkpoints]}}",
                        f"{{chains[{i}][savers][0][logical][carrying]}}",
                        *(f"{{chains[{i}][savers][{j}][stored][copies]:.2f}}" for j in range(len(c["savers"])))))
            for i, c in enumerate(chains)]
    for j, m in enumerate(chains[0]["savers"]):
        copies = chains[-1]["savers"][j]["stored"]["copies"]
        if copies >= carried / 2:  # follows the lab's explanation: about one copy per checkpoint carrying the value
            out.append((nodes, f"{TOPIC_FORM[m['backend']]} {{chains[{last}][savers][{j}][stored][copies]:.2f}}배를 보관해, "
                               "실습 해설의 말" + ("보다도 조금 많다." if copies > carried else "대로다.")))
        else:
            out.append((nodes, f"{TOPIC_FORM[m['backend']]} 노드 {{chains[0][nodes]}}개에서 "
                               f"{{chains[0][savers][{j}][stored][copies]:.2f}}배, {{chains[{last}][nodes]}}개에서 "
                               f"{{chains[{last}][savers][{j}][stored][copies]:.2f}}배로 조금만 늘어, 실습 해설의 말과 다르다."))
    runs, rows = list(r["turns"]), r["turns"]["memory"]["rows"]
    delta = "error" not in r["delta"]
    snapshots = r["delta"].get("snapshot_turns", [])
    out += [(turns, "그래프를 {turns[memory][rows][-1][turn]}번 이어서 실행하며"),
            (turns, row("턴", *(f"{PROSE[b]} (바이트)" for b in runs), *["`DeltaChannel`(메모리) (바이트)"] * delta,
                        "`notes` (JSON 바이트)"))]
    out += [(turns, f"{PROSE[b]}에서 처음 10턴에 {{turns[{b}][first_ten]}}바이트, 마지막 10턴에 {{turns[{b}][last_ten]}}바이트가 "
                    f"쌓였다({{turns[{b}][ratio]:.2f}}배)") for b in runs]
    for t in sorted(set(TABLE_TURNS) | set(snapshots)):
        stored_bytes = [f"{{turns[{b}][rows][{t - 1}][stored]}}" for b in runs]
        stored_bytes += [f"{{delta[rows][{t - 1}][stored]}}"] * delta
        out.append((turns, row(f"{{turns[memory][rows][{t - 1}][turn]}}", *stored_bytes,
                               f"{{turns[memory][rows][{t - 1}][notes]}}")))
    shown = range(4, len(rows), 5)  # every 5th turn, to stay legible
    out.append((turns, f'x-axis "턴" [{", ".join(chr(34) + str(rows[i]["turn"]) + chr(34) for i in shown)}]'))
    return out + [(turns, "line [" + ", ".join(f"{{turns[{b}][rows][{i}][stored]}}" for i in shown) + "]") for b in runs]


def remedies(r):
    """A key in the state, DeltaChannel, prune and delete_thread, and what SQLite's file keeps."""
    top, pruning = "### 줄이는 방법과 그 대가", r["pruning"]
    out = [(top, "보관한 바이트가 {pointer[in_state][stored]}바이트에서 {pointer[pointer][stored]}바이트로 줄었다. LangGraph store에는 "
                 "값이 {pointer[pointer][store]}바이트 하나만 들어 있다.")]
    if thread_named(r):
        out.append((top, f"\"saver가 실제로 보관한 바이트\"의 표와는 스레드 이름이 달라서 {thread_bytes(r)}바이트 다르다"))
    if "error" in r["delta"]:
        out.append((top, "설치된 langgraph {versions[langgraph]}에는 `DeltaChannel`이 없어(`{delta[error]}`) 재지 않았다."))
    else:
        out += [(top, "`notes`를 이 채널로 바꿔 메모리 saver에서 같은 {turns[memory][rows][-1][turn]}턴을 다시 실행했다."),
                (top, "`snapshot_frequency`는 {delta[every]}"),
                (top, f"이 그래프에서는 노드 {len(ckpt.NODES)}개가 턴마다 `notes`를 한 번씩 갱신한다."),
                (top, "`snapshot_frequency`에 이른 " + ", ".join(map(str, r["delta"]["snapshot_turns"]))
                      + "턴에 목록 전체가 저장됐다"),
                (top, "{turns[memory][rows][-1][turn]}턴 뒤 보관 바이트는 {turns[memory][rows][-1][stored]}바이트에서 "
                      "{delta[rows][-1][stored]}바이트로 줄었다. 마지막 10턴에 쌓인 바이트는 처음 10턴의 {delta[ratio]:.2f}배다"
                      "(일반 채널은 {turns[memory][ratio]:.2f}배)."),
                (top, "매 턴의 상태는 두 실행에서 " + ("같았다." if r["same"]["states"] else "달랐다."))]
    for b, p in pruning.items():
        after = [f"{{pruning[{b}][{k}][checkpoints]}}개, {{pruning[{b}][{k}][stored]}}바이트" if p[k] else None
                 for k in ("after_prune", "after_delete")]
        out.append((top, row(SAVERS[b], f"{{pruning[{b}][checkpoints]}}개, {{pruning[{b}][stored]}}바이트", PRUNED[p["prune"]],
                             after[0] or "—", after[1] or "메서드 없음")))
    if "sqlite" in pruning:
        out.append((top, "SQLite 파일은 `delete_thread` 뒤에도 {pruning[sqlite][after_delete][file_bytes]}바이트 그대로였고, 지운 "
                         "행이 있던 페이지(파일의 고정 크기 단위) {pruning[sqlite][after_delete][free_pages]}개가 빈 "
                         "채로 파일 안에 남았다. `VACUUM`(파일을 새로 써서 빈 페이지를 없애는 SQLite 명령)을 실행한 뒤에야 "
                         "{pruning[sqlite][after_vacuum][file_bytes]}바이트로 줄었다."))
    if (pruning.get("postgres") or {}).get("after_prune"):
        out.append((top, "`invoke(None, config)`는 `{pruning[postgres][after_prune][old_invoke]}`"))
    return out


def parts(r):
    """The stored difference in its parts: checkpoints, blobs, pending writes."""
    top, payload, out = "### 보관한 바이트를 부분으로 나누면", r["weigh"]["payload_bytes"], []
    in_meta = r["input_metadata"]["difference"] >= payload / 2
    inline = "bulk" in (r["placement"] or {}).get("inline", [])
    for i, m in enumerate(r["physical"]["x"]):
        b = m["backend"]
        share = lambda part: f"{{parts_copies[{b}][{part}]:.2f}}"  # noqa: E731
        out.append((top, row(SAVERS[b], *(f"{{physical[x][{i}][stored][parts][{k}]}} ({share(k)})"
                                          for k in ("checkpoints", "blobs", "writes")))))
        carrying = f"{{physical[x][{i}][logical][carrying]}}"
        if b == "postgres" and inline:
            out.append((top, f"체크포인트 본문 {share('checkpoints')}배는 페이로드가 든 체크포인트 {carrying}개에 하나씩이고, blob "
                             f"{share('blobs')}배는 `__start__`의 입력 하나다."))
        elif m["stored"]["parts"]["blobs"]:
            body = (f"체크포인트 본문 {share('checkpoints')}배 가운데 {{input_metadata[difference]}}바이트는 metadata에 적힌 "
                    "입력이다." if in_meta else f"체크포인트 본문에서 늘어난 {{physical[x][{i}][stored][parts][checkpoints]}}"
                    f"바이트({share('checkpoints')}배)는 페이로드 하나보다 작다.")  # the body's bytes: under one payload
            out.append((top, f"blob {share('blobs')}배는 `__start__`의 입력 하나와 `bulk`의 값 하나다. " + body))
        else:
            out.append((top, f"체크포인트 본문 {share('checkpoints')}배는 입력 체크포인트의 `__start__`에 하나, 페이로드가 든 "
                             f"체크포인트 {carrying}개에 하나씩" + ", metadata에 적힌 입력에 하나" * in_meta))
    out.append((top, "페이로드를 넣은 실행에서 그 채널은 {input_start[difference]}바이트(JSON) 더 컸다."))
    if in_meta:
        out.append((top, "(페이로드를 넣은 실행에서 metadata가 {input_metadata[difference]}바이트 더 컸다)"))
    first = r["physical"]["x"][0]["backend"]
    return out + [(top, f"대기 기록 {{parts_copies[{first}][writes]:.2f}}배는 입력을 채널로 옮기는 LangGraph 내부 작업 `__start__`"),
                  (top, "(마지막 체크포인트에 딸린 대기 기록은 {anatomy[pending_writes]}개다)")]


def gone(r):
    top, modes, crash, trap = "## 사라지는 것", "### durability와 크래시", "### 크래시 뒤 재개", "### 다음 노드(`next`)가 숨기는 크래시"
    demos = r["demos"]
    out = [(top, f"(`survives_restart`는 `{json.dumps(r['summary']['survives_restart'])}`)")]
    out += [(top, row(SAVERS[b], f"{{demos[restart:{b}][kept]}}", f"{{demos[restart:{b}][after_restart]}}",
                      YES[demos[f"restart:{b}"]["survives"]])) for b in savers_with(r, "restart")]
    # the durability matrix: a row per mode (one without modes), what each ending left
    out.append((modes, row("모드", "끝까지 실행한 뒤", "`review`가 예외를 던진 뒤", "`review`에서 SIGKILL을 받은 뒤",
                           "예외 뒤 재개할 때 실행된 노드")))
    for mode in [None] if "error" in r["durability"] else list(r["durability"]):
        failed, kill = f"failed[{mode or 'default'}]", KILLED[mode]
        killed = (f"{{demos[{kill}][checkpoints_after_crash]}}" + " (기다린 뒤)" * (mode in ("async", None))
                  if kill in demos else "—")
        out.append((modes, row(f"`{mode}`" if mode else "(durability 없음)",
                               f"{{durability[{mode}]}}" if mode else "{lost[kept]}", f"{{{failed}[checkpoints]}}", killed,
                               code_list(r["failed"][mode or "default"]["ran_on_resume"]))))
    mode = demos[f"crash:{savers_with(r, 'crash')[0]}"]["durability"]  # the crash demos' durability mode, if any
    out.append((crash, f"durability `{mode}`로 실행하던 중 " * bool(mode) + "`review`에서 SIGKILL을 받은 스레드를, 새 자식 프로세스에서 "
                       "재개해 보았다."))
    for b in savers_with(r, "crash"):
        found, back = demos[f"crash:{b}"], demos[f"restart:{b}"]
        resumed = found["result"] is not None
        out.append((crash, row(SAVERS[b], f"{{demos[crash:{b}][checkpoints_after_crash]}}",
                               f"`{found['pending_after_crash']}`" if found["pending_after_crash"] else "—",
                               code_list(found["ran_on_resume"]),
                               f"{{demos[crash:{b}][checkpoints_after_resume]}}" if resumed else "—")))
    if "trap" in demos:
        t = demos["trap"]
        out += [(trap, f"새 SQLite saver에서 `get_state_history`로 읽으면 체크포인트는 {len(t['history_next'])}개이고"),
                (trap, "그 작업의 대기 기록 {demos[trap][pending_writes]}개(" + ", ".join(f"`{c}`" for c in t["pending_channels"])
                 + ")가 저장돼 있다."), (trap, f"재개하자 {code_list(t['ran_on_resume'])}만 실행됐다")]
    else:
        out.append((trap, "이 기계에는 SQLite saver가 없어, 체크포인트 저장을 일부러 빠뜨린 크래시 시험은 하지 않았다."))
    return out + checks(r)


def checks(r):
    """The table of checks: each yes-or-no answer the prose states, as this run answered it."""
    top, f, x, demos = "### 이번 실행에서 다시 확인한 것", r["fork"], r["replays"][replayed(r, "write")], r["demos"]
    rows = r["reader"]["rows"] or []
    said = [("분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다", f["current_is_new_end"]),
            ("분기 전에 담아 둔 config로 읽으면 원래 끝이 그대로 있다", f["old_end_readable"]),
            ("분기하기 전에 `fork()`가 읽어 둔 원래 가지의 끝이 처음 실행의 결과와 같다", f["original_is_old_end"]),
            ("되감기 뒤 스레드의 config로 읽으면 되감기가 만든 끝이 나온다", x["current_is_new_end"])]
    said += [("`open_saver`는 고친 행이 가리키는 것을 하나도 만들지 않았다", all(not y["agckpt"]["built"] for y in rows))] * bool(rows)
    said += [("압축할 수 없는 페이로드로 재도 saver의 바이트가 같다", r["same"]["bytes"])] * (not r["postgres"])
    said += [("`notes`를 `DeltaChannel`로 바꿔도 매 턴의 상태가 같다", r["same"]["states"])] * ("error" not in r["delta"])
    said += [(f"{PROSE[b]}: 크래시 뒤 재개한 결과가 크래시 없는 실행과 같다",
              demos[f"crash:{b}"]["result"] == demos[f"restart:{b}"]["values_after_restart"])
             for b in savers_with(r, "crash") if demos[f"crash:{b}"]["result"] is not None]
    if "trap" in demos:
        said.append(("`next`가 숨긴 크래시: 재개한 결과가 크래시 없는 실행과 같다",
                     demos["trap"]["result"] == demos["restart:sqlite"]["values_after_restart"]))
    return [(top, row(check, YES[bool(ok)])) for check, ok in said]


def expected(r):
    """[(heading, text)]: every fragment above, filled."""
    return [(heading, fill(fragment, dict(context[0], r=r) if context else r))
            for heading, fragment, *context in first_screen(r) + saved(r) + travel(r) + size(r) + gone(r)]


def by_heading(md):
    """{heading line: its text up to the next heading}; "#" for the part before the first "##" heading."""
    parts, heading = {}, "#"
    for line in md.splitlines():
        if line.startswith("##"):
            heading = line
            parts.setdefault(heading, "")
        elif not line.startswith("# "):
            parts[heading] = parts.get(heading, "") + line + "\n"
    return parts


def pattern(text):
    """A regex finding `text`: a table row ("| ...") as a whole line, (start, end) at both ends of one line, else the
    text itself; a number at either end is not part of a longer one."""
    if isinstance(text, tuple):
        return "^" + r"[^\n]*".join(map(re.escape, text)) + "$"
    if text.startswith("|"):
        return "^" + re.escape(text) + "$"
    return r"(?<!\d)" * text[0].isdigit() + re.escape(text) + r"(?!\d)" * text[-1].isdigit()


def missing(md, wanted):
    """The fragments of `wanted` ([(heading, text)]) not found in their section of `md`."""
    parts = by_heading(SEPARATOR.sub("", md))
    return [f"{heading}: {text}" for heading, text in wanted if not re.search(pattern(text), parts.get(heading, ""), re.M)]


def is_reference(paragraph):
    """A paragraph that says where its facts come from: it starts with "참고", after its bold lead-in if it has one."""
    return re.sub(r"^\*\*.*?\*\* ", "", paragraph).startswith("참고")


def measured_numbers(text):
    """The numbers from FIRST up in `text`, thousands separators dropped; not a chart's y-axis
    (its top is computed from the largest value), not a shown length ("(200자)"), not "ISO 8601",
    not in a "참고" paragraph (fixed text, measured elsewhere: a date, a release)."""
    text = "\n\n".join(p for p in text.split("\n\n") if not is_reference(p))
    text = "\n".join(line for line in text.splitlines() if "y-axis" not in line).replace("ISO 8601", "")
    text = SEPARATOR.sub("", text)
    found = []
    for token in re.findall(r"(?<![0-9A-Za-z_.])\d+(?:\.\d+)*(?![0-9A-Za-z_]|자)", text):
        if token.count(".") <= 1 and float(token) >= FIRST:
            found.append(float(token))
    return Counter(found)


def test_each_number_the_markdown_shows_is_in_the_sentence_of_its_own_field(awkward_run):
    report = distinct(awkward_run.report)
    md = make_report.render(report)
    wanted = expected(report)
    assert missing(md, wanted) == [], "\n".join(missing(md, wanted))
    # and nowhere else: every number from FIRST up in the Markdown is one of those sentences'
    shown = measured_numbers(md)
    meant = sum((measured_numbers(text if isinstance(text, str) else " ".join(text)) for _, text in wanted), Counter())
    assert shown == meant, {"shown, not expected": shown - meant, "expected, not shown": meant - shown}


def test_a_template_reading_a_neighbouring_field_is_caught(awkward_run, monkeypatch):
    """The check above fails when one template reads the field beside its own (fork[base_score] for fork[fork_score])."""
    header = report_ko.HEADER.replace("사용하고(점수 {fork[fork_score]})", "사용하고(점수 {fork[base_score]})")
    assert header != report_ko.HEADER
    monkeypatch.setattr(report_ko, "SECTIONS", [header if s is report_ko.HEADER else s for s in report_ko.SECTIONS])
    report = distinct(awkward_run.report)
    wanted = [f"#: {text}" for heading, text in expected(report) if heading == "#" and "바꾼 값을 사용하고(점수" in text]
    assert len(wanted) == 1 and missing(make_report.render(report), expected(report)) == wanted


def test_a_table_cell_reading_a_neighbouring_field_is_caught(awkward_run, monkeypatch):
    """So does a table's cell: the turns table showing each turn's whole state in the `notes` column."""
    heads, cells, after = report_ko.TURN_TABLE
    assert cells[-1] == "{notes:,}"
    monkeypatch.setattr(report_ko, "TURN_TABLE", (heads, cells[:-1] + ["{state:,}"], after))
    report = distinct(awkward_run.report)
    rows = [f"{heading}: {text}" for heading, text in expected(report)
            if heading == "### 턴이 늘면" and text.startswith("| ") and not text.startswith("| 턴 |")]
    assert len(rows) >= len(TABLE_TURNS) and missing(make_report.render(report), expected(report)) == rows


def test_the_fork_and_the_replay_answer_each_flag_in_their_table_and_in_the_table_of_checks(awkward_run):
    """Each flag the fork and the replay before write measured, turned false alone: the side-by-side table and the
    table of checks say so, and only for that flag."""
    cells = {("fork", "current_is_new_end"): "| 그 뒤 스레드의 config로 읽으면 | ",
             ("fork", "old_end_readable"): "| 원래 가지 | ", ("replay", "current_is_new_end"): "| 그 뒤 스레드의 config로 읽으면 | ",
             ("replay", "old_end_readable"): "| 원래 가지 | "}
    checks = {("fork", "current_is_new_end"): "| 분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다 | {} |",
              ("fork", "old_end_readable"): "| 분기 전에 담아 둔 config로 읽으면 원래 끝이 그대로 있다 | {} |",
              ("fork", "original_is_old_end"): "| 분기하기 전에 `fork()`가 읽어 둔 원래 가지의 끝이 처음 실행의 결과와 같다 | {} |",
              ("replay", "current_is_new_end"): "| 되감기 뒤 스레드의 config로 읽으면 되감기가 만든 끝이 나온다 | {} |"}
    for flag in checks:
        report = copy.deepcopy(awkward_run.report)
        w = replayed(report, "write")
        for what, key in checks:
            (report["fork"] if what == "fork" else report["replays"][w])[key] = (what, key) != flag
        md = make_report.render(report)
        assert [c for c in checks if checks[c].format(YES[c != flag]) not in md] == [], flag
        if flag in cells:  # the replay's cell is the first of the row, the fork's the second
            line = next(line for line in md.splitlines() if line.startswith(cells[flag]))
            said = line.split(" | ")[1 if flag[0] == "replay" else 2]
            assert said.startswith("읽히지 않았다" if flag[1] == "old_end_readable" else "다른 체크포인트"), (flag, line)


def test_a_long_topic_is_shown_shortened_with_its_full_length(awkward_run):
    report = copy.deepcopy(awkward_run.report)
    report["summary"]["topic"] = "x" * 200
    first_screen_md = make_report.render(report).split("\n## ")[0]
    shown = re.search(r"^\| `topic` \| `(\"x+)…` \(200자\) \| ", first_screen_md, re.M)
    assert shown and len(shown.group(1)) < 100, first_screen_md


def test_rendering_leaves_the_report_as_it_was(awkward_run):
    """derive() adds its figures to a copy: the report main rendered is still measure()'s."""
    report = copy.deepcopy(awkward_run.report)
    make_report.render(report)
    assert report == awkward_run.report


def test_the_rule_on_what_a_reader_builds_cites_a_class_built_only_when_one_was(awkward_run):
    """Without the SQLite saver (no rewritten rows) the fifth rule rests on the surrogate input: it cites the classes
    LangGraph built reading it back, and says nothing of it where none was built (a langgraph that stores it as msgpack)."""
    report = copy.deepcopy(awkward_run.report)
    report["reader"].update(rows=None, filter=None, encrypted=None)  # as on a machine without the SQLite saver
    for built in (0, 2):
        report["reader"]["surrogate"]["built"] = built
        screen = make_report.render(report).split("\n## ")[0]
        rule = next(line for line in screen.splitlines() if line.startswith("5. "))
        assert ("`Marker`(만들어질 때 횟수만 센다)의 객체를 2번 만들었다." in rule) == bool(built), rule
        assert "0번" not in rule, rule


def test_a_topic_holding_a_postposition_mark_is_shown_as_given(awkward_run):
    """A mark ({이/가}) is the template's, after a value: one inside a value shown as code stays as the learner wrote it."""
    report = copy.deepcopy(awkward_run.report)
    topic = "책{이/가} {을/를}{으로/로} 끝"
    report["summary"]["topic"] = topic
    report["rerun"]["input"] = {"topic": topic}
    md = make_report.render(report)
    assert f'| `topic` | `"{topic}"` | ' in md and f'`{{"topic": "{topic}"}}`을 주자' in md
