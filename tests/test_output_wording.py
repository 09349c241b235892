"""Words a user reads in plain output: counts agree with their nouns, and a text cut short says so at
a word's start (each test reads a real command's output)."""

from __future__ import annotations

import re

from ruleslawyer.cli import main
from ruleslawyer.rulesdb.audit import _tail, audit


def test_tables_say_1_row_and_n_rows(capsys):
    assert main(["tables"]) == 0
    lines = capsys.readouterr().out.splitlines()
    time_line = next(ln for ln in lines if ln.startswith("mastery/combat/tables/time "))
    assert re.search(r"\b1 row\b", time_line) and " rows " not in time_line
    counted = [ln for ln in lines if re.search(r"\b\d+ rows? ", ln)]
    assert counted and all(re.search(r"\b1 row ", ln) or re.search(r"\b([02-9]|\d\d+) rows ", ln) for ln in counted)


def test_a_cut_text_starts_at_a_word_after_an_ellipsis():
    text = ("Combatants at melee range exchange blows. Attack order is determined by weapon length. "
            "The longer weapon strikes first in the order of:")
    assert _tail(text) == "…order is determined by weapon length. The longer weapon strikes first in the order of:"
    assert _tail("Attack Rules:") == "Attack Rules:"
    assert _tail("x" * 100) == "…" + "x" * 90


def test_the_audit_report_cuts_list_texts_at_a_word():
    found = audit()
    report = found.to_markdown()
    section = report.split("## Truncated lists", 1)[1].split("## ", 1)[0]
    cells = [row.split("|")[2].strip() for row in section.splitlines() if row.startswith("| `")]
    texts = [t["text"] for t in found.truncated_lists]
    assert cells and len(cells) == len(texts), "the chapters announce lists the audit checks"
    for cell, text in zip(cells, texts):
        if cell.startswith("…"):  # the end of the text, from a word's start
            tail = cell[1:]
            assert text.endswith(tail) and len(tail) <= 90 and text[-len(tail) - 1].isspace(), (cell, text)
        else:
            assert cell == text
