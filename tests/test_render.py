"""make_report.render: each number the Markdown shows sits in the sentence or table row of its own field.

The real report of this leg (its shape: durability modes or not, SQLite and PostgreSQL rows or not) with every number
replaced by a distinct one, so a template that reads the wrong field shows a value that belongs elsewhere. What is
expected is written once, as the few words each number must sit beside, with the number named by its path in the
report: ("## 되감기와 분기는 어떻게 다른가", "체크포인트는 {fork[before]}개에서 {fork[total]}개가 됐다."). FIELD below fills
those paths (its own reader, not report_ko's); a template reading {fork[before]} twice fails the fragment.
"""
import copy
import itertools
import json
import re
from collections import Counter

import make_report
from conftest import LG
from report_fixtures import awkward_run  # noqa: F401

SAVERS = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)",
          "postgres": "PostgreSQL (PostgresSaver)"}
# each saver's name in a sentence, with the topic postposition a Korean reader puts after it (...세이버는)
PROSE = {"memory": "메모리 saver", "sqlite": "SQLite saver", "postgres": "PostgreSQL saver"}
TOPIC_FORM = {backend: name + "는" for backend, name in PROSE.items()}
FIRST = 1001  # the distinct values start here, above every number a run shows that is not a measure
VERSION = re.compile(r"^\d{32}\.")  # a channel version: "00000000000000000000000000000005.0.4930..."
FIELD = re.compile(r"\{([\w-]+(?:\[[^\]]+\])*)(?::([^{}]*))?\}")  # {path} or {path:spec}; "{}" and JSON stay as they are


def distinct(report):
    """A copy of `report` in which every number is a different value (1001, 1002, ...; floats
    1001.25, ...), channel versions too; the thread's tree keeps its shape (its positions index
    it) and the summary is recomputed from the measures, as SPEC 4 defines its keys."""
    r, counter = copy.deepcopy(report), itertools.count(FIRST)

    def fresh(value):
        if isinstance(value, dict):
            return {k: fresh(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fresh(v) for v in value]
        if isinstance(value, bool) or value is None:
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
    # Values the report relates, made to relate again: fat = thin + extra, and the bytes a carrying
    # checkpoint adds = payload + what the key adds (both far above every other value, so distinct).
    w, rows = r["weigh"], r["rows"]
    w["fat_total"] = w["thin_total"] + 100_000 + next(counter)
    rows["key_bytes"] = 200_000 + next(counter)
    rows["carried"] = [w["payload_bytes"] + rows["key_bytes"]]
    # The longest chain carries the value far more often than any saver copies it, but for the last saver:
    # so the sentence on the seed's claim names the savers that follow it and those that do not.
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


def by_index(**columns):
    """Per-item contexts from parallel lists: by_index(label=[...], thin=[...]) -> [{"label": ..., "thin": ...}, ...]."""
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


def labels(r):
    return [f"#{c['position']} {c['source']}" for c in r["checkpoints"]]


# Each function below: [(heading, fragment)] filled in the report, or [(heading, fragment, item)] filled in the item
# with the report as {r}; a fragment is a str found in its section, or (start, end) found at both ends of one line.
def saved(r):
    top, opened, model, mistakes = "### 한 번 실행하면", "### 체크포인트 하나를 열어 보면", "### 먼저, 기본 개념", "### 실습이 꼽는 실수 네 가지"
    out = [("#", row("측정 환경", ", ".join(f"{name} {{versions[{name}]}}" for name in r["versions"]))),
           ("#", row("페이로드", "{weigh[payload_bytes]}바이트")),
           (model, f"그래프를 한 번 돌리자 체크포인트가 {len(r['checkpoints'])}개 남았다."),
           (mistakes, "두 번 실행해도 `notes`는 {threads[no_checkpointer_notes][0]}개, {threads[no_checkpointer_notes][1]}개로 매번"),
           (mistakes, "다시 실행되고 체크포인트가 {rerun[added]}개 늘었다."),
           (mistakes, "점수는 {update[old_config][score]}점이다. 값을 바꾸지 않았을 때와 같다. 체크포인트는 "
                      "{update[old_config][checkpoints]}개가 됐다."),
           (mistakes, "첫 항목은 단계 {update[first_steps][get_state_history]}(마지막 체크포인트)"),
           (mistakes, "뒤집어야 첫 항목이 단계 {update[first_steps][history]}(입력)"),
           (top, f"한 번 실행하면 체크포인트가 {len(r['checkpoints'])}개 남는다"),
           (top, "의 글자 수라서 {fork[base_score]}점이다."),
           (top, "`notes`가 {threads[same_thread_notes][0]}개에서 {threads[same_thread_notes][1]}개로 늘고, "
                 "체크포인트는 {threads[same_thread_checkpoints]}개가 된다"),
           (top, "`notes`는 {threads[other_thread_notes]}개이고, 그 스레드의 체크포인트는 {threads[other_thread_checkpoints]}개다."),
           (top, "`notes`가 매번 처음부터 쌓인다(첫 실행 {threads[no_checkpointer_notes][0]}개, 두 번째 실행 "
                 "{threads[no_checkpointer_notes][1]}개).")]
    out += [(top, row("#{position} {source}", "{step}", code_list(c["next"][:1]) if c["next"] else "(끝)",
                      code_list(c["changed"]), "{bytes}"), c) for c in r["checkpoints"]]
    c, counter = r["anatomy"]["checkpoint"], lambda version: int(str(version).split(".")[0])
    versions = lambda seen: ", ".join(f"{k}@{counter(v)}" for k, v in seen.items())  # noqa: E731
    shown = {"checkpoint.v": c["v"],
             "checkpoint.channel_values": ", ".join(f"{k} {v}바이트" for k, v in c["channel_values"].items()),
             "checkpoint.channel_versions": versions(c["channel_versions"]),
             "checkpoint.versions_seen": "; ".join(f"{node}: {versions(seen) or '—'}"
                                                   for node, seen in c["versions_seen"].items()),
             "metadata.step": r["anatomy"]["metadata"]["step"], "pending_writes": f"{r['anatomy']['pending_writes']}개"}
    return out + [(opened, (f"| `{field}` | ", f" | `{value}` |")) for field, value in shown.items()]


def travel(r):
    top, update, config = "## 되감기와 분기는 어떻게 다른가", "### `update_state`가 실제로 하는 일", "### config가 가리키는 것"
    out = [(top, row("`{from}`", "{added}", code_list(x["ran"]), ", ".join(x["sources"])), x) for x in r["replays"]]
    return out + [(top, "다시 실행됐고 체크포인트가 {rerun[added]}개 늘었다"),
                  (top, "체크포인트는 {fork[before]}개에서 {fork[total]}개가 됐다."),
                  (top, ("| 원래 가지 | ", " | {fork[base_score]} |")),
                  (top, ("| 새 가지 (`{summary[fork_angle]}`) | ", " | {fork[fork_score]} |")),
                  (update, "점수는 {update[old_config][score]}점이었다."),
                  (update, "스레드의 체크포인트는 {update[old_config][checkpoints]}개가 됐고"),
                  (config, "부르면 체크포인트가 {update[named_lists]}개 나온다."),
                  (config, "부르자 노드는 하나도 실행되지 않았고, 체크포인트는 {update[finished][added]}개 늘었다."),
                  (config, "되감자 노드는 하나도 실행되지 않았고, 체크포인트는 {update[end_replay][added]}개 늘었다."),
                  (config, "정수 1로는 체크포인트가 {update[int_and_str_ids][0]}개, 문자열 `\"1\"`로는 "
                           "{update[int_and_str_ids][1]}개 나온다.")]


def size(r):
    top, sweep, rows, w = "## 크기로 잰 것", "### 페이로드 크기를 바꿔 가며", r["rows"], r["weigh"]
    extra, names = w["fat_total"] - w["thin_total"], ", ".join(f'"{label}"' for label in labels(r))
    out = [(top, row("{label}", "{thin}", "{fat}", "{difference}"), item)
           for item in by_index(label=labels(r), thin=rows["thin"], fat=rows["fat"], difference=rows["difference"])]
    out += [(top, "`bulk`에 {weigh[payload_bytes]}바이트짜리 문자열을 넣고 한 번(fat)"),
            (top, row("합계", "{weigh[thin_total]}", "{weigh[fat_total]}", extra)),
            (top, f'x-axis "체크포인트" [{names}]'), (top, f'x-axis "체크포인트" [{names}]'),  # thin's chart, fat's
            (top, f"bar [{', '.join(map(str, rows['thin']))}]"), (top, f"bar [{', '.join(map(str, rows['fat']))}]"),
            (top, "체크포인트 {weigh[checkpoints]}개 가운데 {weigh[carrying]}개에 페이로드가 들어 있다. 한 번 넣은 "
                  "값이 상태로는 {weigh[carrying]}번 들어간다."),
            (top, f"{{weigh[fat_total]}} − {{weigh[thin_total]}} = {extra}바이트다. 페이로드를 실은 체크포인트마다 정확히 "
                  "{rows[carried][0]}바이트씩이다. 페이로드 {weigh[payload_bytes]}바이트에 {rows[key_bytes]}바이트를 더한 "
                  "값이다. {rows[key_bytes]}바이트는 키와 구분자")]
    out += [(sweep, row("{payload_bytes}", "{thin_total}", "{fat_total}", "{extra}", "{carrying}"), x) for x in r["sweep"]]
    if r["sweep_step"]:
        out += [(sweep, "페이로드를 {sweep_step[payload_bytes]}바이트 늘릴 때마다 차이(fat − thin)는 {sweep_step[extra]}바이트씩 "
                        "커졌다. 직선의 기울기는 {sweep_step[per_byte]:g}"),
                (sweep, "페이로드 1바이트가 상태 전체로는 {sweep_step[per_byte]:g}바이트가 된다.")]
    sizes = ", ".join(f'"{x["payload_bytes"]}"' for x in r["sweep"])
    return out + [(sweep, f'x-axis "페이로드 (바이트)" [{sizes}]'),
                  (sweep, f"line [{', '.join(str(x['extra']) for x in r['sweep'])}]")]


def physical(r):
    top, size = "### 논리 바이트와 실제로 저장된 바이트", r["weigh"]["payload_bytes"]
    kinds = [("x", f"페이로드 `\"x\"` × {size}:")] + [("random", f"페이로드 무작위 문자 {size}개 (압축 불가):")] * r["postgres"]
    out = []
    for kind, title in kinds:
        logical = r["physical"][kind][0]["logical"]
        lines = [title, "", row("무엇으로 잰 값", "thin (바이트)", "fat (바이트)", "차이", "사본"), "|---|---|---|---|---|",
                 row("논리 (JSON)", logical["thin"], logical["fat"], logical["difference"], f"{logical['copies']:.2f}")]
        for m in r["physical"][kind]:
            views = [("stored", SAVERS[m["backend"]])]
            views += [("stored_compressed", "PostgreSQL, 압축 후 (pg_column_size)")] * (m["backend"] == "postgres")
            lines += [row(name, m[v]["thin"]["total"], m[v]["fat"]["total"], m[v]["difference"], f"{m[v]['copies']:.2f}")
                      for v, name in views]
        out.append((top, "\n".join(lines)))
    if not r["postgres"]:  # the sentence follows the run's answer
        out.append((top, "바꿔 재도 saver의 바이트가 위와 같았다." if r["same"]["bytes"] else "바꿔 재자 saver의 바이트가 위와 달랐다."))
    else:
        pg = {k: next(m for m in ms if m["backend"] == "postgres")["stored_compressed"]["copies"]
              for k, ms in r["physical"].items()}
        out.append((top, f"`\"x\"` 페이로드는 {pg['x']:.2f}개 분량으로 줄었고, 압축할 수 없는 무작위 문자는 {pg['random']:.2f}개 분량이었다."))
    out.append((top, "fat 실행에서 그 채널은 thin보다 {input_start[difference]}바이트(JSON) 컸다."))
    in_meta = r["input_metadata"]["difference"] >= size / 2
    if in_meta:
        out.append((top, "fat 실행에서 그 metadata는 thin보다 {input_metadata[difference]}바이트(JSON) 컸다."))
    for m in r["physical"]["x"]:
        item = dict(m, c=r["parts_copies"][m["backend"]], name=PROSE[m["backend"]])
        out += [(top, row(SAVERS[m["backend"]], *(f"{{stored[parts][{k}]}} ({{c[{k}]:.2f}})" for k in ("checkpoints", "blobs",
                                                                                                     "writes"))), item),
                (top, "{name}에서 생긴 차이 {stored[difference]}바이트는 체크포인트 {stored[parts][checkpoints]}, blob "
                      "{stored[parts][blobs]}, 대기 중인 쓰기 {stored[parts][writes]}바이트를 더한 것이다. 페이로드로는 각각 "
                      "{c[checkpoints]:.2f}, {c[blobs]:.2f}, {c[writes]:.2f}개 분량이다. 세 부분을 합한 차이는 "
                      "{stored[copies]:.2f}개 분량이다.", item)]
        if m["backend"] == "postgres" and "bulk" in (r["placement"] or {}).get("inline", []):  # inline, as its rows show
            out.append((top, "그래서 체크포인트 부분 {c[checkpoints]:.2f}개 분량은 페이로드를 실은 체크포인트 "
                             "{logical[carrying]}개에 하나씩이고, blob {c[blobs]:.2f}개 분량은", item))
        elif m["stored"]["parts"]["blobs"]:
            out.append((top, "그래서 blob은 {c[blobs]:.2f}개 분량", item))
            if in_meta:
                out.append((top, "체크포인트 부분 {c[checkpoints]:.2f}개 분량은 metadata에 적힌 입력이다.", item))
        else:
            out.append((top, "이 saver에는 blob이 없고 체크포인트 부분이 {c[checkpoints]:.2f}개 분량이다.", item))
    first = r["parts_copies"][r["physical"]["x"][0]["backend"]]
    return out + [(top, f"그래서 대기 중인 쓰기 {first['writes']:.2f}개 분량은 시작 단계"),
                  (top, "마지막 체크포인트에 붙은 대기 중인 쓰기는 {anatomy[pending_writes]}개다")]


def growth(r):
    """The three subsections under the size section: more nodes, more turns, the remedies."""
    nodes, turns, fixes = "### 노드가 늘면", "### 턴이 늘면", "### 줄이는 방법과 그 대가"
    chains, rows = r["chains"], r["turns"]["memory"]["rows"]
    copies = {m["backend"]: [c["savers"][i]["stored"]["copies"] for c in chains] for i, m in enumerate(chains[0]["savers"])}
    carried = chains[-1]["savers"][0]["logical"]["carrying"]
    out = [(nodes, "노드 " + ", ".join(f"{{chains[{i}][nodes]}}개" for i in range(1, len(chains))) + "의 사슬을 만들었다"),
           (nodes, "노드 {chains[0][nodes]}개는 위 표의 실행이다."),
           (nodes, f'x-axis "노드 수" [{", ".join(chr(34) + str(c["nodes"]) + chr(34) for c in chains)}]'),
           (nodes, f"노드 {{chains[{len(chains) - 1}][nodes]}}개에서 페이로드를 상태에 실은 체크포인트는 {carried}개다.")]
    out += [(nodes, row("{nodes}", "{savers[0][checkpoints]}", "{savers[0][logical][carrying]}",
                        *(f"{m['stored']['copies']:.2f}" for m in c["savers"])), c) for c in chains]
    for backend, v in copies.items():
        out.append((nodes, f"line [{', '.join(map(str, v))}]"))
        out.append((nodes, f"{TOPIC_FORM[backend]} {v[-1]:.2f}개 분량을 보관한다." if v[-1] >= carried / 2 else
                           f"{TOPIC_FORM[backend]} 노드 {chains[0]['nodes']}개에서 {v[0]:.2f}개, {chains[-1]['nodes']}개에서 "
                           f"{v[-1]:.2f}개 분량으로, 체크포인트 수만큼 늘지 않는다."))
    grown = "였다. ".join(f"{PROSE[b]}에서는 {t['first_ten']}바이트와 {t['last_ten']}바이트로 {t['ratio']:.2f}배"
                         for b, t in r["turns"].items())
    out += [(turns, f"그래프를 {rows[-1]['turn']}번 이어서 실행하며"),
            (turns, f'x-axis "턴" [{", ".join(chr(34) + str(x["turn"]) + chr(34) for x in rows[4::5])}]'),
            (turns, f"처음 {rows[9]['turn']}턴과 마지막 {rows[9]['turn']}턴({rows[-10]['turn']}–{rows[-1]['turn']}턴)에 "
                    f"늘어난 바이트를 견주었다. {grown}였다."),
            (turns, f"`notes` 목록이다. {rows[0]['turn']}턴 뒤 {rows[0]['notes']}바이트, {rows[-1]['turn']}턴 뒤 "
                    f"{rows[-1]['notes']}바이트이고, 상태의 나머지는 매 턴 {{turns[memory][rest][0]}}바이트로 같다.")]
    out += [(turns, row(rows[i]["turn"], *(t["rows"][i]["stored"] for t in r["turns"].values()), rows[i]["notes"],
                        rows[i]["state"])) for i in (0, 9, 19, 29, 39)]
    out += [(turns, f"line [{', '.join(str(x['stored']) for x in t['rows'][4::5])}]") for t in r["turns"].values()]
    return out + remedies(r, fixes, rows)


def remedies(r, fixes, rows):
    """The remedies subsection: a pointer in the state, DeltaChannel, prune and delete_thread."""
    point = r["pointer"]
    out = [(fixes, row("{labels}", "{in_state}", "{pointer}"), item)
           for item in by_index(labels=labels(r), in_state=point["in_state"]["checkpoints"],
                            pointer=point["pointer"]["checkpoints"])]
    out += [(fixes, row("saver가 보관한 바이트", "{pointer[in_state][stored]}", "{pointer[pointer][stored]}")),
            (fixes, row("store가 보관한 바이트", "—", "{pointer[pointer][store]}")),
            (fixes, "store는 값을 한 번, {pointer[pointer][store]}바이트로 보관한다")]
    if "error" in r["delta"]:
        out.append((fixes, "설치된 langgraph {versions[langgraph]}에는 `DeltaChannel`(아래 참고)이 없어서"))
    else:
        t = [rows[i]["turn"] for i in (9, 19, 39)]
        out += [(fixes, f"`notes`를 `DeltaChannel`(아래 참고)로 바꿔 {rows[-1]['turn']}턴을 다시 실행했다"),
                (fixes, f"저장 바이트는 {t[1]}턴 뒤 {{delta[rows][19][stored]}}바이트, {t[2]}턴 뒤 {{delta[rows][39][stored]}}바이트다. "
                        f"일반 실행은 {{turns[memory][rows][19][stored]}}바이트, {{turns[memory][rows][39][stored]}}바이트였다. "
                        f"{t[2]}턴 뒤 보관 바이트는 {t[1]}턴 뒤의 {{delta[doubled]}}배다(일반 {{turns[memory][doubled]}}배). 마지막 "
                        f"{t[0]}턴에 쌓인 바이트는 처음 {t[0]}턴의 {{delta[ratio]}}배다(일반 {{turns[memory][ratio]}}배)."),
                (fixes, "매 턴의 상태는 두 실행에서 " + ("같았다." if r["same"]["states"] else "달랐다."))]
    said = {"": "지원함", "NotImplementedError": "구현되지 않음 (`NotImplementedError`)",
            "AttributeError": "메서드 없음 (`AttributeError`)"}
    for backend, p in r["pruning"].items():
        kept = ["{checkpoints}개, {stored}바이트"] + ["{%s[checkpoints]}개, {%s[stored]}바이트" % (k, k) if p[k] else None
                                                    for k in ("after_prune", "after_delete")]
        out.append((fixes, row(SAVERS[backend], kept[0], said[p["prune"]], kept[1] or "—",
                               kept[2] or "메서드 없음 (`AttributeError`)"), p))
        if p["after_prune"]:
            out.append((fixes, f"{PROSE[backend]}에서 `prune` 뒤 `write` 앞에서 되감자 그 지점이 없어 실패했다"
                               f"(`{p['after_prune']['replay']}`)."))
    return out


def gone(r):
    lost, demos, failed = r["lost"], r["demos"], r["failed"]
    top, real, modes, crash = "## 사라지는 것", "### 진짜 재시작", "### 저장 시점(durability)", "### 크래시"
    out = [(top, "스레드를 한 번 실행하면 체크포인트가 {lost[kept]}개 남는다"),
           (top, "같은 `thread_id`로 조회하면 체크포인트가 {lost[after_restart]}개다."),
           (top, f"보고서 JSON의 `survives_restart`도 `{json.dumps(r['summary']['survives_restart'])}`다.")]
    for backend in [b for b in SAVERS if f"restart:{b}" in demos]:
        back, found = demos[f"restart:{backend}"], demos[f"crash:{backend}"]
        task = [found["pending_after_crash"]] if found["pending_after_crash"] else []
        out += [(real, row(SAVERS[backend], "{kept}", "{after_restart}", "예" if back["survives"] else "아니오"), back),
                (crash, row(SAVERS[backend], "{checkpoints_after_crash}", code_list(task), code_list(found["ran_on_resume"]),
                            "—" if found["result"] is None else "{checkpoints_after_resume}"), found)]
        if found["result"] is None:
            out.append((crash, f"{PROSE[backend]}에서는 찾은 체크포인트가 {{checkpoints_after_crash}}개라 재개하지 않았다.", found))
    durable = [demos[f"crash:{b}"] for b in ("sqlite", "postgres") if f"crash:{b}" in demos]
    if durable:
        out.append((crash, ("인 체크포인트 {checkpoints_after_crash}개가 이미 저장돼 있었다." if LG >= (0, 6)
                            else "인 체크포인트 {checkpoints_after_crash}개가 남았다."), durable[0]))
    if "error" in r["durability"]:
        out += [(modes, "설치된 langgraph {versions[langgraph]}에는 이 설정이 없다."),
                (modes, "실패하면 체크포인트 {failed[default][checkpoints]}개가 남고")]
    else:
        out += [(modes, row(f"`{mode}`", f"{{durability[{mode}]}}", f"{{failed[{mode}][checkpoints]}}",
                            code_list(failed[mode]["ran_on_resume"]))) for mode in ("exit", "async", "sync")]
        out += [(modes, "`exit`는 끝까지 실행해도 체크포인트를 {durability[exit]}개만 남긴다. 예외로 실패할 때도 멈춘 "
                        "지점의 체크포인트 {failed[exit][checkpoints]}개를 남기고")]
        killed = {"exit": demos.get("mode:exit"), "async": demos.get("mode:async"), "sync": demos.get("crash:sqlite")}
        if all(killed.values()):
            out += [(crash, row(f"`{mode}`", "{checkpoints_after_crash}" + " (기다린 뒤)" * (mode == "async"),
                                code_list(k["ran_on_resume"])), k) for mode, k in killed.items()]
            out.append((crash, "도중에 죽자 {demos[mode:exit][checkpoints_after_crash]}개가 남았다."))
    if "trap" in demos:
        heading = "### 다음 노드(`next`)가 숨기는 크래시"
        out += [(heading, "이미 끝난 그 작업의 쓰기 {demos[trap][pending_writes]}개("),
                (heading, "체크포인트는 {demos[trap][checkpoints_after_resume]}개가 됐다.")]
    return out


def expected(r):
    """[(heading, text)]: every fragment above, filled."""
    return [(heading, fill(fragment, dict(context[0], r=r) if context else r))
            for heading, fragment, *context in saved(r) + travel(r) + size(r) + physical(r) + growth(r) + gone(r)]


def by_heading(md):
    """{heading line: its text up to the next heading}; "#" for the title's part."""
    parts, heading = {}, "#"
    for line in md.splitlines():
        if line.startswith("#"):
            heading = line if line.startswith("##") else "#"
            parts.setdefault(heading, "")
        else:
            parts[heading] = parts.get(heading, "") + line + "\n"
    return parts


def measured_numbers(text):
    """The numbers from FIRST up in `text`, thousands separators dropped; not a chart's y-axis
    (its top is computed from the largest value), not a shown length ("(200자)"), not "ISO 8601",
    not in a "참고" paragraph (fixed text, measured elsewhere: a date, a release)."""
    text = "\n\n".join(p for p in text.split("\n\n") if not p.startswith("참고"))
    text = "\n".join(line for line in text.splitlines() if "y-axis" not in line).replace("ISO 8601", "")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    found = []
    for token in re.findall(r"(?<![0-9A-Za-z_.])\d+(?:\.\d+)*(?![0-9A-Za-z_]|자)", text):
        if token.count(".") <= 1 and float(token) >= FIRST:
            found.append(float(token))
    return Counter(found)


def test_each_number_the_markdown_shows_is_in_the_sentence_of_its_own_field(awkward_run):
    report = distinct(awkward_run.report)
    md = make_report.render(report)
    parts = by_heading(re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", md))  # "1,234" -> "1234": values, not their format
    wanted, missing = expected(report), []
    for heading, text in wanted:
        pattern = re.escape(text) if isinstance(text, str) else "^" + r"[^\n]*".join(map(re.escape, text)) + "$"
        if not re.search(pattern, parts.get(heading, ""), re.M):
            missing.append(f"{heading}: {text}")
    assert missing == [], "\n".join(missing)
    # and nowhere else: every number from FIRST up in the Markdown is one of those sentences'
    shown = measured_numbers(md)
    meant = sum((measured_numbers(text if isinstance(text, str) else " ".join(text)) for _, text in wanted),
                Counter())
    assert shown == meant, {"shown, not expected": shown - meant, "expected, not shown": meant - shown}


def test_a_template_reading_a_neighbouring_field_is_caught(awkward_run, monkeypatch):
    """The check above fails when one template reads the field beside its own (fork[before] for fork[total])."""
    import report_ko
    travel_section = report_ko.TRAVEL.replace("{fork[total]}개가 됐다", "{fork[before]}개가 됐다")
    assert travel_section != report_ko.TRAVEL
    monkeypatch.setattr(report_ko, "SECTIONS", [travel_section if s is report_ko.TRAVEL else s for s in report_ko.SECTIONS])
    report = distinct(awkward_run.report)
    parts = by_heading(re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", make_report.render(report)))
    missing = [text for heading, text in expected(report) if isinstance(text, str) and text not in parts.get(heading, "")]
    assert missing == [fill("체크포인트는 {fork[before]}개에서 {fork[total]}개가 됐다.", report)], missing


def test_the_fork_checks_each_answer_in_its_own_sentence_and_in_the_table_of_checks(awkward_run):
    negative = {"current_is_new_end": "새 가지의 끝이 나오지 않는다.", "old_end_readable": "원래 끝과 다르다.",
                "original_is_old_end": "처음 실행의 결과와 다르다."}
    rows = {"current_is_new_end": "| 분기 뒤 스레드의 config로 읽으면 새 가지의 끝이 나온다 | {} |",
            "old_end_readable": "| 분기 전에 잡아 둔 config로 읽으면 원래 끝이 그대로 있다 | {} |",
            "original_is_old_end": "| 실습의 `fork()` 함수가 분기하기 전에 읽어 둔 마지막 상태가 처음 실행의 결과와 같다 | {} |"}
    for flag in negative:
        report = copy.deepcopy(awkward_run.report)
        report["fork"].update({key: key != flag for key in negative})
        md = make_report.render(report)
        assert [key for key in negative if (negative[key] in md) != (key == flag)] == [], flag
        assert [key for key in rows if rows[key].format("아니오" if key == flag else "예") not in md] == [], flag


def test_a_long_topic_is_shown_shortened_with_its_full_length(awkward_run):
    report = copy.deepcopy(awkward_run.report)
    report["summary"]["topic"] = "x" * 200
    header = make_report.render(report).split("\n## ")[0]
    shown = re.search(r"\| 주제 \| `(\"x+)…` \(200자\) \|", header)
    assert shown and len(shown.group(1)) < 100, header


def test_rendering_leaves_the_report_as_it_was(awkward_run):
    """derive() adds its figures to a copy: the report main rendered is still measure()'s."""
    report = copy.deepcopy(awkward_run.report)
    make_report.render(report)
    assert report == awkward_run.report
