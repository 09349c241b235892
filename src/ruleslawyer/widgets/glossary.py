"""The glossary panel (a term as the rules define it, quoted with its citation) and the fields'
tooltips every panel gets from the same glossary."""

from __future__ import annotations


import ipywidgets as widgets

from .base import PanelArgs, PanelFrame, cite_html, esc, ruleset_options

__all__ = ["GlossaryPanel"]

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

    A bad argument (a term that is not a string, an unknown ruleset, a ``rules`` path that is not a rules database) never
    raises and is never replaced silently: the panel shows its message (``frame.error``,
    :class:`~ruleslawyer.widgets.base.PanelArgs`) in place of a first result.

    Attributes:
        result: the last :class:`~ruleslawyer.rulesdb.glossary.Definitions` (None if none).
    """

    def __init__(self, term: str = "Engaged", ruleset: str = "", *, rules=None) -> None:
        from ruleslawyer.rulesdb.glossary import glossary

        args = PanelArgs(rules)
        self.rules = args.rules
        term = args.text("term", term)
        terms = args.safely(lambda: sorted({d.term for d in glossary(rules=self.rules)}, key=str.lower), [])
        self.term = widgets.Combobox(value=term, options=terms, placeholder="Engaged, AP, CMB, flanking …",
                                     description="Term", ensure_option=False, continuous_update=False,
                                     layout=widgets.Layout(width="320px"))
        self.term.add_class("rl-term")
        options = args.safely(lambda: ruleset_options(self.rules), [("All rulesets", "")])
        self.ruleset = widgets.Dropdown(options=options, value=args.ruleset(ruleset, [v for _, v in options]),
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
        if not args.report(self.frame):  # a bad argument: its message, not another ruleset's definitions
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
            self.frame.show(f'<div class="rl-hint">{esc(panel_hint(r))}</div>',
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


def panel_hint(r) -> str:
    """What to try when nothing defines the term, in the panel's words (the command line's hint names
    commands): the close defined terms, else the Search tab."""
    hint = f"No definition of {r.query.strip()[:80]!r}."
    if r.suggestions:
        return f"{hint} Close terms: {', '.join(r.suggestions)}."
    return f"{hint} Try the book's own term, or look for it on the Search tab."
