"""The search panel: type-ahead search over every rule, ruleset filter, ranked hits; a click on a hit
shows the rule in context with its citation."""

from __future__ import annotations

import re

import ipywidgets as widgets

from ruleslawyer.rulesdb.handle import resolve_rules

from .base import PanelFrame, esc, ruleset_options
from .cite import context_html

__all__ = ["SearchPanel", "MAX_HITS", "MAX_SUGGESTIONS"]

MAX_HITS = 10
MAX_SUGGESTIONS = 6
_LAST_WORD = re.compile(r"[\w'*-]*$", re.UNICODE)


class SearchPanel:
    """Search the rules as you type.

    Controls: ``query`` (Text, searches on every keystroke), ``ruleset`` (Dropdown; ``""`` = all),
    ``suggestion_buttons`` (type-ahead completions of the last word from
    :func:`ruleslawyer.rulesdb.complete`, or "did you mean" words when nothing matches) and
    ``hit_buttons`` (one per ranked hit, labelled with its breadcrumb; the highlighted snippet and the
    citation id sit under it). ``run()`` calls :func:`ruleslawyer.rulesdb.search`; clicking a hit calls
    :meth:`show` which renders :func:`~ruleslawyer.widgets.cite.context_html` into ``output``.

    Args:
        query: initial query (searched at once).
        ruleset: initial ruleset filter (``""``: every ruleset).
        rules: the rules handle searched and quoted (None: the default database).

    Attributes:
        results: the last :class:`ruleslawyer.rulesdb.SearchResults` (None before the first run).
        shown: citation id of the rule shown in ``output`` (None if none).
    """

    def __init__(self, query: str = "", ruleset: str = "", *, rules=None) -> None:
        self.rules = resolve_rules(rules)
        self.query = widgets.Text(value=query, placeholder="parry, \"fighting on\", trauma, knock-back …",
                                  description="Search", continuous_update=True,
                                  layout=widgets.Layout(width="420px"))
        self.query.add_class("rl-query")
        options = ruleset_options(self.rules)
        self.ruleset = widgets.Dropdown(options=options, value=ruleset if ruleset in dict(map(reversed, options))
                                        else "", description="Ruleset", layout=widgets.Layout(width="260px"))
        self.suggestion_buttons = [widgets.Button(layout=widgets.Layout(display="none", width="auto"))
                                   for _ in range(MAX_SUGGESTIONS)]
        self._suggestion_queries: list[str] = [""] * MAX_SUGGESTIONS
        for i, b in enumerate(self.suggestion_buttons):
            b.add_class("rl-suggestion")
            b.on_click(lambda _b, i=i: self._take_suggestion(i))
        self.hit_buttons = [widgets.Button(layout=widgets.Layout(width="100%")) for _ in range(MAX_HITS)]
        self.hit_snippets = [widgets.HTML("") for _ in range(MAX_HITS)]
        self._hit_boxes = []
        for i, (b, s) in enumerate(zip(self.hit_buttons, self.hit_snippets)):
            b.add_class("rl-hit-button")
            b.on_click(lambda _b, i=i: self._click_hit(i))
            box = widgets.VBox([b, s], layout=widgets.Layout(display="none"))
            box.add_class("rl-hit")
            self._hit_boxes.append(box)
        hits = widgets.VBox(self._hit_boxes)
        hits.add_class("rl-hits")
        self.frame = PanelFrame("Search the rules", [[self.query, self.ruleset],
                                                     widgets.HBox(self.suggestion_buttons)],
                                css_class="rl-search-panel", beside=hits, rules=self.rules)
        self.output = self.frame.output
        self.status = self.frame.status
        self.widget = self.frame.widget
        self.results = None
        self.shown: str | None = None
        self.query.observe(lambda _c: self.run(), names="value")
        self.ruleset.observe(lambda _c: self.run(), names="value")
        self.run()

    # ------------------------------------------------------------------ actions

    def run(self) -> None:
        """Search for the query in the box (within the chosen ruleset) and list the ranked hits."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesdb import complete, search

        q = self.query.value
        self.results = None
        try:
            results = search(q, ruleset=self.ruleset.value or None, limit=MAX_HITS, rules=self.rules)
        except Exception:
            self._set_hits(())
            self._set_suggestions([])
            raise
        self.results = results
        self._set_hits(results.hits)
        if results.hits:
            n = len(results.hits)
            self.status.value = f'{n} hit{"s" if n != 1 else ""} for <b>{esc(q.strip()[:80])}</b>, best first'
            words = complete(q, rules=self.rules) if q and not q[-1:].isspace() else []
            head = q[: len(q) - len(_LAST_WORD.search(q).group(0))]
            self._set_suggestions([(w, head + w) for w in words if w != _LAST_WORD.search(q).group(0).lower()])
        else:
            self.status.value = f'<span class="rl-hint">{esc(results.hint)}</span>'
            self._set_suggestions([(w, w) for w in results.suggestions])
            self.output.value = ""

    def show(self, rule_id: str) -> None:
        """Show the rule with this citation id in context (its neighbours and its citation)."""
        def go() -> None:
            self.frame.show(context_html(rule_id, rules=self.rules), summary=self._shown_summary(rule_id))
            self.shown = rule_id
        self.frame.guard(go)

    # ------------------------------------------------------------------ helpers

    def _shown_summary(self, rule_id: str) -> str:
        from .base import resolve_rule

        rule = resolve_rule(rule_id, self.rules)
        return f"{rule.breadcrumb} [{rule_id}]" if rule is not None else rule_id

    def _set_hits(self, hits) -> None:
        for i, box in enumerate(self._hit_boxes):
            if i < len(hits):
                h = hits[i]
                self.hit_buttons[i].description = h.breadcrumb
                self.hit_buttons[i].tooltip = h.id
                via = getattr(h, "matched_via", ())
                self.hit_snippets[i].value = (f'<div class="rl-hit-snippet">{h.snippet}</div>'
                                              f'<div class="rl-hit-id" data-rule-id="{esc(h.id)}">{esc(h.id)}</div>'
                                              + (f'<div class="rl-via">{esc("; ".join(via))}</div>' if via else "")
                                              # a hit found through its heading says so (escaped, <mark> added)
                                              + (f'<div class="rl-hit-heading">matched in the heading: '
                                                 f'{h.matched_heading}</div>' if h.matched_heading else ""))
                box.layout.display = None
            else:
                box.layout.display = "none"

    def _set_suggestions(self, pairs: list[tuple[str, str]]) -> None:
        pairs = pairs[:MAX_SUGGESTIONS]
        for i, b in enumerate(self.suggestion_buttons):
            if i < len(pairs):
                b.description, self._suggestion_queries[i] = pairs[i]
                b.layout.display = None
            else:
                b.layout.display = "none"

    def _take_suggestion(self, i: int) -> None:
        self.query.value = self._suggestion_queries[i]

    def _click_hit(self, i: int) -> None:
        if self.results is not None and i < len(self.results.hits):
            self.show(self.results.hits[i].id)

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
