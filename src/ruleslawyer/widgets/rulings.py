"""The rulings panel: every named ruling the engines use where the rules are silent, searchable and in
full (:func:`ruleslawyer.registry.all_rulings`): the question, the default, the alternatives, the
provenance, why, and the rules it is about."""

from __future__ import annotations

import ipywidgets as widgets

from .base import PanelArgs, PanelFrame, cite_html, esc

__all__ = ["RulingsPanel", "ruling_html", "matches"]


def matches(ruling, words: list[str]) -> bool:
    """True when every word (lower case) occurs in the ruling's id, question, answers, provenance or
    explanation."""
    text = " ".join([ruling.id, ruling.question, ruling.default, *ruling.alternatives, ruling.provenance,
                     ruling.explanation]).lower()
    return all(w in text for w in words)


def ruling_html(ruling, rules=None) -> str:
    """One ruling in full, escaped: id (an amber badge), question, default and alternatives,
    provenance, explanation and the rules it is about (click-to-open citations)."""
    alts = ", ".join(ruling.alternatives) or "none"
    about = "".join(cite_html(rid, rules=rules) for rid in ruling.cites)
    why = f'<div class="rl-ruling-why">{esc(ruling.explanation)}</div>' if ruling.explanation else ""
    return (f'<div class="rl-ruling-entry" data-ruling-id="{esc(ruling.id)}">'
            f'<span class="rl-ruling" data-ruling-id="{esc(ruling.id)}">{esc(ruling.id)}</span> '
            f'<b>{esc(ruling.question)}</b>'
            f'<div>Default: <b>{esc(ruling.default)}</b>; alternatives: {esc(alts)}</div>'
            f'<div class="rl-ruling-prov">Provenance: {esc(ruling.provenance)}</div>{why}'
            + (f'<div>About: {about}</div>' if about else "") + "</div>")


class RulingsPanel:
    """Every registered ruling, filtered as you type.

    Controls: ``query`` (words that must all occur in a ruling) and ``ruleset`` (``""`` = every
    ruleset; ``kit`` holds the rulings every engine shares). ``run()`` lists every matching ruling in
    full, none truncated; the result line counts them.

    Args:
        query: initial filter words.
        ruleset: initial ruleset filter.
        rules: the rules handle whose rules the citations quote (None: the default database).

    A bad argument (a query that is not a string, an unknown ruleset, a ``rules`` path that is not a rules database) never
    raises and is never replaced silently: the panel shows its message (``frame.error``,
    :class:`~ruleslawyer.widgets.base.PanelArgs`) in place of a first result.

    Attributes:
        shown: the :class:`~ruleslawyer.trace.Ruling` objects listed by the last run.
    """

    def __init__(self, query: str = "", ruleset: str = "", *, rules=None) -> None:
        from ruleslawyer.registry import all_rulings

        args = PanelArgs(rules)
        self.rules = args.rules
        query = args.text("query", query)
        self._all = all_rulings()
        ids = sorted({r.ruleset for r in self._all})
        ruleset = args.ruleset(ruleset, ids)
        self.query = widgets.Text(value=query, placeholder="damage, trauma, parry …", description="Filter",
                                  continuous_update=True, layout=widgets.Layout(width="320px"))
        self.query.add_class("rl-query")
        self.ruleset = widgets.Dropdown(options=[("All rulesets", "")] + [(i, i) for i in ids],
                                        value=ruleset, description="Ruleset",
                                        layout=widgets.Layout(width="240px"))
        self.frame = PanelFrame("Rulings: the kit's answers where the rules are silent", [[self.query, self.ruleset]],
                                css_class="rl-rulings-panel", rules=self.rules)
        self.output, self.widget = self.frame.output, self.frame.widget
        self.shown: list = []
        self.query.observe(lambda _c: self.run(), names="value")
        self.ruleset.observe(lambda _c: self.run(), names="value")
        if not args.report(self.frame):  # a bad argument: its message, not every ruleset's rulings
            self.run()

    def run(self) -> None:
        """List every ruling matching the filter words and the ruleset."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        words = self.query.value.lower().split()
        rs = self.ruleset.value
        self.shown = [r for r in self._all if (not rs or r.ruleset == rs) and matches(r, words)]
        n, total = len(self.shown), len(self._all)
        what = f" matching {self.query.value.strip()!r}" if words else ""
        where = f" in {rs}" if rs else ""
        body = "".join(ruling_html(r, self.rules) for r in self.shown) or \
            '<div class="rl-hint">No ruling matches; clear the filter to see them all.</div>'
        self.frame.show(body, summary=f"{n} of {total} rulings{where}{what}")

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
