"""The glossary panel (a term as the rules define it, quoted with its citation) and the fields'
tooltips every panel gets from the same glossary."""

from __future__ import annotations

import re
import sqlite3

import ipywidgets as widgets

from ruleslawyer.errors import RulesError
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.rulesdb.fulltext import search as _search

from .base import PanelFrame, cite_html, esc, ruleset_options

__all__ = ["GlossaryPanel", "field_tooltip", "TOOLTIP_CHARS"]

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


class GlossaryPanel:
    """Look a term up as the rules define it (:func:`ruleslawyer.rulesdb.glossary.define`).

    Controls: ``term`` (a Combobox offering every defined term; a GM word such as ``HP`` works
    through the synonym data), ``ruleset`` (``""`` = every ruleset) and ``button`` (Define; Enter in
    the box defines too). The result line names the term and how many definitions were found;
    each definition quotes its unit verbatim with its click-to-open citation.

    Args:
        term: a term to define at once ("" shows a hint).
        ruleset: initial ruleset filter.
        rules: the rules handle (None: the default database).

    Attributes:
        result: the last :class:`~ruleslawyer.rulesdb.glossary.Definitions` (None if none).
    """

    def __init__(self, term: str = "Engaged", ruleset: str = "", *, rules=None) -> None:
        from ruleslawyer.rulesdb.glossary import glossary

        self.rules = resolve_rules(rules)
        terms = sorted({d.term for d in glossary(rules=self.rules)}, key=str.lower)
        self.term = widgets.Combobox(value=term, options=terms, placeholder="Engaged, AP, CMB, flanking …",
                                     description="Term", ensure_option=False, continuous_update=False,
                                     layout=widgets.Layout(width="320px"))
        self.term.add_class("rl-term")
        options = ruleset_options(self.rules)
        self.ruleset = widgets.Dropdown(options=options, value=ruleset if ruleset in [v for _, v in options] else "",
                                        description="Ruleset", layout=widgets.Layout(width="240px"))
        self.button = widgets.Button(description="Define", button_style="primary")
        self.button.add_class("rl-run")
        self.frame = PanelFrame("Glossary: a term as the rules define it", [[self.term, self.ruleset, self.button]],
                                css_class="rl-glossary-panel", rules=self.rules)
        self.output, self.widget = self.frame.output, self.frame.widget
        self.result = None
        self.button.on_click(lambda _b: self.run())
        self.term.observe(lambda _c: self.run(), names="value")
        self.ruleset.observe(lambda _c: self.run(), names="value")
        self.run()

    def run(self) -> None:
        """Define the term in the box (within the chosen ruleset)."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesdb.glossary import define

        self.result = None
        if not self.term.value.strip():
            self.frame.show('<div class="rl-hint">Type a term, e.g. Engaged, AP or CMB.</div>',
                            summary="No term yet")
            return
        r = define(self.term.value, self.ruleset.value or None, rules=self.rules)
        self.result = r
        if not r:
            self.frame.show(f'<div class="rl-hint">{esc(r.hint)}</div>',
                            summary=f"{r.query.strip()}: no definition")
            return
        first = r.definitions[0]
        n = len(r.definitions)
        via = "".join(f'<div class="rl-via">{esc(v)}</div>' for v in r.via)
        items = "".join(
            f'<div class="rl-definition" data-rule-id="{esc(d.rule_id)}"><b>{esc(d.term)}</b> '
            f'<span class="rl-hint">({esc(d.ruleset)}, {esc(d.source_kind)})</span>'
            f'<blockquote class="rl-quote rl-quote-shown">{esc(d.text)}</blockquote>'
            f'{cite_html(d.rule_id, rules=self.rules)}</div>' for d in r.definitions)
        self.frame.show(via + items, summary=f"{first.term} ({first.ruleset}): {n} definition{'s' if n != 1 else ''} "
                                             f"in the rules, quoted below")

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
