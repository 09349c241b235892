"""Every panel of the kit in one tabbed app (what ``make app`` and ``ruleslawyer app`` serve through Voila)."""

from __future__ import annotations

import importlib

import ipywidgets as widgets

from .base import css, esc, style_widget

__all__ = ["KIT_PANELS_FIRST", "KIT_PANELS_LAST", "panel_specs", "all_panels", "app", "AppBox"]

#: The kit's own panels, first and last: (tab title, "module:ClassName", keyword arguments).
KIT_PANELS_FIRST: tuple[tuple[str, str, dict], ...] = (
    ("Search", "ruleslawyer.widgets.search:SearchPanel", {}),
    ("Glossary", "ruleslawyer.widgets.glossary:GlossaryPanel", {}),
    ("Tables", "ruleslawyer.widgets.tables:TablePanel", {}),
)
KIT_PANELS_LAST: tuple[tuple[str, str, dict], ...] = (
    ("Fight", "ruleslawyer.widgets.fight:FightPanel", {}),
    ("Compare", "ruleslawyer.widgets.compare:ComparePanel", {}),
    ("Odds", "ruleslawyer.widgets.odds:OddsPanel", {}),
    ("Rulings", "ruleslawyer.widgets.rulings:RulingsPanel", {}),
    ("Rule by id", "ruleslawyer.widgets.cite:CitationViewer", {"rule_id": "mastery/combat/death/fighting-on#2"}),
)


def panel_specs() -> list[tuple[str, str, dict]]:
    """Every tab in order: the kit's Search, Glossary and Tables, each installed ruleset's panels
    (:attr:`ruleslawyer.registry.Ruleset.panels`, in ruleset order), then Compare, Odds, Rulings and
    Rule by id."""
    from ruleslawyer.registry import rulesets

    middle = [(title, target, {}) for r in rulesets() for title, target in r.panels]
    return [*KIT_PANELS_FIRST, *middle, *KIT_PANELS_LAST]


def _panel_class(target: str):
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def all_panels(rules=None) -> list[tuple[str, object]]:
    """Build every panel: ``[(title, panel), ...]`` in tab order (see :func:`panel_specs`), each given
    ``rules=rules`` (a rules handle; None: every panel uses the default database).

    A panel that cannot be built (its engine is missing or broken) is replaced by a widget saying
    why, so the app always starts.
    """
    out: list[tuple[str, object]] = []
    for title, target, kwargs in panel_specs():
        try:
            cls = _panel_class(target)
            kwargs = {**kwargs, "rules": rules} if rules is not None else kwargs
            out.append((title, cls(**kwargs)))
        except Exception as exc:  # noqa: BLE001 - show why instead of failing the whole app
            out.append((title, widgets.HTML(f'<div class="rl-error">{esc(title)} is unavailable: {esc(exc)}</div>')))
    return out


class AppBox(widgets.VBox):
    """The app's outer box: a VBox that also displays as static HTML where there is no kernel (the
    title, then each tab's name and result line), and whose ``panels`` maps tab title -> panel."""

    def _repr_mimebundle_(self, **kwargs):
        data = dict(super()._repr_mimebundle_(**kwargs) or {})
        rows = []
        for title, panel in getattr(self, "panels", {}).items():
            frame = getattr(panel, "frame", None)
            line = frame.summary if frame is not None and frame.summary else "(run the notebook to use this tab)"
            rows.append(f'<div class="rl-static-tab"><b>{esc(title)}</b>: {esc(line)}</div>')
        data["text/html"] = (f"<style>{css()}</style><div class=\"rl-app rl-panel rl-static\">"
                             f"<div class=\"rl-title\">{esc(TITLE)}</div>{''.join(rows)}</div>")
        data["text/plain"] = TITLE + "".join(f"\n- {p.frame.text()}" for p in getattr(self, "panels", {}).values()
                                             if hasattr(p, "frame"))
        return data


TITLE = ("ruleslawyer: rules lookup, tables and cited exchanges for Mastery, Mythras and Against the "
         "Darkmaster")


def app(selected: int = 0, rules=None, *, title: bool = False) -> AppBox:
    """The tabbed app: one tab per panel (see :func:`panel_specs`), all on the rules handle ``rules``
    (default: the default database). Tab titles are shown in full on one row that scrolls sideways
    when it is wider than the page (the kit's stylesheet).

    ``title``: put :data:`TITLE` above the tabs; off by default, as the notebook (or page) holding
    the app carries its own title and one is enough."""
    panels = all_panels(rules)
    tab = widgets.Tab(children=[getattr(p, "widget", p) for _, p in panels])
    for i, (name, _) in enumerate(panels):
        tab.set_title(i, name)
    tab.selected_index = selected
    head = [widgets.HTML(f'<div class="rl-title">{esc(TITLE)}</div>')] if title else []
    box = AppBox([style_widget(), *head, tab])
    box.add_class("rl-app")
    box.panels = dict(panels)  # title -> panel, for scripting the app from a notebook
    return box
