"""Shared fixtures: a fresh app per test, the installed langgraph's version, and PostgreSQL.

PostgreSQL tests take the `pg_url` fixture, which marks them `postgres`; tests that need the
SQLite saver carry `@pytest.mark.sqlite`. The pod leg of `make test` (langgraph alone)
deselects both markers and pytest counts them as deselected. `make test` starts a throwaway server and puts
its URL in AGCKPT_PG_URL. Without it these tests skip locally; under CI=true they fail.
"""
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ckpt  # noqa: E402

def release(name):
    """An installed package's version as numbers: "1.2.24" -> (1, 2, 24)."""
    return tuple(int(part) for part in re.findall(r"\d+", ckpt.package_version(name))[:3])


LG = release("langgraph")
CK = release("langgraph-checkpoint")  # its own release line


def pytest_collection_modifyitems(items):
    """Tests that take the PostgreSQL server are marked `postgres` (deselected on the pod leg)."""
    for item in items:
        if "pg_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture
def app():
    """A new graph on a new in-memory saver."""
    return ckpt.build_graph(ckpt.new_saver())


@pytest.fixture
def ran(app):
    """(app, config) after one run of thread "t1" with topic "가을"."""
    config = ckpt.cfg("t1")
    app.invoke({"topic": "가을"}, config)
    return app, config


@pytest.fixture(scope="session")
def pg_url():
    """The throwaway PostgreSQL server's URL (AGCKPT_PG_URL); required under CI=true."""
    url = os.environ.get("AGCKPT_PG_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but AGCKPT_PG_URL is not set: .ci/run must start PostgreSQL (make test does)")
        pytest.skip("AGCKPT_PG_URL is not set: run `make test` to start a throwaway PostgreSQL")
    return url


def side_by_side(request, calls):
    """Run at once, each in a thread of its own, the calls {fixture name: zero-argument call} whose fixture a
    selected test of the requesting module uses: {name: concurrent.futures.Future}, all done. For demos that
    wait on child processes (a second or more each): one after the other they leave the second core idle. A
    fixture takes its call's result with .result(), which raises the call's error in that fixture only."""
    used = set()
    for item in request.session.items:
        if getattr(item, "module", None) is request.module:
            used.update(item.fixturenames)
    with ThreadPoolExecutor(max(1, len(used & set(calls)))) as pool:
        return {name: pool.submit(call) for name, call in calls.items() if name in used}
