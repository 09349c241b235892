"""Synonyms and aliases: the words a GM types mapped to the words each book uses.

The data is JSON: ``rulesdb/synonyms/common.json`` for every ruleset, and each registered
ruleset's own file (:attr:`ruleslawyer.registry.Ruleset.synonyms`, found through
:func:`ruleslawyer.registry.rulesets`) for that ruleset. Each entry lists ``terms`` (what a GM may
type — whole words or phrases, case-insensitive) and ``expand`` (the book's words, searched as
alternatives). The build compiles them into the database's ``synonyms`` table, which
:func:`ruleslawyer.rulesdb.search` reads; it reports each one it used on the hit
(``Hit.matched_via``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .words import NEGATIONS, WORD_RE, fold, normalize

__all__ = ["COMMON", "SYNONYMS_DIR", "COMMON_FILE", "Synonym", "synonyms", "phrase_table", "term_weights",
           "expand", "synonym_words", "synonym_files", "word_forms", "abbreviations"]

#: Pass as ``ruleset`` to get only the entries common to every ruleset.
COMMON = "*common*"

from ruleslawyer.shipped import DATA_DIR

SYNONYMS_DIR = DATA_DIR / "synonyms"
#: The entries that apply to every ruleset.
COMMON_FILE = SYNONYMS_DIR / "common.json"


@dataclass(frozen=True)
class Synonym:
    """One synonym entry.

    Attributes:
        terms: what a GM may type, folded to lowercase words (``("hp",)``, ``("hit points",)``).
        expand: the book's words searched instead (``("health",)``); ``"endurance trial & 0"``
            needs both phrases in one unit.
        ruleset: the ruleset it belongs to, or None for every ruleset.
        weight: how much the words it stands for weigh in a question, 0–1 (``"weight"`` in the
            data, default 1): 0.3 for a word that only sets the scene ("orc" → creature, foe).
    """

    terms: tuple[str, ...]
    expand: tuple[str, ...]
    ruleset: str | None
    weight: float = 1.0

    def to_dict(self) -> dict:
        return {"terms": list(self.terms), "expand": list(self.expand), "ruleset": self.ruleset,
                "weight": self.weight}


def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD_RE.findall(fold(normalize(text))))


def _negated(term: str) -> str:
    """``term`` with each negation written ``not`` ("can't be done": "not be done"), as a question's
    are read, before its apostrophes split words."""
    return " ".join("not" if fold(normalize(w)).replace("’", "'") in NEGATIONS else w for w in term.split())


def _expansion(text: str) -> str:
    """A book phrase as searched: folded words; ``a & b`` (both phrases anywhere in the unit) keeps
    its ``&``."""
    return " & ".join(p for p in (" ".join(_words(part)) for part in text.split("&")) if p)


def synonym_files() -> tuple[tuple[str | None, Path], ...]:
    """``(ruleset id or None for every ruleset, JSON file)``: common.json, then each registered
    ruleset's file in registry order."""
    from ruleslawyer.registry import rulesets

    return ((None, COMMON_FILE),) + tuple((r.id, Path(r.synonyms)) for r in rulesets() if r.synonyms)


@lru_cache(maxsize=1)
def _load() -> tuple[Synonym, ...]:
    """Every entry of every synonym file. An entry may name its ``concept``; a ruleset's entry naming a
    concept of common.json without ``terms`` of its own takes that entry's terms (one list of the
    ways a GM says "leave melee", each ruleset adding its own words for it)."""
    from ruleslawyer.errors import RulesDataError

    out: list[Synonym] = []
    concepts: dict[str, list] = {}
    for ruleset, path, entry in _entries():
        raw_terms = entry.get("terms")
        if raw_terms is None:
            raw_terms = concepts.get(entry.get("concept", ""))
            if raw_terms is None:
                raise RulesDataError(f"{path}: a synonym entry needs 'terms' or the 'concept' of a common.json "
                                     f"entry, got {entry!r}")
        elif ruleset is None and entry.get("concept"):
            concepts[entry["concept"]] = raw_terms
        terms = tuple(" ".join(_words(_negated(t))) for t in raw_terms if _words(t))
        expand = tuple(e for e in map(_expansion, entry["expand"]) if e)
        weight = entry.get("weight", 1.0)
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not 0 < weight <= 1:
            raise RulesDataError(f"{path}: synonym weight must be a number above 0 and at most 1, got {weight!r}")
        if terms and expand:
            out.append(Synonym(terms, expand, ruleset, float(weight)))
    return tuple(out)


def _entries():
    """``(ruleset or None, file, entry)`` of every synonym file, common.json first."""
    import json

    from ruleslawyer.errors import RulesDataError

    for ruleset, path in synonym_files():
        try:
            entries = json.loads(path.read_text(encoding="utf-8")).get("synonyms", [])
        except (OSError, ValueError, AttributeError) as exc:
            raise RulesDataError(f"{path}: cannot read the synonym data: {exc}") from None
        for entry in entries:
            yield ruleset, path, entry


def synonyms(ruleset: str | None = None) -> tuple[Synonym, ...]:
    """The synonym entries that apply to ``ruleset`` (common ones plus its own; all when None)."""
    if ruleset == COMMON:
        return tuple(s for s in _load() if s.ruleset is None)
    return tuple(s for s in _load() if ruleset is None or s.ruleset in (None, ruleset))


def _chosen(ruleset: str | None) -> tuple[Synonym, ...]:
    """``synonyms(ruleset)``, or with ``"=name"`` that ruleset's own entries only."""
    if ruleset and ruleset.startswith("="):
        return tuple(s for s in _load() if s.ruleset == ruleset[1:])
    return synonyms(ruleset)


def _key(term: str) -> tuple[str, ...]:
    """A term's words as a question's are read: each negation (no, don't, without) is ``not``."""
    return tuple("not" if w in NEGATIONS else w for w in term.split())


@lru_cache(maxsize=64)
def phrase_table(ruleset: str | None = None) -> dict[tuple[str, ...], tuple[str, ...]]:
    """``{typed words: book phrases}`` for ``ruleset`` (``"=mythras"``: that ruleset's own entries
    only); entries for the same words are merged.

    Returns:
        A mapping from a tuple of folded words (``("attack", "of", "opportunity")``) to the
        phrases to search as alternatives (``("reprisal attack", "moves out")``), in data order.
    """
    table: dict[tuple[str, ...], list[str]] = {}
    chosen = _chosen(ruleset)
    for syn in chosen:
        for term in syn.terms:
            key = _key(term)
            bucket = table.setdefault(key, [])
            for e in syn.expand:
                if e not in bucket and e != term:
                    bucket.append(e)
    return {k: tuple(v) for k, v in table.items()}


@lru_cache(maxsize=64)
def term_weights(ruleset: str | None = None) -> dict[tuple[str, ...], float]:
    """``{typed words: weight}`` for ``ruleset`` (the lowest weight of the entries holding them)."""
    out: dict[tuple[str, ...], float] = {}
    chosen = _chosen(ruleset)
    for syn in chosen:
        for term in syn.terms:
            key = _key(term)
            out[key] = min(out.get(key, 1.0), syn.weight)
    return out


def expand(text: str, ruleset: str | None = None) -> tuple[str, ...]:
    """The book phrases a GM's word or phrase expands to (empty if it has no synonym)."""
    return phrase_table(ruleset).get(tuple("not" if w in NEGATIONS else w for w in _words(text)), ())


@lru_cache(maxsize=1)
def word_forms() -> tuple[tuple[str, ...], ...]:
    """Forms of one word the Porter stemmer does not bring together (``fell``/``fall``, ``knives``/
    ``knife``): common.json's ``forms``, each a tuple of folded words. A query word matches its
    other forms as if typed."""
    return tuple(tuple(" ".join(_words(w)) for w in forms if _words(w)) for forms in _common().get("forms", []))


def _common() -> dict:
    """common.json as read now (its ``forms`` and ``abbreviations`` besides the synonyms)."""
    import json

    return json.loads(COMMON_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def abbreviations() -> tuple[tuple[str, str], ...]:
    """A GM's short forms of words and the words (``("dmg", "damage")``): common.json's
    ``abbreviations``, folded, sorted. A question is read with the word in place of its short form.

    Raises:
        RulesDataError: an entry is not one word for one word.
    """
    from ruleslawyer.errors import RulesDataError

    data = _common().get("abbreviations", {})
    out = []
    for short, word in data.items():
        a, b = _words(short), _words(word) if isinstance(word, str) else ()
        if len(a) != 1 or len(b) != 1:
            raise RulesDataError(f"{COMMON_FILE}: an abbreviation is one word for one word, got {short!r}: {word!r}")
        out.append((a[0], b[0]))
    return tuple(sorted(out))


def synonym_words() -> set[str]:
    """Every word of every synonym entry (typed and book side), folded; the build stems them."""
    return ({w for s in _load() for t in (*s.terms, *s.expand) for w in t.split() if w != "&"}
            | {w for forms in word_forms() for w in forms} | {word for _short, word in abbreviations()})
