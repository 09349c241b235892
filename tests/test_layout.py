"""Support modules imported by bare name (benchmarks/, tests/**) must have distinct names.

Two folders each putting a ``harness.py`` on ``sys.path`` make whichever loads first win, and the
other folder's tests then import the wrong module.
"""

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_support_module_names_are_unique_across_tests_and_benchmarks():
    seen: dict[str, list[str]] = defaultdict(list)
    for folder in (ROOT / "tests", ROOT / "benchmarks"):
        for path in folder.rglob("*.py"):
            if path.name == "conftest.py" or path.name == "__init__.py" or "__pycache__" in path.parts:
                continue
            seen[path.stem].append(str(path.relative_to(ROOT)))
    clashes = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert clashes == {}
