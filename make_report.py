"""Run ckpt.py live and write ckpt_report.json and ckpt_report.md from one report dict.

    python make_report.py                       # topic 가을, 1,500-byte payload, fork angle 비교
    python make_report.py --topic "내 주제" --payload-bytes 4000 --out-dir /tmp/out

Every number in both files comes from calling ckpt's measures; this file calls no graph and imports no
langgraph. The Markdown is a template per section, filled from the dict the JSON is cut from; it holds no
timestamps or checkpoint ids, so two runs with the same arguments write identical files.
"""
import argparse, json, os, random, re, signal, string, sys, sysconfig, tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from string import Template

try:
    import ckpt
except KeyboardInterrupt:  # Ctrl-C while langgraph is still being imported: nothing to clean up
    print("make_report.py: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

JSON_NAME, MD_NAME = "ckpt_report.json", "ckpt_report.md"
MIN_PAYLOAD, MAX_PAYLOAD = 300, 100_000_000  # bytes: enough to see the difference; fits in memory
OTHER_TOPIC = "겨울"  # the input given at a past checkpoint, in place of None
FORK_ANGLES = [a for a in ckpt.ANGLES if a != ckpt.DEFAULT_ANGLE]
SAVER_NAMES = {"memory": "메모리 (InMemorySaver)", "sqlite": "SQLite (SqliteSaver)", "postgres": "PostgreSQL (PostgresSaver)"}
COLORS = {"memory": ("#1f77b4", "파랑"), "sqlite": ("#d62728", "빨강"), "postgres": ("#2ca02c", "초록")}  # chart lines
CHAIN_NODES, TURNS, TABLE_TURNS = (3, 10, 30), 40, (1, 10, 20, 40)  # 3 nodes: the lab's graph

# ---- Measuring: one dict, every value from a call of ckpt. ----
def _savers(postgres_url: str) -> list:
    return [b for b in ("memory", "sqlite") if ckpt.has_backend(b)] + ["postgres"] * bool(postgres_url)

def _demos(topic: str, postgres_url: str) -> dict:
    """The restart and crash demos, on every saver installed here. Crash rows come from deterministic settings only:
    durability="sync" where langgraph has it, else a review that waits until the earlier checkpoints are stored."""
    steady, jobs = {"durability": "sync"} if ckpt.has_durability() else {"wait_saved": True}, {}
    for backend in _savers(postgres_url):
        where = dict(topic=topic, backend=backend, url=postgres_url if backend == "postgres" else None)
        jobs.update({f"restart:{backend}": (ckpt.restart_demo, where),
                     f"crash:{backend}": (ckpt.crash_demo, dict(where, **steady))})
    if ckpt.has_durability() and ckpt.has_backend("sqlite"):
        jobs["mode:exit"] = (ckpt.crash_demo, dict(topic=topic, durability="exit"))
        jobs["mode:async"] = (ckpt.crash_demo, dict(topic=topic, durability="async", wait_saved=True))
    if ckpt.has_backend("sqlite"):
        jobs["trap"] = (ckpt.trap_demo, dict(topic=topic))
    return jobs

def _grown(rows: list) -> dict:
    """turn_bytes' rows and their growth: bytes the first and last ten turns add, their ratio, last ÷ turn 20, the rest."""
    s = [row["stored"] for row in rows]
    return {"rows": rows, "first_ten": s[9], "last_ten": s[-1] - s[-11], "ratio": round((s[-1] - s[-11]) / s[9], 2),
            "doubled": round(s[-1] / s[19], 2), "rest": sorted({row["state"] - row["notes"] for row in rows})}

def _growth(topic: str, payload: str, physical: list, postgres_url: str) -> dict:
    """What a checkpoint costs as the work grows: longer chains, more turns, and the remedies."""
    url, savers, found = {"postgres": postgres_url}, _savers(postgres_url), {}
    try:
        found["delta"] = _grown(ckpt.turn_bytes(topic, TURNS, delta=True))
    except ImportError as exc:  # langgraph before 1.2
        found["delta"] = {"error": type(exc).__name__}
    return dict(found, turns={b: _grown(ckpt.turn_bytes(topic, TURNS, b, url.get(b))) for b in savers},
                pruning={b: ckpt.pruning(topic, b, url.get(b)) for b in savers}, pointer=ckpt.pointer_bytes(topic, payload),
                chains=[{"nodes": k, "savers": ckpt.physical_vs_logical(topic, payload, url=postgres_url, nodes=k)
                         if k > 3 else physical} for k in CHAIN_NODES])

def _measured(topic: str, payload_bytes: int, fork_angle: str, postgres_url: str) -> dict:
    """The figures measured in this process, while the demos' children run."""
    payload = "x" * payload_bytes
    packages = ["langgraph", "langgraph-checkpoint", ckpt.EXTRAS["sqlite"]] + [ckpt.EXTRAS["postgres"]] * bool(postgres_url)
    r = dict(ckpt.first_run(topic), **{
        "versions": {"python": ".".join(map(str, sys.version_info[:3])),
                     **{name: v for name in packages if (v := ckpt.package_version(name))}},
        "threads": ckpt.thread_demo(topic), "replays": ckpt.replay_rows(topic),
        "rerun": ckpt.rerun_with_input(topic, OTHER_TOPIC), "fork": ckpt.fork_demo(topic, fork_angle),
        "tree": ckpt.time_travel_tree(topic, fork_angle), "weigh": ckpt.weigh(topic, payload),
        "sweep": [dict(row, extra=row["fat_total"] - row["thin_total"]) for row in
                  (ckpt.weigh(topic, "x" * (payload_bytes * n)) for n in range(1, 6))],
        "physical": {kind: ckpt.physical_vs_logical(topic, value, url=postgres_url) for kind, value
                     in (("x", payload), ("random", incompressible(payload_bytes)))},
        "durability": ckpt.durability_counts(topic), "lost": ckpt.lost_demo(topic),
        "failed": {mode or "default": ckpt.failed_run(topic, mode)
                   for mode in (ckpt.MODES if ckpt.has_durability() else [None])},
        "missing": [b for b in ("sqlite", "postgres") if not ckpt.has_backend(b)], "postgres": bool(postgres_url)})
    r.update(_growth(topic, payload, r["physical"]["x"], postgres_url))
    thin, fat = [[c["bytes"] for c in run["checkpoints"]] for run in (r, ckpt.first_run(topic, payload))]
    difference = [f - t for t, f in zip(thin, fat)]  # each 0, or the payload and what its key adds
    r["rows"] = {"thin": thin, "fat": fat, "difference": difference, "carried": sorted(set(difference) - {0}),
                 "key_bytes": ckpt.state_bytes({"bulk": "", "topic": ""}) - ckpt.state_bytes({"topic": ""})}
    r["placement"] = next((m["placement"] for m in r["physical"]["x"] if m["backend"] == "postgres"), None)
    return r

def measure(topic: str, payload_bytes: int, fork_angle: str, postgres_url: str = None) -> dict:
    """Every figure of the report, from live calls of ckpt: one JSON-ready dict."""
    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2)  # the demos' children run meanwhile
    try:
        demos = {name: pool.submit(fn, **kw) for name, (fn, kw) in _demos(topic, postgres_url).items()}
        r = _measured(topic, payload_bytes, fork_angle, postgres_url)
        r["demos"] = {name: future.result() for name, future in demos.items()}
    except KeyboardInterrupt:  # subtle: a SIGINT sent to this process alone never reaches the demos'
        if os.getpgrp() == os.getpid():  # children: pass it on to our group, so they end now, not in seconds
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.killpg(0, signal.SIGINT)
        raise
    finally:  # subtle: not `with`, whose exit would run every queued demo after a Ctrl-C
        pool.shutdown(cancel_futures=True)  # waits for the demos already running: they clean up
    f, w = r["fork"], r["weigh"]
    r["summary"] = {  # the lab's ten keys, in the lab's order
        "topic": topic, "checkpoints_per_run": len(r["checkpoints"]), "pending": r["pending"],
        "base_score": f["base_score"], "fork_angle": fork_angle, "fork_score": f["fork_score"],
        "checkpoints_after_fork": f["total"], "payload_bytes": w["payload_bytes"], "carrying": w["carrying"],
        "survives_restart": r["lost"]["after_restart"] > 0}
    return r

# ---- The document: one template per section, read as the Korean text it becomes. ----
def doc(text: str) -> Template:
    """A template whose lines are the document's paragraphs, headings and blocks, a blank line between each two
    (subtle: a line ending in a backslash goes on, so a long paragraph wraps here, not in the Markdown)."""
    return Template("\n\n".join(text.splitlines()))

HEADER = doc("""\
# 체크포인트 실험 보고서
측정 환경: $versions. 주제 $topic, 페이로드 $payload_bytes 바이트, 분기 때 `angle`은 $fork_angle. 이 보고서의 수치는 모두 `make_report.py`가 이 \
환경에서 `ckpt.py`를 실제로 실행해 얻은 값이다. "참고"로 시작하는 문단만 예외다: 이 실행이 아닌 곳에서 잰 값이며, 어디서 쟀는지를 함께 적었다.
""")
SAVED = doc("""\
## 무엇이 저장되는가
checkpointer를 붙인 그래프를 한 번 실행하면 체크포인트가 $per_run개 남는다. 아래 표에는 오래된 것부터 나열했다$newest_first. 바이트 열은 그 순간의 상태 전체를 잰 값이다.
$rows_table
`pending()` = $pending. 기본 실행의 점수(`base_score`)는 $base_score: 초안 $base_draft의 글자 수다.
같은 `thread_id`로 한 번 더 실행하면 저장된 상태 위에서 이어진다: `notes`가 $notes_first개에서 $notes_second개로 늘고 체크포인트는 $same_checkpoints개가 된다. \
다른 `thread_id`는 빈 상태에서 시작한다: 체크포인트 $other_checkpoints개, 값 $other_values.
checkpointer 없이 컴파일한 그래프는 아무것도 남기지 않는다: 같은 config로 두 번 실행하면 `notes`가 $bare_first개, $bare_second개로 매번 처음부터 시작하고, \
`get_state`는 예외를 던진다: $bare_error.
### 체크포인트 하나를 열어 보면
마지막 체크포인트를 saver가 돌려주는 그대로(`checkpointer.get_tuple(config)`) 펼쳤다. saver가 돌려준 필드만 나열했다 (채널 버전은 실행마다 달라지는 뒷부분을 빼고 카운터만 \
적었다).
참고: "무엇을 위한 것인가" 열은 이 실행이 잰 값이 아니라 LangGraph 소스(langgraph-checkpoint의 `Checkpoint`, `CheckpointMetadata`)의 설명을 옮긴 것이다. \
어떤 필드가 있는지는 `make test`의 각 다리에서 `tests/test_anatomy.py`가 버전별로 확인한다.
$anatomy_table
""")
TRAVEL = doc("""\
## 되감기와 분기는 어떻게 다른가
되감기(replay)는 저장된 지점의 config로 `invoke(None, config)`를 호출해, 그 지점에 저장된 값으로 다시 실행한다. 각 노드 앞 지점에서 (매번 새 saver에서 한 번 실행한 뒤) \
되감았을 때:
$replay_table
$replay_note
입력에 `None` 대신 값을 주면 이어서 실행되지 않는다. 한 번 실행한 뒤 `write` 앞 지점의 config로 `invoke(input, config)`를 부르며 input에 $rerun_input을 \
주었더니 $rerun_ran가 다시 실행됐고 체크포인트가 $rerun_added개 늘었다. 처음부터 다시 시작하지만 빈 상태에서가 아니라 그 지점에 저장된 값 위에서다: reducer가 있는 `notes`는 \
$rerun_notes가 된다.
분기(fork)는 값을 바꿔 다른 길로 간다. `write` 앞 지점의 스냅샷으로 `update_state(snapshot.config, values)`를 부르며 values에 $fork_values를 주어 \
가지를 만들고, 그것이 돌려준 config로 `invoke(None, config)`를 불러 이어서 실행했다. 체크포인트는 $fork_before개에서 $fork_total개가 된다.
$fork_table
분기 뒤 `thread_id`만으로 `get_state`를 부르면 새 가지의 끝이 나온다 ($current_is_new_end). 원래 가지는 지워지지 않는다: 분기 전에 잡아 둔 config로 읽으면 원래 끝이 \
그대로 있다 ($old_end_readable). `fork()`가 돌려준 `original`도 분기 전 끝과 같다 ($original_is_old_end).
### 체크포인트는 어디서 왔나
한 스레드에서 한 번 실행하고, `write` 앞에서 되감고, 다시 `write` 앞에서 분기했다. 체크포인트마다 `metadata["source"]`를 오래된 것부터 읽으면 $sources: \
$source_counts. 부모 관계대로 그리면 아래와 같다 (커밋 하나가 체크포인트 하나, 레인은 처음 실행·되감기·분기, 강조된 것은 $highlighted 체크포인트). 분기의 첫 \
체크포인트($branch)는 $branch_parent에서 갈라진다: `write` 앞 지점 가운데 가장 최근의 것이 그것이기 때문이다 (`snapshot_before`는 가장 최근 지점을 고른다).
$gitgraph
""")
SIZE = doc("""\
## 크기로 잰 것
상태를 `json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)`로 직렬화해 UTF-8 바이트를 셌다. `bulk` 없이(thin) 한 번, \
`bulk`에 $payload_bytes 바이트 값을 넣고(fat) 한 번, 각각 새 saver로 실행했다.
$size_table
$size_chart
스냅샷의 값(`values`)으로 세면 체크포인트 $checkpoints개 중 $carrying개가 그 값을 싣고 있다: 한 번 넣은 값이 상태로는 $carrying번 세어진다. fat_total − \
thin_total = $fat_total − $thin_total = $difference바이트$equation saver가 실제로 보관하는 사본 수는 이와 다르다: 아래 "논리 바이트와 실제로 저장된 \
바이트"에서 저장소를 직접 읽어 쟀다 ($stored_copies).
### 페이로드 크기를 바꿔 가며
같은 그래프를 `bulk`의 크기만 같은 간격으로 바꿔 가며 `weigh`로 쟀다.
$sweep_table
$sweep_chart
### 논리 바이트와 실제로 저장된 바이트
위의 바이트는 논리적인 값이다: 체크포인트마다 상태 전체를 JSON으로 셌다. saver가 실제로 보관하는 바이트는 다르다. 같은 두 실행(thin, fat)을 saver마다 다시 하고, 저장소를 직접 읽어 \
직렬화된 값의 바이트를 셌다 (키, 인덱스, 행 헤더는 빼고). "사본" = 저장 바이트의 차이 ÷ 페이로드 바이트.
$physical_tables
$missing_sqlite
그 차이가 어디에 쌓였는지를 saver의 부분별로 나누면 (fat − thin, 바이트, `"x"` 페이로드):
$parts_table
$placement
""")
GROWTH = doc("""\
### 노드가 늘면
`write`와 `review` 사이에 통과 단계(pass-through step: `{}`를 돌려주어 상태를 그대로 넘기는 노드)를 넣어 노드 $chain_nodes의 사슬을 만들고, 위의 thin·fat 두 \
실행을 saver마다 다시 했다 (노드 $lab_nodes개는 위 표의 실행).
$chain_table
$missing
$chain_chart
실습 설명은 “노드가 서른 개면 한 번 넣은 값이 거의 서른 번 저장된다”고 한다. 노드 $most개에서 값을 상태에 실은 체크포인트는 $most_carrying개다.$claim
### 턴이 늘면
한 스레드에서 그래프를 $turns번 이어서 실행하며(한 번이 한 턴) 턴마다 saver가 그 스레드에 보관한 바이트를 셌다. `notes`와 상태 전체는 마지막 체크포인트의 바이트다 (메모리 saver).
$turn_table
$turn_chart
처음 $ten턴과 마지막 $ten턴($last_range턴)에 늘어난 바이트는 $grown다.$pace 늘어나는 것은 `notes` 목록이다: $first_turn턴 뒤 $first_notes바이트, \
$last_turn턴 뒤 $last_notes바이트이고, 상태의 나머지는 $rest. 체크포인트마다 그때까지의 `notes` 전체가 저장된다.
### 줄이는 방법과 그 대가
**큰 값은 store에, 상태에는 키만.** store는 체크포인트 밖에서 키로 값을 보관하는 LangGraph의 저장소다 (여기서는 `InMemoryStore`). 페이로드를 store에 넣고 상태의 \
`bulk`에는 그 키만 넣은 실행을, 값을 상태에 넣은 실행과 나란히 새 메모리 saver로 쟀다 (바이트). store는 값을 한 번, $store바이트로 보관한다:
$pointer_table
참고: 대가가 있다. 값이 체크포인트 밖에 있으므로 되감기와 분기는 그 값을 되살리지 않는다: store의 값이 바뀐 뒤 되감으면 상태에는 키만 돌아오고, 그 키는 바뀐 값을 가리킨다. \
`delete_thread`도 store의 값은 지우지 않아, store는 따로 보관하고 정리해야 한다. 이 실행이 아니라 `make test`의 모든 다리에서 `tests/test_growth.py`가 확인하는 \
동작이다.
**`notes`를 `DeltaChannel`로.** $delta
**지우기와 가지치기.** `delete_thread(thread_id)`는 스레드의 체크포인트를 모두 지운다. prune(가지치기)은 일부만 남기고 나머지 체크포인트를 지우는 saver 메서드다: \
`prune(thread_ids, strategy="keep_latest")`는 스레드마다 마지막 것만 남긴다. 스레드를 두 번 실행한 뒤 saver마다 `prune`을, 이어서 `delete_thread`를 \
불렀다:
$prune_table
$prune_note
참고: PostgreSQL saver(langgraph-checkpoint-postgres 3.2.0)에서는 `prune`이 된다: 두 번 실행한 스레드의 체크포인트가 10개에서 1개로 줄고, 그 뒤 \
`write` 앞에서 되감으면 `ValueError`로 실패한다. 0260 다리의 PostgreSQL saver에는 `prune`이 없다. 이 실행이 아니라 `make test`의 latest·0260 다리에서 \
`tests/test_growth.py`가 확인한다.
""")
DELTA = doc("""\
`DeltaChannel`은 `langgraph.channels`의 베타 채널이다 (langgraph 소스의 설명이 API와 저장 형식이 바뀔 수 있다고 적는다). 체크포인트에 목록 대신 표시만 남기고, 읽을 때 \
앞 체크포인트들의 쓰기로 목록을 다시 만든다. `notes`를 이 채널로 바꿔 $turns턴을 다시 실행했다 (메모리 saver). 저장 바이트는 $twenty턴 뒤 $delta_20바이트, $forty턴 뒤 \
$delta_40바이트다 (일반 실행은 $plain_20바이트, $plain_40바이트). $twenty턴에서 $forty턴으로 $delta_doubled배가 됐고 (일반 $plain_doubled배), 마지막 \
$ten턴에 쌓인 바이트는 처음 $ten턴의 $delta_ratio배다 (일반 $plain_ratio배). 매 턴의 상태는 두 실행에서 같다 ($same).""")
NO_DELTA = doc("""\
설치된 langgraph $version에는 `DeltaChannel`이 없어(`langgraph.channels`에서 가져오면 `$error`) 재지 않았다.
참고: `DeltaChannel`은 langgraph 1.2.0에서 처음 나왔다: 2026-12-01에 PyPI의 langgraph 1.1.10과 1.2.0 wheel에서 \
`langgraph/channels/__init__.py`를 읽어 확인했다 (1.1.10에는 없고 1.2.0에는 있다). 0.2.60에 없다는 것은 `make test`의 0260·pod 다리에서 \
`tests/test_growth.py`가 확인한다.""")
LOST = doc("""\
## 사라지는 것
메모리 saver로 `run-1` 스레드를 한 번 실행하면 체크포인트가 $kept개 남는다. 새 saver로 그래프를 다시 만들고(프로세스 재시작을 흉내 낸 것) 같은 `thread_id`를 물으면 체크포인트 \
$after_restart개, 값 $values_after가 돌아온다. 오류는 나지 않는다: 손실은 조용히 일어난다. `survives_restart` = `$survives`.
### 진짜 재시작과 진짜 크래시
여기서는 진짜 자식 프로세스(`ckpt.py`를 경로로 불러오는 새 `sys.executable`: 호출한 쪽과 아무것도 공유하지 않는다)가 스레드를 실행하고, 그 프로세스가 끝난 다음에 이 프로세스에서 연 새 \
saver가 같은 저장소를 읽는다.
$restart_table
$missing_sqlite_restart
크래시는 자식이 `review` 안에서 자기 프로세스에 SIGKILL을 보내 정리 작업 없이 죽는 것이다. 그 뒤 새 saver로 `invoke(None, config)`를 불러 이어서 실행했다. $steady
$crash_table
$crash_note
### 크래시와 durability
$durability
### `next`가 숨기는 크래시
$trap
""")
# Paragraphs of the last section, each in the form this run calls for.
DURABILITY = doc("""\
모드마다 새 saver로: 끝까지 실행한 뒤 남은 체크포인트, `review`가 예외를 던져 실패한 뒤 남은 체크포인트(메모리 saver, 같은 프로세스), `review` 안에서 SIGKILL로 죽은 뒤 새 \
saver가 SQLite 파일에서 찾은 체크포인트와 재개할 때 실행된 노드 (`async`는 `review`가 앞 체크포인트가 기록될 때까지 일한 뒤 죽었다):
$modes_table
`exit`도 예외로 실패하면 멈춘 지점의 체크포인트 $exit_failed개를 남긴다(`next`는 $exit_next): 재개하면 $exit_ran만 실행된다. 같은 모드에서 `review` 안에서 \
SIGKILL로 죽었을 때 남은 것은 $exit_killed개였다.""")
NO_DURABILITY = doc("""\
설치된 langgraph $version의 `invoke`에는 `durability` 인자가 없어 모드별 행은 없다. 이 langgraph에서 `review`가 예외로 실패하면 체크포인트 \
$checkpoints개가 남고 `next`는 $next이며, 재개하면 $ran만 실행된다.
참고: `durability` 모드는 langgraph 0.6 이상에 있다. 끝까지 실행한 뒤 `exit`·`async`·`sync`가 남기는 체크포인트 1·5·5개와 `review`가 예외로 실패한 뒤의 \
1·4·4개는 이 실행이 아니라 `make test`의 latest 다리에서 `tests/test_sweep_durability.py`와 `tests/test_report_measures.py`가 확인하는 \
값이다.""")
TRAP = doc("""\
자식 프로세스에서 `plan`이 끝나 그 쓰기가 pending writes로 저장됐지만, 그 뒤의 체크포인트는 저장되지 않은 채(saver의 `put`을 붙잡아 두었다) `write`가 SIGKILL로 죽었다. \
새 saver로 기록의 `next`를 오래된 것부터 읽으면 $history_next: `plan`이 아직 남은 것처럼 보인다. 그러나 `get_state(config).next`는 $looks_done. 마지막 \
체크포인트의 작업은 $task이고, 이미 끝나 그 쓰기 $writes개($channels)가 저장돼 있다. `invoke(None, config)`로 재개하면 $ran만 실행되고 $skipped체크포인트는 \
$after_resume개가 되며, 결과는 크래시 없이 끝까지 간 실행과 같다 ($same).$misread
참고: `wait_saved` 없이 `review`가 시작하자마자 죽는 크래시는 실행마다 새 saver가 찾는 체크포인트 수가 다를 수 있어 이 보고서에 넣지 않았다. `make test`의 0260·latest \
다리에서 `tests/test_crash.py`는 끝난 노드를 다시 실행하는 경우와 저장된 쓰기로 건너뛰는 경우를 모두 허용하고, 어느 쪽이든 재개한 결과가 같다는 것을 확인한다.""")

def incompressible(size: int, seed: int = 0) -> str:
    """`size` ASCII letters and digits from random.Random(seed): "0UAqFzWs" for 8; no repeats for pglz or lz4."""
    return "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size))

# ---- What each field a langgraph version may write is for (the table's order), and how anatomy's values are shown.
FIELD_PURPOSES = {
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 고유하고 시간순인 id (config의 checkpoint_id)",
    "checkpoint.ts": "체크포인트를 쓴 시각",
    "checkpoint.channel_values": "채널마다의 값: 상태 키와 그래프 내부 채널 (여기서는 채널별 바이트)",
    "checkpoint.channel_versions": "채널마다의 현재 버전: 채널에 쓰기가 있으면 스레드 전체에서 증가하는 새 버전을 받는다",
    "checkpoint.versions_seen": "노드마다 마지막으로 보고 실행한 채널 버전: 다음에 무엇이 실행될지를 정한다",
    "checkpoint.pending_sends": "아직 실행되지 않은 Send 작업 (동적 분기)",
    "checkpoint.updated_channels": "이 체크포인트를 만든 super-step이 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step 번호: 입력은 -1, 이후 0, 1, 2, …",
    "metadata.parents": "부모 그래프(서브그래프)의 checkpoint id; 최상위에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 super-step에서 각 노드가 쓴 값",
    "metadata.thread_id": "config에서 복사한 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "부모 체크포인트의 config: 스레드를 거슬러 올라가는 사슬",
    "pending_writes": "다음 super-step에서 이미 끝난 작업의 쓰기: 저장됐지만 아직 적용되지 않음",
}

def _counter(version) -> str:
    """A channel version as its counter, the random tail dropped: "000...0005.0.4930..." -> "5" (an int as it is)."""
    head = str(version).split(".", 1)[0]
    return str(int(head)) if head.isdigit() else str(version)

def _shown(field: str, value) -> str:
    """A field's value as the report shows it: nothing that changes from run to run."""
    versions = lambda seen: ", ".join(f"{k}@{_counter(v)}" for k, v in seen.items())  # noqa: E731
    shown = {"checkpoint.id": lambda: f"{len(value)}자 UUID (실행마다 다름)",
             "checkpoint.ts": lambda: "ISO 8601 시각 (실행마다 다름)",
             "checkpoint.channel_values": lambda: ", ".join(f"{k} {v} B" for k, v in value.items()),
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

# ---- Small helpers: values shown as code, tables, charts. ----
def lit(text: str) -> str:
    """Text in a code span, shown exactly: no emphasis (`__start__`), links or HTML."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"

def code(value, limit: int = 80) -> str:
    """A value as its JSON literal in a code span (spaces kept); a long one shortened: "x" * 200 -> `"xxx…` (200자)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= limit:
        return lit(text)
    return f"{lit(text[:limit - 1] + '…')} ({f'{len(value)}자' if isinstance(value, str) else f'JSON {len(text)}자'})"

def table(header: list, rows: list) -> str:
    """A Markdown table; a "|" inside a cell is escaped so it cannot open a column."""
    cells = [header] + [[str(cell).replace("|", "\\|") for cell in row] for row in rows]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells[1:]])

def n(number) -> str: return f"{number:,}"
def yes(flag: bool) -> str: return "이 실행에서 확인: " + ("예" if flag else "아니오")
def nodes(names: list) -> str: return ", ".join(map(lit, names)) if names else "—"
def _label(row: dict) -> str: return f"#{row['position']} {row['source']}"

def xychart(title: str, x_title: str, labels: list, series, y_title: str) -> str:
    """A Mermaid xychart-beta with titles on both axes. series: [(kind, values)], coloured in turn, or
    {saver: values}: a line per saver in its colour (COLORS), the colours named in the title."""
    palette = "#1f77b4, #d62728"
    if isinstance(series, dict):
        title += " (" + ", ".join(f"{COLORS[b][1]} {SAVER_NAMES[b].split()[0]}" for b in series) + ")"
        palette, series = ", ".join(COLORS[b][0] for b in series), [("line", v) for v in series.values()]
    top, axis = max(max(values) for _, values in series), ", ".join(f'"{x}"' for x in labels)
    lines = ["```mermaid", '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "' + palette + '"}}}}%%',
             "xychart-beta", f'    title "{title}"', f'    x-axis "{x_title}" [{axis}]',
             f'    y-axis "{y_title}" 0 --> {int(top + top // 10 + 1)}']
    return "\n".join(lines + [f"    {kind} [" + ", ".join(map(str, values)) + "]" for kind, values in series] + ["```"])

def gitgraph(tree: list) -> str:
    """The thread as a Mermaid gitGraph: the first run on the lane "처음 실행", each branch on its own (되감기, 분기)."""
    kids, lanes = {}, {}
    lines = ["```mermaid", "%%{init: {'gitGraph': {'mainBranchName': '처음 실행'}}}%%", "gitGraph"]
    for row in tree:
        kids.setdefault(row["parent"], []).append(row)
    def walk(row: dict, lane: str) -> None:
        later = []
        while row is not None:
            kind = " type: HIGHLIGHT" if row["source"] in ("update", "fork") else ""
            lines.append(f'    commit id: "{_label(row)}"{kind}')
            children = kids.get(row["position"], [])
            for kid in children[1:]:  # a branch starts here; it is drawn after this lane
                base = "분기" if kid["source"] == "update" else "되감기"
                lanes[base] = lanes.get(base, 0) + 1
                name = base if lanes[base] == 1 else f"{base}-{lanes[base]}"
                lines.extend([f'    branch "{name}"', f'    checkout "{lane}"'])
                later.append((kid, name))
            row = children[0] if children else None
        for kid, name in later:
            lines.append(f'    checkout "{name}"')
            walk(kid, name)
    walk(tree[0], "처음 실행")
    return "\n".join(lines + ["```"])

def _missing(r: dict, backend: str, would_show: str, what: str = "이 행은") -> str:
    """One line naming the package a saver needs, where it is not installed ("" otherwise)."""
    extra = ckpt.EXTRAS[backend]
    return (f"\n{would_show}. 이 기계에는 `{extra}`가 설치되어 있지 않아 {what} 측정하지 않았다 (`pip install {extra}`).\n"
            if backend in r["missing"] else "")

# ---- Filling the templates: one function per section. ----
def saved_fields(r: dict) -> dict:
    t = r["threads"]
    rows = [[f"#{c['position']} {c['source']} (step {c['step']})", lit(c["next"][0]) if c["next"] else "(끝)",
             nodes(c["changed"]), n(c["bytes"])] for c in r["checkpoints"]]
    anatomy = [[lit(a["field"]), a["purpose"], lit(a["value"])] for a in anatomy_rows(r["anatomy"])]
    return dict(
        per_run=len(r["checkpoints"]), pending=code(r["pending"]), base_draft=code(r["fork"]["base_draft"]),
        newest_first=" (`get_state_history`가 최신 것부터 주므로 뒤집었다)" if t["history_newest_first"] else "",
        rows_table=table(["체크포인트", "next", "이 super-step에서 바뀐 키", "바이트"], rows),
        base_score=r["fork"]["base_score"], notes_first=t["same_thread_notes"][0],
        notes_second=t["same_thread_notes"][1],
        same_checkpoints=t["same_thread_checkpoints"], other_checkpoints=t["other_thread_checkpoints"],
        other_values=code(t["other_thread_values"]), bare_first=t["no_checkpointer_notes"][0],
        bare_second=t["no_checkpointer_notes"][1], bare_error=lit(t["no_checkpointer_error"]),
        anatomy_table=table(["필드", "무엇을 위한 것인가", "값 또는 크기"], anatomy))

def _replay_note(replays: list) -> str:
    extra = [row["added"] - len(row["ran"]) for row in replays]
    if all(e == 1 and row["sources"][:1] == ["fork"] for e, row in zip(extra, replays)):
        return ("이 langgraph에서는 되감으면 체크포인트가 다시 실행한 노드 수보다 하나 더 는다: 새 체크포인트 가운데 첫 번째가 "
                "`source`가 `fork`인 체크포인트다.\n\n참고: langgraph 0.2.60에서는 `fork` 체크포인트 없이 plan·write·review "
                "앞에서 3·2·1개가 는다 (이 실행이 아니라 `make test`의 0260 다리에서 `tests/test_replay_fork.py`가 확인하는 값).")
    if all(e == 0 for e in extra):
        return ("체크포인트는 다시 실행한 노드 수만큼만 는다.\n\n참고: langgraph 1.1.7 이상에서는 되감기가 먼저 `source`가 "
                "`fork`인 체크포인트를 하나 써서 4·3·2개가 는다 (이 실행이 아니라 `make test`의 latest 다리에서 "
                "`tests/test_replay_fork.py`가 확인하는 값).")
    return "늘어난 체크포인트 수와 다시 실행된 노드 수의 관계는 위 표와 같다."

def travel_fields(r: dict, s: dict) -> dict:
    f, rerun, tree = r["fork"], r["rerun"], r["tree"]
    counts = Counter(row["source"] for row in tree)  # in the order the sources first appear
    branch = next(row for row in tree if row["source"] == "update")
    replays = [[f"`{x['from']}`", x["added"], nodes(x["ran"]), ", ".join(x["sources"])] for x in r["replays"]]
    drafts = [["원래 가지", code(f["base_draft"]), f["base_score"]],
              [f"새 가지 ({lit(s['fork_angle'])})", code(f["fork_draft"]), f["fork_score"]]]
    return dict(
        replay_table=table(["어느 노드 앞에서", "늘어난 체크포인트", "다시 실행된 노드", "새 체크포인트의 source"], replays),
        replay_note=_replay_note(r["replays"]), rerun_input=code(rerun["input"]), rerun_ran=nodes(rerun["ran"]),
        rerun_added=rerun["added"], rerun_notes=code(rerun["notes"]), fork_values=code({"angle": s["fork_angle"]}),
        fork_before=f["before"], fork_total=f["total"], fork_table=table(["", "초안", "점수"], drafts),
        current_is_new_end=yes(f["current_is_new_end"]), old_end_readable=yes(f["old_end_readable"]),
        original_is_old_end=yes(f["original_is_old_end"]), sources=", ".join(row["source"] for row in tree),
        source_counts=", ".join(f"{k} {v}개" for k, v in counts.items()),
        highlighted="·".join(lit(k) for k in ("update", "fork") if k in counts),
        branch=_label(branch), branch_parent=_label(tree[branch["parent"]]), gitgraph=gitgraph(tree))

def size_fields(r: dict) -> dict:
    w, rows, sweep = r["weigh"], r["rows"], r["sweep"]
    labels, extra = [_label(c) for c in r["checkpoints"]], w["fat_total"] - w["thin_total"]
    by_checkpoint = [[label, n(t), n(f), n(d)]
                     for label, t, f, d in zip(labels, rows["thin"], rows["fat"], rows["difference"])]
    sizes = [[*(n(x[k]) for k in ("payload_bytes", "thin_total", "fat_total", "extra")), x["carrying"]] for x in sweep]
    exact = rows["carried"] == [w["payload_bytes"] + rows["key_bytes"]]  # every carrying checkpoint alike
    return dict(
        payload_bytes=n(w["payload_bytes"]), checkpoints=w["checkpoints"], carrying=w["carrying"],
        size_table=table(["체크포인트", "thin (바이트)", "fat (바이트)", "차이"],
                         by_checkpoint + [["합계", n(w["thin_total"]), n(w["fat_total"]), n(extra)]]),
        size_chart=xychart("체크포인트별 바이트: 막대 thin, 선 fat − thin", "체크포인트", labels,
                           [("bar", rows["thin"]), ("line", rows["difference"])], "바이트"),
        fat_total=n(w["fat_total"]), thin_total=n(w["thin_total"]), difference=n(extra),
        equation=(f": 값을 실은 체크포인트마다 정확히 {n(rows['carried'][0])}바이트 = 페이로드 {n(w['payload_bytes'])} + 키가 "
                  f'더하는 {rows["key_bytes"]}, 곧 구분자를 포함한 `, "bulk": ""`의 길이다.') if exact else ".",
        stored_copies=", ".join(f"{SAVER_NAMES[m['backend']]} {m['stored']['copies']:.2f}개"
                                for m in r["physical"]["x"]),
        sweep_table=table(["페이로드 (바이트)", "thin 합계", "fat 합계", "늘어난 바이트", "carrying"], sizes),
        sweep_chart=xychart("페이로드 크기에 따른 늘어난 바이트 (fat − thin)", "페이로드 (바이트)",
                            [row[0] for row in sizes], [("line", [x["extra"] for x in sweep])], "바이트"),
        **physical_fields(r))

def physical_fields(r: dict) -> dict:
    def row(name: str, thin: int, fat: int, difference: int, copies: float) -> list:
        return [name, n(thin), n(fat), n(difference), f"{copies:.2f}"]
    size, tables = n(r["weigh"]["payload_bytes"]), []
    kinds = [("x", f"`\"x\"` × {size}")] + ([("random", f"무작위 문자 {size}개 (압축 불가)")] if r["postgres"] else [])
    for kind, title in kinds:
        logical = r["physical"][kind][0]["logical"]
        rows = [row("논리 (JSON)", logical["thin"], logical["fat"], logical["difference"], logical["copies"])]
        for m in r["physical"][kind]:
            views = [("stored", SAVER_NAMES[m["backend"]])]
            if m["backend"] == "postgres":
                views.append(("stored_compressed", "PostgreSQL, 압축 후 (pg_column_size)"))
            rows += [row(name, m[v]["thin"]["total"], m[v]["fat"]["total"], m[v]["difference"], m[v]["copies"])
                     for v, name in views]
        tables.append(f"페이로드 {title}:\n\n" + table(["무엇으로 잰 값", "thin (바이트)", "fat (바이트)", "차이", "사본"], rows))
    if not r["postgres"]:
        same = [[(m["backend"], m["stored"]["thin"], m["stored"]["fat"]) for m in r["physical"][kind]]
                for kind in ("x", "random")]  # the stored bytes, without the payload they were run with
        tables.append(f"같은 길이의 무작위 문자(압축 불가)로 바꿔 재도 모든 saver의 바이트가 위와 같다 "
                      f"({yes(same[0] == same[1])}): 여기서 잰 saver는 값을 압축하지 않는다.")
    parts = [[SAVER_NAMES[m["backend"]]] + [n(m["stored"]["parts"][k]) for k in ("checkpoints", "blobs", "writes")]
             for m in r["physical"]["x"]]
    where = {k: ", ".join(map(lit, names)) for k, names in (r["placement"] or {}).items()}
    return dict(
        physical_tables="\n\n".join(tables) + "\n",
        placement=(f"\nPostgreSQL이 값을 어디에 두는지를 테이블에서 읽으면: 체크포인트 행 안(jsonb)에 {where['inline']}, "
                   f"blob 테이블에 {where['blob']}.\n") if where else "",
        missing_sqlite=_missing(r, "sqlite", "SQLite 행은 같은 두 실행을 SQLite 파일에 저장하고 그 파일의 행을 센 값이다"),
        parts_table=table(["saver", "체크포인트 (checkpoint + metadata)", "blob", "pending writes"], parts))

def chain_fields(r: dict) -> dict:
    chains, names = r["chains"], SAVER_NAMES
    copies = {m["backend"]: [c["savers"][i]["stored"]["copies"] for c in chains] for i, m in enumerate(chains[0]["savers"])}
    carrying, first, last = [c["savers"][0]["logical"]["carrying"] for c in chains], chains[0]["nodes"], chains[-1]["nodes"]
    return dict(
        chain_nodes=", ".join(f"{c['nodes']}개" for c in chains[1:]), lab_nodes=first, most=last,
        chain_table=table(["노드", "체크포인트", "값을 상태에 실은 체크포인트"] + [f"{names[b]} 사본" for b in copies],
                          [[c["nodes"], c["savers"][0]["checkpoints"], carrying[i]]
                           + [f"{v[i]:.2f}" for v in copies.values()] for i, c in enumerate(chains)]),
        chain_chart=xychart("노드 수에 따른 사본 수", "노드", [c["nodes"] for c in chains], copies, "사본"),
        missing=_missing(r, "sqlite", "이 절과 아래 절들의 SQLite 값은 같은 측정을 SQLite 파일에서 한 것이다", "그 값들은"),
        most_carrying=carrying[-1], claim="".join(  # about a copy per node, or hardly more than with the fewest
            f" {names[b]}는 {v[-1]:.2f}개를 보관해 그 말이 맞다." if v[-1] >= carrying[-1] / 2 else
            f" {names[b]}는 노드 {first}개에서 {v[0]:.2f}개, {last}개에서 {v[-1]:.2f}개로 거의 늘지 않는다: 바뀌지 않은 "
            "채널의 값은 버전마다 한 번만 보관하기 때문이다." for b, v in copies.items()))

def growth_fields(r: dict) -> dict:
    turns, point, names = r["turns"], r["pointer"], SAVER_NAMES
    rows, rest = (turns["memory"][k] for k in ("rows", "rest"))
    return dict(
        turns=rows[-1]["turn"], turn_table=table(["턴"] + [names[b] for b in turns] + ["`notes`", "상태 전체"], [
            [rows[t - 1]["turn"]] + [n(x["rows"][t - 1]["stored"]) for x in turns.values()]
            + [n(rows[t - 1]["notes"]), n(rows[t - 1]["state"])] for t in TABLE_TURNS]),
        turn_chart=xychart("턴에 따른 저장 바이트", "턴", [x["turn"] for x in rows[4::5]],  # every 5th turn: legible
                           {b: [x["stored"] for x in t["rows"][4::5]] for b, t in turns.items()}, "바이트"),
        ten=rows[9]["turn"], last_range=f"{rows[-10]['turn']}–{rows[-1]['turn']}", grown=", ".join(
            f"{names[b]} {n(t['first_ten'])}바이트와 {n(t['last_ten'])}바이트({t['ratio']}배)" for b, t in turns.items()),
        pace=" 한 턴이 더하는 바이트가 턴마다 커진다: 저장 바이트는 턴 수보다 빨리 자란다." * all(t["ratio"] > 1.05 for t in turns.values()),
        first_turn=rows[0]["turn"], first_notes=n(rows[0]["notes"]), last_turn=rows[-1]["turn"],
        last_notes=n(rows[-1]["notes"]),
        rest=f"매 턴 {n(rest[0])}바이트로 같다" if len(rest) == 1 else f"{n(rest[0])}–{n(rest[-1])}바이트다",
        pointer_table=table(["체크포인트", "값을 상태에", "키만 상태에"], [
            [_label(c), n(a), n(b)] for c, a, b in zip(r["checkpoints"], *(point[k]["checkpoints"] for k in point))]
            + [["saver가 보관한 바이트"] + [n(point[k]["stored"]) for k in point],
               ["store가 보관한 바이트", "—", n(point["pointer"]["store"])]]),
        store=n(point["pointer"]["store"]), delta=_delta(r), **_pruning(r), **chain_fields(r))

def _delta(r: dict) -> str:
    plain, delta = r["turns"]["memory"], r["delta"]
    if "error" in delta:
        return NO_DELTA.substitute(version=r["versions"]["langgraph"], error=delta["error"])
    rows, kept = plain["rows"], lambda x: [(row["notes"], row["state"]) for row in x["rows"]]  # noqa: E731
    return DELTA.substitute(  # stored after turns 20 and 40, each run
        {f"{k}_{t}": n(x["rows"][t - 1]["stored"]) for k, x in (("plain", plain), ("delta", delta)) for t in (20, 40)},
        turns=rows[-1]["turn"], twenty=rows[19]["turn"], forty=rows[39]["turn"], ten=rows[9]["turn"],
        plain_doubled=plain["doubled"], delta_doubled=delta["doubled"], plain_ratio=plain["ratio"],
        delta_ratio=delta["ratio"], same=yes(kept(plain) == kept(delta)))

def _pruning(r: dict) -> dict:
    said = {"": "됐다", "NotImplementedError": "구현되지 않음", "AttributeError": "메서드 없음"}
    kept = lambda x: f"{n(x['checkpoints'])}개, {n(x['stored'])}바이트" if x else "—"  # noqa: E731
    rows = [[SAVER_NAMES[b], kept(p), said.get(p["prune"], "") + (f" ({lit(p['prune'])})" if p["prune"] else ""),
             kept(p["after_prune"]), kept(p["after_delete"]) if p["after_delete"] else "메서드 없음"]
            for b, p in r["pruning"].items()]
    notes = [f"{SAVER_NAMES[b]}에서 `prune` 뒤 `write` 앞에서 되감으면 " + (
        f"체크포인트가 {replay[6:]}개 늘었다." if replay.startswith("added ") else f"그 지점이 없어 실패했다: {lit(replay)}.")
        for b, p in r["pruning"].items() if (replay := (p["after_prune"] or {}).get("replay"))]
    gone = all(p["after_delete"] == {"checkpoints": 0, "stored": 0} for p in r["pruning"].values())
    return dict(prune_table=table(["saver", "두 번 실행한 뒤", "`prune`", "`prune` 뒤", "`delete_thread` 뒤"], rows),
                prune_note=" ".join(notes or ["`prune`이 된 saver가 없어, 가지친 뒤의 되감기는 잴 것이 없었다."])
                + " `delete_thread` 뒤에는 어느 saver에도 그 스레드의 체크포인트와 바이트가 남지 않았다." * gone)

def lost_fields(r: dict, s: dict) -> dict:
    d, lost, restarts, crashes, notes = r["demos"], r["lost"], [], [], []
    for b in [b for b in ("memory", "sqlite", "postgres") if f"restart:{b}" in d]:
        back, c, name = d[f"restart:{b}"], d[f"crash:{b}"], SAVER_NAMES[b]
        restarts.append([name, back["kept"], back["after_restart"], "예" if back["survives"] else "아니오"])
        pending = [c["pending_after_crash"]] if c["pending_after_crash"] else []
        crashes.append([name, c["checkpoints_after_crash"], nodes(pending), nodes(c["ran_on_resume"]),
                        "—" if c["result"] is None else c["checkpoints_after_resume"]])
        notes.append(f"{name}: 찾은 체크포인트가 {c['checkpoints_after_crash']}개라 이어서 실행할 것이 없다 (빈 스레드에 "
                     "`invoke(None, ...)`를 부르지 않았다)." if c["result"] is None else f"{name}: 재개한 결과가 크래시 "
                     f"없이 끝까지 간 실행의 값과 같다 ({yes(c['result'] == back['values_after_restart'])}).")
    return dict(
        kept=lost["kept"], after_restart=lost["after_restart"], survives=json.dumps(s["survives_restart"]),
        values_after=code(lost["values_after_restart"]),
        restart_table=table(["saver", "자식이 남긴 체크포인트", "새 saver가 찾은 체크포인트", "살아남나"], restarts),
        missing_sqlite_restart=_missing(r, "sqlite", "SQLite 행은 자식이 SQLite 파일에 쓴 스레드를 새 saver가 다시 읽은 결과다"),
        steady=("`durability=\"sync\"`로 실행해, 몇 개가 남는지가 매번 같게 했다." if ckpt.has_durability() else
                "`review`가 앞 체크포인트가 저장소에 기록될 때까지 일한 뒤 죽게 해, 몇 개가 남는지가 매번 같게 했다."),
        crash_table=table(["saver", "크래시 뒤 찾은 체크포인트", "다음 노드", "재개할 때 실행된 노드", "재개 뒤 체크포인트"],
                          crashes),
        crash_note=" ".join(notes), durability=_durability(r), trap=_trap(r))

def _durability(r: dict) -> str:
    counts, failed = r["durability"], r["failed"]
    if counts is None:
        f = failed["default"]
        return NO_DURABILITY.substitute(version=r["versions"]["langgraph"], checkpoints=f["checkpoints"],
                                        next=nodes(f["next"]), ran=nodes(f["ran_on_resume"]))
    killed = {m: r["demos"].get(k) for m, k in (("exit", "mode:exit"), ("async", "mode:async"),
                                                ("sync", "crash:sqlite"))}
    rows = [[lit(mode), counts[mode], failed[mode]["checkpoints"], k["checkpoints_after_crash"] if k else "—",
             nodes(k["ran_on_resume"]) if k else "—"] for mode, k in killed.items()]
    return DURABILITY.substitute(
        modes_table=table(["모드", "끝까지 실행", "예외로 실패", "SIGKILL 뒤 찾음", "SIGKILL 뒤 재개한 노드"], rows),
        exit_failed=failed["exit"]["checkpoints"], exit_next=nodes(failed["exit"]["next"]),
        exit_ran=nodes(failed["exit"]["ran_on_resume"]),
        exit_killed=killed["exit"]["checkpoints_after_crash"] if killed["exit"] else "—")

def _trap(r: dict) -> str:
    t = r["demos"].get("trap")
    if t is None:
        return _missing(r, "sqlite", "이 절은 자식 프로세스가 SQLite 파일에 남긴 스레드를 새 saver가 읽은 결과다", "이 절의 값은").strip()
    hidden = not t["next_after_crash"]
    return TRAP.substitute(
        history_next=", ".join(lit(x[0]) if x else "(끝)" for x in t["history_next"]),
        looks_done="비어 있어 실행이 끝난 것처럼 보인다" if hidden else "비어 있지 않다", task=lit(t["pending_after_crash"]),
        writes=t["pending_writes"], channels=", ".join(map(lit, t["pending_channels"])), ran=nodes(t["ran_on_resume"]),
        after_resume=t["checkpoints_after_resume"],
        skipped="" if "plan" in t["ran_on_resume"] else "(`plan`은 다시 실행되지 않았다) ",
        same=yes(t["result"] == r["demos"]["restart:sqlite"]["values_after_restart"]),
        misread=" `next`만 믿으면 끝난 실행으로 잘못 읽는다." if hidden else "")

def render(report: dict) -> str:
    s, r = report["summary"], report
    header = HEADER.substitute(versions=", ".join(f"{k} {v}" for k, v in r["versions"].items()), topic=code(s["topic"]),
                               payload_bytes=n(r["weigh"]["payload_bytes"]), fork_angle=lit(s["fork_angle"]))
    parts = [header, SAVED.substitute(saved_fields(r)), TRAVEL.substitute(travel_fields(r, s)),
             SIZE.substitute(size_fields(r)), GROWTH.substitute(growth_fields(r)), LOST.substitute(lost_fields(r, s))]
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(parts)).rstrip("\n") + "\n"

# ---- Writing: both files atomically, only after everything was measured. ----
def write_report(report: dict, folder: str) -> tuple:
    """Write ckpt_report.json (the summary) and ckpt_report.md atomically, rendering both first."""
    texts = {JSON_NAME: json.dumps(report["summary"], ensure_ascii=False, indent=2) + "\n", MD_NAME: render(report)}
    umask = os.umask(0)
    os.umask(umask)
    for name, text in texts.items():
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=name, dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.chmod(tmp, 0o666 & ~umask)  # subtle: mkstemp makes 0600; a report is an ordinary file
            os.replace(tmp, os.path.join(folder, name))
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    return os.path.join(folder, JSON_NAME), os.path.join(folder, MD_NAME)

def default_out_dir() -> str:
    """Next to ckpt.py, where the lab expects the report, unless ckpt.py is an installed copy: the current folder."""
    here = os.path.dirname(os.path.abspath(ckpt.__file__))
    installed = {os.path.abspath(sysconfig.get_path(name)) for name in ("purelib", "platlib")}
    return os.getcwd() if os.path.basename(here) in ("site-packages", "dist-packages") or here in installed else here

# ---- The command line. ----
def parser(out_dir: str = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="make_report.py",
                                description="Run ckpt.py live and write ckpt_report.json and ckpt_report.md.")
    p.add_argument("--topic", default="가을", help="the topic to run the graph on (default: %(default)s)")
    p.add_argument("--payload-bytes", type=int, default=1500, metavar="N", help=f"size of the value put into 'bulk': "
                   f"N 'x' characters, {MIN_PAYLOAD} to {MAX_PAYLOAD:,} (default: %(default)s)")
    p.add_argument("--fork-angle", default="비교",
                   help=f"angle to fork with before 'write': one of {FORK_ANGLES} (default: %(default)s)")
    p.add_argument("--postgres-url", default=os.environ.get("AGCKPT_PG_URL") or None, metavar="URL",
                   help="also measure a PostgreSQL saver at this libpq URL (default: $AGCKPT_PG_URL, else none)")
    p.add_argument("--out-dir", default=out_dir or default_out_dir(), help="folder to write both files into, created when "
                   "missing (default: the folder of ckpt.py; the current folder for an installed copy or agckpt-report)")
    return p

def _check_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors, all through the parser: one message, exit status 2."""
    if not MIN_PAYLOAD <= args.payload_bytes <= MAX_PAYLOAD:
        p.error(f"--payload-bytes must be at least {MIN_PAYLOAD} and at most {MAX_PAYLOAD:,}, got {args.payload_bytes}")
    try:
        ckpt.check_value(args.topic, "topic", "postgres" if args.postgres_url else None)
    except (TypeError, ValueError) as exc:
        p.error(f"--topic: {exc}")
    if args.fork_angle not in FORK_ANGLES:
        p.error(f"--fork-angle must be one of {FORK_ANGLES}, got {args.fork_angle!r}")
    try:
        if args.postgres_url:
            with ckpt.open_saver("postgres", args.postgres_url):
                pass
    except (ImportError, ConnectionError, ValueError, RuntimeError) as exc:
        p.error(f"--postgres-url: {exc}")
    if os.path.exists(args.out_dir) and not os.path.isdir(args.out_dir):
        p.error(f"--out-dir {args.out_dir!r} is a file, not a folder")
    try:  # last: a usage error above leaves no new folder behind
        os.makedirs(args.out_dir, exist_ok=True)
    except OSError as exc:
        p.error(f"--out-dir {args.out_dir!r} cannot be created: {exc.strerror}")
    if not os.access(args.out_dir, os.W_OK | os.X_OK):
        p.error(f"--out-dir {args.out_dir!r} cannot be written")

def main(argv=None, out_dir: str = None) -> int:
    """Measure and write both files; `out_dir` replaces the default of --out-dir. Returns 0."""
    p, argv, i = parser(out_dir), list(sys.argv[1:] if argv is None else argv), 0
    while i < len(argv) - 1:  # subtle: argparse takes "--topic ---" for two options
        if argv[i] == "--topic":
            argv[i:i + 2] = [f"--topic={argv[i + 1]}"]
        i += 1
    args = p.parse_args(argv)
    _check_args(p, args)
    for path in write_report(measure(args.topic, args.payload_bytes, args.fork_angle, args.postgres_url), args.out_dir):
        print(f"wrote {path}")
    return 0

def run(out_dir: str = None) -> None:
    """main() as a command: exits 0, 2 on a usage error, 130 after Ctrl-C. subtle: after Ctrl-C it leaves through os._exit
    once the cleanup has run: an interrupted LangGraph run can leave a worker thread Python's exit would wait for."""
    try:
        status = main(out_dir=out_dir)
    except KeyboardInterrupt:
        print("make_report.py: interrupted", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)
    sys.exit(status)

def cli() -> None:
    """The agckpt-report command: writes into the current folder unless --out-dir says otherwise."""
    run(out_dir=os.getcwd())

if __name__ == "__main__":
    run()
