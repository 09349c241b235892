"""Every fragment of the plain-text chapters must survive, verbatim, in the built database.

The Markdown sources under ``rulesdb/sources/<ruleset>/combat.md`` restore structure (headings,
lists, tables, links) to the plain-text chapters in ``rules-source/``; the wording itself must not
drift, because a citation quotes the book. This test splits each plain-text chapter into fragments
(lines, tab-separated cells, list items the plain text flattened into one line with `` - ``,
inline numbered steps, sentences) and asserts that each fragment, whitespace-normalised, occurs in
the text of one unit of the built ``units`` table for that ruleset.

Skipped only when the rules source folder (``../shared/rules-source`` beside the repository) is
absent.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

RULES_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "rules-source"

CHAPTERS = {
    "mastery": "mastery-combat.txt",
    "mythras": "mythras-combat.txt",
    "darkmaster": "darkmaster-combat.txt",
}

_WS = re.compile(r"\s+")
# "... allows it. 3. Roll 1d6 ..." -> split before the inline step number.
_INLINE_STEP = re.compile(r"(?<=[.!?)])\s+(?=\d+\.\s+[A-Z\"(])")
# A list marker the plain text kept at the start of a fragment: "- ", "• ", "1. ".
_MARKER = re.compile(r"^(?:[-•]\s+|\d+\.\s+)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")


def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space and trim."""
    return _WS.sub(" ", text).strip()


def fragments(text: str) -> list[str]:
    """Split a plain-text chapter into the fragments that must appear verbatim.

    Returns whitespace-normalised fragments in source order: for every non-blank line, each
    tab-separated cell, each item of a list flattened with `` - ``, each inline ``N.`` step (list
    markers removed), and then each sentence of those pieces.
    """
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        for cell in line.split("\t"):
            cell = cell.strip()
            if not cell:
                continue
            for item in cell.split(" - "):
                for step in _INLINE_STEP.split(item):
                    piece = normalise(_MARKER.sub("", step.strip()))
                    if not piece:
                        continue
                    out.append(piece)
                    sentences = [normalise(s) for s in _SENTENCE.split(piece)]
                    if len(sentences) > 1:
                        out.extend(s for s in sentences if s)
    return out


def _unit_texts(db: Path, ruleset: str) -> list[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        texts = [
            normalise(t)
            for (t,) in con.execute("SELECT text FROM units WHERE ruleset = ? ORDER BY ord", (ruleset,))
        ]
        # Table header rows are not units: their cells live in ``rule_tables.columns``. Row cells
        # are also stored structured in ``table_rows.cells``; accept a cell found there too.
        cell_lists = con.execute(
            "SELECT columns FROM rule_tables WHERE ruleset = ? "
            "UNION ALL SELECT tr.cells FROM table_rows tr JOIN rule_tables rt ON rt.id = tr.table_id "
            "WHERE rt.ruleset = ?",
            (ruleset, ruleset),
        ).fetchall()
        for (cells,) in cell_lists:
            texts.extend(normalise(str(c)) for c in json.loads(cells))
    finally:
        con.close()
    return texts


@pytest.fixture(scope="module")
def built_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not RULES_SOURCE.is_dir():
        pytest.skip(f"rules source not found at {RULES_SOURCE}")
    from ruleslawyer.rulesdb.builder import build

    out = tmp_path_factory.mktemp("rulesdb") / "rules.db"
    build(out=out)
    return out


def test_fragmenter_splits_flattened_structure() -> None:
    line = "All basic actions cost 1 AP: - Movement: Move up - Attack: Make one attack"
    assert fragments(line)[:3] == ["All basic actions cost 1 AP:", "Movement: Move up", "Attack: Make one attack"]
    steps = fragments("It allows it. 3. Roll 1d6 (1-3 = PCs). 4. Resolve Fast phase.")
    assert "Roll 1d6 (1-3 = PCs)." in steps and "Resolve Fast phase." in steps
    assert fragments("a\tb c\t") == ["a", "b c"]
    assert fragments("the DC is 6. The GM adjusts it.")[0] == "the DC is 6. The GM adjusts it."


@pytest.mark.parametrize("ruleset", sorted(CHAPTERS))
def test_chapter_text_is_verbatim(built_db: Path, ruleset: str) -> None:
    source = RULES_SOURCE / CHAPTERS[ruleset]
    if not source.is_file():
        pytest.skip(f"{source} not found")
    texts = _unit_texts(built_db, ruleset)
    assert texts, f"no units for ruleset {ruleset!r} in the built database"
    missing = [f for f in fragments(source.read_text(encoding="utf-8")) if not any(f in t for t in texts)]
    assert not missing, f"{len(missing)} fragment(s) of {source.name} not found verbatim:\n" + "\n".join(
        f"  {m!r}" for m in missing[:25]
    )
