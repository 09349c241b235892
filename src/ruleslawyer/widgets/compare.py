"""The compare panel: how each ruleset handles one question (round length, flanking, dying ...), each
cell in the kit's words with the rules it cites quoted (:func:`ruleslawyer.rulesdb.concordance.compare`)."""

from __future__ import annotations

import ipywidgets as widgets

from .base import PanelArgs, PanelFrame, cite_html, esc

__all__ = ["ComparePanel", "comparison_html"]


def comparison_html(comparison, rules=None) -> str:
    """A :class:`~ruleslawyer.rulesdb.concordance.Comparison` as escaped HTML: one card per ruleset
    (its summary, then each cited rule as a click-to-open citation); the cards wrap on a narrow screen."""
    cards = []
    for cell in comparison.cells:
        cites = "".join(cite_html(c.id, rules=rules) for c in cell.cites)
        cards.append(f'<div class="rl-cell" data-ruleset="{esc(cell.ruleset)}"><b>{esc(cell.ruleset_title)}</b>'
                     f'<div>{esc(cell.summary)}</div>{cites}</div>')
    return f'<div class="rl-cells" data-concept="{esc(comparison.concept)}">{"".join(cards)}</div>'


class ComparePanel:
    """Compare one concept across the rulesets.

    Controls: ``concept`` (Dropdown of :func:`ruleslawyer.rulesdb.concordance.concepts`); choosing one
    runs. The result line names the concept and the rulesets compared; each ruleset's cell gives the
    kit's summary and the rules it cites (click to quote).

    Args:
        concept: initial concept id (default: the first).
        rules: the rules handle whose rules are quoted (None: the default database).

    A bad argument (an unknown concept id, a ``rules`` path that is not a rules database) never
    raises and is never replaced silently: the panel shows its message (``frame.error``,
    :class:`~ruleslawyer.widgets.base.PanelArgs`) in place of a first result.

    Attributes:
        result: the last :class:`~ruleslawyer.rulesdb.concordance.Comparison` (None if none).
    """

    def __init__(self, concept: str = "", *, rules=None) -> None:
        from ruleslawyer.rulesdb.concordance import concepts

        args = PanelArgs(rules)
        self.rules = args.rules
        options = [(c["title"], c["id"]) for c in concepts()]
        ids = [v for _, v in options]
        default = ids[0] if ids else None
        chosen = default if concept in ("", None) else args.choice("concept", concept, ids, default)
        self.concept = widgets.Dropdown(options=options, value=chosen,
                                        description="Concept", layout=widgets.Layout(width="420px"))
        self.concept.add_class("rl-concept")
        self.frame = PanelFrame("Compare the rulesets", [[self.concept]], css_class="rl-compare-panel",
                                rules=self.rules)
        self.output, self.widget = self.frame.output, self.frame.widget
        self.result = None
        self.concept.observe(lambda _c: self.run(), names="value")
        if not args.report(self.frame):  # a bad argument: its message, not another concept
            self.run()

    def run(self) -> None:
        """Compare the chosen concept across every ruleset that has a cell for it."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesdb.concordance import compare

        self.result = None
        c = compare(self.concept.value, rules=self.rules)
        self.result = c
        names = ", ".join(cell.ruleset_title for cell in c.cells)
        self.frame.show(comparison_html(c, self.rules), summary=f"{c.title}: {names}")

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
