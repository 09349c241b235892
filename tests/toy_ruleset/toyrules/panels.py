"""Toy Skirmish panel."""

import ipywidgets as widgets


class ShovePanel:
    def __init__(self, rules=None) -> None:
        self.rules = rules
        self.widget = widgets.HTML("<b>Shove</b>: a toy panel")
