"""Jupyter panels for the rules kit (ipywidgets 8).

Each panel is a small class that owns its controls, one HTML output and a ``run()`` that calls one
function of the kit and renders its trace; display it by making it the last expression of a cell.
Every panel takes ``rules=`` (a rules handle from :func:`ruleslawyer.rulesdb.handle.resolve_rules`;
None: the default database), leads its output with a one-line result, and displays as static HTML
where there is no kernel. Panels are imported lazily, so ``import ruleslawyer.widgets`` stays cheap::

    from ruleslawyer.widgets import SearchPanel, TablePanel
    SearchPanel("parry")
"""

from __future__ import annotations

import importlib

_PANELS = {
    "PanelFrame": "base",
    "RulingsBar": "base",
    "trace_html": "base",
    "error_html": "base",
    "resolve_rule": "base",
    "cite_html": "base",
    "TraceView": "base",
    "Quote": "cite",
    "CitationViewer": "cite",
    "context_html": "cite",
    "SearchPanel": "search",
    "TablePanel": "tables",
    "TraumaPanel": "trauma",
    "MasteryExchangePanel": "exchange_mastery",
    "MythrasExchangePanel": "exchange_mythras",
    "MasteryRoundPanel": "rounds",
    "DarkmasterRoundPanel": "rounds",
    "GlossaryPanel": "glossary",
    "ComparePanel": "compare",
    "RulingsPanel": "rulings",
    "OddsPanel": "odds",
    "FightPanel": "fight",
    "all_panels": "app",
}

__all__ = sorted(_PANELS)


def __getattr__(name: str):
    module = _PANELS.get(name)
    if module is None:
        raise AttributeError(f"module 'ruleslawyer.widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__():
    return sorted(set(globals()) | set(_PANELS))
