"""Every panel of the kit in one tabbed app (what ``make app`` serves through Voila)."""

from __future__ import annotations

import importlib

import ipywidgets as widgets

from .base import esc, style_widget

__all__ = ["PANELS", "all_panels", "app"]

#: (tab title, module, class name, keyword arguments), in tab order.
PANELS: tuple[tuple[str, str, str, dict], ...] = (
    ("Search", "search", "SearchPanel", {}),
    ("Tables", "tables", "TablePanel", {}),
    ("Trauma", "trauma", "TraumaPanel", {}),
    ("Mastery exchange", "exchange_mastery", "MasteryExchangePanel", {}),
    ("Mastery round", "rounds", "MasteryRoundPanel", {}),
    ("Mythras exchange", "exchange_mythras", "MythrasExchangePanel", {}),
    ("Darkmaster round", "rounds", "DarkmasterRoundPanel", {}),
    ("Rule by id", "cite", "CitationViewer", {"rule_id": "mastery/combat/death/fighting-on#2"}),
)


def all_panels() -> list[tuple[str, object]]:
    """Build every panel whose module is installed: ``[(title, panel), ...]`` in tab order.

    A panel that cannot be built (its engine is missing) is replaced by a widget saying why, so the
    app always starts.
    """
    out: list[tuple[str, object]] = []
    for title, module, name, kwargs in PANELS:
        try:
            cls = getattr(importlib.import_module(f".{module}", __package__), name)
        except (ImportError, AttributeError):
            continue
        try:
            out.append((title, cls(**kwargs)))
        except Exception as exc:  # noqa: BLE001 - show why instead of failing the whole app
            out.append((title, widgets.HTML(f'<div class="rl-error">{esc(title)} is unavailable: {esc(exc)}</div>')))
    return out


def app(selected: int = 0) -> widgets.VBox:
    """The tabbed app: one tab per panel (see :data:`PANELS`)."""
    panels = all_panels()
    tab = widgets.Tab(children=[getattr(p, "widget", p) for _, p in panels])
    for i, (title, _) in enumerate(panels):
        tab.set_title(i, title)
    tab.selected_index = selected
    head = widgets.HTML('<div class="rl-title">ruleslawyer: rules lookup, tables and cited exchanges for '
                        'Mastery, Mythras and Against the Darkmaster</div>')
    box = widgets.VBox([style_widget(), head, tab])
    box.add_class("rl-app")
    box.panels = dict(panels)  # title -> panel, for scripting the app from a notebook
    return box
