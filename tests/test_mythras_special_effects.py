"""The Special Effects catalogue read from the supplement table, and eligibility rules."""

from __future__ import annotations

import pytest

from ruleslawyer.rulesets.mythras import _tables
from ruleslawyer.rulesets.mythras.levels import LevelOfSuccess as L
from ruleslawyer.rulesets.mythras.special_effects import (EffectContext, Side, WeaponTrait as W, eligible_effects,
                                                          effect_names, stackable_effects, weapons_allow)


def test_stackable_effects_come_from_the_chapter_sentence():
    # "Maximise Damage (Critical; stackable), Bypass Armor (Critical; stackable)"
    assert stackable_effects() == {"Maximise Damage", "Bypass Armor"}


def test_every_catalogue_row_is_readable():
    # every Side, Needs and Weapons cell parses (an unreadable one raises LookupError)
    for side in Side:
        for lv_a in L:
            for lv_d in L:
                checked = eligible_effects(side, EffectContext(lv_a, lv_d, frozenset(W), frozenset(W)))
                assert [e.name for e in checked] == list(effect_names())
    assert len(effect_names()) >= 20


@pytest.mark.parametrize("text, traits, ok", [
    ("any", set(), True),
    ("two-handed cutting weapons", {W.CUTTING}, False),
    ("two-handed cutting weapons", {W.CUTTING, W.TWO_HANDED}, True),
    ("shields and bludgeoning weapons", {W.SHIELD}, True),
    ("shields and bludgeoning weapons", {W.BLUDGEONING}, True),
    ("shields and bludgeoning weapons", {W.CUTTING}, False),
    ("unarmed", {W.UNARMED}, True),
    ("firearms", set(), False),
])
def test_weapons_cell(text, traits, ok):
    assert weapons_allow(text, traits) is ok


def test_weapons_cell_with_an_unknown_kind_is_a_data_error():
    from ruleslawyer.errors import RulesDataError

    with pytest.raises(RulesDataError):
        weapons_allow("serrated weapons", {W.CUTTING})


def test_critical_only_defensive_effects():
    # defender Critical vs attacker Failure: Blind Opponent, Enhance Parry and Slip Free open up
    ok = {e.name for e in eligible_effects("defender", EffectContext(L.FAILURE, L.CRITICAL)) if e.eligible}
    assert {"Blind Opponent", "Enhance Parry", "Slip Free", "Arise", "Withdraw", "Prepare Counter"} <= ok
    assert not ok & {"Choose Location", "Bleed", "Force Failure", "Accidental Injury"}
    ok = {e.name for e in eligible_effects("defender", EffectContext(L.FAILURE, L.SUCCESS)) if e.eligible}
    assert not ok & {"Blind Opponent", "Enhance Parry", "Slip Free"}


def test_tables_are_read_from_the_database():
    assert _tables.table("effects").id == "mythras/supplement/tables/special-effects"
    assert [s.name for s in _tables.sizes()] == ["Small", "Medium", "Large", "Huge", "Enormous"]
