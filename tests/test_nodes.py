"""Step 1 of the lab: ANGLES, State and the three nodes, called directly with plain dicts."""
import operator
import typing

import pytest

import ckpt

ODD_TOPIC = 'a/b "q" \'s\'\n🍂'  # a slash, both quotes, a newline and an emoji


def test_angles_are_the_three_published_repeat_counts():
    assert ckpt.ANGLES == {"기본": 1, "요약": 2, "비교": 3}, ckpt.ANGLES


def test_state_has_the_contract_keys_and_only_notes_has_a_reducer():
    hints = typing.get_type_hints(ckpt.State, include_extras=True)
    assert set(hints) == {"topic", "angle", "draft", "stage", "score", "notes", "bulk"}, hints
    assert (hints["topic"], hints["angle"], hints["draft"], hints["stage"], hints["score"]) == (
        str, str, str, str, int), hints
    reducers = {k: h.__metadata__ for k, h in hints.items() if hasattr(h, "__metadata__")}
    assert reducers == {"notes": (operator.add,)}, reducers
    assert typing.get_args(hints["notes"])[0] == list[str], hints["notes"]


@pytest.mark.parametrize("state", [{"topic": "가을"}, {"topic": "가을", "angle": ""}],
                         ids=["missing", "empty"])
def test_plan_defaults_the_angle_to_gibon_when_missing_or_empty(state):
    got = ckpt.plan(state)
    assert got == {"stage": "plan", "angle": "기본", "notes": ["plan:가을"]}, got


@pytest.mark.parametrize("angle", sorted(ckpt.ANGLES))
def test_plan_keeps_the_states_angle(angle):
    got = ckpt.plan({"topic": "가을", "angle": angle})
    assert got == {"stage": "plan", "angle": angle, "notes": ["plan:가을"]}, got


@pytest.mark.parametrize("angle, draft", [
    ("기본", "가을/기본"),
    ("요약", "가을/요약 가을/요약"),
    ("비교", "가을/비교 가을/비교 가을/비교"),
])
def test_write_repeats_topic_and_angle_as_many_times_as_the_angle_says(angle, draft):
    got = ckpt.write({"topic": "가을", "angle": angle})
    assert got == {"draft": draft, "stage": "write", "notes": [f"write:{angle}"]}, got


def test_write_strips_the_whole_string_so_the_topics_outer_spaces_go_and_inner_ones_stay():
    got = ckpt.write({"topic": "  가을  ", "angle": "요약"})
    # ("  가을  /요약 " * 2).strip(): the leading two and the trailing one go
    assert got["draft"] == "가을  /요약   가을  /요약", got


def test_write_with_an_empty_topic_keeps_only_slash_and_angle():
    assert ckpt.write({"topic": "", "angle": "기본"})["draft"] == "/기본"
    assert ckpt.write({"topic": "", "angle": "비교"})["draft"] == "/비교 /비교 /비교"


@pytest.mark.parametrize("angle, draft", [
    ("기본", 'a/b "q" \'s\'\n🍂/기본'),
    ("요약", 'a/b "q" \'s\'\n🍂/요약 a/b "q" \'s\'\n🍂/요약'),
    ("비교", 'a/b "q" \'s\'\n🍂/비교 a/b "q" \'s\'\n🍂/비교 a/b "q" \'s\'\n🍂/비교'),
])
def test_write_keeps_slash_quotes_newline_and_emoji_of_the_topic(angle, draft):
    got = ckpt.write({"topic": ODD_TOPIC, "angle": angle})
    assert got == {"draft": draft, "stage": "write", "notes": [f"write:{angle}"]}, got


def test_plan_notes_carry_the_topic_as_given():
    assert ckpt.plan({"topic": ""})["notes"] == ["plan:"]
    assert ckpt.plan({"topic": "  가을  "})["notes"] == ["plan:  가을  "]
    assert ckpt.plan({"topic": ODD_TOPIC})["notes"] == [f"plan:{ODD_TOPIC}"]


@pytest.mark.parametrize("draft, score", [
    ("가을/기본", 5),
    ("가을/요약 가을/요약", 11),
    ("가을/비교 가을/비교 가을/비교", 17),
    ("/기본", 3),
    ("🍂/기본", 4),  # one emoji is one character (4 bytes in UTF-8)
    (f"{ODD_TOPIC}/기본", 16),  # 13 characters of topic (the emoji is one), then "/기본"
])
def test_review_scores_the_draft_by_its_length_in_characters(draft, score):
    got = ckpt.review({"draft": draft})
    assert got == {"stage": "review", "score": score, "notes": [f"review:{score}"]}, got


@pytest.mark.parametrize("angle, draft, score", [
    ("기본", "가을  /기본", 7),
    ("요약", "가을  /요약   가을  /요약", 17),  # 7 + 3 spaces + 7
    ("비교", "가을  /비교   가을  /비교   가을  /비교", 27),
])
def test_the_three_nodes_chained_by_hand_score_the_draft_they_wrote(angle, draft, score):
    planned = ckpt.plan({"topic": "  가을  ", "angle": angle})
    drafted = ckpt.write({"topic": "  가을  ", "angle": planned["angle"]})
    reviewed = ckpt.review({"draft": drafted["draft"]})
    assert drafted["draft"] == draft, drafted
    assert reviewed == {"stage": "review", "score": score, "notes": [f"review:{score}"]}, reviewed


def test_plan_passes_an_angle_not_in_angles_on_as_the_contract_says_and_write_refuses_it():
    assert ckpt.plan({"topic": "가을", "angle": "긴글"})["angle"] == "긴글"
    with pytest.raises(ValueError, match="angle must be one of"):
        ckpt.write({"topic": "가을", "angle": "긴글"})
