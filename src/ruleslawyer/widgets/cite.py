"""The citation viewer: a rule shown in context (its neighbours in the same section) with its citation.

Used on its own (type or paste a citation id) and by the search panel when a hit is clicked.
"""

from __future__ import annotations

import ipywidgets as widgets

from ruleslawyer.rulesdb.handle import resolve_rules

from .base import PanelFrame, cite_html, esc

__all__ = ["CitationViewer", "Quote", "context_html"]


def _unit(rule, focus: bool) -> str:
    cls = "rl-unit rl-focus" if focus else "rl-unit"
    return (f'<div class="{cls}" data-rule-id="{esc(rule.id)}">{esc(rule.text)}'
            f' <span class="rl-id">[{esc(rule.id)}]</span></div>')


def context_html(rule_id: str, before: int = 2, after: int = 2, *, rules=None) -> str:
    """HTML for a rule in context (:func:`ruleslawyer.rulesdb.context`) in the database of ``rules``
    (a rules handle; None: the default database): breadcrumb, the neighbours before it, the rule itself
    (highlighted, with its click-to-open citation), the neighbours after it, and its source
    ``file:line`` and provenance. Every text is escaped.

    Raises:
        UnknownIdError: no rule has this id (a ``LookupError``; its message suggests close ids).
    """
    from ruleslawyer.rulesdb import context

    ctx = context(rule_id, before=before, after=after, rules=rules)
    rule = ctx.rule
    parts = [f'<div class="rl-context" data-rule-id="{esc(rule.id)}">',
             f'<div class="rl-crumb">{esc(rule.breadcrumb)}</div>']
    parts += [_unit(r, False) for r in ctx.before]
    parts.append(_unit(rule, True))
    parts += [_unit(r, False) for r in ctx.after]
    parts.append(f'<div class="rl-cite-line">Citation: {cite_html(rule.id, rules=rules)}</div>')
    parts.append(f'<div class="rl-src">{esc(rule.provenance_kind)} text, {esc(rule.source)}</div></div>')
    return "".join(parts)


class CitationViewer:
    """Show any rule by its citation id, in context.

    Controls: ``rule_id`` (Text), ``button`` (Show). ``run()`` calls :func:`ruleslawyer.rulesdb.context`
    and renders the result into ``output``; an unknown id shows the lookup's message (with close ids).

    Args:
        rule_id: initial id (shown at once when given).
        rules: the rules handle whose rules are shown (None: the default database).
    """

    def __init__(self, rule_id: str = "", *, rules=None) -> None:
        self.rules = resolve_rules(rules)
        self.rule_id = widgets.Text(value=rule_id, placeholder="mastery/combat/death/fighting-on#2",
                                    description="Citation", continuous_update=False,
                                    layout=widgets.Layout(width="420px"))
        self.button = widgets.Button(description="Show", button_style="primary")
        self.frame = PanelFrame("Rule by citation", [[self.rule_id, self.button]], css_class="rl-cite-panel",
                                rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.button.on_click(lambda _b: self.run())
        self.rule_id.observe(lambda _c: self.run(), names="value")  # Enter (or leaving the box) shows it
        if rule_id:
            self.run()

    def show(self, rule_id: str) -> None:
        """Set the id box to ``rule_id`` and show that rule."""
        if self.rule_id.value == rule_id:
            self.run()
        else:
            self.rule_id.value = rule_id  # the observer runs

    def run(self) -> None:
        """Show the rule whose id is in the box, in context."""
        rid = self.rule_id.value.strip()
        if not rid:
            self.frame.show('<div class="rl-hint">Type a citation id, e.g. mastery/combat/death/fighting-on#2</div>',
                            summary="No citation id yet")
            return
        self.frame.guard(lambda: self.frame.show(context_html(rid, rules=self.rules),
                                                 summary=f"{self.rules.rule(rid).breadcrumb} [{rid}]"))

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)


class Quote:
    """A rule or a whole section quoted from the database, for a notebook cell.

    ``Quote("mastery/combat/combat-flow")`` shows the section's rules, each with its citation id;
    ``Quote("mastery/combat/death/fighting-on#2", before=1, after=1)`` a rule with its neighbours. The
    HTML (``_repr_html_``) is escaped text plus the kit's markup; ``str()`` is plain text.
    """

    def __init__(self, rule_id: str, before: int = 0, after: int = 50, *, rules=None) -> None:
        from ruleslawyer.rulesdb import context

        self.rule_id = rule_id
        self.rules = rules
        self.context = context(rule_id, before=before, after=after, rules=rules)
        self._before, self._after = before, after

    def _repr_html_(self) -> str:
        from .base import css

        return f"<style>{css()}</style>" + context_html(self.rule_id, self._before, self._after, rules=self.rules)

    def __str__(self) -> str:
        c = self.context
        lines = [c.rule.breadcrumb]
        for r in (*c.before, c.rule, *c.after):
            lines.append(f"  {r.text}  [{r.id}]")
        return "\n".join(lines)

    __repr__ = __str__
