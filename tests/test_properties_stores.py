"""Properties (hypothesis) over generated thread ids, checkpoint ids and namespaces, through the
functions test_configs.py's properties leave out (anatomy, stored_bytes, replay, fork,
history_bytes on any thread id), and over refused calls on a SQLite file: a right answer or a
clear error, and the thread and the store exactly as before the call."""
import collections
import hashlib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ckpt
from conftest import LG
from test_properties import VALUES, first_problem

NEXT = ["__start__", "plan", "write", "review", ""]
BYTES = [13, 32, 81, 124, 149]
ADDED = {"plan": 4, "write": 3, "review": 2} if LG >= (1, 1, 7) else {"plan": 3, "write": 2, "review": 1}
TOTAL = {"plan": 9, "write": 8, "review": 7}
STR_IDS = LG >= (0, 3, 31)  # langgraph hands the saver str(thread_id) from 0.3.31 on
ZERO = {"checkpoints": 0, "blobs": 0, "writes": 0, "total": 0}
SETTINGS = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

THREAD_IDS = st.one_of(st.text(max_size=6), st.integers(-1000, 1000), st.sampled_from(["1", "t1"]))
# which checkpoint the config names: none (absent, None or ""), a real point, a made-up id
POINTS = st.one_of(st.sampled_from(["absent", None, ""]), st.integers(0, 4),
                   st.text(min_size=1, max_size=10).map(lambda s: ("made-up", s)))
NAMESPACES = st.one_of(st.just("absent"), st.just(""), st.text(min_size=1, max_size=6))


def thread(thread_id):
    """The thread's config written out: cfg() refuses a false id (0), which these tests also try."""
    return {"configurable": {"thread_id": thread_id}}


def same_thread(run_id, query_id):
    """Whether reading cfg(query_id) finds what a run on cfg(run_id) wrote, as each line
    treats ids (measured). subtle: langgraph 1.x writes an id that is false (0) as it is,
    but reads every id as its str, so in memory a run on cfg(0) is found by no config."""
    if not STR_IDS:
        return (type(run_id), run_id) == (type(query_id), query_id)
    return str(run_id) == str(query_id) and (isinstance(run_id, str) or run_id != 0)


def not_in_thread(query_id, bad_ns):
    """How a config naming a point its thread does not have is refused: langgraph 0.2.60
    refuses a namespace itself (measured), otherwise ckpt names the config."""
    if bad_ns and LG < (1,):
        return "Subgraph "
    return f"config names a point that thread {query_id!r} does not have: "


def everything(saver, app, thread_id):
    """The whole store and the run's thread, to compare before and after a call."""
    listed = [(t.config["configurable"]["checkpoint_id"], t.checkpoint["v"])
              for t in saver.list(None)]
    return sorted(listed), ckpt.stored_bytes(saver), ckpt.history_len(app, thread(thread_id))


def config_of(app, run_id, query_id, point, namespace):
    """The generated config, and the checkpoint_id it names of the run's thread (or None)."""
    configurable = {"thread_id": query_id}
    if namespace != "absent":
        configurable["checkpoint_ns"] = namespace
    named = None
    if isinstance(point, int):  # the run's checkpoints, read from the saver: the only thread
        named = list(app.checkpointer.list(None))[::-1][point].config["configurable"]["checkpoint_id"]
        configurable["checkpoint_id"] = named
    elif isinstance(point, tuple):
        configurable["checkpoint_id"] = point[1]
    elif point != "absent":
        configurable["checkpoint_id"] = point
    return {"configurable": configurable}, named


@SETTINGS
@given(run_id=THREAD_IDS, query_id=THREAD_IDS, point=POINTS, namespace=NAMESPACES)
def test_anatomy_and_stored_bytes_name_the_thread_history_len_counts_or_refuse(
        run_id, query_id, point, namespace):
    saver = ckpt.new_saver()
    app = ckpt.build_graph(saver)
    app.invoke({"topic": "가을"}, thread(run_id))
    config, named = config_of(app, run_id, query_id, point, namespace)
    before = everything(saver, app, run_id)
    found = same_thread(run_id, query_id)
    bad_ns = namespace not in ("absent", "")
    bad_id = isinstance(point, tuple) or (isinstance(point, int) and not found)
    if bad_ns or bad_id:
        for call in (ckpt.anatomy, ckpt.history_len, ckpt.history_bytes):
            with pytest.raises(ValueError) as info:
                call(app, config)
            assert str(info.value).startswith(not_in_thread(query_id, bad_ns)), info.value
    elif not found:
        with pytest.raises(ValueError) as info:
            ckpt.anatomy(app, config)
        assert str(info.value) == f"config names thread {query_id!r}, which has no checkpoint"
        assert (ckpt.history_len(app, config), ckpt.history_bytes(app, config)) == (0, [])
    else:
        got = ckpt.anatomy(app, config)
        latest = app.get_state(thread(run_id)).config["configurable"]["checkpoint_id"]
        assert got["checkpoint_id"] == (named or latest), (config, got["checkpoint_id"])
        assert got["metadata"]["step"] == (point - 1 if named else 3), got["metadata"]
        want = [BYTES[point]] if named else BYTES
        assert ckpt.history_bytes(app, config) == want and ckpt.history_len(app, config) == len(want)
    counted = ckpt.stored_bytes(saver, query_id)
    assert (counted == ckpt.stored_bytes(saver)) if found else (counted == ZERO), counted
    assert everything(saver, app, run_id) == before, config


@SETTINGS
@given(run_id=THREAD_IDS, query_id=THREAD_IDS, point=POINTS,
       node=st.sampled_from(["plan", "write", "review"]), do_fork=st.booleans())
def test_replay_and_fork_on_any_thread_id_give_the_threads_growth_or_refuse(
        run_id, query_id, point, node, do_fork):
    saver = ckpt.new_saver()
    app = ckpt.build_graph(saver)
    app.invoke({"topic": "가을"}, thread(run_id))
    config, named = config_of(app, run_id, query_id, point, "absent")
    before = everything(saver, app, run_id)
    found = same_thread(run_id, query_id)
    has_point = found and not isinstance(point, tuple) and (
        not named or NEXT[point] == node)
    call = ((lambda: ckpt.fork(app, config, node, {"angle": "요약"})) if do_fork
            else (lambda: ckpt.replay(app, config, node)))
    if not has_point:
        with pytest.raises(ValueError):
            call()
        assert everything(saver, app, run_id) == before, config
        return
    got = call()
    if do_fork:
        assert got["total"] == TOTAL[node], (config, node, got)
    else:
        assert got["added"] == ADDED[node], (config, node, got)
    assert ckpt.history_len(app, thread(query_id)) == (TOTAL[node] if do_fork else 5 + ADDED[node])
    assert ckpt.stored_bytes(saver, query_id) == ckpt.stored_bytes(saver)


# --- a SQLite file: a refused call leaves every byte of it as it was

MALFORMED = [None, {}, {"configurable": {}}, {"configurable": "t1"}, "t1", {"configurable": {"thread_id": None}}]
REFUSED_CONFIGS = st.one_of(
    st.sampled_from(MALFORMED),
    st.text(min_size=1, max_size=10).map(lambda s: {"configurable": {"thread_id": "t1", "checkpoint_id": s}}),
    st.text(min_size=1, max_size=6).map(lambda s: {"configurable": {"thread_id": "t1", "checkpoint_ns": s}}),
)
CALLS = {
    "history": lambda app, c: ckpt.history(app, c),
    "history_bytes": lambda app, c: ckpt.history_bytes(app, c),
    "anatomy": lambda app, c: ckpt.anatomy(app, c),
    "replay": lambda app, c: ckpt.replay(app, c, "write"),
    "fork": lambda app, c: ckpt.fork(app, c, "write", {"angle": "요약"}),
}


def file_bytes(path):
    """The SQLite file and its write-ahead log, hashed: what a write would change."""
    parts = [Path(str(path) + suffix) for suffix in ("", "-wal")]
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else None for p in parts]


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory):
    """(saver, app, path): a SQLite file with thread "t1" after one run, shared by the examples."""
    path = tmp_path_factory.mktemp("refused") / "store.sqlite"
    with ckpt.open_saver("sqlite", str(path)) as saver:
        app = ckpt.build_graph(saver)
        app.invoke({"topic": "가을"}, ckpt.cfg("t1"))
        yield saver, app, path


@pytest.mark.sqlite
@SETTINGS
@given(config=REFUSED_CONFIGS, name=st.sampled_from(sorted(CALLS)))
def test_a_refused_config_leaves_the_sqlite_file_as_it_was(sqlite_store, config, name):
    saver, app, path = sqlite_store
    before = file_bytes(path), everything(saver, app, "t1")
    with pytest.raises(ValueError) as info:
        CALLS[name](app, config)
    assert str(info.value).startswith(("config ", "Subgraph " if LG < (1,) else "config ")), info.value
    assert (file_bytes(path), everything(saver, app, "t1")) == before, (name, config)


# parts no saver stores as they are: json or the serializer fails, or they come back changed
PROBLEMS = st.sampled_from([2 ** 64, Fraction(1, 3), "가\ud83d", {(1, 2), (3, 4)}, {1: "a", "b": 2},
                            collections.deque([1], maxlen=2)])


@pytest.mark.sqlite
@SETTINGS
@given(value=st.builds(lambda fine, bad, at: fine[:at] + [bad] + fine[at:],
                       st.lists(VALUES, max_size=2), PROBLEMS, st.integers(0, 2)),
       node=st.sampled_from(["plan", "write", "review"]))
def test_a_refused_fork_value_leaves_the_sqlite_file_as_it_was(sqlite_store, value, node):
    saver, app, path = sqlite_store
    before = file_bytes(path), everything(saver, app, "t1")
    where, error = first_problem(value, 'values["bulk"]')
    with pytest.raises(error) as info:
        ckpt.fork(app, ckpt.cfg("t1"), node, {"bulk": value})
    assert str(info.value).startswith(where + " "), info.value
    assert (file_bytes(path), everything(saver, app, "t1")) == before, value
