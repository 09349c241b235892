"""Every panel whose rulings switch lists rulings reruns on a change and hands the answer chosen to
every engine and odds call it makes.

A profiler spies on every call from a ``ruleslawyer.widgets`` module to a function of
``ruleslawyer.rulesets`` or ``ruleslawyer.odds`` (or the core encounter) that takes ``rulings``: after
a ruling is switched in the bar, the panel must make at least one such call and every one must carry
the answer chosen.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Mapping

import pytest

import ruleslawyer.widgets as W
from ruleslawyer.trace import get_ruling

ENGINES = ("ruleslawyer.rulesets.", "ruleslawyer.odds.", "ruleslawyer.encounter")


def _rulings_arg(frame) -> tuple[bool, object]:
    """(whether the called function takes ``rulings``, the value it got): a named parameter, or a
    ``rulings`` key in its ``**kwargs`` (``MythrasEncounter.start(combatants, **kw)``)."""
    code = frame.f_code
    named = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    if "rulings" in named:
        return True, frame.f_locals.get("rulings")
    if code.co_flags & inspect.CO_VARKEYWORDS:
        varkw = code.co_varnames[len(named) + bool(code.co_flags & inspect.CO_VARARGS)]
        kw = frame.f_locals.get(varkw) or {}
        if "rulings" in kw:
            return True, kw["rulings"]
    return False, None


def _spy(calls: list):
    def profile(frame, event, _arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        caller = frame.f_back
        if not module.startswith(ENGINES) or caller is None:
            return
        if not caller.f_globals.get("__name__", "").startswith("ruleslawyer.widgets."):
            return
        takes, rulings = _rulings_arg(frame)
        if takes:
            calls.append((f"{module}.{frame.f_code.co_qualname}", rulings))
    return profile


def _add_mastery(panel, name, side, weapon, **kw):
    panel.name.value, panel.side.value, panel.weapon.value = name, side, weapon
    for k, v in kw.items():
        getattr(panel, k).value = v
    panel.roster.add_button.click()


def _add_dm(panel, name, cmb, side, action, type_, kind, length=""):
    panel.name.value, panel.cmb.value, panel.side.value = name, cmb, side
    panel.action.value, panel.type.value, panel.kind.value, panel.length.value = action, type_, kind, length
    panel.roster_controls.add_button.click()


def _odds(mode="mastery-exchange", plot=False):
    panel = W.OddsPanel(mode)
    if plot:
        panel.run(plot=True)
    return panel


def _mastery_round():
    panel = W.MasteryRoundPanel(script="startle_agility: 1; startle_perception: 1; side: 5")
    _add_mastery(panel, "Goblin", "enemies", "dagger", unaware=True)
    _add_mastery(panel, "Aldric", "pcs", "sword", unaware=False)
    panel.run()
    return panel


def _darkmaster_round():
    panel = W.DarkmasterRoundPanel()
    _add_dm(panel, "Orc", 20, "npc", "Spear attack", "Full", "melee", "Long")  # same length: a CMB tie-break
    _add_dm(panel, "Hero", 30, "player", "Longsword attack", "Full", "melee", "Long")
    panel.run()
    return panel


def _mastery_exchange():
    panel = W.MasteryExchangePanel(script="attack: 3; defense: 1")  # a defense that fails
    panel.load(defender={"health": 10, "durability": 1, "resistance": 2}, situation={"defend": True})
    panel.run()
    return panel


def _fight(ruleset="mastery"):
    panel = W.FightPanel(ruleset) if ruleset != "mastery" else W.FightPanel()
    for _ in range(3):
        panel.resolve_button.click()
    return panel


def _run(cls, **kw):
    def build():
        panel = cls(**kw)
        panel.run()
        return panel
    return build


#: A state of each panel whose trace uses rulings: (panel class name, builder).
CASES = {
    "odds mastery exchange": ("OddsPanel", _odds),
    "odds mastery exchange with its plot": ("OddsPanel", lambda: _odds(plot=True)),
    "odds mastery trial": ("OddsPanel", lambda: _odds("mastery-trial")),
    "odds trauma": ("OddsPanel", lambda: _odds("trauma")),
    "mastery exchange": ("MasteryExchangePanel", _mastery_exchange),
    "mythras exchange": ("MythrasExchangePanel", _run(W.MythrasExchangePanel)),
    "trauma": ("TraumaPanel", _run(W.TraumaPanel, seed=1)),
    "mastery round": ("MasteryRoundPanel", _mastery_round),
    "darkmaster round": ("DarkmasterRoundPanel", _darkmaster_round),
    "mastery fight": ("FightPanel", _fight),
    "mythras fight": ("FightPanel", lambda: _fight("mythras")),
    "darkmaster fight": ("FightPanel", lambda: _fight("darkmaster")),
}


def _switch_one(panel) -> tuple[str, str]:
    """Choose another answer for the first ruling the bar lists that has one; returns (id, answer)."""
    bar = panel.frame.rulings
    assert bar.shown, "this state of the panel should use a ruling"
    for rid in bar.shown:
        dd = bar.dropdowns[rid]
        other = [a for a in dd.options if a != dd.value]
        if other:
            dd.value = other[0]
            return rid, other[0]
    raise AssertionError(f"no ruling in play has another answer: {bar.shown}; choose another state")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_switched_ruling_reaches_every_engine_call(case):
    _name, build = CASES[case]
    panel = build()
    calls: list = []
    sys.setprofile(_spy(calls))
    try:
        rid, answer = _switch_one(panel)
    finally:
        sys.setprofile(None)
    assert panel.frame.rulings.overrides.get(rid) == answer
    assert calls, f"switching {rid} made no engine call: the panel did not rerun"
    missing = [fn for fn, rulings in calls if not (isinstance(rulings, Mapping) and rulings.get(rid) == answer)]
    assert not missing, f"{rid}={answer} was not passed to {missing}"


def _is_frame_default(fn) -> bool:
    return getattr(fn, "__qualname__", "") == "PanelFrame.__init__.<locals>.<lambda>"


def test_every_panel_whose_bar_is_in_use_has_a_case():
    # A panel not covered above neither lists rulings after a plain run nor wires the rulings switch.
    covered = {name for name, _ in CASES.values()}
    for name, module in W._PANELS.items():
        cls = getattr(importlib.import_module(f"ruleslawyer.widgets.{module}"), name)
        if name in covered or not isinstance(cls, type) or not name.endswith(("Panel", "Viewer")):
            continue
        if name == "PanelFrame":
            continue
        panel = cls()
        getattr(panel, "run", lambda: None)()
        frame = panel.frame
        assert not frame.rulings.shown and _is_frame_default(frame.rulings._on_change), \
            f"{name} uses its rulings switch: add a case for it to CASES"


def test_the_spy_sees_a_panel_that_drops_the_answer(monkeypatch):
    # The check itself: an odds panel whose trial call leaves out the overrides is caught.
    from ruleslawyer.widgets import odds

    panel = odds.OddsPanel("mastery-trial")
    monkeypatch.setattr(odds.OddsPanel, "overrides", lambda self: {})
    calls: list = []
    sys.setprofile(_spy(calls))
    try:
        rid, answer = _switch_one(panel)
    finally:
        sys.setprofile(None)
    assert calls and all(not rulings for _fn, rulings in calls)
    assert get_ruling(rid).default != answer
