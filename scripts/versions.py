"""Print the versions a test leg runs on: Python, langgraph, langgraph-checkpoint and the savers."""
import platform
from importlib.metadata import PackageNotFoundError, version

parts = [f"Python {platform.python_version()}"]
for name in ("langgraph", "langgraph-checkpoint", "langgraph-checkpoint-sqlite", "langgraph-checkpoint-postgres"):
    try:
        parts.append(f"{name} {version(name)}")
    except PackageNotFoundError:
        parts.append(f"{name} (not installed)")
print(", ".join(parts))
