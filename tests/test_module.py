"""The module's shape: __all__ names every public name once, the lab's first; the report only reads ckpt."""
import ast

import ckpt
from conftest import ROOT

# SPEC 2, the contract of ckpt.py: the names the lab sheet asks for
CONTRACT = ["ANGLES", "State", "plan", "write", "review", "build_graph", "new_saver", "cfg", "history",
            "history_len", "pending", "snapshot_before", "replay", "fork", "state_bytes", "history_bytes",
            "weigh", "lost_demo"]


def _tree(path):
    return ast.parse((ROOT / path).read_text(encoding="utf-8"))


def _defined(nodes):
    """The names that top-level statements among `nodes` define, __all__ aside."""
    names = set()
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, ast.AnnAssign) else []
        names |= {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    return names - {"__all__"}


def test_all_lists_the_labs_names_then_what_the_banner_adds_each_public_name_once():
    body = _tree("ckpt.py").body
    first = [node for node in body if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)]
    added = [node for node in body if isinstance(node, ast.AugAssign)
             and isinstance(node.target, ast.Name) and node.target.id == "__all__"]
    assert (len(first), len(added)) == (1, 1), "one list at the top, one `__all__ += [...]` at the banner"
    lab, beyond = ast.literal_eval(first[0].value), ast.literal_eval(added[0].value)
    assert ckpt.__all__ == lab + beyond
    assert sorted(n for n in ckpt.__all__ if ckpt.__all__.count(n) > 1) == [], "a name listed twice"
    public = {name for name in _defined(body) if not name.startswith("_")}
    assert set(ckpt.__all__) == public, (public - set(ckpt.__all__), set(ckpt.__all__) - public)
    above_banner = _defined(node for node in body if node.lineno < added[0].lineno)
    assert set(CONTRACT) <= set(lab) <= above_banner, (set(CONTRACT) - set(lab), set(lab) - above_banner)


def test_make_report_reads_ckpt_through_its_public_names_and_imports_no_langgraph():
    tree = _tree("make_report.py")
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "ckpt"}
    used |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "ckpt"
             for alias in node.names}
    assert len(used) > 10, used  # the check saw make_report's calls
    assert sorted(n for n in used if n not in ckpt.__all__ and n not in ("__file__",)) == [], "not public in ckpt"
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name and name.startswith("langgraph") for name in imported), imported
    calls = {node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
    assert not calls & {"invoke", "stream", "get_state", "get_state_history", "update_state", "compile"}, calls
