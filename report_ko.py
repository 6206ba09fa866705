"""The words of ckpt_report.md, in Korean: one template per section, filled by make_report.py.

A template's lines are the document's paragraphs, headings and blocks (a line ending in a backslash goes on).
$name is a value make_report fills in; {을/를}, {이/가}, {은/는}, {과/와}, {으로/로}, {이다/다} after a value is
the postposition that fits the word before it, chosen by particles() once the template is filled.
"""
import re
from string import Template


def doc(text: str) -> Template:
    """A template whose lines are the document's paragraphs, headings and blocks, a blank line between each two."""
    return Template("\n\n".join(text.replace("\\\n", "").splitlines()))


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
    word = word.lower()  # an English word by its Korean reading: angle 앵글, prune 프룬, name 네임, plan 플랜
    for ending, final in (("le", 8), ("ne", 4), ("me", 16), ("ng", 21), ("l", 8), ("m", 16), ("n", 4)):
        if word.endswith(ending):
            return final
    return 0


def particles(text: str) -> str:
    """`text` with each {을/를}-style mark replaced by the form that fits what comes before it."""
    def choose(match: "re.Match") -> str:
        with_final, without = match.group(1).split("/")
        final = final_consonant(text[:match.start()])
        if with_final == "으로":
            return "로" if final in (0, 8) else "으로"
        return with_final if final else without
    return re.sub(r"\{(" + "|".join(PAIRS) + r")\}", choose, text)


# ---- The sections. ----
HEADER = doc("""\
# 체크포인트 실험 보고서
$setting_table
이 보고서의 수치는 모두 위 환경에서 `ckpt.py`를 실제로 실행해 얻었다. "참고"로 시작하는 문단만 예외다. 그런 문단의 값은 이 실행 \
밖에서 잰 것이고, 어디서 쟀는지 함께 적었다.
## 무엇이 저장되는가
### 먼저, 짧은 그림
LangGraph 그래프를 컴파일할 때 checkpointer를 넘기면 실행하는 동안 상태가 저장된다. 이 보고서는 그 checkpointer 객체를 saver라고 \
부른다. saver가 값을 담아 두는 곳(메모리, SQLite 파일, PostgreSQL 데이터베이스)은 저장소라고 부른다.
- **스레드(thread)**는 `thread_id` 하나로 묶인 실행 기록이다. `thread_id`는 config에 `{"configurable": {"thread_id": ...}}` 꼴로 \
넣는다.
- **super-step**은 그래프가 한 번에 실행하는 단계다. 이 실습의 그래프는 노드 $node_count개($node_chain)가 한 줄로 이어져 있어서, 한 \
단계에 노드가 하나씩 실행된다.
- **체크포인트(checkpoint)**는 단계마다 저장되는 상태 전체의 사진이다. 이 실행에서 그래프를 한 번 돌리자 체크포인트가 $per_run개 \
남았다. 입력을 받을 때 하나, 입력이 상태에 옮겨진 뒤 하나, 그리고 노드가 끝날 때마다 하나다.
- 같은 스레드로 다시 실행하면 **이어서 실행**된다. 새 입력이 마지막 상태 위에 더해진다.
- **되감기(replay)**는 과거 체크포인트의 config로 `invoke(None, config)`를 부르는 것이다. 그 지점의 값에서 다시 출발해 뒤의 노드를 \
다시 실행한다.
- **분기(fork)**는 과거 체크포인트에 `update_state`로 값을 바꿔 쓰고, 돌려받은 config로 이어서 실행하는 것이다. 원래 기록은 그대로 \
남고 새 가지가 생긴다.
### 용어
참고: 용어의 뜻은 LangGraph 문서와 langgraph-checkpoint 소스의 설명을 따랐다. 이 실행이 잰 값이 아니다. 오른쪽 열은 그 용어가 이 \
보고서에서 처음 쓰이는 곳이다.
$glossary_table
""")
GLOSSARY = [
    ("채널(channel)", "체크포인트 안에서 값 하나가 담기는 칸. 상태의 키마다 하나씩 있고, 그래프가 안에서 쓰는 칸도 있다.",
     "체크포인트 하나를 열어 보면"),
    ("`__start__`", "입력을 받는 시작 노드와 그 채널. 입력 체크포인트의 다음 노드가 이것이다.", "한 번 실행하면"),
    ("`__input__`", "`versions_seen`에 나오는 내부 항목. 이 실행에서는 비어 있다(—).", "체크포인트 하나를 열어 보면"),
    ("`branch:to:<노드>`", "다음 단계에 그 노드를 실행하라는 표시를 담는 내부 채널.", "체크포인트 하나를 열어 보면"),
    ("`versions_seen`", "노드마다, 지난번 실행될 때 본 채널 버전. 지금 버전과 비교해 다음에 실행할 노드를 정한다.",
     "체크포인트 하나를 열어 보면"),
    ("reducer", "키에 새 값이 쓰일 때 기존 값과 합치는 함수. 이 그래프의 `notes`는 목록을 이어 붙인다.", "되감기와 분기는 어떻게 다른가"),
    ("source", "체크포인트가 생긴 경위(`metadata.source`). input, loop, update, fork 가운데 하나다.", "되감기와 분기는 어떻게 다른가"),
    ("blob", "saver가 채널 값을 체크포인트와 따로, 값의 버전마다 한 번 담아 두는 칸.", "논리 바이트와 실제로 저장된 바이트"),
    ("대기 중인 쓰기(pending writes)", "한 단계 안에서 이미 끝난 노드가 쓴 값. 다음 체크포인트가 저장되기 전까지 따로 저장된다.",
     "논리 바이트와 실제로 저장된 바이트"),
    ("store", "체크포인트 밖에서 키로 값을 보관하는 LangGraph의 저장소.", "줄이는 방법과 그 대가"),
    ("durability", "체크포인트를 언제 저장소에 쓸지 정하는 `invoke`의 설정.", "저장 시점(durability)"),
    ("SIGKILL", "프로세스를 그 자리에서 끝내는 신호. 받은 프로세스는 정리 작업을 하지 못한다.", "크래시"),
]
MISTAKES = doc("""\
### 실습이 꼽는 실수 네 가지
실습 설명이 꼽는 흔한 실수를 하나씩 그대로 해 보았다. 무엇이 잘못되는지는 아래 절들에서 더 자세히 다룬다.
$mistakes_table
""")
SAVED = doc("""\
### 한 번 실행하면
그래프를 한 번 실행하면 체크포인트가 $per_run개 남는다. 아래 표는 오래된 것부터 적었다.$newest_first "단계"는 super-step의 번호이고, \
"바이트"는 그 순간의 상태 전체를 JSON으로 잰 크기다.
$rows_table
체크포인트마다 다음 노드만 모으면(`pending()`) $pending 순서다. 기본 실행의 점수(`base_score`)는 초안 $base_draft의 글자 수로 \
$base_score점이다.
같은 `thread_id`(`t1`)로 한 번 더 실행하면 저장된 상태 위에서 이어진다. `notes`가 $notes_first개에서 $notes_second개로 늘고, 체크포인트는 \
$same_checkpoints개가 된다. 그다음 다른 `thread_id`(`t2`)로 실행하면 빈 상태에서 시작한다. `notes`는 $other_notes개이고, 그 스레드의 \
체크포인트는 $other_checkpoints개다.
checkpointer 없이 컴파일한 그래프는 아무것도 남기지 않는다. 같은 config로 두 번 실행해도 `notes`는 $bare_first개, $bare_second개로 매번 \
처음부터다. 그 그래프에 `get_state`를 부르면 예외가 난다($bare_error).
### 체크포인트 하나를 열어 보면
마지막 체크포인트를 saver에서 직접 꺼냈다(`checkpointer.get_tuple(config)`). saver가 돌려준 필드를 모두 적되, 두 가지는 바꿔 적었다. \
채널 값은 값 대신 바이트 수를 적었다. 채널 버전은 실행마다 달라지는 뒷부분을 떼고 앞의 카운터만 적었다.
참고: "뜻" 열은 이 실행이 잰 값이 아니다. langgraph-checkpoint 소스에 있는 `Checkpoint`와 `CheckpointMetadata`의 주석을 바탕으로 이 \
보고서가 풀어 쓴 것이다. `parent_config`와 `pending_writes`는 그런 주석이 없어 이 보고서가 설명을 붙였다.
$anatomy_table
""")
TRAVEL = doc("""\
## 되감기와 분기는 어떻게 다른가
되감기(replay)는 과거 체크포인트의 config로 `invoke(None, config)`를 부르는 것이다. 노드마다 그 앞 지점에서 되감아 보았다. 매번 새 \
saver에서 한 번 실행한 뒤 되감았고, 노드 함수가 불릴 때마다 이름을 적어 다시 실행된 노드를 셌다.
$replay_table
source는 체크포인트가 생긴 경위다(`metadata.source`). $replay_note
되감기는 노드 함수를 정말로 다시 부른다. `write` 앞에서 되감자 $write_ran{이/가} 한 번씩 더 불렸다. 노드 안에서 모델을 부르거나 메일을 보낸다면, \
되감을 때 그 호출과 메일도 다시 일어난다.
되감을 때 `None` 대신 입력을 주면 되감기가 아니다. `write` 앞 지점의 config로 `invoke(input, config)`를 부르며 input에 \
$rerun_input{을/를} 주자 $rerun_ran{이/가} 다시 실행됐고 체크포인트가 $rerun_added개 늘었다. 그 지점에 저장된 값 위에서 처음부터 다시 \
시작한 것이다. reducer(새 값을 기존 값에 합치는 함수)가 붙은 `notes`는 $rerun_notes{이/가} 됐다.
분기(fork)는 과거 지점의 값을 바꿔 다른 길로 가는 것이다. `write` 앞 지점의 스냅샷으로 `update_state(snapshot.config, values)`를 부르며 \
values에 $fork_values{을/를} 주어 새 체크포인트를 만들었다. 그리고 `update_state`가 돌려준 config로 `invoke(None, config)`를 불러 이어서 \
실행했다. 체크포인트는 $fork_before개에서 $fork_total개가 됐다.
$fork_table
$fork_ends
### `update_state`가 실제로 하는 일
`update_state`는 값을 그냥 덮어쓰지 않는다. 그 지점에서 방금 끝난 노드가 쓴 것처럼, reducer를 거쳐 새 체크포인트를 하나 쓴다. 한 번 \
실행한 새 스레드의 `write` 앞 지점에 `{"notes": ["replaced"]}`를 주자 `notes`는 $reducer_notes{이/가} 됐다. 새 체크포인트의 source는 \
$reducer_source{이고/고} 다음 노드는 $reducer_next{이다/다}.
실습이 꼽는 실수가 여기서 나온다. `update_state`가 돌려준 config를 버리고 원래 지점의 config로 `invoke(None, config)`를 부르는 것이다. \
`write` 앞 지점에 $update_values{을/를} 쓰고 그 지점의 원래 config로 이어서 실행하자 초안은 $old_draft, 점수는 \
$old_score점이었다. 바꾸지 않은 것과 같다. 스레드의 체크포인트는 $old_checkpoints개가 됐고, `angle`{을/를} $update_angle{으로/로} \
바꾼 체크포인트는 이어받는 실행 없이 남았다.
체크포인트 id가 든 config는 그 체크포인트 하나를 가리킨다. `update_state`가 돌려준 config로 `get_state_history`를 부르면 \
체크포인트가 $named_lists개 나온다.
끝난 스레드에 스레드의 config로 `invoke(None, config)`를 부르자 $finished_ran, 체크포인트는 $finished_added개 늘었다. 마지막 체크포인트의 \
config로 되감자 $end_ran, 체크포인트는 $end_added개 늘었다.
`thread_id`에 정수 1을 주고 실행한 뒤 읽으면, 정수 1로는 체크포인트가 $int_id개, 문자열 `"1"`로는 $str_id개 나온다. $same_thread
### 체크포인트는 어디서 왔나
한 스레드에서 한 번 실행하고, `write` 앞에서 되감고, 다시 `write` 앞에서 분기했다. 체크포인트마다 source를 오래된 것부터 읽으면 \
$sources{이다/다}. 모두 세면 $source_counts{이다/다}. 부모 관계대로 그리면 아래와 같다. 점 하나가 체크포인트 하나이고, 선은 처음 실행, \
되감기, 분기다. 강조한 점은 source가 $highlighted인 체크포인트다. 되감기도 분기처럼 새 가지를 만든다.
$gitgraph
분기의 첫 체크포인트($branch)는 $branch_parent에서 갈라진다. `snapshot_before`가 다음 노드가 `write`인 체크포인트 가운데 가장 최근 \
것을 고르기 때문이다.$source_names
""")
REPLAY_FORK = doc("""\
이 langgraph에서는 되감으면 체크포인트가 다시 실행한 노드 수보다 하나 더 는다. 늘어난 것 가운데 첫 번째는 source가 `fork`인 \
체크포인트다. 이름은 같지만, 이 보고서가 말하는 분기(아래)가 남기는 체크포인트의 source는 `update`다.
참고: langgraph 0.2.60에서는 `fork` 체크포인트 없이 plan·write·review 앞에서 3·2·1개가 는다. 이 실행이 아니라 `make test`가 \
langgraph 0.2.60 환경에서 확인하는 값이다.""")
REPLAY_PLAIN = doc("""\
이 langgraph에서는 되감으면 체크포인트가 다시 실행한 노드 수만큼 는다.
참고: langgraph 1.2.24에서는 되감기가 먼저 source가 `fork`인 체크포인트를 하나 써서 4·3·2개가 는다. 이 실행이 아니라 \
`make test`가 langgraph 1.2.24 환경에서 확인하는 값이다.""")
SIZE = doc("""\
## 크기로 잰 것
상태를 `json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)`로 직렬화해 UTF-8 바이트를 셌다. 한 번은 `bulk` 없이(thin), \
한 번은 `bulk`에 $payload_bytes바이트 값을 넣고(fat) 실행했다. 두 실행 모두 새 saver에서 했다.
$size_table
$thin_chart
$fat_chart
스냅샷의 값(`values`)으로 세면 체크포인트 $checkpoints개 가운데 $carrying개가 그 값을 싣고 있다. 한 번 넣은 값이 상태로는 $carrying번 \
세어진다. fat 합계에서 thin 합계를 빼면 $fat_total − $thin_total = $difference바이트다.$equation 저장소에 실제로 들어간 사본 수는 \
이와 다르다. 아래 "논리 바이트와 실제로 저장된 바이트"에서 저장소를 직접 읽어 쟀다.
### 페이로드 크기를 바꿔 가며
같은 그래프를 `bulk`의 크기만 같은 간격으로 바꿔 가며 `weigh`로 쟀다.
$sweep_table
$sweep_chart
$slope
### 논리 바이트와 실제로 저장된 바이트
위의 바이트는 논리적인 값이다. 체크포인트마다 상태 전체를 JSON으로 셌다. saver가 실제로 보관하는 바이트는 다르다. 같은 두 실행(thin, \
fat)을 saver마다 다시 하고, 저장소를 직접 읽어 직렬화된 값의 바이트를 셌다. 키, 인덱스, 행 헤더는 세지 않았다. "사본"은 저장 바이트의 \
차이를 페이로드 바이트로 나눈 값으로, 페이로드 몇 개 분량인지를 뜻한다.
$physical_tables
$missing_sqlite
채널 버전 문자열의 뒷부분은 saver가 무작위 수로 만든다. 실행마다 바이트가 같도록, 이 측정에서는 그 무작위 수를 고정된 씨앗(seed 0)으로 \
뽑았다.
그 차이가 어디에 쌓였는지 saver의 부분별로 나누었다(fat − thin, 바이트, `"x"` 페이로드). 괄호 안은 페이로드 몇 개 분량인지다.
$parts_table
$parts_said
$placement
""")
GROWTH = doc("""\
### 노드가 늘면
`write`와 `review` 사이에 통과 단계(아무 값도 쓰지 않고 상태를 그대로 넘기는 노드)를 넣어 노드 $chain_nodes의 사슬을 만들었다. 그리고 위의 \
thin·fat 두 실행을 saver마다 다시 했다. 노드 $lab_nodes개는 위 표의 실행이다.
$chain_table
$missing
$chain_chart
실습 설명은 “노드가 서른 개면 한 번 넣은 값이 거의 서른 번 저장된다”고 한다. 노드 $most개에서 값을 상태에 실은 체크포인트는 $most_carrying개다.$claim
### 턴이 늘면
한 스레드에서 그래프를 $turns번 이어서 실행하며(한 번이 한 턴) 턴마다 saver가 그 스레드에 보관한 바이트를 셌다. `notes`와 상태 전체는 \
마지막 체크포인트의 바이트다(메모리 saver).
$turn_table
$turn_chart
처음 $ten턴과 마지막 $ten턴($last_range턴)에 늘어난 바이트는 $grown.$pace 늘어나는 것은 `notes` 목록이다. $first_turn턴 뒤 \
$first_notes바이트, $last_turn턴 뒤 $last_notes바이트이고, 상태의 나머지는 $rest. 체크포인트마다 그때까지의 `notes` 전체가 저장된다.
### 줄이는 방법과 그 대가
**큰 값은 store에, 상태에는 키만.** store는 체크포인트 밖에서 키로 값을 보관하는 LangGraph의 저장소다(여기서는 `InMemoryStore`). \
페이로드를 store에 넣고 상태의 `bulk`에는 그 키만 넣은 실행을, 값을 상태에 넣은 실행과 나란히 새 메모리 saver로 쟀다(바이트). store는 \
값을 한 번, $store바이트로 보관한다.
$pointer_table
참고: 대가가 있다. 값이 체크포인트 밖에 있으므로 되감기와 분기는 그 값을 되살리지 않는다. store의 값이 바뀐 뒤 되감으면 상태에는 \
키만 돌아오고, 그 키는 바뀐 값을 가리킨다. `delete_thread`도 store의 값은 지우지 않으므로 store는 따로 정리해야 한다. 이 실행이 아니라 \
`make test`가 langgraph 0.2.60과 1.2.24 환경에서 확인하는 동작이다.
**`notes`를 `DeltaChannel`로.** $delta
**지우기와 가지치기.** `delete_thread(thread_id)`는 스레드의 체크포인트를 모두 지운다. prune(가지치기)은 일부만 남기고 나머지 \
체크포인트를 지우는 saver 메서드다. `prune(thread_ids, strategy="keep_latest")`{은/는} 스레드마다 마지막 것만 남긴다. 스레드를 두 번 실행한 \
뒤 saver마다 `prune`{을/를} 부르고, 이어서 `delete_thread`를 불렀다.
$prune_table
$prune_note
참고: PostgreSQL saver(langgraph-checkpoint-postgres 3.2.0)에서는 `prune`이 된다. 두 번 실행한 스레드의 체크포인트가 10개에서 \
1개로 줄고, 그 뒤 `write` 앞에서 되감으면 `ValueError`로 실패한다. langgraph 0.2.60 환경의 PostgreSQL saver에는 `prune`이 없다. 이 \
실행이 아니라 `make test`가 두 환경에서 확인한다.
""")
DELTA = doc("""\
`DeltaChannel`은 `langgraph.channels`의 베타 채널이다(langgraph 소스의 설명이 API와 저장 형식이 바뀔 수 있다고 적는다). 체크포인트에 \
목록 대신 표시만 남기고, 읽을 때 앞 체크포인트들의 쓰기로 목록을 다시 만든다. `notes`를 이 채널로 바꿔 $turns턴을 다시 \
실행했다(메모리 saver). 저장 바이트는 $twenty턴 뒤 $delta_20바이트, $forty턴 뒤 $delta_40바이트다. 일반 실행은 $plain_20바이트, \
$plain_40바이트였다. $twenty턴에서 $forty턴 사이에 $delta_doubled배가 됐고(일반 $plain_doubled배), 마지막 $ten턴에 쌓인 바이트는 처음 \
$ten턴의 $delta_ratio배다(일반 $plain_ratio배). 매 턴의 상태는 두 실행에서 $same.""")
NO_DELTA = doc("""\
설치된 langgraph $version에는 `DeltaChannel`이 없어서(`langgraph.channels`에서 가져오면 `$error`) 재지 않았다.
참고: `DeltaChannel`은 langgraph 1.2.0에서 처음 나왔다. 2026-12-01에 PyPI의 langgraph 1.1.10과 1.2.0 wheel에서 \
`langgraph/channels/__init__.py`를 읽어 확인했다(1.1.10에는 없고 1.2.0에는 있다).""")
LOST = doc("""\
## 사라지는 것
메모리 saver로 `run-1` 스레드를 한 번 실행하면 체크포인트가 $kept개 남는다. 새 saver로 그래프를 다시 만들고(프로세스 재시작을 흉내 낸 \
것) 같은 `thread_id`를 물으면 체크포인트가 $after_restart개다. $values_after 오류는 나지 않는다. 손실은 조용히 \
일어난다(`survives_restart` = `$survives`).
### 진짜 재시작
이번에는 진짜 자식 프로세스가 스레드를 실행했다. 자식은 지금 쓰는 파이썬으로 새로 띄운 프로세스라서, 이 프로세스와 메모리를 나누지 않는다. \
자식이 끝난 다음, 이 프로세스에서 새 saver를 열어 같은 저장소를 읽었다.
$restart_table
$missing_sqlite_restart
### 저장 시점(durability)
$durability
### 크래시
크래시는 자식 프로세스가 `review` 안에서 스스로 SIGKILL을 받아 정리 작업 없이 죽는 것이다. 그 뒤 이 프로세스에서 새 saver로 저장소를 \
읽었다.$resumed
$crash_table
$steady
$crash_note
$modes_killed
$spread
### 다음 노드(`next`)가 숨기는 크래시
$trap
""")
DURABILITY = doc("""\
durability는 `invoke`에 주는 설정으로, 체크포인트를 언제 저장소에 쓸지 정한다. 모드마다 새 메모리 saver로 그래프를 끝까지 실행하고, \
또 `review`가 예외를 던져 실패하게 해 보았다.
$modes_table
참고: 세 모드의 뜻은 LangGraph 문서의 설명이다. `exit`는 실행이 끝날 때 한 번, `async`는 다음 단계를 실행하는 동안 뒤에서, `sync`는 \
다음 단계로 가기 전에 쓴다.
`exit`{은/는} 끝까지 실행해도 체크포인트를 $exit_done개만 남긴다. 예외로 실패할 때도 멈춘 지점의 체크포인트 $exit_failed개를 남기고(다음 노드 \
$exit_next), 재개하면 $exit_ran만 실행된다.""")
NO_DURABILITY = doc("""\
durability는 체크포인트를 언제 저장소에 쓸지 정하는 `invoke`의 설정이다. 설치된 langgraph $version에는 이 설정이 없다. \
`durability="sync"`를 주자 `invoke`가 오류를 냈다($error). 이 langgraph에서 `review`가 예외를 던져 실패하면 체크포인트 $checkpoints개가 \
남고 다음 노드는 $next{이다/다}. 재개하면 $ran만 실행된다.
참고: langgraph 1.2.24에서는 `exit`·`async`·`sync`가 끝까지 실행한 뒤 체크포인트를 1·5·5개, `review`가 예외로 실패한 뒤 1·4·4개 \
남긴다. 이 실행이 아니라 `make test`가 langgraph 1.2.24 환경에서 확인하는 값이다.""")
SPREAD = doc("""\
참고: 기다리게 하지 않고 `review`가 시작하자마자 죽이면, 남는 체크포인트 수가 실행마다 다를 수 있다. 이 보고서는 매번 같은 값만 \
싣기 때문에 그 경우는 `make bench`로 따로 쟀다. 2026-12-01에 2코어 기계에서 SQLite saver로 20번씩 죽인 결과, langgraph 1.2.24에서는 \
`exit` 0개(20번 모두), `async` 1개(20번 모두), `sync` 4개(20번 모두)가 남았고, langgraph 0.2.60에서는 1개(20번 모두)가 남았다. \
`sync`만 기다림 없이도 4개를 남겼다. langgraph 0.2.60에서 그래프를 돌리는 기계라면, 크래시 뒤에 남는 것은 이 표보다 적을 수 있다.""")
TRAP = doc("""\
이 절의 크래시는 일부러 만든 것이다. 자식 프로세스에서 saver의 `put`(체크포인트를 저장하는 메서드)을 붙잡아 두어, `plan`이 끝난 뒤의 \
체크포인트가 저장되지 않게 했다. `plan`의 쓰기는 대기 중인 쓰기(pending writes)로 저장됐다. 그다음 `write`가 SIGKILL로 죽었다. 크래시가 \
뒤에서 하던 저장을 앞지른 상태를 흉내 낸 것이고, 이런 상태가 저절로 얼마나 자주 생기는지는 재지 않았다.
새 saver로 기록의 다음 노드를 오래된 것부터 읽으면 $history_next{이다/다}. `plan`이 아직 남은 것처럼 보인다. 그런데 \
`get_state(config).next`는 $looks_done 다음 노드 대신 읽을 것은 스냅샷의 `tasks`와 대기 중인 쓰기다. 마지막 스냅샷의 `tasks`에는 \
$task{이/가} 있고, 이미 끝난 그 작업의 쓰기 $writes개($channels)가 저장돼 있다.
스레드의 config로 `invoke(None, config)`를 불러 재개하자 $ran만 실행됐다.$skipped 체크포인트는 $after_resume개가 됐다. $rule""")
CHECKED = doc("""\
### 이 실행이 확인한 것
보고서 전체에서, 본문의 문장 가운데 예·아니오로 답하는 것들을 이 실행에서 확인한 결과다.
$checked_table
""")
FIELD_PURPOSES = {  # what each field a langgraph version may write is for, in the table's order
    "checkpoint.v": "체크포인트 구조 자체의 형식 버전",
    "checkpoint.id": "이 체크포인트의 id. 고유하고 시간 순서대로 커진다(config의 checkpoint_id)",
    "checkpoint.ts": "체크포인트를 쓴 시각",
    "checkpoint.channel_values": "채널마다의 값. 상태의 키와 그래프 내부 채널(여기서는 채널별 바이트)",
    "checkpoint.channel_versions": "채널마다의 현재 버전. 그 채널에 새 값이 쓰일 때마다 커지는 번호다",
    "checkpoint.versions_seen": "노드마다, 지난번 실행될 때 본 채널 버전. 다음에 실행할 노드를 정하는 데 쓴다",
    "checkpoint.pending_sends": "아직 실행되지 않은 Send 작업(동적 분기)",
    "checkpoint.updated_channels": "이 체크포인트를 만든 단계가 쓴 채널",
    "metadata.source": "체크포인트가 생긴 경위: input, loop, update, fork",
    "metadata.step": "super-step 번호. 입력은 -1, 그 뒤로 0, 1, 2, …",
    "metadata.parents": "부모 그래프(서브그래프)의 체크포인트 id. 최상위 그래프에서는 {}",
    "metadata.writes": "이 체크포인트를 만든 단계에서 각 노드가 쓴 값",
    "metadata.thread_id": "config에서 옮겨 적은 thread_id",
    "metadata.run_id": "이 체크포인트를 만든 실행의 id",
    "parent_config": "부모 체크포인트의 config. 스레드를 거슬러 올라가는 사슬이다",
    "pending_writes": "이 체크포인트 다음 단계에서 이미 끝난 노드의 쓰기. 저장됐지만 아직 체크포인트에 반영되지 않았다",
}
