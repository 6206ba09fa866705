"""What a checkpoint is made of: anatomy() lists exactly the fields the installed version stores,
and the report's rows of them (report_ko.anatomy_rows) show each with its purpose."""
import json
import uuid

import pytest

import ckpt
import report_ko
from conftest import CK, LG

# What get_tuple returns on each langgraph line (checked against get_tuple itself below too).
if LG < (1, 0):  # 0.2.60: writes copied into metadata; the fields follow langgraph-checkpoint
    CHECKPOINT_FIELDS = ["v", "id", "ts", "channel_values", "channel_versions", "versions_seen",
                         "pending_sends"] + (["updated_channels"] if CK >= (2, 1, 2) else [])
    METADATA_KEYS = ["source", "step", "parents", "writes", "thread_id"]
    FORMAT = 2 if CK >= (2, 0, 22) else 1  # LATEST_VERSION of langgraph-checkpoint's base
else:  # 1.x / langgraph-checkpoint 4.x: format v4, no pending_sends, lean metadata
    CHECKPOINT_FIELDS = ["v", "id", "ts", "channel_values", "channel_versions", "versions_seen",
                         "updated_channels"]
    METADATA_KEYS = ["source", "step", "parents"]
    FORMAT = 4


def first_config(app, config):
    """The config of the thread's input checkpoint (the oldest)."""
    return ckpt.history(app, config)[0].config


def test_anatomy_lists_exactly_the_checkpoint_fields_of_the_installed_version(ran):
    app, config = ran
    got = ckpt.anatomy(app, config)
    assert sorted(got["checkpoint"]) == sorted(CHECKPOINT_FIELDS), got["checkpoint"].keys()
    assert sorted(got["metadata"]) == sorted(METADATA_KEYS), got["metadata"]


def test_anatomy_lists_the_fields_in_the_order_get_tuple_returns_them(ran):
    app, config = ran
    found = app.checkpointer.get_tuple(config)
    got = ckpt.anatomy(app, config)
    assert list(got["checkpoint"]) == list(found.checkpoint), (got["checkpoint"].keys(), found.checkpoint.keys())
    assert list(got["metadata"]) == list(found.metadata), (got["metadata"], found.metadata)


def test_anatomy_of_the_last_checkpoint_after_one_run(ran):
    app, config = ran
    got = ckpt.anatomy(app, config)
    snapshot = app.get_state(config)
    assert got["checkpoint_id"] == snapshot.config["configurable"]["checkpoint_id"], got
    assert got["checkpoint"]["id"] == got["checkpoint_id"], got
    assert got["checkpoint"]["v"] == FORMAT, got
    assert {k: got["metadata"][k] for k in ("source", "step", "parents")} == \
        {"source": "loop", "step": 3, "parents": {}}, got["metadata"]
    assert got["has_parent_config"] is True, got
    assert got["pending_writes"] == 0, got


def test_channel_values_are_sized_in_bytes_per_channel_not_copied(ran):
    app, config = ran
    got = ckpt.anatomy(app, config)["checkpoint"]["channel_values"]
    values = app.get_state(config).values
    state_keys = {k: v for k, v in got.items() if k in values}
    assert state_keys == {k: ckpt.state_bytes(v) for k, v in values.items()}, (got, values)
    # draft "가을/기본" is 5 characters, 13 bytes as UTF-8, 15 with the JSON quotes
    assert got["draft"] == 15, got


def test_the_input_checkpoint_has_no_parent_and_carries_the_start_tasks_writes(ran):
    app, config = ran
    got = ckpt.anatomy(app, first_config(app, config))
    assert {k: got["metadata"][k] for k in ("source", "step")} == {"source": "input", "step": -1}, got
    assert got["has_parent_config"] is False, got
    # the __start__ task's writes wait here: "topic", and the trigger for "plan"
    assert got["pending_writes"] == 2, got
    assert list(got["checkpoint"]["channel_values"]) == ["__start__"], got


def test_anatomy_is_plain_json(ran):
    app, config = ran
    got = ckpt.anatomy(app, config)
    assert json.loads(json.dumps(got, ensure_ascii=False)) == got, got


@pytest.mark.sqlite
def test_anatomy_of_a_sqlite_saver_lists_the_same_fields(tmp_path):
    with ckpt.open_saver("sqlite", str(tmp_path / "a.sqlite")) as saver:
        app = ckpt.build_graph(saver)
        app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
        got = ckpt.anatomy(app, ckpt.cfg("t1"))
    assert sorted(got["checkpoint"]) == sorted(CHECKPOINT_FIELDS), got["checkpoint"].keys()
    assert sorted(got["metadata"]) == sorted(METADATA_KEYS), got["metadata"]


def test_anatomy_of_a_postgres_saver_lists_the_fields_it_keeps(pg_url):
    thread = f"anatomy-{uuid.uuid4().hex}"  # the database may be shared
    with ckpt.open_saver("postgres", pg_url) as saver:
        app = ckpt.build_graph(saver)
        app.invoke({"topic": "가을"}, ckpt.cfg(thread))
        got = ckpt.anatomy(app, ckpt.cfg(thread))
        saver.delete_thread(thread)
    assert sorted(got["checkpoint"]) == sorted(CHECKPOINT_FIELDS), got["checkpoint"].keys()
    # subtle: langgraph-checkpoint-postgres 2.x drops metadata["writes"] before storing it
    assert sorted(got["metadata"]) == sorted(k for k in METADATA_KEYS if k != "writes"), got["metadata"]


def test_anatomy_rows_give_field_purpose_and_value_in_order(ran):
    app, config = ran
    rows = report_ko.anatomy_rows(ckpt.anatomy(app, config))
    fields = [row["field"] for row in rows]
    assert fields == ([f"checkpoint.{f}" for f in CHECKPOINT_FIELDS]
                      + [f"metadata.{k}" for k in METADATA_KEYS]
                      + ["parent_config", "pending_writes"]), fields
    unexplained = [row["field"] for row in rows if not row["purpose"]]
    assert unexplained == [], rows
    shown = {row["field"]: row["value"] for row in rows}  # Markdown: names and values in code spans
    assert shown["checkpoint.v"] == f"`{FORMAT}`", shown
    assert shown["checkpoint.id"] == "36자 UUID (실행마다 다름)", shown
    assert shown["checkpoint.ts"] == "ISO 8601 시각 (실행마다 다름)", shown
    assert shown["metadata.source"] == '`"loop"`', shown
    assert shown["metadata.step"] == "`3`", shown
    assert shown["metadata.parents"] == "`{}`", shown
    assert shown["parent_config"] == "있음", shown
    assert shown["pending_writes"] == "0개", shown
    # draft "가을/기본" is 15 bytes as a JSON string, score 5 is 1; the channels in stored order
    channels = shown["checkpoint.channel_values"].split(", ")
    assert [c.split("`")[1] for c in channels] == list(app.checkpointer.get_tuple(config).checkpoint["channel_values"])
    assert {f"`{k}` {ckpt.state_bytes(v)}바이트" for k, v in app.get_state(config).values.items()} <= set(channels), shown
    assert "`draft` 15바이트" in shown["checkpoint.channel_values"], shown
    assert "`score` 1바이트" in shown["checkpoint.channel_values"], shown
    # each node's versions seen: the node in a code span, then its channels' counters, "—" for none
    assert shown["checkpoint.versions_seen"].startswith("`__input__`: —; `__start__`: `__start__@1`; "), shown


def test_anatomy_rows_show_no_id_timestamp_or_random_version_tail(ran):
    """What changes from run to run never reaches the rows, so the report is reproducible."""
    app, config = ran
    saved = app.checkpointer.get_tuple(config).checkpoint
    text = json.dumps(report_ko.anatomy_rows(ckpt.anatomy(app, config)), ensure_ascii=False)
    tails = [str(v).split(".", 1)[1] for v in saved["channel_versions"].values() if "." in str(v)]
    for changing in [saved["id"], saved["ts"]] + tails:
        assert changing not in text, (changing, text)


def test_channel_versions_show_their_counter_only(ran):
    app, config = ran
    shown = {row["field"]: row["value"] for row in report_ko.anatomy_rows(ckpt.anatomy(app, config))}
    versions = app.checkpointer.get_tuple(config).checkpoint["channel_versions"]
    # the draft channel was written once, by write, in the third super-step after the input
    counter = str(versions["draft"]).split(".")[0].lstrip("0")
    assert f"`draft@{counter}`" in shown["checkpoint.channel_versions"].split(", "), (shown, versions)


def test_the_fork_checkpoint_of_a_replay_appears_in_the_tree_from_1_1_7():
    tree = ckpt.time_travel_tree("가을", "요약")
    got = [row["source"] for row in tree]
    first_run = ["input", "loop", "loop", "loop", "loop"]
    if LG >= (1, 1, 7):  # replay writes a "fork" checkpoint first; the fork hangs off it
        assert got == first_run + ["fork", "loop", "loop", "update", "loop", "loop"], got
        assert [row["parent"] for row in tree] == [None, 0, 1, 2, 3, 2, 5, 6, 5, 8, 9], tree
    else:  # the replay continues from #2 itself, and so does the fork
        assert got == first_run + ["loop", "loop", "update", "loop", "loop"], got
        assert [row["parent"] for row in tree] == [None, 0, 1, 2, 3, 2, 5, 2, 7, 8], tree


def test_anatomy_of_an_app_without_a_checkpointer_is_langgraphs_own_error():
    with pytest.raises(ValueError, match="No checkpointer set"):
        ckpt.anatomy(ckpt.build_graph(), ckpt.cfg("t1"))


def test_anatomy_of_a_thread_without_checkpoints_names_config(app):
    with pytest.raises(ValueError, match="config names thread 'nobody'"):
        ckpt.anatomy(app, ckpt.cfg("nobody"))
    assert ckpt.history_len(app, ckpt.cfg("nobody")) == 0


def test_anatomy_with_a_bad_config_names_config(app):
    with pytest.raises(ValueError, match="config must be"):
        ckpt.anatomy(app, {"thread_id": "t1"})

