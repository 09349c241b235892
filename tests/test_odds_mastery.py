"""Mastery odds: hand-worked values, and agreement with seeded Monte Carlo runs of the engine."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from _odds_mc import (N, as_exact, assert_agrees, monte_carlo, run_aiming, run_mastery_exchange, run_startle,
                      run_tier_die)
from ruleslawyer.errors import RulesInputError
from ruleslawyer.odds.mastery import (aiming_trial_odds, mastery_exchange_odds, startle_odds, tier_die_odds,
                                      trial_odds)

TIER1_DUEL = {"attacker": {"attack": {"tier": 1}}, "defender": {"defense_tier": 1}}

MELEE = {  # STR tier 3 with a 1d4 weapon (exploding), flanking, vs an unarmed defender (Inferiority)
    "attacker": {"name": "A", "attack": {"tier": 3, "weapon": "1d4", "modifiers": 1}},
    "defender": {"name": "D", "defense_tier": 2, "armour_resistance": 2, "durability": 3, "health": 6,
                 "wielding": "unarmed", "endurance_tier": 2},
    "situation": {"flanking": True},
}

RANGED = {  # bow at Far range (Aiming DC 5) against a shield-bearer on higher ground
    "attacker": {"name": "Archer", "perception_tier": 3, "attack": {"kind": "bow", "tier": 2, "weapon": 2}},
    "defender": {"name": "Guard", "defense_tier": 2, "shield": 1, "health": 5, "armour_resistance": 1,
                 "durability": 1},
    "situation": {"range": "far", "elevation": "defender"},
}


def test_tier_die_hand_worked():
    # tier 3 rolls a d4; exploding, 5 = 4 then 1: 1/4 * 1/4 = 1/16; 4 never stands
    d = tier_die_odds(3).distribution
    assert d[5] == F(1, 16) and d[4] == 0
    # tier 2 (d3) with Dominance: roll twice, keep the higher: total 1 only if both are 1: 1/9
    dom = tier_die_odds(2, edges=["dominance"])
    assert dom.distribution[1] == F(1, 9)
    # 2: max is 2 -> (1,2), (2,1), (2,2) = 3/9
    assert dom.distribution[2] == F(3, 9)
    # Dominance as +2 (ruling answer): the d3 shifted by 2
    plus = tier_die_odds(2, edges=["dominance"], rulings={"mastery.dominance": "plus-2"}).distribution
    assert plus[3] == F(1, 3) and plus[1] == 0


def test_tier1_duel_hand_worked():
    # X, Y exploding d2s: P(X = 2k+1) = 2**-(k+1). P(Y >= X) = sum_k 2**-(k+1) * P(Y >= 2k+1)
    # = sum_k 2**-(k+1) * 2**-k = 1/2 + 1/8 + 1/32 + ... = 2/3 (uncapped); the cap of 20 extra
    # dice moves it by less than 2**-20.
    r = mastery_exchange_odds(TIER1_DUEL)
    assert abs(r.p_defense_holds - F(2, 3)) < F(1, 2**20)
    assert r.p_hit + r.p_defense_holds + r.truncated_mass == 1
    assert r.defends and r.p_aim == 1


def test_passive_defense_damage_hand_worked():
    data = {"attacker": {"attack": {"tier": 1}},
            "defender": {"armour_resistance": 1, "durability": 1, "health": 3},
            "situation": {"defend": False}}
    r = mastery_exchange_odds(data)
    assert r.p_hit == 1 and not r.defends
    # X = 1 (1/2): absorbed by resistance 1. X = 3 (1/4): 2 over, 1 to durability, 1 to health.
    # X >= 5 (two 2s first: 1/4): 1 to durability, X - 2 >= 3 to health: 0 health.
    assert r.to_health[0] == F(1, 2) and r.to_health[1] == F(1, 4) and r.to_health[3] == F(1, 8)
    assert r.to_durability[0] == F(1, 2) and r.to_durability[1] == F(1, 2)
    assert r.p_zero_health == F(1, 4)
    assert r.p_zero_health_at(1) == F(1, 2)


def test_trials_hand_worked():
    # tier 3 (d4) at Far range, DC 5: 1 misses, 2-3 fail, 4 always hits -> 1/4
    assert aiming_trial_odds(3, 5).p_success == F(1, 4)
    # tier 2 (d3) at DC 2: 1 always misses, 2 = DC succeeds (mastery.trial-tie), 3 always hits -> 2/3
    a = aiming_trial_odds(2, 2)
    assert a.p_success == F(2, 3) and a.p_always_hit == F(1, 3) and a.p_always_miss == F(1, 3)
    assert aiming_trial_odds(2, 2, rulings={"mastery.trial-tie": "failure"}).p_success == F(1, 3)
    # a plain trial: tier 1 (d2) vs DC 2 -> face 2 only: 1/2
    assert trial_odds(1, 2).p_success == F(1, 2)


def test_startle_hand_worked():
    # d2 + d2 vs DC 6: 2 (1/4) fails by 4 and 3 (1/2) by 3 -> Stunned 3/4; 4 (1/4) by 2 -> Dazed
    s = startle_odds(1, 1)
    assert s.outcomes["Stunned"] == F(3, 4) and s.outcomes["Dazed"] == F(1, 4) and s.p_success == 0
    # d4 + d4 vs DC 6: 6-8 succeed (3+2+1)/16; 4-5 Dazed (3+4)/16; 2-3 Stunned (1+2)/16
    s = startle_odds(3, 3)
    assert s.p_success == F(6, 16) and s.outcomes["Dazed"] == F(7, 16) and s.outcomes["Stunned"] == F(3, 16)
    assert s.outcomes["Paralyzed"] == 0


def test_exchange_structure_read_from_the_engine():
    r = mastery_exchange_odds(MELEE)
    info = r.trace.children[0].value
    # tier 3 d4 + 1d4 + flanking 2 + modifier 1; unarmed vs a weapon: Inferiority, keep the lower
    assert "d4 + 1d4 +3" in info and "d3 x2 keep lower +2" in info
    assert r.p_hit + r.p_defense_holds + r.truncated_mass == 1
    assert r.truncated_mass <= F(1, 10**12)


def test_not_allowed_and_bad_input():
    r = mastery_exchange_odds({"attacker": {"attack": {"kind": "bow", "tier": 1}},
                               "defender": {}, "situation": {"range": "close", "hostile_within_5ft": True}})
    assert r.outcomes["not-allowed"] == 1 and r.p_hit == 0
    with pytest.raises(RulesInputError) as e:
        mastery_exchange_odds({"attacker": {"attack": {"tier": 0}}, "defender": {}})
    assert e.value.field == "attacker.attack.tier"
    with pytest.raises(RulesInputError) as e:
        mastery_exchange_odds({"attacker": {}, "defender": {}})
    assert e.value.field == "attacker.attack"
    with pytest.raises(RulesInputError) as e:
        mastery_exchange_odds(TIER1_DUEL, tolerance=0.5)
    assert e.value.field == "tolerance"


def test_traces_cite_real_ids_and_registered_rulings():
    from ruleslawyer.rulesdb import all_ids
    from ruleslawyer.trace import get_ruling

    known = set(all_ids())
    results = [mastery_exchange_odds(MELEE), mastery_exchange_odds(RANGED), tier_die_odds(2, edges=["impotence"]),
               aiming_trial_odds(2, 3), startle_odds(2, 2, ambush_dc=7), trial_odds(1, 1)]
    for r in results:
        for cid in r.trace.cited_ids():
            assert cid in known, cid
        for rid in r.trace.ruling_ids():
            get_ruling(rid)
        r.to_dict()


# ---- the engine and the odds agree (seeded Monte Carlo of the real entry points; slow: the default ---
# ---- run checks the same agreement exactly in test_odds_exact_mastery.py) ------------------------------


@pytest.mark.slow
def test_tier_die_agrees_with_engine():
    exact = tier_die_odds(2, edges=["dominance"]).distribution
    counts = monte_carlo(run_tier_die, (2, ("dominance",), {}))
    assert_agrees(as_exact(exact), counts, N, label="tier 2 with Dominance")


@pytest.mark.slow
def test_aiming_trial_agrees_with_engine():
    a = aiming_trial_odds(3, 4)
    counts = monte_carlo(run_aiming, (3, 4, {}))
    exact = {(True, "hit"): a.p_always_hit, (False, "miss"): a.p_always_miss,
             (True, ""): a.p_success - a.p_always_hit, (False, ""): 1 - a.p_success - a.p_always_miss}
    assert_agrees({k: v for k, v in exact.items() if v}, counts, N, label="Aiming Trial")


@pytest.mark.slow
def test_startle_agrees_with_engine():
    s = startle_odds(2, 3, dc=7)
    counts = monte_carlo(run_startle, (2, 3, 7, {}))
    assert_agrees(as_exact(s.outcomes), counts, N, label="Startle")


@pytest.mark.slow
@pytest.mark.parametrize("data", [MELEE, RANGED], ids=["melee", "ranged"])
def test_exchange_agrees_with_engine(data):
    r = mastery_exchange_odds(data)
    counts = monte_carlo(run_mastery_exchange, (data,))
    assert_agrees(as_exact(r.outcomes), counts, N, label="outcome", key=lambda k: k[0])
    assert_agrees(as_exact(r.damage), counts, N, label="damage", key=lambda k: k[1])
    assert_agrees(as_exact(r.to_durability), counts, N, label="to durability", key=lambda k: k[2])
    assert_agrees(as_exact(r.to_health), counts, N, label="to health", key=lambda k: k[3])
    assert_agrees({True: r.p_zero_health, False: 1 - r.p_zero_health}, counts, N, label="0 health",
                  key=lambda k: k[4])
    hit_given = r.attack_totals  # attack totals are rolled whenever the aim succeeds
    aimed = {k: c for k, c in counts.items() if k[5] is not None}
    n_aimed = sum(aimed.values())
    assert_agrees(as_exact(hit_given), aimed, n_aimed, label="attack total", key=lambda k: k[5])
    if r.defense_totals is not None:
        assert_agrees(as_exact(r.defense_totals), aimed, n_aimed, label="defense total", key=lambda k: k[6])


def test_damage_matches_the_engine_for_every_pair_of_totals():
    # brute force through the engine's apply_damage for every (attack, defense) pair: the odds'
    # shortcut past armour + durability + health must give the same distributions exactly
    from ruleslawyer.rulesets.mastery.damage import DamagePortion, DamageType, apply_damage

    data = {"attacker": {"attack": {"tier": 2, "weapon": 1, "magic": [{"amount": 2, "type": "fire"}]}},
            "defender": {"defense_tier": 1, "armour_resistance": 1, "durability": 2, "health": 4},
            "rulings": {"mastery.failed-defense-damage": "attack-minus-defense"}}
    r = mastery_exchange_odds(data)
    acc = {}
    for a, pa in r.attack_totals.items():
        for y, py in r.defense_totals.items():
            if y >= a:
                continue
            out = apply_damage([DamagePortion(a - y, DamageType.CUTTING, through_resistance=False),
                                DamagePortion(2, DamageType.FIRE)], armour_resistance=1, durability=2, health=4,
                               rulings=data["rulings"])
            acc[out.to_health] = acc.get(out.to_health, 0) + pa * py
    acc[0] = acc.get(0, 0) + r.p_defense_holds
    assert {k: v for k, v in acc.items() if v} == dict(r.to_health.items())
