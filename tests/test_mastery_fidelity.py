"""Fidelity fixes: each case worked by hand from the chapter, with the arithmetic in a comment.

Inputs are the ``ruleslawyer exchange mastery --input`` JSON (``dice`` holds the scripted faces).
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from ruleslawyer.cli import main
from ruleslawyer.errors import RulesInputError, RulingError
from ruleslawyer.odds.mastery import mastery_exchange_odds
from ruleslawyer.registry import all_rulings
from ruleslawyer.rulesets.mastery import (Attack, Combatant, Situation, State, exchange_from_dict, plan_actions,
                                          resolve_exchange, sequence_from_dict, startle, triage)

FIGHTING_ON_TRIAL = "mastery/combat/death/fighting-on#3"
ELEVATION = "mastery/combat/actions-and-reactions/movement/terrain#7"


def _trials_after_trauma(r) -> list:
    return [s for s in r.trace.walk() if s.label.startswith("Endurance trial against the health damage taken")
            and s.kind.value == "result"]


# ---- 1. every Trauma while fighting on gets its Endurance trial ------------------------------------------

SECOND_TRAUMA = {"attacker": {"attack": {"kind": "melee", "tier": 1}},
                 "defender": {"health": 0, "state": "fighting-on", "dying_rounds": 2, "endurance_tier": 3, "ap": 0,
                              "durability": 1},
                 "situation": {"setting": "deadly"},
                 "dice": {"attack": [2, 1], "trauma": [26, 50, 86], "endurance": [3, 2, 1]}}


def test_a_second_trauma_while_fighting_on_gets_its_endurance_trial():
    # attack: tier 1 d2, 2 explodes + 1 = 3; no AP: passive; resistance 0, durability 1 takes 1, 2 to health.
    # At 0 and fighting on: Trauma d100 26 (Blurred Vision); Endurance tier 3 d4 3 vs DC 2: success.
    # Deadly, the dice exploded: Endurance (Straightforward, 4): 2 < 4 fails -> Trauma d100 50 (Left Arm
    # Bruised to the Bone). "Each time you suffer a Trauma, roll an Endurance trial against the health damage
    # taken": 1 < 2 fails -> unconscious. That natural 1 is a natural minimum on a trial to resist damage
    # (Deadly includes Brutal) -> Trauma d100 86 (Minor Scar); unconscious now, so no further trial.
    r = exchange_from_dict(SECOND_TRAUMA)
    assert (r.to_durability, r.to_health) == (1, 2)
    assert [t.roll for t in r.traumas] == [26, 50, 86]
    assert r.defender.state == State.UNCONSCIOUS
    trials = _trials_after_trauma(r)
    assert [(t.value, t.detail) for t in trials] == [("success", "rolled 3 against DC 2"),
                                                     ("failure", "rolled 1 against DC 2")]
    assert all(FIGHTING_ON_TRIAL in t.cited_ids() for t in trials)


def test_brutal_natural_minimum_trauma_after_choosing_to_fight_on_gets_its_trial():
    # health 1, tier 1 attack d2 1: 1 health damage -> 0. Brutal: a Trauma on reaching 0 (d100 26), rolled
    # before the trial, while not yet fighting on: no trial for it. Endurance tier 1 d2 1 vs DC 1: equal,
    # success (mastery.trial-tie) -> fights on. The natural 1 (Brutal) -> Trauma d100 33; now fighting on:
    # Endurance trial against the health damage taken, d2 2 vs DC 1: success, still fighting on.
    d = Combatant("D", health=1, endurance_tier=1)
    r = resolve_exchange(Combatant("A", attack=Attack("melee", tier=1)), d, Situation(defend=False, setting="brutal"),
                         script={"attack": [1], "endurance": [1, 2], "trauma": [26, 33]})
    assert [t.roll for t in r.traumas] == [26, 33] and r.defender.state == State.FIGHTING_ON
    assert [t.detail for t in _trials_after_trauma(r)] == ["rolled 2 against DC 1"]


# ---- 2. a Close Call while fighting on: a named ruling ------------------------------------------------------

CLOSE_CALL = {"attacker": {"attack": {"kind": "melee", "tier": 2}},
              "defender": {"health": 0, "state": "fighting-on", "dying_rounds": 2, "endurance_tier": 2, "ap": 0},
              "dice": {"attack": [2], "trauma": [3], "endurance": [1]}}


def test_close_call_while_fighting_on_is_a_named_ruling():
    # tier 2 d3 2: 2 health damage at 0, fighting on -> Trauma d100 3: "Close Call! No Trauma."
    # Default (mastery.close-call-trial = no-trial): no Trauma suffered, no trial; still fighting on.
    r = exchange_from_dict(CLOSE_CALL)
    assert r.traumas[0].close_call and r.defender.state == State.FIGHTING_ON
    assert _trials_after_trauma(r) == [] and "mastery.close-call-trial" in r.trace.ruling_ids()
    # 'trial': Endurance tier 2 d3 1 vs DC 2 fails -> unconscious; the trial's step names the ruling
    r = exchange_from_dict({**CLOSE_CALL, "rulings": {"mastery.close-call-trial": "trial"}})
    assert r.defender.state == State.UNCONSCIOUS
    assert [t.detail for t in _trials_after_trauma(r)] == ["rolled 1 against DC 2"]
    # every step citing fighting-on#3 after a Close Call carries the ruling (or is the trial it called for)
    named = [s for s in r.trace.walk() if FIGHTING_ON_TRIAL in [c.rule_id for c in s.cites] and s.rulings]
    assert [s.rulings[0].ruling_id for s in named] == ["mastery.close-call-trial"]


# ---- 3. citations only for conditions in play ----------------------------------------------------------------

def test_unarmed_defense_without_elevation_does_not_cite_elevation():
    # unarmed defender against a sword: Inferiority (defense#7), d3 rolled twice 2 and 1 -> keeps 1
    r = resolve_exchange(Combatant("A", attack=Attack("melee", tier=3, weapon=2)),
                         Combatant("D", wielding="unarmed", defense_tier=2),
                         Situation(), script={"attack": [1], "defense": [2, 1]})
    assert r.defense_total == 1
    inferior = [s for s in r.trace.walk() if s.label.startswith("Inferiority")]
    assert inferior and all(ELEVATION not in s.cited_ids() for s in inferior)
    assert ELEVATION not in r.trace.cited_ids()
    # with elevation in play (the attacker above) the same roll cites it: Impotence and Inferiority
    r = resolve_exchange(Combatant("A", attack=Attack("melee", tier=3, weapon=2)),
                         Combatant("D", wielding="unarmed", defense_tier=2),
                         Situation(elevation="attacker"), script={"attack": [1, 1], "defense": [2, 1]})
    assert ELEVATION in r.trace.cited_ids()


def test_sequence_round_2_has_no_fresh_startle_trial():
    data = {"round": 2, "side_roll": 2,
            "combatants": [{"name": "Aldric", "side": "pcs", "unaware": True, "declaration": {"weapon": "sword"}},
                           {"name": "Orc", "side": "enemies", "declaration": {"weapon": "maul"}}]}
    r = sequence_from_dict(data)
    first = r.trace.children[0]
    assert r.startle == () and first.value == "no trial" and "round 2" in first.label
    assert not any(s.label.startswith("Startle (") for s in r.trace.walk())
    # round 1 rolls it: d2 1 + d2 1 = 2 vs DC 6, failed by 4: Stunned
    r1 = sequence_from_dict({**data, "round": 1, "dice": {"startle_agility": [1], "startle_perception": [1]}})
    assert r1.startle[0].condition == "Stunned"


def test_impaired_cites_the_next_round_only_once_a_round_has_passed():
    d = {"startle_agility": [1], "startle_perception": [1]}
    from ruleslawyer.dice import Dice

    # round 1 (mastery.impaired-first-step: from round 2): not stepped down, no "next round" cite
    s1 = startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7, round_number=1)
    assert s1.tier_this_round == 3 and "mastery/combat/combat-flow#16" not in s1.trace.cited_ids()
    # round 2: Paralyzed (3) steps down once to Stunned (2), citing step 7 of the combat flow
    s2 = startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7, round_number=2)
    assert s2.tier_this_round == 2 and "mastery/combat/combat-flow#16" in s2.trace.cited_ids()


def test_rulings_that_decide_a_branch_are_named():
    # a melee counterattack against a shot from close range, allowed: the ruling that allowed it is named.
    # bow d3 1 + 1 = 2; shield defense d2 2 + 1 = 3, + shield 1 = 4 >= 2: defended; counter in melee
    archer = Combatant("A", perception_tier=2, attack=Attack("bow", tier=2, weapon=1))
    d = Combatant("D", shield=1, attack=Attack("melee", tier=2))
    r = resolve_exchange(archer, d, Situation(range="close", counterattack=True),
                         script={"aim": [2], "attack": [1, 1], "defense": [2, 1, 1]},
                         rulings={"mastery.melee-counter-at-range": "allowed"})
    assert r.counter is not None and "mastery.melee-counter-at-range" in r.trace.ruling_ids()
    # an unconscious defender that may defend (can-defend): named on the declared defense
    down = Combatant("D", health=0, state="unconscious", dying_rounds=2)
    r = resolve_exchange(Combatant("A", attack=Attack("melee", tier=1)), down, Situation(),
                         script={"attack": [1], "defense": [2, 1]}, rulings={"mastery.unconscious-defense": "can-defend"})
    assert r.defended and "mastery.unconscious-defense" in r.trace.ruling_ids()
    # a dead defender: no exchange (the unconscious ruling was once cited for the dead)
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {}}, "defender": {"health": 0, "state": "dead"}})
    assert e.value.field == "defender.state"


# ---- 4. Triage, the AP planner, negative totals, contradictory inputs, one explosion cap --------------------

def test_triage_of_a_creature_fighting_on_is_a_named_ruling():
    y = Combatant("Y", health=0, state="fighting-on", dying_rounds=2)
    t = triage(y)
    assert t.stabilized and t.patient.state == State.FIGHTING_ON and "mastery.triage-fighting-on" in t.trace.ruling_ids()
    t = triage(y, rulings={"mastery.triage-fighting-on": "unconscious"})
    assert t.patient.state == State.UNCONSCIOUS and "mastery.triage-fighting-on" in t.trace.ruling_ids()
    # an unconscious patient: the chapter's own case, no ruling
    x = Combatant("X", health=0, state="unconscious", dying_rounds=2)
    assert triage(x).trace.ruling_ids() == ()


def test_planner_and_triage_agree_on_triage_over_two_rounds():
    x = Combatant("X", health=0, state="unconscious", dying_rounds=2)
    # default (mastery.triage-across-rounds = across-rounds): 2 AP at 1 AP a round = 2 rounds, and a medic
    # with 1 AP spends it now (1 to go) and finishes next round
    p = plan_actions([{"triage": True}], ap_per_round=1)
    assert (p.ap, p.rounds) == (2, 2) and "mastery.triage-across-rounds" in p.trace.ruling_ids()
    t = triage(x, medic_ap=1)
    assert (t.stabilized, t.ap_spent, t.ap_left, t.ap_to_go) == (False, 1, 0, 1)
    t2 = triage(x, medic_ap=1, ap_spent_before=1)
    assert (t2.stabilized, t2.ap_spent, t2.ap_to_go) == (True, 1, 0)
    # one-round: the planner refuses at 1 AP a round, and so does triage()
    one = {"mastery.triage-across-rounds": "one-round"}
    with pytest.raises(RulesInputError) as e:
        plan_actions([{"triage": True}], ap_per_round=1, rulings=one)
    assert e.value.field == "actions[0].triage"
    t = triage(x, medic_ap=1, rulings=one)
    assert (t.stabilized, t.ap_spent, t.ap_left) == (False, 0, 1)
    # at 2 AP a round: move 1, Triage 2, move 1 = 4 AP. Spread: 2 rounds. One round: move (1 AP left unspent),
    # Triage in round 2, move in round 3 = 3 rounds.
    acts = [{"move": 1}, {"triage": True}, {"move": 1}]
    assert (plan_actions(acts).ap, plan_actions(acts).rounds) == (4, 2)
    assert (plan_actions(acts, rulings=one).ap, plan_actions(acts, rulings=one).rounds) == (4, 3)


def test_a_negative_attack_total_deals_no_damage():
    # tier 1 d2 1 - 5 = -4; passive: 0 damage (mastery.negative-attack-total), not -4
    a = Combatant("A", attack=Attack("melee", tier=1, modifiers=-5))
    r = resolve_exchange(a, Combatant("D", armour_resistance=2), Situation(defend=False), script={"attack": [1]})
    assert (r.attack_total, r.damage, r.absorbed, r.to_health) == (-4, 0, 0, 0)
    assert "mastery.negative-attack-total" in r.trace.ruling_ids()
    # a magic portion still lands: 0 + 2 fire; resistance 2 absorbs it (mastery.energy-vs-armour default)
    a = Combatant("A", attack=Attack.from_dict({"tier": 1, "modifiers": -5, "magic": [{"amount": 2, "type": "fire"}]}))
    r = resolve_exchange(a, Combatant("D"), Situation(defend=False), script={"attack": [1]})
    assert (r.damage, r.to_health) == (2, 2)
    # odds: X = exploding d2 - 5: X = -4 (1/2), -2 (1/4), 0 (1/8), 2 (1/16), 4 (1/32)...: damage 0 for the
    # first three, 7/8 in all; never below 0
    o = mastery_exchange_odds({"attacker": {"attack": {"tier": 1, "modifiers": -5}}, "defender": {},
                               "situation": {"defend": False}})
    assert o.damage[0] == F(7, 8) and min(k for k, _ in o.damage.items()) == 0
    assert "mastery.negative-attack-total" in o.trace.ruling_ids()


@pytest.mark.parametrize("defender,field", [
    ({"wielding": "unarmed", "shield": 1}, "defender.wielding"),     # holding a shield is not unarmed
    ({"wielding": "projectile", "shield": 0}, "defender.wielding"),  # not "only a projectile weapon"
    ({"wielding": "shield"}, "defender.shield"),                     # a shield-only holder with no shield
])
def test_contradictory_wielding_and_shield_are_refused(defender, field):
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {}}, "defender": defender})
    assert e.value.field == field and ("allowed" in e.value.message or "give its bonus" in e.value.message)


def test_one_explosion_cap(capsys, tmp_path):
    assert "mastery.explosion-cap" not in {r.id for r in all_rulings()}
    f = tmp_path / "x.json"
    f.write_text(json.dumps({"attacker": {"attack": {"tier": 1}}, "defender": {"health": 20},
                             "situation": {"defend": False}, "dice": {"attack": [2] * 6}}))
    # cap 5: 2 + 5 extra 2s = 12, capped
    code = main(["exchange", "mastery", "--input", str(f), "--json", "--ruling", "kit.explosion-cap=5"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and (d["attack_total"], d["capped"]) == (12, True)
    code = main(["exchange", "mastery", "--input", str(f), "--ruling", "mastery.explosion-cap=5"])
    assert code == 1 and "mastery.explosion-cap" in capsys.readouterr().err
    with pytest.raises(RulingError):
        mastery_exchange_odds({"attacker": {"attack": {}}, "defender": {}}, rulings={"mastery.explosion-cap": "5"})
