"""The module's shape: __all__ names every public function, and the report only reads ckpt."""
import ast

import ckpt
from conftest import ROOT


def _top_level(path):
    return ast.parse((ROOT / path).read_text(encoding="utf-8")).body


def test_all_lists_every_public_function_class_and_constant_and_nothing_else():
    nodes = _top_level("ckpt.py")
    public = {node.name for node in nodes if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    public |= {target.id for node in nodes if isinstance(node, ast.Assign) for target in node.targets
               if isinstance(target, ast.Name) and target.id != "__all__"}
    public = {name for name in public if not name.startswith("_")}
    listed = set(ckpt.__all__)
    assert public == listed, (public - listed, listed - public)
    assert all(hasattr(ckpt, name) for name in listed), [n for n in listed if not hasattr(ckpt, n)]


def test_make_report_imports_no_langgraph_and_runs_no_graph():
    tree = ast.parse((ROOT / "make_report.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name and name.startswith("langgraph") for name in imported), imported
    calls = {node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
    assert not calls & {"invoke", "stream", "get_state", "get_state_history", "update_state", "compile"}, calls
