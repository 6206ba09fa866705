"""Invariants over arbitrary topics and payload sizes (hypothesis), recounted independently."""
from hypothesis import given, settings
from hypothesis import strategies as st

import ckpt
from test_bytes import recount

# what JSON grows (quote, backslash, newline), 1 to 4 bytes a character in UTF-8
PAYLOAD_CHARS = st.sampled_from(["x", "é", "가", "🍂", '"', "\\", "\n"])
SETTINGS = settings(max_examples=40, deadline=None, database=None)


@SETTINGS
@given(topic=st.text(max_size=40), char=PAYLOAD_CHARS, count=st.integers(300, 5000))
def test_weigh_carrying_is_4_and_totals_match_a_recount_per_position(topic, char, count):
    payload = char * count
    got = ckpt.weigh(topic, payload)
    thin, fat = recount({"topic": topic}), recount({"topic": topic, "bulk": payload})
    assert got["carrying"] == 4, (got, thin, fat)
    assert got["checkpoints"] == len(thin) == len(fat) == 5, (got, thin, fat)
    assert got["payload_bytes"] == len(payload.encode("utf-8")), got
    assert (got["thin_total"], got["fat_total"]) == (sum(thin), sum(fat)), (got, thin, fat)
    assert got["fat_total"] - got["thin_total"] == sum(f - t for t, f in zip(thin, fat)), got


@SETTINGS
@given(topic=st.text(max_size=60), angle=st.sampled_from(sorted(ckpt.ANGLES)))
def test_the_score_is_the_drafts_length_in_characters(topic, angle):
    app = ckpt.build_graph(ckpt.new_saver())
    got = app.invoke({"topic": topic, "angle": angle}, ckpt.cfg("p"))
    draft = (f"{topic}/{angle} " * ckpt.ANGLES[angle]).strip()
    assert (got["draft"], got["score"]) == (draft, len(draft)), got
    assert got["notes"] == [f"plan:{topic}", f"write:{angle}", f"review:{len(draft)}"], got


@SETTINGS
@given(topic=st.text(max_size=40), angle=st.sampled_from(["요약", "비교"]))
def test_a_fork_before_write_scores_the_new_angles_draft(topic, angle):
    app, config = ckpt.build_graph(ckpt.new_saver()), ckpt.cfg("p")
    base = app.invoke({"topic": topic}, config)
    got = ckpt.fork(app, config, "write", {"angle": angle})
    draft = (f"{topic}/{angle} " * ckpt.ANGLES[angle]).strip()
    assert base["score"] == len(base["draft"]) == len(f"{topic}/기본".strip()), base
    assert (got["result"]["score"], got["total"], got["original"]) == (len(draft), 8, base), got
