"""Payload sweep (bytes grow linearly with the payload) and durability modes (what gets saved)."""
import pytest

import ckpt
from conftest import LG

SIZES = [250, 500, 1000, 1500]
# ', "bulk": ""' is 12 bytes: the key, its quotes and separators around the payload
BULK_ENTRY = len(', "bulk": ""'.encode("utf-8"))


def test_durability_counts_are_exit_1_async_5_sync_5_where_the_modes_exist():
    got = ckpt.durability_counts("가을")
    if LG >= (0, 6):
        # "exit" saves only the run's end; "async" and "sync" save every super-step
        assert got == {"exit": 1, "async": 5, "sync": 5}, got
    else:
        assert got is None, got


def test_durability_counts_are_the_same_on_every_call():
    assert [ckpt.durability_counts("가을") for _ in range(3)] == [ckpt.durability_counts("가을")] * 3


def test_durability_counts_with_a_topic_that_is_not_a_str_names_topic():
    with pytest.raises(TypeError, match="topic must be a str"):
        ckpt.durability_counts(["가을"])


def test_payload_sweep_gives_one_weigh_row_per_size_in_order():
    rows = ckpt.payload_sweep("가을", SIZES)
    assert [row["payload_bytes"] for row in rows] == SIZES, rows
    assert [row["fat_total"] for row in rows] == [1447, 2447, 4447, 6447], rows
    for size, row in zip(SIZES, rows):
        assert {k: row[k] for k in ("checkpoints", "thin_total", "carrying")} == \
            {"checkpoints": 5, "thin_total": 399, "carrying": 4}, row
        assert row["extra"] == row["fat_total"] - row["thin_total"] == 4 * (size + BULK_ENTRY), row
        assert {k: v for k, v in row.items() if k != "extra"} == ckpt.weigh("가을", "x" * size), row


def test_payload_sweep_grows_by_exactly_carrying_times_the_size_step():
    rows = ckpt.payload_sweep("가을", [100, 1100, 2100, 3100, 10100])
    for before, after in zip(rows, rows[1:]):
        step = after["payload_bytes"] - before["payload_bytes"]
        assert after["extra"] - before["extra"] == after["carrying"] * step, (before, after)


def test_payload_sweep_with_a_korean_topic_grows_the_same_way():
    rows = ckpt.payload_sweep("가을 하늘 🍂", [1, 2, 3])
    assert [r["extra"] for r in rows] == [4 * (s + BULK_ENTRY) for s in (1, 2, 3)], rows


@pytest.mark.parametrize("sizes, error, words", [
    ([], ValueError, "sizes must hold at least one payload size"),
    ("100", TypeError, "sizes must be a list or tuple of int"),
    (100, TypeError, "sizes must be a list or tuple of int"),
    ([100, 0], ValueError, "sizes must hold sizes of at least 1 byte"),
    ([100, -5], ValueError, "sizes must hold sizes of at least 1 byte"),
    ([1.5], TypeError, "sizes must hold int payload sizes"),
    ([True], TypeError, "sizes must hold int payload sizes"),
    (["100"], TypeError, "sizes must hold int payload sizes"),
])
def test_payload_sweep_with_bad_sizes_names_sizes(sizes, error, words):
    with pytest.raises(error, match=words):
        ckpt.payload_sweep("가을", sizes)


def test_payload_sweep_with_a_topic_that_is_not_a_str_names_topic():
    with pytest.raises(TypeError, match="topic must be a str"):
        ckpt.payload_sweep(None, SIZES)
