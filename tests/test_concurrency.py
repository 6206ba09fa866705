"""Many callers at once: functions that build their own savers, and one shared app and saver."""
import threading
from concurrent.futures import ThreadPoolExecutor

import ckpt


def _all_at_once(n, call):
    """call(i) for i in range(n), each on its own thread, released together by a barrier."""
    barrier = threading.Barrier(n)

    def run(i):
        barrier.wait(timeout=60)
        return call(i)

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run, range(n)))


def test_16_concurrent_weigh_calls_equal_a_serial_call():
    serial = ckpt.weigh("가을", "가" * 2000)
    results = _all_at_once(16, lambda i: ckpt.weigh("가을", "가" * 2000))
    assert results == [serial] * 16, (serial, results)


def test_16_concurrent_lost_demo_calls_equal_a_serial_call():
    serial = ckpt.lost_demo("가을")
    results = _all_at_once(16, lambda i: ckpt.lost_demo("가을"))
    assert results == [serial] * 16, (serial, results)
    assert serial == {"kept": 5, "after_restart": 0, "values_after_restart": {}}, serial


def test_32_threads_on_one_shared_app_and_saver_each_keep_only_their_own_thread():
    app = ckpt.build_graph(ckpt.new_saver())
    topics = [f"주제-{i}" for i in range(32)]
    ends = _all_at_once(32, lambda i: app.invoke({"topic": topics[i]}, ckpt.cfg(f"t{i}")))
    for i, topic in enumerate(topics):
        config = ckpt.cfg(f"t{i}")
        snaps = ckpt.history(app, config)
        assert len(snaps) == 5, (i, ckpt.pending(app, config))
        seen = {s.values["topic"] for s in snaps[1:]}  # the input checkpoint holds only notes
        assert seen == {topic}, (i, seen)
        assert snaps[0].values == {"notes": []}, snaps[0].values  # before __start__ wrote the input
        assert ends[i]["notes"] == [f"plan:{topic}", "write:기본", f"review:{len(topic) + 3}"], ends[i]
        assert snaps[-1].values == ends[i], (i, snaps[-1].values)
