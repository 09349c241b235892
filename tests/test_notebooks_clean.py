"""The committed notebooks carry outputs (nbval compares them strictly) but no saved widget state.

Executing a notebook with ``jupyter nbconvert --execute`` saves every widget's state in
``metadata.widgets`` (hundreds of KB of panel HTML per notebook, different on every run). The
outputs themselves are kept: ``make test`` compares them with a fresh run. This file is also the
strip tool (``make strip-notebooks``)::

    python tests/test_notebooks_clean.py --strip notebooks/*.ipynb

which drops ``metadata.widgets``, widget state inside outputs and per-cell UI metadata, and leaves
sources and outputs as they are.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
SANITIZE = NOTEBOOKS[0].parent / "nbval-sanitize.cfg" if NOTEBOOKS else None
MAX_OUTPUT_BYTES = 100_000
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CELL_UI_KEYS = ("collapsed", "scrolled", "ExecuteTime", "execution", "heading_collapsed", "hidden")


def strip(nb: nbformat.NotebookNode) -> bool:
    """Drop saved widget state and per-cell UI metadata from ``nb`` in place; True if it changed.

    Removes ``metadata.widgets``, any widget-state data in an output, and the cell metadata keys in
    :data:`CELL_UI_KEYS`. Sources, outputs (widget views included: a view is a model id only) and
    execution counts stay.
    """
    changed = nb.metadata.pop("widgets", None) is not None
    for cell in nb.cells:
        for key in CELL_UI_KEYS:
            changed |= cell.metadata.pop(key, None) is not None
        for out in cell.get("outputs", []):
            changed |= out.get("data", {}).pop(WIDGET_STATE, None) is not None
    return changed


def _ids(paths):
    return [p.name for p in paths]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_has_no_widget_state_and_no_huge_output(path):
    nb = nbformat.read(path, as_version=4)
    assert "widgets" not in nb.metadata, f"{path.name}: saved widget state; run `make strip-notebooks`"
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            size = len(json.dumps(out, ensure_ascii=False).encode("utf-8"))
            assert size <= MAX_OUTPUT_BYTES, f"{path.name} cell {i}: an output of {size:,} bytes (at most 100 KB)"
    assert not strip(nb), f"{path.name}: widget state or UI metadata left; run `make strip-notebooks`"


def test_strip_drops_widget_state_and_keeps_outputs():
    nb = nbformat.v4.new_notebook()
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2, "version_minor": 0},
            "text/plain": "VBox()", WIDGET_STATE: {"state": {}}}
    nb.cells = [nbformat.v4.new_code_cell("Panel()", execution_count=3, metadata={"scrolled": True, "tags": ["x"]},
                                          outputs=[nbformat.v4.new_output("display_data", data=view)])]
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {"abc": {}}}}
    assert strip(nb) and not strip(nb)
    out = nb.cells[0].outputs[0]
    assert "widgets" not in nb.metadata and set(out.data) == {"application/vnd.jupyter.widget-view+json",
                                                              "text/plain"}
    assert nb.cells[0].metadata == {"tags": ["x"]} and nb.cells[0].execution_count == 3


def _sanitize(text: str) -> str:
    from nbval.plugin import get_sanitize_patterns

    for regex, replace in get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8")):
        text = re.sub(regex, replace, text)
    return text


@pytest.mark.parametrize("volatile, expected", [
    ("<Dice object at 0x7f3a2b1c9d40>", "<Dice object at 0xADDRESS>"),
    ("built in 12.3 ms, 850 µs per query", "built in TIME, TIME per query"),
    ("written to /tmp/mastery-worked-example.md", "written to TMP/mastery-worked-example.md"),
    ("db /tmp/ruleslawyer-test-k2j4h5g6/rules.db", "db TMP/rules.db"),
    ("at /var/folders/x1/abc_def/T/out.md", "at TMP/out.md"),
])
def test_sanitizers_replace_what_varies(volatile, expected):
    assert _sanitize(volatile) == expected


@pytest.mark.parametrize("text", [
    "d100 rolled: 42 (seed 7)", "roll 1d100 for each Trauma: 3-5, 96–00", "Fraction(1, 16) 0x10 hex",
    "attack 4, 4, 1; endurance 2", "P(hit) = 0.7188", "mastery/combat/actions-and-reactions/attack#7",
    "Close 10 m, Effective 30 m", "a tmp/ folder inside the project",
])
def test_sanitizers_leave_rule_text_and_numbers_alone(text):
    assert _sanitize(text) == text


def main(argv: list[str]) -> int:
    """``--strip FILE...``: strip each notebook in place (see :func:`strip`); prints what changed."""
    if not argv or argv[0] != "--strip":
        print("usage: python tests/test_notebooks_clean.py --strip NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for name in argv[1:]:
        nb = nbformat.read(name, as_version=4)
        if strip(nb):
            nbformat.write(nb, name)
            print(f"stripped {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
