"""Write tests/data/store-langgraph-<version>.sqlite: one thread written by the installed langgraph.

Run it once with each langgraph line's interpreter, from the project's root:

    .venv/bin/python scripts/make-fixture-stores.py      # langgraph 1.x: checkpoint format v4
    .venv39/bin/python scripts/make-fixture-stores.py    # langgraph 0.2.60: format v2

The store holds thread "t1" after one run with topic "가을": 5 checkpoints. The tests copy it
before opening it, read it with the other line and check the values, or the error naming the
format. An existing file is replaced.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import ckpt  # noqa: E402


def main() -> None:
    path = os.path.join(ROOT, "tests", "data", f"store-langgraph-{ckpt.langgraph_version()}.sqlite")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    with ckpt.open_saver("sqlite", path) as saver:
        app = ckpt.build_graph(saver)
        app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
        formats = sorted({t.checkpoint["v"] for t in saver.list(ckpt.cfg("t1"))})
        count = ckpt.history_len(app, ckpt.cfg("t1"))
    print(f"{os.path.relpath(path, ROOT)}: langgraph {ckpt.langgraph_version()}, "
          f"{count} checkpoints of format {formats}, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
