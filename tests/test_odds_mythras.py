"""Mythras odds: hand-worked values, and agreement with a seeded Monte Carlo run of the engine."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from _odds_mc import N, as_exact, assert_agrees, monte_carlo, run_mythras_exchange
from ruleslawyer.errors import RulesInputError
from ruleslawyer.odds.mythras import level_odds, mythras_exchange_odds

FULL = {  # effects wanted on both sides, a chosen location, armour by location
    "attacker": {"name": "A", "skill": 70, "weapon": {"damage": "1d8", "size": "Medium", "traits": ["cutting"]},
                 "str_siz": 27, "effects": ["Maximise Damage", "Bypass Armor", "Choose Location", "Bleed"],
                 "chosen_location": "Head"},
    "defender": {"name": "D", "skill": 50, "weapon": {"damage": "1d6", "size": "Small"},
                 "armour": {"Chest": 4, "Head": 2}, "effects": ["Enhance Parry", "Withdraw"]},
}


def test_levels_hand_worked():
    # skill 63: Critical 01-07, Success 08-63, Failure 64-98, Fumble 99-00
    d = level_odds(63)
    assert (d["Critical"], d["Success"], d["Failure"], d["Fumble"]) == (F(7, 100), F(56, 100), F(35, 100),
                                                                        F(2, 100))


def test_special_effects_hand_worked():
    data = {"attacker": {"skill": 50, "str_siz": 22}, "defender": {"skill": 50, "weapon": {"size": "Medium"}}}
    r = mythras_exchange_odds(data)
    # each side: Critical 5/100, Success 45/100, Failure 48/100, Fumble 2/100
    # attacker wins 3 only with Critical vs Fumble: 5/100 * 2/100 = 1/1000
    assert r.attacker_effects[3] == F(1, 1000)
    # attacker wins 2: Critical vs Failure (5*48) + Success vs Fumble (45*2) = 330/10000
    assert r.attacker_effects[2] == F(330, 10000)
    assert r.defender_effects[3] == F(1, 1000)
    assert r.levels[("Critical", "Fumble")] == F(1, 1000)
    # a parry does not stop the attack connecting: P(hit) = P(attack succeeds) = 50/100
    assert r.p_hit == F(1, 2) and r.p_parried == F(1, 4)


def test_damage_without_a_defence_hand_worked():
    data = {"attacker": {"skill": 60, "weapon": {"damage": "1d4", "size": "Medium"}, "str_siz": 22},
            "defender": {"defence": "none"}}
    r = mythras_exchange_odds(data)
    # STR+SIZ 22: Damage Modifier +0; no armour; hit 60/100, then 1d4: 3/20 each, 0 otherwise
    assert [r.damage[k] for k in range(5)] == [F(40, 100)] + [F(3, 20)] * 4
    # Head is 19-20 on 1d20: 60/100 * 2/20
    assert r.location["Head"] == F(3, 50)


def test_parry_size_and_armour_hand_worked():
    data = {"attacker": {"skill": 60, "weapon": {"damage": "1d8", "size": "Large"}, "str_siz": 22},
            "defender": {"skill": 50, "weapon": {"size": "Medium"}, "armour": {"Chest": 2}}}
    r = mythras_exchange_odds(data)
    chest = r.damage_by_location["Chest"]
    # given a hit, the parry succeeds half the time. Parried (one step smaller: half, rounded up):
    # d8 -> 1,1,2,2,3,3,4,4, minus 2 armour -> 0,0,0,0,1,1,2,2. Not parried: 0,0,1,2,3,4,5,6.
    assert chest[0] == F(1, 2) * F(4, 8) + F(1, 2) * F(2, 8)
    assert chest[1] == chest[2] == F(1, 2) * F(2, 8) + F(1, 2) * F(1, 8)
    assert chest[3] == chest[6] == F(1, 16)
    assert r.p_parried == F(60, 100) * F(50, 100)


def test_bad_input_and_citations():
    with pytest.raises(RulesInputError) as e:
        mythras_exchange_odds({"attacker": {"skill": -5}, "defender": {}})
    assert e.value.field == "attacker.skill"
    from ruleslawyer.rulesdb import all_ids
    from ruleslawyer.trace import get_ruling

    known = set(all_ids())
    r = mythras_exchange_odds(FULL)
    for cid in r.trace.cited_ids():
        assert cid in known, cid
    for rid in r.trace.ruling_ids():
        get_ruling(rid)
    d = r.to_dict()
    assert d["p_hit"] == "7/10" and d["truncated_mass"] == "0"


@pytest.mark.slow
def test_exchange_agrees_with_engine():
    r = mythras_exchange_odds(FULL)
    counts = monte_carlo(run_mythras_exchange, (FULL,))
    assert_agrees(as_exact(r.levels), counts, N, label="levels", key=lambda k: (k[0], k[1]))
    assert_agrees(as_exact(r.attacker_effects), counts, N, label="attacker effects", key=lambda k: k[2])
    assert_agrees(as_exact(r.defender_effects), counts, N, label="defender effects", key=lambda k: k[3])
    assert_agrees(as_exact(r.location), counts, N, label="location", key=lambda k: k[4])
    assert_agrees(as_exact(r.damage), counts, N, label="damage", key=lambda k: k[5])
    for loc, dist in r.damage_by_location.items():
        here = {k: c for k, c in counts.items() if k[4] == loc}
        assert_agrees(as_exact(dist), here, sum(here.values()), label=f"damage at {loc}", key=lambda k: k[5])


def _distributions(r):
    yield "levels", r.levels
    yield "attacker_effects", r.attacker_effects
    yield "defender_effects", r.defender_effects
    yield "chosen_effects", r.chosen_effects
    yield "location", r.location
    yield "damage", r.damage
    for loc, d in r.damage_by_location.items():
        yield f"damage_by_location[{loc}]", d


BLEED = {"attacker": {"skill": 50, "str_siz": 22, "effects": ["Bleed"],
                      "weapon": {"damage": "1d8", "size": "Medium", "traits": ["cutting"]}},
         "defender": {"skill": 50, "weapon": {"size": "Medium"}}}


@pytest.mark.parametrize("data", [FULL, BLEED, {"attacker": {"skill": 50, "str_siz": 22},
                                                "defender": {"skill": 50, "weapon": {"size": "Medium"}}}])
def test_every_distribution_sums_to_one_minus_the_cut_off(data):
    r = mythras_exchange_odds(data)
    assert r.truncated_mass == 0  # no Mythras die explodes
    for name, d in _distributions(r):
        assert abs(float(sum(p for _, p in d.items())) - (1 - float(r.truncated_mass))) < 1e-12, name
        assert d.truncated_mass == r.truncated_mass, name


def test_chosen_effects_include_none_chosen():
    r = mythras_exchange_odds(BLEED)
    # each side 50%: Critical 5, Success 45, Failure 48, Fumble 2 (/100). The attacker wins the
    # differential (and, wanting only Bleed, takes it) when its level is higher:
    # C*(S+F+Fu) + S*(F+Fu) + F*Fu = 5*95 + 45*50 + 48*2 = 2821 /10000; otherwise nothing is taken.
    assert r.chosen_effects.as_floats() == {("Bleed", "none"): 0.2821, ("none", "none"): 0.7179}
    assert r.chosen_effects[("none", "none")] == F(7179, 10000)
    assert r.effect_chance == {"attacker": {"Bleed": F(2821, 10000)}, "defender": {}}
    out = r.to_dict()["chosen_effects"]
    assert out == {"outcomes": {"Bleed|none": 0.2821, "none|none": 0.7179}, "truncated_mass": 0.0}
