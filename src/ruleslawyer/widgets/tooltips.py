"""Field tooltips from the glossary: what a panel field's label means in the rules, with its citation.

Kept apart from the panels so the panel base can give every field its tooltip without importing a
panel module.
"""

from __future__ import annotations

import re
import sqlite3

from ruleslawyer.errors import RulesError
from ruleslawyer.rulesdb.fulltext import search as _search
from ruleslawyer.rulesdb.handle import resolve_rules

__all__ = ["field_tooltip", "TOOLTIP_CHARS"]

#: Longest quoted text a tooltip shows (the rest is cut at a word and marked with …).
TOOLTIP_CHARS = 240

_ABBREVIATION = re.compile(r"^[A-Z]{2,5}$")


def _index(handle, ruleset: str | None) -> dict:
    """Folded term key -> its best :class:`~ruleslawyer.rulesdb.glossary.Definition` in ``ruleset``
    (every ruleset when None), built once per rules handle."""
    from ruleslawyer.rulesdb.glossary import _rank, glossary  # the glossary's own preference order

    def build() -> dict:
        best: dict = {}
        for d in sorted(glossary(ruleset, rules=handle), key=_rank):
            best.setdefault(d.key, d)
        return best

    return handle.cached(f"widgets.glossary-index:{ruleset or ''}", build)


_STOP = frozenset({"to", "of", "the", "a", "an", "and", "or", "in", "on", "with", "next", "all"})


def _candidates(label: str) -> list[str]:
    """What a field label may name, most specific first: the label without its parentheses and
    symbols, then each word from the last (the head noun: ``Defense tier`` names a tier), each also
    in US spelling (``Armour`` -> ``Armor``, as the books print it)."""
    base = re.sub(r"\(.*?\)", " ", label)
    base = " ".join(re.sub(r"[^\w/ -]", " ", base).split())
    words = [w for w in base.split() if len(w) > 1 and w.lower() not in _STOP]
    out = [base, *reversed(words)] if len(words) > 1 else [base]
    return [v for c in out for v in dict.fromkeys((c, c.replace("our", "or")))]


def _clip(text: str) -> str:
    if len(text) <= TOOLTIP_CHARS:
        return text
    return text[:TOOLTIP_CHARS].rsplit(" ", 1)[0] + " …"


def _lookup(label: str, handle, ruleset: str | None) -> str | None:
    """The glossary's definition of what ``label`` names (or, for an abbreviation the glossary lacks,
    the first rule using it), as tooltip text ending in its citation id; None when neither exists."""
    from ruleslawyer.rulesdb.glossary import _key, _variants  # the glossary's own normalisation

    index = _index(handle, ruleset)
    for cand in _candidates(label):
        for key in _variants(_key(cand)):
            d = index.get(key)
            if d is not None:
                text = d.text if d.text.lower().startswith(d.term.lower()) else f"{d.term}: {d.text}"
                return f"{_clip(text)} [{d.rule_id}]"
    if _ABBREVIATION.match(label.strip()):
        word = re.compile(rf"\b{re.escape(label.strip())}\b")
        for hit in _search(label.strip(), ruleset, limit=5, rules=handle).hits:
            if word.search(hit.text):
                return f"{label.strip()}, as the rules use it: {_clip(hit.text)} [{hit.id}]"
    return None


def field_tooltip(label: str, *, rules=None, ruleset: str | None = None, hint: str = "") -> str:
    """The tooltip of a panel field labelled ``label`` (``WEA``, ``CMB``, ``AP``, ``Combat Style %``).

    The glossary's definition of the term the label names (:func:`ruleslawyer.rulesdb.glossary.glossary`
    of ``ruleset``, or of every ruleset), quoted and followed by its citation id in brackets
    (``AP: … [mastery/combat/action-points#1]``); for an abbreviation the glossary lacks (``WEA``),
    the first rule that uses it, with its id; otherwise the label itself (and the field's example,
    ``hint``). Cached on the rules handle. Never raises for a missing or unreadable database: the
    tooltip is then the label.
    """
    handle = resolve_rules(rules)
    hint = hint.strip("\u200b \n")  # ipywidgets' empty placeholder is a zero-width space
    plain = label + (f" (e.g. {hint.removeprefix('e.g. ')})" if hint else "")

    def build() -> str:
        try:
            return _lookup(label, handle, ruleset) or plain
        except (RulesError, sqlite3.Error):
            return plain

    return handle.cached(f"widgets.tooltip:{ruleset or ''}:{label}:{hint}", build)
