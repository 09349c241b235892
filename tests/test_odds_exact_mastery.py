"""Mastery odds equal, fraction for fraction, the engine summed over every sequence of die faces.

These replace the seeded Monte Carlo cross-checks in the default run (the sampled runs stay in
tests/test_odds_mastery.py, marked slow). Two oracles, both the real engine entry points:

- where the odds are computed another way (convolutions of exploding dice, the damage shortcut),
  the engine is run once per face sequence by :func:`ruleslawyer.odds.core.enumerate_engine` with
  ``tolerance=0`` (every path followed; each weighted by the product of ``1/sides``), and every
  distribution must be equal as Fractions;
- where the odds module itself enumerates the engine (trials, Startle), the oracle is a plain loop
  over ``Dice(script=...)`` faces, so the enumeration machinery is checked too.

Exchanges use ``kit.explosion-cap`` 5 (its smallest answer) so that every chain ends and the
enumeration stays small; both sides then follow the same cap exactly, with nothing cut off.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.odds.core import Dist, enumerate_engine
from ruleslawyer.odds.mastery import _parse, aiming_trial_odds, mastery_exchange_odds, startle_odds, tier_die_odds
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.rulesets.mastery.exchange import resolve_exchange
from ruleslawyer.rulesets.mastery.round import startle
from ruleslawyer.rulesets.mastery.tiers import Edge, roll_tier_die, roll_trial

CAP5 = {"kit.explosion-cap": "5"}


@pytest.fixture(scope="module")
def rules():
    """The test database's handle (the root conftest.py points the default at it), passed to the
    engine and to the odds alike."""
    return resolve_rules(None)



def _scripted(run, faces_by_slot: dict[str, range]) -> Dist:
    """Distribution of ``run(dice)`` over every combination of one scripted face per slot, each
    combination weighted by the product of 1/sides; every die rolled must come from the script."""
    acc: dict = {}
    slots = list(faces_by_slot)
    weight = F(1)
    for faces in faces_by_slot.values():
        weight /= len(faces)
    for combo in itertools.product(*faces_by_slot.values()):
        d = Dice(script={s: [f] for s, f in zip(slots, combo)})
        out = run(d)
        assert not d.unused(), f"{combo}: faces left over {d.unused()}"
        assert all(r.scripted for r in d.history), [r for r in d.history if not r.scripted]
        acc[out] = acc.get(out, 0) + weight
    return Dist(acc)


# ---- tier dice: the odds convolve exploding dice; the engine's roller decides ---------------------


def test_tier_die_with_dominance_equals_every_face_sequence(rules):
    # tier 2 rolls a d3, exploding to the kit's default cap of 20 extra dice; Dominance rolls it
    # twice and keeps the higher (2 * 21 + 1 = 43 sequences each, 43**2 = 1849 runs, nothing cut off)
    exact = tier_die_odds(2, edges=["dominance"], tolerance=0, rules=rules)
    engine = enumerate_engine(lambda d: roll_tier_die(d, 2, "t", label="t", explode=True, edges=[Edge.DOMINANCE],
                                                      rulings={}, rules=rules).total, tolerance=F(0))
    assert engine.truncated_mass == exact.distribution.truncated_mass == 0
    assert engine.items() == exact.distribution.items()
    # hand-worked: total 1 only when both dice show 1: 1/3 * 1/3 = 1/9; 3 never stands (it explodes)
    assert exact.distribution[1] == F(1, 9) and exact.distribution[3] == 0


# ---- trials and Startle: the odds enumerate the engine; checked by a plain loop over scripts -------


@pytest.mark.parametrize("dc", [2, 4, 5])
def test_aiming_trial_equals_every_scripted_face(dc, rules):
    a = aiming_trial_odds(3, dc, rules=rules)

    def run(d):
        r = roll_trial(d, 3, dc, "aim", label="Aiming Trial", cites=[], natural_rules=True, rulings={},
                       rules=rules)
        return (r.success, r.always)

    engine = _scripted(run, {"aim": range(1, 5)})  # tier 3: a d4, not exploding (mastery.trial-dice-explode)
    assert engine.prob(lambda o: o[0]) == a.p_success
    assert engine.prob((True, "hit")) == a.p_always_hit == F(1, 4)  # the 4
    assert engine.prob((False, "miss")) == a.p_always_miss == F(1, 4)  # the 1
    # faces 2 and 3 succeed when they reach the DC (a tie succeeds, mastery.trial-tie):
    # DC 2 -> 1/4 + 2/4; DC 4 -> 1/4 (the 4 only); DC 5 -> 1/4
    assert a.p_success == {2: F(3, 4), 4: F(1, 4), 5: F(1, 4)}[dc]


def test_startle_equals_every_scripted_face_pair(rules):
    s = startle_odds(2, 3, dc=7, rules=rules)
    engine = _scripted(lambda d: startle(d, agility_tier=2, perception_tier=3, dc=7, rulings={}, rules=rules).condition,
                       {"startle_agility": range(1, 4), "startle_perception": range(1, 5)})
    assert engine.items() == s.outcomes.items()
    # d3 + d4 against DC 7 (12 pairs): 7 = (3,4) succeeds on the tie -> 1/12; failed by 1-2
    # (totals 5, 6: 3 + 2 pairs) Dazed 5/12; by 3-4 (totals 3, 4: 2 + 3 pairs) Stunned 5/12;
    # by 5 (total 2) Paralyzed 1/12
    assert [s.outcomes[k] for k in ("", "Dazed", "Stunned", "Paralyzed")] == [F(1, 12), F(5, 12), F(5, 12),
                                                                               F(1, 12)]


# ---- whole exchanges: the odds' convolution and damage shortcut against every face sequence -------

MELEE = {  # tier 1 (d2) with a 1d2 weapon, both exploding; flanking; an armed defender, tier 1
    "attacker": {"name": "A", "attack": {"tier": 1, "weapon": "1d2", "modifiers": 1}},
    "defender": {"name": "D", "defense_tier": 1, "armour_resistance": 2, "durability": 3, "health": 6,
                 "endurance_tier": 2},
    "situation": {"flanking": True},
    "rulings": CAP5,
}
UNARMED = {  # an unarmed defender rolls its defense twice and keeps the lower (Inferiority);
    # the margin of a failed defense is what lands (mastery.failed-defense-damage)
    "attacker": {"name": "A", "attack": {"tier": 1, "weapon": 2}},
    "defender": {"name": "D", "defense_tier": 1, "armour_resistance": 1, "durability": 1, "health": 2,
                 "wielding": "unarmed", "endurance_tier": 1},
    "rulings": dict(CAP5, **{"mastery.failed-defense-damage": "attack-minus-defense"}),
}
RANGED = {  # bow at Far range (Aiming DC 2 + 3 = 5) against a shield-bearer on higher ground: the
    # attacker rolls twice and keeps the lower, the defender twice and keeps the higher
    "attacker": {"name": "Archer", "perception_tier": 3, "attack": {"kind": "bow", "tier": 1, "weapon": 2}},
    "defender": {"name": "Guard", "defense_tier": 1, "shield": 1, "health": 5, "armour_resistance": 1,
                 "durability": 1},
    "situation": {"range": "far", "elevation": "defender"},
    "rulings": CAP5,
}


def _exchange_by_enumeration(data, rules) -> Dist:
    a, d, sit = _parse(data)

    def run(dice):
        r = resolve_exchange(a, d, sit, dice=dice, rulings=data["rulings"], rules=rules)
        reached = d.health > 0 and r.defender.health == 0
        return (r.outcome, r.damage, r.to_durability, r.to_health, reached, r.attack_total, r.defense_total)

    return enumerate_engine(run, tolerance=F(0), max_paths=10_000)


@pytest.mark.parametrize("data", [MELEE, UNARMED, RANGED], ids=["melee", "unarmed", "ranged"])
def test_exchange_equals_every_face_sequence(data, rules):
    r = mastery_exchange_odds(data, tolerance=0, rules=rules)
    e = _exchange_by_enumeration(data, rules)
    assert e.truncated_mass == r.truncated_mass == 0
    assert e.map(lambda o: o[0]).items() == r.outcomes.items()
    assert e.map(lambda o: o[1]).items() == r.damage.items()
    assert e.map(lambda o: o[2]).items() == r.to_durability.items()
    assert e.map(lambda o: o[3]).items() == r.to_health.items()
    assert e.prob(lambda o: o[4]) == r.p_zero_health
    aimed = e.conditional(lambda o: o[5] is not None)  # the attack is rolled whenever the aim succeeds
    assert aimed.map(lambda o: o[5]).items() == r.attack_totals.items()
    if r.defense_totals is not None:
        assert aimed.map(lambda o: o[6]).items() == r.defense_totals.items()
    else:
        assert e.prob(lambda o: o[6] is not None) == 0


def test_exchange_hand_worked_values(rules):
    # UNARMED: attack X = exploding d2 + 2; defense = the lower of two exploding d2s (D) + 1 armour
    # resistance; it holds when D + 1 >= X + 2, i.e. min(D1, D2) >= X + 1. With the cap at 5 extra
    # dice, X = 2k - 1 (k - 1 twos then a 1) with 2**-k for k = 1..6, or 12 (six twos) with 2**-6;
    # P(D >= 2k) = 2**-k (k = 1..5), 2**-6 for 12, 0 above. So P(holds) = sum of 2**-k * (2**-k)**2
    # for k = 1..6 = 1/8 + 1/64 + 1/512 + 1/4096 + 1/32768 + 1/262144 = 37449/262144
    # (the series 1/7 cut off at the cap)
    assert mastery_exchange_odds(UNARMED, tolerance=0, rules=rules).p_defense_holds == F(37449, 262144)
    # RANGED: the Aiming Trial (tier 3, a d4, DC 5) succeeds only on the 4, a max roll -> 1/4
    ranged = mastery_exchange_odds(RANGED, tolerance=0, rules=rules)
    assert ranged.p_aim == F(1, 4) and ranged.outcomes["missed"] == F(3, 4)
