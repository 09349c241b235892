"""Mythras odds equal, fraction for fraction, the engine summed over every sequence of die faces.

The odds read each pair of levels once through the engine and convolve the damage pipeline from
the db tables; here the engine's ``resolve_exchange`` is run once per face sequence (every d100
face of the attack, every d20 location, every weapon die face) by
:func:`ruleslawyer.odds.core.enumerate_engine`, each weighted by the product of ``1/sides``, and
every distribution must be equal as Fractions.

A parried exchange rolls two d100s, so its enumeration takes some 18,000 engine runs: it is marked
slow (``make test-slow``), next to the seeded Monte Carlo run in tests/test_odds_mythras.py. The
default run covers what follows the levels with a defender who does not roll: no defence (the
defender counts as a Failure, and wins an Effect when the attacker fumbles) and a surprised
defender (the attacker's bonus Effect).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ruleslawyer.odds.core import Dist, enumerate_engine
from ruleslawyer.odds.mythras import mythras_exchange_odds
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.rulesets.mythras.exchange import ExchangeInput, resolve_exchange

NO_DEFENCE = {  # Critical 01, Success 02-10; Bypass Armor needs a Critical, so a Success takes Bleed
    "attacker": {"name": "A", "skill": 10, "weapon": {"damage": "1d2", "size": "Medium", "traits": ["cutting"]},
                 "str_siz": 22,
                 "effects": ["Bypass Armor", "Bleed", "Choose Location"], "chosen_location": "Head"},
    "defender": {"name": "D", "defence": "none", "armour": {"Chest": 2, "Head": 1, "Left Leg": 3},
                 "effects": ["Withdraw"]},
}
SURPRISED = {  # a surprised defender cannot defend; the attacker gains a bonus Effect
    "attacker": {"name": "A", "skill": 10, "weapon": {"damage": "1d2", "size": "Medium"}, "str_siz": 22,
                 "effects": ["Choose Location", "Maximise Damage", "Bleed"], "chosen_location": "Chest"},
    "defender": {"name": "D", "skill": 50, "surprised": True, "armour": {"Chest": 1}},
}
PARRY = {  # Critical and Success on 01 only; a Small parry against a Large weapon
    "attacker": {"name": "A", "skill": 1, "weapon": {"damage": "1d2", "size": "Large"}, "str_siz": 22,
                 "effects": ["Choose Location", "Maximise Damage"], "chosen_location": "Chest"},
    "defender": {"name": "D", "skill": 50, "weapon": {"damage": "1d6", "size": "Small"}, "armour": {"Chest": 1},
                 "effects": ["Enhance Parry", "Withdraw"]},
}


@pytest.fixture(scope="module")
def rules():
    """The test database's handle (the root conftest.py points the default at it), passed to the
    engine and to the odds alike."""
    return resolve_rules(None)



def _by_enumeration(data, rules) -> Dist:
    inp = ExchangeInput.from_dict(data)

    def run(dice):
        r = resolve_exchange(inp, dice=dice, rulings={}, rules=rules)
        # the odds count a surprise bonus without a winner as the attacker's (see MythrasExchangeOdds)
        won_a = r.effects_won if r.winner == "attacker" or (r.winner is None and r.effects_won) else 0
        won_d = r.effects_won if r.winner == "defender" else 0
        d_level = r.defence_level.value if r.defence_level is not None else "Failure"
        return (r.attack_level.value, d_level, won_a, won_d, r.location if r.hit else "—", r.damage)

    return enumerate_engine(run, tolerance=F(0), max_paths=30_000)


def _assert_equal(data, rules) -> Dist:
    r = mythras_exchange_odds(data, rules=rules)
    e = _by_enumeration(data, rules)
    assert e.truncated_mass == r.truncated_mass == 0
    assert e.map(lambda o: (o[0], o[1])).items() == r.levels.items()
    assert e.map(lambda o: o[2]).items() == r.attacker_effects.items()
    assert e.map(lambda o: o[3]).items() == r.defender_effects.items()
    assert e.map(lambda o: o[4]).items() == r.location.items()
    assert e.map(lambda o: o[5]).items() == r.damage.items()
    assert set(r.damage_by_location) == {loc for loc in r.location if loc != "—"}
    for loc, dist in r.damage_by_location.items():
        assert e.conditional(lambda o, L=loc: o[4] == L).map(lambda o: o[5]).items() == dist.items(), loc
    return e


def test_no_defence_equals_every_face_sequence(rules):
    e = _assert_equal(NO_DEFENCE, rules)
    # skill 10: Critical 01 (1/100), Success 02-10 (9/100), Fumble 99-00 (2/100), Failure the other 88
    # against a defender counted as a Failure: a Success wins 1 Effect, a Critical 2, and a Fumble
    # gives the defender 1 (the differential)
    assert e.map(lambda o: o[2]).items() == [(0, F(90, 100)), (1, F(9, 100)), (2, F(1, 100))]
    assert e.prob(lambda o: o[3] == 1) == F(2, 100)
    # a Success takes Bleed (Bypass Armor needs a Critical), so its location is rolled: Head is 19-20
    # on 1d20 -> 9/100 * 2/20; the Critical takes Bypass Armor and Bleed: 1/100 * 2/20 again
    assert e.prob(lambda o: o[4] == "Head") == F(10, 100) * F(2, 20)
    # Left Leg is 1-3 on 1d20 with 3 Armor Points: 1d2 never gets through unless armour is bypassed,
    # so it takes damage only on the Critical: 1/100 * 3/20 * (1 or 2, each 1/2)
    assert e.prob(lambda o: o[4] == "Left Leg" and o[5] > 0) == F(1, 100) * F(3, 20)


def test_surprised_equals_every_face_sequence(rules):
    e = _assert_equal(SURPRISED, rules)
    # the surprise bonus adds 1 Effect: a Success (9/100) wins 2, a Critical (1/100) 3
    assert e.map(lambda o: o[2]).items() == [(0, F(90, 100)), (2, F(9, 100)), (3, F(1, 100))]
    # a Success can take only Choose Location (Maximise Damage needs a Critical, Bleed a cutting
    # weapon): Chest, 1d2 less 1 Armor Point -> 0 or 1, 9/200 each; a Critical adds Maximise
    # Damage: 2 - 1 = 1 (1/100). So Chest 1: 9/200 + 2/200 = 11/200
    assert e.map(lambda o: (o[4], o[5])).items() == [(("Chest", 0), F(9, 200)), (("Chest", 1), F(11, 200)),
                                                     (("—", 0), F(90, 100))]


@pytest.mark.slow
def test_parried_exchange_equals_every_face_pair(rules):
    _assert_equal(PARRY, rules)
