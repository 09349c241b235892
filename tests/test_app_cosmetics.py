"""The app and the exchange panels say each thing once, in each book's own spelling (headless)."""

from __future__ import annotations

import re

import ipywidgets as widgets

from ruleslawyer.widgets.app import TITLE, app
from ruleslawyer.widgets.exchange_mastery import MasteryExchangePanel
from ruleslawyer.widgets.exchange_mythras import MythrasExchangePanel
from ruleslawyer.widgets.odds import OddsPanel


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _banner(panel) -> str:
    m = re.search(r'<div class="rl-outcome"[^>]*>(.*?)</div>', panel.output.value)
    assert m, panel.output.value[:300]
    return _text(m.group(1))


def test_the_app_has_no_second_title_unless_asked():
    box = app()
    heads = [w for w in box.children if isinstance(w, widgets.HTML) and '<div class="rl-title">' in w.value]
    assert heads == []  # the notebook (or page) holding the app gives the one title
    assert isinstance(box.children[-1], widgets.Tab)
    titled = app(title=True)
    assert [w.value for w in titled.children if isinstance(w, widgets.HTML) and '<div class="rl-title">' in w.value] == [
        f'<div class="rl-title">{TITLE}</div>']


def test_mastery_exchange_says_the_outcome_once():
    # attack d4 4, 4, 1 = 9 + WEA 2 = 11; resistance 2 absorbs 2; 3 to durability, 6 to health (6 -> 0)
    panel = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    panel.run()
    line, banner = panel.frame.summary, _banner(panel)
    assert line == "Hit: 9 damage (attack 11, 2 absorbed by armor): 3 to durability, 6 to health"
    assert banner == "Brute: health 0, unconscious."
    assert banner not in line and "attack 11" not in banner


def test_mastery_exchange_miss_banner_holds_only_the_defenders_state():
    panel = MasteryExchangePanel(script="attack: 1; defense: 2 2 1; endurance: 2")
    panel.defend.value = True
    panel.run()
    assert _banner(panel) == "Brute: health 6, " + panel.result.defender.state.value + "."
    assert "health 6" not in panel.frame.summary


def test_mythras_exchange_says_each_stage_once():
    # Ana 70% rolls 05 (Critical), Bors parries 50% with 80 (Failure): Ana wins 2 Special Effects.
    panel = MythrasExchangePanel(script="attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11")
    panel.d_armour.value = 4
    panel.run()
    assert panel.stage == "differential"
    line, banner = panel.frame.summary, _banner(panel)
    assert line == "Ana (attacker) wins 2 Special Effects (Critical vs Failure): choose, then apply to roll damage"
    assert banner == "Pick them in the list below (and the location, for Choose Location), then click Apply."
    panel.effects.value = ("Choose Location", "Maximise Damage")
    panel.location.value = "Head"
    panel.apply()
    line, banner = panel.frame.summary, _banner(panel)
    assert line.startswith("Hit: 6 damage to the Head (10 rolled − 4 armour); Critical vs Failure")
    assert "Critical" not in banner and "6 damage" not in banner and banner.endswith("winner attacker.")


def test_armor_resistance_is_spelt_as_the_mastery_chapter_spells_it_in_every_panel():
    labels = {MasteryExchangePanel().d_resistance.description, OddsPanel().d_resistance.description}
    assert labels == {"Armor Resistance"}
