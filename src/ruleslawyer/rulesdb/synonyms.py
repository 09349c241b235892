"""Synonyms and aliases: the words a GM types mapped to the words each book uses.

The data lives in ``rulesdb/synonyms/*.json`` (shipped as package data): ``common.json`` for
every ruleset and ``<ruleset>.json`` for one. Each entry lists ``terms`` (what a GM may type —
whole words or phrases, case-insensitive) and ``expand`` (the book's words, searched as
alternatives). :func:`ruleslawyer.rulesdb.search` applies them and reports each one it used on the
hit (``Hit.matched_via``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .words import WORD_RE, fold

__all__ = ["COMMON", "SYNONYMS_DIR", "Synonym", "synonyms", "phrase_table", "expand", "synonym_words"]

#: Pass as ``ruleset`` to get only the entries common to every ruleset.
COMMON = "*common*"

from ruleslawyer.shipped import DATA_DIR

SYNONYMS_DIR = DATA_DIR / "synonyms"


@dataclass(frozen=True)
class Synonym:
    """One synonym entry.

    Attributes:
        terms: what a GM may type, folded to lowercase words (``("hp",)``, ``("hit points",)``).
        expand: the book's words searched instead (``("health",)``).
        ruleset: the ruleset it belongs to, or None for every ruleset.
    """

    terms: tuple[str, ...]
    expand: tuple[str, ...]
    ruleset: str | None

    def to_dict(self) -> dict:
        return {"terms": list(self.terms), "expand": list(self.expand), "ruleset": self.ruleset}


def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD_RE.findall(fold(text)))


@lru_cache(maxsize=1)
def _load() -> tuple[Synonym, ...]:
    import json

    out: list[Synonym] = []
    for path in sorted(SYNONYMS_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        ruleset = data.get("ruleset") if path.stem != "common" else None
        for entry in data.get("synonyms", []):
            terms = tuple(" ".join(_words(t)) for t in entry["terms"] if _words(t))
            expand = tuple(" ".join(_words(t)) if not t.startswith("-") else t for t in entry["expand"])
            expand = tuple(e for e in expand if e.strip())
            if terms and expand:
                out.append(Synonym(terms, expand, ruleset))
    return tuple(out)


def synonyms(ruleset: str | None = None) -> tuple[Synonym, ...]:
    """The synonym entries that apply to ``ruleset`` (common ones plus its own; all when None)."""
    if ruleset == COMMON:
        return tuple(s for s in _load() if s.ruleset is None)
    return tuple(s for s in _load() if ruleset is None or s.ruleset in (None, ruleset))


@lru_cache(maxsize=64)
def phrase_table(ruleset: str | None = None) -> dict[tuple[str, ...], tuple[str, ...]]:
    """``{typed words: book phrases}`` for ``ruleset``; entries for the same words are merged.

    Returns:
        A mapping from a tuple of folded words (``("attack", "of", "opportunity")``) to the
        phrases to search as alternatives (``("reprisal attack", "moves out")``), in data order.
    """
    table: dict[tuple[str, ...], list[str]] = {}
    for syn in synonyms(ruleset):
        for term in syn.terms:
            key = tuple(term.split())
            bucket = table.setdefault(key, [])
            for e in syn.expand:
                if e not in bucket and e != term:
                    bucket.append(e)
    return {k: tuple(v) for k, v in table.items()}


def expand(text: str, ruleset: str | None = None) -> tuple[str, ...]:
    """The book phrases a GM's word or phrase expands to (empty if it has no synonym)."""
    return phrase_table(ruleset).get(_words(text), ())


def synonym_words() -> set[str]:
    """Every word of every synonym entry (typed and book side), folded; the build stems them."""
    return {w for s in _load() for t in (*s.terms, *s.expand) for w in t.split()}
