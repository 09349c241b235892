"""The glossary: terms the sources define, extracted at build time, looked up by a GM's word.

A term is defined where the text labels it (``Engaged: If you attack …``, ``Durability.
Durability is …``), says what it is (``A Round (rnd) is …``, ``Engaged means …``) or gives an
abbreviation (``Action Points (AP)``). See :func:`ruleslawyer.rulesdb.extract.find_definitions`.
:func:`define` finds a term by its words, singular or plural, by abbreviation, or through the
synonym data (``HP`` finds Health); each definition quotes the defining unit verbatim with its
citation id.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import clip

import difflib
from dataclasses import asdict, dataclass

from .handle import connect
from .words import WORD_RE, fold
from .synonyms import expand

__all__ = ["Definition", "Definitions", "define", "glossary", "terms_in", "STYLE_ORDER"]

#: Preference when a term has several definitions: a label beats a defining sentence beats an
#: abbreviation.
STYLE_ORDER = {"label": 0, "sentence": 1, "abbreviation": 2}


@dataclass(frozen=True)
class Definition:
    """One term as one unit of the rules defines it.

    Attributes:
        term: the term as written (``Engaged``).
        key: its folded lookup key (``engaged``).
        ruleset: ruleset id.
        rule_id: citation id of the defining unit.
        text: the defining unit's verbatim text.
        breadcrumb: ``Mastery › Combat › Additional Combat Rules ¶3``.
        style: ``label``, ``sentence`` or ``abbreviation``.
        source_kind: ``chapter``, ``supplement`` or ``house-rules``.
    """

    term: str
    key: str
    ruleset: str
    rule_id: str
    text: str
    breadcrumb: str
    style: str
    source_kind: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Definitions:
    """The definitions found for one looked-up term, best first.

    Attributes:
        query: the term as asked.
        definitions: the definitions (a chapter's label first).
        via: how the query reached them (``synonym: HP → health``), empty when directly.
        hint: when nothing defines the term, what to try instead (close terms, or search).
        suggestions: close defined terms (folded keys), best first, when nothing matched.
    """

    query: str
    definitions: tuple[Definition, ...]
    via: tuple[str, ...] = ()
    hint: str = ""
    suggestions: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.definitions)

    def __iter__(self):
        return iter(self.definitions)

    def __len__(self) -> int:
        return len(self.definitions)

    def __getitem__(self, index):
        return self.definitions[index]

    def to_dict(self) -> dict:
        return {"query": self.query, "via": list(self.via), "definitions": [d.to_dict() for d in self.definitions],
                "hint": self.hint, "suggestions": list(self.suggestions)}

    def to_markdown(self) -> str:
        """A Markdown block: each definition quoted with its breadcrumb and citation id."""
        lines = [f"**{self.query}**" + (f" ({'; '.join(self.via)})" if self.via else "")]
        if self.hint:
            lines += ["", self.hint]
        for d in self.definitions:
            lines += ["", f"> {d.text}", f"> — {d.breadcrumb} `[{d.rule_id}]`"]
        return "\n".join(lines)

    def to_dataframe(self):
        """The definitions as a pandas DataFrame (term, ruleset, rule_id, text, ...)."""
        import pandas as pd

        cols = ["term", "ruleset", "rule_id", "text", "breadcrumb", "style", "source_kind", "key"]
        return pd.DataFrame([d.to_dict() for d in self.definitions], columns=cols)


_SQL = """SELECT g.term, g.key, g.ruleset, g.unit_id, u.text, u.breadcrumb, g.style, c.kind, u.ord
FROM glossary g JOIN units u ON u.id = g.unit_id
JOIN chapters c ON c.ruleset = u.ruleset AND c.chapter = u.chapter"""


def _key(text: str) -> str:
    return " ".join(WORD_RE.findall(fold(text)))


def _variants(key: str) -> list[str]:
    out = [key]
    if key.endswith("ies"):
        out.append(key[:-3] + "y")
    if key.endswith("es"):
        out.append(key[:-2])
    if key.endswith("s"):
        out.append(key[:-1])
    else:
        out.append(key + "s")
    return out


def _rank(d: Definition) -> tuple:
    return (d.source_kind == "supplement", STYLE_ORDER.get(d.style, 9), d.ruleset, d.rule_id)


def glossary(ruleset: str | None = None, *, db=None, rules=None) -> list[Definition]:
    """Every glossary entry (optionally of one ruleset), sorted by term.

    Raises:
        ValueError: unknown ruleset.
    """
    conn = connect(rules or db)
    known = [r[0] for r in conn.execute("SELECT DISTINCT ruleset FROM chapters ORDER BY ruleset")]
    if ruleset is not None and ruleset not in known:
        raise RulesInputError("ruleset", f"unknown ruleset {clip(ruleset)}; choose one of: {', '.join(known)}")
    rows = conn.execute(_SQL + (" WHERE g.ruleset = ?" if ruleset else "") + " ORDER BY g.key, u.ord",
                        (ruleset,) if ruleset else ())
    return [Definition(*r[:8]) for r in rows]


def define(term: str, ruleset: str | None = None, *, db=None, rules=None) -> Definitions:
    """Look a term up in the glossary.

    Args:
        term: the term as a GM types it: ``Engaged``, ``flanking``, ``AP``, ``HP`` (through the
            synonym data), singular or plural.
        ruleset: only this ruleset's definitions.

    Returns:
        :class:`Definitions`, a chapter's label first, then defining sentences, abbreviations and
        supplement entries. A term nothing defines is an empty result (not an error) whose
        ``hint`` names close terms, or says whether a full-text search finds the word.

    Raises:
        RulesInputError: ``term`` is empty or not text (field ``term``).
        ValueError: unknown ruleset.
    """
    from ruleslawyer.errors import RulesInputError

    if not isinstance(term, str) or not _key(term):
        raise RulesInputError("term", f"give a word or phrase to define, e.g. Engaged or AP; got {term!r}")
    entries = glossary(ruleset, db=db, rules=rules)
    by_key: dict[str, list[Definition]] = {}
    for d in entries:
        by_key.setdefault(d.key, []).append(d)
    key = _key(term)
    found: list[Definition] = []
    for k in _variants(key):
        found += by_key.get(k, [])
    via: list[str] = []
    if not found:
        from .words import porter_stems

        words = set(key.split()) | {w for k in by_key for w in k.split()}
        stem = porter_stems(words)
        target = tuple(stem.get(w, w) for w in key.split())
        for k, defs in by_key.items():
            if tuple(stem.get(w, w) for w in k.split()) == target:
                found += defs
    if not found:
        for phrase in expand(term, ruleset):
            for k in _variants(_key(phrase)):
                hits = by_key.get(k, [])
                if hits:
                    note = f"synonym: {term.strip()} → {phrase}"
                    if note not in via:
                        via.append(note)
                    found += hits
    if not found:
        close = tuple(difflib.get_close_matches(key, list(by_key), n=5, cutoff=0.6))
        where = f" in {ruleset}" if ruleset else ""
        hint = f"No definition of {term.strip()[:80]!r}{where}."
        if close:
            hint += f" Close terms: {', '.join(close)}."
        else:
            from .fulltext import search

            n = len(search(term, ruleset, 1000, db=db, rules=rules))
            rules = f"the {ruleset} rules" if ruleset else "the rules"
            hint += (f" A search of {rules} finds {n} unit{'s' if n != 1 else ''}: try `ruleslawyer search "
                     f"{term.strip()[:80]}`." if n else
                     f" Nothing in {rules} matches it either; try the book's own term, or browse with "
                     "`ruleslawyer tables`.")
        return Definitions(term, (), (), hint, close)
    unique = {d.rule_id + "|" + d.key: d for d in found}
    return Definitions(term, tuple(sorted(unique.values(), key=_rank)), tuple(via))


def terms_in(text: str, ruleset: str | None = None, *,
             db=None, rules=None) -> list[tuple[int, int, Definition]]:
    """Defined terms that occur in ``text``, for showing definitions inline (e.g. as tooltips).

    Args:
        text: any text, e.g. a rule's text.
        ruleset: use only this ruleset's glossary (a rule's own ruleset, usually).

    Returns:
        ``[(start, end, definition)]``: character spans of whole-word, case-insensitive matches,
        longest term first where terms overlap, in text order, each with the term's best
        definition (see :func:`define`). Single words count only when capitalised, as the rules
        write their terms ("Engaged", not "engaged"). Skip a span whose ``definition.rule_id`` is
        the annotated unit's own id to avoid a term pointing at itself.
    """
    import re

    if not isinstance(text, str) or not text:
        return []
    best: dict[str, Definition] = {}
    for d in sorted(glossary(ruleset, db=db, rules=rules), key=_rank):
        if d.style != "abbreviation" or d.term.isupper():
            best.setdefault(d.key, d)
    if not best:
        return []
    words = sorted(best, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(r"\W+".join(map(re.escape, k.split())) for k in words) + r")(?![\w-])",
                         re.IGNORECASE)
    out = []
    for m in pattern.finditer(text):
        key = _key(m.group(1))
        d = best.get(key)
        # A lower-case single word ("attack") is ordinary prose; the rules capitalise their terms.
        if d is not None and (m.group(1)[0].isupper() or " " in key):
            out.append((m.start(1), m.end(1), d))
    return out
