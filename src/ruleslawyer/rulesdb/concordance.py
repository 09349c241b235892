"""The concordance: how each ruleset handles the same question, every cell cited.

The data is ``rulesdb/concordance.json`` (package data): per concept (round length, actions per
round, initiative, defending, reactions, flanking, ranged attacks, surprise, dying), per ruleset, a
short summary written for the kit and the citation ids of the units that say so. :func:`compare`
returns one concept with the cited rules quoted verbatim from the database; :func:`concordance`
returns the whole grid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ruleslawyer.errors import UnknownConceptError

from .words import WORD_RE, fold

__all__ = ["CONCORDANCE_FILE", "Cited", "Cell", "Comparison", "UnknownConceptError", "concepts", "compare",
           "concordance"]

from ruleslawyer.shipped import DATA_DIR

CONCORDANCE_FILE = DATA_DIR / "concordance.json"




@dataclass(frozen=True)
class Cited:
    """A cited unit: its id, breadcrumb and verbatim text."""

    id: str
    breadcrumb: str
    text: str

    def to_dict(self) -> dict:
        return {"id": self.id, "breadcrumb": self.breadcrumb, "text": self.text}


@dataclass(frozen=True)
class Cell:
    """How one ruleset handles the concept: a summary (the kit's words) and the cited rules."""

    ruleset: str
    ruleset_title: str
    summary: str
    cites: tuple[Cited, ...]

    def to_dict(self) -> dict:
        return {"ruleset": self.ruleset, "ruleset_title": self.ruleset_title, "summary": self.summary,
                "cites": [c.to_dict() for c in self.cites]}


@dataclass(frozen=True)
class Comparison:
    """One concept across the rulesets.

    Attributes:
        concept: concept id (``flanking``).
        title: ``Flanking and positional advantage``.
        cells: one :class:`Cell` per ruleset, in ruleset order.
    """

    concept: str
    title: str
    cells: tuple[Cell, ...]

    def __iter__(self):
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def cited_ids(self) -> tuple[str, ...]:
        return tuple(c.id for cell in self.cells for c in cell.cites)

    def to_dict(self) -> dict:
        return {"concept": self.concept, "title": self.title, "cells": [c.to_dict() for c in self.cells]}

    def records(self) -> list[dict]:
        """One flat record per ruleset: ruleset, summary, rule ids, quoted rules."""
        return [{"concept": self.concept, "ruleset": c.ruleset_title, "summary": c.summary,
                 "rule_ids": ", ".join(x.id for x in c.cites),
                 "rules": " / ".join(x.text for x in c.cites)} for c in self.cells]

    def to_dataframe(self):
        """A pandas DataFrame, one row per ruleset (columns concept, ruleset, summary, rule_ids, rules)."""
        import pandas as pd

        return pd.DataFrame(self.records(), columns=["concept", "ruleset", "summary", "rule_ids", "rules"])

    def to_markdown(self) -> str:
        """A Markdown section: the summary per ruleset, then each cited rule quoted with its id."""
        lines = [f"### {self.title}", ""]
        for c in self.cells:
            lines.append(f"**{c.ruleset_title}** — {c.summary}")
            for x in c.cites:
                lines.append(f"> {x.text} `[{x.id}]`")
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"


def _key(text: str) -> str:
    return " ".join(WORD_RE.findall(fold(text)))


@lru_cache(maxsize=1)
def _data() -> tuple[dict, ...]:
    return tuple(json.loads(CONCORDANCE_FILE.read_text(encoding="utf-8"))["concepts"])


def _cells() -> dict[str, dict]:
    """``{ruleset id: {concept id: {"summary", "cites"}}}`` from every installed ruleset's
    ``Ruleset.concordance`` file (:mod:`ruleslawyer.registry`), in ruleset-id order."""
    from ruleslawyer.errors import RulesDataError
    from ruleslawyer.registry import rulesets

    out: dict[str, dict] = {}
    for r in rulesets():
        if r.concordance is None:
            continue
        try:
            out[r.id] = json.loads(Path(r.concordance).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RulesDataError(f"{r.concordance}:1: cannot read the {r.id} concordance cells: {exc}") from None
    return out


def concepts() -> list[dict]:
    """The concepts: ``[{"id", "title", "aliases"}]`` in their order."""
    return [{"id": c["id"], "title": c["title"], "aliases": list(c.get("aliases", []))} for c in _data()]


def _find(concept: str) -> dict:
    from ruleslawyer.errors import RulesInputError

    if not isinstance(concept, str) or not _key(concept):
        raise RulesInputError("concept", "give a concept, one of: " + ", ".join(c["id"] for c in _data()))
    key = _key(concept)
    for c in _data():
        names = [c["id"], c["title"], *c.get("aliases", [])]
        if key in {_key(n) for n in names}:
            return c
    for c in _data():  # a word of the title or of an alias ("positional" finds flanking)
        if any(key in _key(n).split() or _key(n).startswith(key) for n in [c["id"], c["title"], *c.get("aliases", [])]):
            return c
    raise UnknownConceptError(f"no concept {concept!r}; choose one of: " + ", ".join(c["id"] for c in _data()))


def compare(concept: str, *, db=None, rules=None) -> Comparison:
    """How each ruleset handles one concept, each cell quoting the rules it cites.

    Args:
        concept: a concept id (``round-length``, ``actions-per-round``, ``initiative``, ``defending``,
            ``reactions``, ``flanking``, ``ranged-attacks``, ``surprise``, ``dying``), its title or
            an alias (``ambush``, ``positional advantage``, ``parry``).

    Returns:
        A :class:`Comparison` with one cell per ruleset in the data.

    Raises:
        RulesInputError: empty concept (field ``concept``).
        UnknownConceptError: no such concept (the message lists them).
        ruleslawyer.rulesdb.UnknownIdError: the data cites an id the database lacks.
    """
    from .handle import connect
    from .lookup import UnknownIdError

    c = _find(concept)
    conn = connect(rules or db)
    titles = dict(conn.execute("SELECT DISTINCT ruleset, ruleset_title FROM chapters"))
    cells = []
    for ruleset, by_concept in _cells().items():
        cell = by_concept.get(c["id"])
        if cell is None:
            continue
        cites = []
        for rid in cell["cites"]:
            row = conn.execute("SELECT id, breadcrumb, text FROM units WHERE id = ?", (rid,)).fetchone()
            if row is None:
                raise UnknownIdError(f"concordance {c['id']}/{ruleset} cites {rid!r}, which is not in the database")
            cites.append(Cited(row[0], row[1], row[2]))
        cells.append(Cell(ruleset, titles.get(ruleset, ruleset), cell["summary"], tuple(cites)))
    return Comparison(c["id"], c["title"], tuple(cells))


def concordance(*, db=None, rules=None):
    """The whole concordance as a pandas DataFrame: one row per concept, per ruleset a column with
    the summary and the cited ids (``Mastery``, ``Mastery ids``, ...)."""
    import pandas as pd

    rows = []
    for c in _data():
        comp = compare(c["id"], db=db, rules=rules)
        row = {"concept": comp.title}
        for cell in comp.cells:
            row[cell.ruleset_title] = cell.summary
            row[f"{cell.ruleset_title} ids"] = ", ".join(x.id for x in cell.cites)
        rows.append(row)
    return pd.DataFrame(rows)
