"""Mythras Initiative: 1d10 + Initiative Modifier − highest Armor Points worn; DEX, then a roll-off."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mythras.initiative import InitiativeCombatant as IC
from ruleslawyer.rulesets.mythras.initiative import roll_initiative


def test_totals_and_surprise():
    # Ana: 6 + 13 − 4 (highest worn: Chest 4) = 15; Bor: 4 + 15 − 2 = 17; Cal surprised: 9 + 12 − 0 − 10 = 11
    ana = IC.from_dict({"name": "Ana", "initiative_modifier": 13, "dex": 12, "armour": {"Chest": 4, "Head": 2}}, "c")
    r = roll_initiative([ana, IC("Bor", 15, 12, 2), IC("Cal", 12, 14, 0, surprised=True)],
                        script={"initiative": [6, 4, 9]})
    assert [(e.name, e.total) for e in r.order] == [("Bor", 17), ("Ana", 15), ("Cal", 11)]
    assert r.order[2].surprised
    assert "mythras/combat/surprise#1" in r.trace.cited_ids()


def test_trace_lists_the_combatants_in_initiative_order():
    # input order Ana, Bor, Cal; totals 15, 17, 11 (as above) -> the steps read Bor, Ana, Cal, like the order line
    ana = IC.from_dict({"name": "Ana", "initiative_modifier": 13, "dex": 12, "armour": {"Chest": 4}}, "c")
    r = roll_initiative([ana, IC("Bor", 15, 12, 2), IC("Cal", 12, 14, 0, surprised=True)],
                        script={"initiative": [6, 4, 9]})
    labels = [s.label for s in r.trace.children]
    assert labels == ["Bor: Initiative 17", "Ana: Initiative 15", "Cal: Initiative 11", "Order"]
    assert r.trace.detail == "Bor > Ana > Cal"
    # ties: A and B both 15, DEX 14 beats 12 -> B's working first, then the tie step, then the order
    r = roll_initiative([IC("A", 10, 12), IC("B", 10, 14)], script={"initiative": [5, 5]})
    assert [s.label for s in r.trace.children] == [
        "B: Initiative 15", "A: Initiative 15", "Tie on 15: DEX A 12, B 14", "Order"]


def test_dex_breaks_ties():
    # both 5 + 10 − 0 = 15; DEX 14 beats 12
    r = roll_initiative([IC("A", 10, 12), IC("B", 10, 14)], script={"initiative": [5, 5]})
    assert [e.name for e in r.order] == ["B", "A"] and r.order[0].roll_offs == ()


def test_roll_off_after_dex_repeats_while_tied():
    # 15 each, DEX 12 each: roll-off 3 vs 3 (still tied), then 2 vs 7 -> B first
    r = roll_initiative([IC("A", 10, 12), IC("B", 10, 12), IC("C", 1, 12)],
                        script={"initiative": [5, 5, 5], "tiebreak": [3, 3, 2, 7]})
    assert [e.name for e in r.order] == ["B", "A", "C"]
    assert r.order[0].roll_offs == (3, 7) and r.order[1].roll_offs == (3, 2)
    assert "mythras.roll-off-die" in r.trace.ruling_ids()


def test_roll_off_die_ruling():
    r = roll_initiative([IC("A", 0, 10), IC("B", 0, 10)], script={"initiative": [5, 5], "tiebreak": [40, 90]},
                        rulings={"mythras.roll-off-die": "1d100"})
    assert [e.name for e in r.order] == ["B", "A"]


def test_entered_rolls():
    r = roll_initiative([IC("A", 3, 10, 1, roll=10), IC("B", 0, 10, 0, roll=1)], script={})
    assert [(e.name, e.total) for e in r.order] == [("A", 12), ("B", 1)]


@pytest.mark.parametrize("combatants, field", [
    ([], "combatants"),
    ([IC("A"), IC("A")], "combatants[1].name"),
    ([IC("A", dex=-1)], "combatants[0].dex"),
    ([IC("A", armour_points=-2)], "combatants[0].armour_points"),
    ([IC("A", roll=11)], "combatants[0].roll"),
    ([IC("")], "combatants[0].name"),
])
def test_bad_input(combatants, field):
    with pytest.raises(RulesInputError) as e:
        roll_initiative(combatants, seed=1)
    assert e.value.field == field
