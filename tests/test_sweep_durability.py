"""The payload sweep the report prints (bytes grow linearly with the payload) and durability
modes (what gets saved, and which modes the installed langgraph takes)."""
import pytest

import ckpt
from conftest import LG

# ', "bulk": ""' is 12 bytes: the key, its quotes and separators around the payload
BULK_ENTRY = len(', "bulk": ""'.encode("utf-8"))


def test_the_sweep_grows_by_four_copies_of_the_payload_and_its_key():
    got = [ckpt.weigh("가을", "x" * size) for size in (250, 500, 1000, 1500)]
    assert [row["fat_total"] for row in got] == [1447, 2447, 4447, 6447], got
    for size, row in zip((250, 500, 1000, 1500), got):
        assert (row["thin_total"], row["carrying"]) == (399, 4), row
        assert row["fat_total"] - row["thin_total"] == 4 * (size + BULK_ENTRY), row


def test_durability_counts_are_exit_1_async_5_sync_5_where_the_modes_exist():
    got = ckpt.durability_counts("가을")
    if LG >= (0, 6):
        # "exit" saves only the run's end; "async" and "sync" save every super-step
        assert got == {"exit": 1, "async": 5, "sync": 5}, got
    else:  # the run itself says so: its invoke takes no durability
        assert got == {"error": "TypeError: stream() got an unexpected keyword argument 'durability'"}, got


@pytest.mark.parametrize("mode", ["never", "sync"])
def test_invoke_refuses_a_durability_the_installed_langgraph_does_not_take_before_running(app, mode):
    # without it: langgraph 1.x runs on with "never" as if it were a mode; 0.2.60 fails inside stream()
    if mode == "sync" and LG >= (0, 6):
        assert ckpt.invoke(app, {"topic": "가을"}, ckpt.cfg("t1"), mode)["score"] == 5
        return
    with pytest.raises(ValueError) as info:
        ckpt.invoke(app, {"topic": "가을"}, ckpt.cfg("t1"), mode)
    assert str(info.value) == ("durability must be None or one of ['exit', 'async', 'sync'] (langgraph >= 0.6; "
                               f"installed: {ckpt.langgraph_version()}), got {mode!r}")
    assert list(app.get_state_history(ckpt.cfg("t1"))) == [], "nothing may run before the refusal"
