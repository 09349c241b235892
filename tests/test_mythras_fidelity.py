"""Fidelity fixes of the Mythras engine, each worked by hand from the chapter, the supplement or rules-facts.

Common kit unless said: the default weapon is 1d6 Medium; no defence counts as a Failure
(``the-attack-parry-exchange#11``); hit location 10 -> Chest (10–12).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mythras.charge import ChargeInput, resolve_charge
from ruleslawyer.rulesets.mythras.exchange import ExchangeInput, resolve_exchange
from ruleslawyer.rulesets.mythras.outmanoeuvre import OutmanoeuvreInput, resolve_outmanoeuvre


def run(data, rulings=None):
    return resolve_exchange(ExchangeInput.from_dict(data), script=data.get("dice", {}), rulings=rulings)


# ---- 5. the Damage Modifier goes on past STR+SIZ 120, one step per 10 points --------------------------

ISSUE_5 = {"attacker": {"skill": 63, "str_siz": 125}, "defender": {"defence": "none"},
           "dice": {"attack": [30], "damage": [5], "damage_modifier": [10, 10, 2], "location": [10]}}


def test_str_siz_125_is_the_step_after_the_table():
    # 30 <= 63 Success vs no defence. 1d6 = 5; STR+SIZ 125 is in 121–130, one step past 111–120
    # (+2d10+1d2): +2d10+1d4 = 10 + 10 + 2 = 22 -> 27 to the Chest
    r = run(ISSUE_5)
    assert (r.damage_rolled, r.damage, r.location) == (27, 27, "Chest")
    dm = next(s for s in r.trace.walk() if s.label == "Damage Modifier +2d10+1d4")
    assert "121–130" in dm.detail and "111–120" in dm.detail
    assert dm.cites[0].rule_id == "mythras/supplement/damage-modifier#1"  # "Past 120 the progression keeps climbing"
    assert [u.ruling_id for u in dm.rulings] == ["mythras.damage-modifier-ladder"]
    # a d4 face of 4 is possible now (it was not on the +1d2 the engine used to keep): 5 + 10 + 10 + 4 = 29
    r = run({**ISSUE_5, "dice": {**ISSUE_5["dice"], "damage_modifier": [10, 10, 4]}})
    assert r.damage == 29


@pytest.mark.parametrize("str_siz, dm", [
    (120, "+2d10+1d2"),   # the table's last row
    (130, "+2d10+1d4"),   # 1 step past: +2d10 plus the 2nd step of the ladder (+1d4)
    (131, "+2d10+1d6"),   # 2 steps
    (150, "+2d10+1d8"),   # 3 steps
    (151, "+3d10"),       # 4 steps: +2d10 plus +1d10
    (161, "+2d10+1d12"),  # 5 steps
    (220, "+4d10"),       # 10 steps: +2d10 plus +2d10 (the ladder's own 11th step)
    (221, "+4d10+1d2"),   # and round again, as 111–120 was +2d10+1d2
])
def test_the_ladder_past_the_table(str_siz, dm):
    from ruleslawyer.rulesets.mythras.damage import damage_modifier_row

    assert damage_modifier_row(str_siz, "attacker.str_siz")[0].dice == dm


def test_a_charge_steps_past_the_table_too():
    # STR+SIZ 115: +2d10+1d2. Charge (Hard: 60 -> 40, 30 succeeds): a quadruped +2 steps -> +2d10+1d6.
    # 1d6 = 5; +2d10+1d6 = 1 + 1 + 6 = 8 -> 13
    data = {"attacker": {"skill": 60, "str_siz": 115, "charge": True, "quadruped": True},
            "defender": {"defence": "none"},
            "dice": {"attack": [30], "damage": [5], "damage_modifier": [1, 1, 6], "location": [10]}}
    r = run(data)
    assert r.damage == 13
    labels = [s.label for s in r.trace.walk()]
    assert "Charge (quadruped): Damage Modifier +2d10+1d2 → +2d10+1d6" in labels


def test_the_ladder_ruling_can_keep_the_last_row_or_refuse():
    # stay-at-end: +2d10+1d2 = 10 + 10 + 2 = 22 -> 27 (the old reading)
    assert run(ISSUE_5, {"mythras.damage-modifier-ladder": "stay-at-end"}).damage == 27
    with pytest.raises(RulesInputError) as e:
        run(ISSUE_5, {"mythras.damage-modifier-ladder": "refuse"})
    assert e.value.field == "attacker.str_siz"


def test_str_siz_has_a_sanity_bound():
    with pytest.raises(RulesInputError) as e:
        run({**ISSUE_5, "attacker": {"skill": 63, "str_siz": 10**6}})
    assert e.value.field == "attacker.str_siz" and "999" in e.value.message


def test_odds_follow_the_ladder():
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    # a hit: 1d6 + 2d10+1d4 runs from 1 + 3 = 4 to 6 + 24 = 30
    r = mythras_exchange_odds({k: v for k, v in ISSUE_5.items() if k != "dice"})
    chest = r.damage_by_location["Chest"]
    assert (min(chest), max(chest)) == (4, 30)


# ---- 6. aiming cancels one situational or range penalty grade, never more ---------------------------

ISSUE_6 = {"attacker": {"skill": 60, "range": "Effective", "aimed": True,
                        "weapon": {"ranged": "bow", "damage_modifier_applies": False}},
           "defender": {"defence": "none"}, "dice": {"attack": [80], "damage": [5], "location": [10]}}


def test_aiming_a_standard_shot_keeps_it_standard():
    # Standard 60 and nothing to ease: 80 > 60 is a Failure, no hit (aimed to Easy 90 it used to hit for 5)
    r = run(ISSUE_6)
    assert (r.attack.effective_skill, r.attack_level.value, r.hit, r.damage) == (60, "Failure", False, 0)
    aim = next(s for s in r.trace.walk() if s.label.startswith("Aimed for a full Round"))
    assert aim.value == 0 and aim.cites[0].rule_id == "mythras/combat/ranged-combat#4"


@pytest.mark.parametrize("difficulty, skill", [
    ("Hard", 60),        # Hard eased one grade to Standard: 60 (not Easy 90)
    ("Formidable", 40),  # Formidable eased to Hard: 60 × 2/3 = 40
    ("Easy", 90),        # no penalty to ease: Easy stays Easy, 60 × 1.5 = 90 (not Very Easy 120)
])
def test_aiming_eases_the_situational_grade_once(difficulty, skill):
    r = run({**ISSUE_6, "attacker": {**ISSUE_6["attacker"], "difficulty": difficulty}})
    assert r.attack.effective_skill == skill


def test_an_aimed_shot_into_melee_does_not_stray_on_a_plain_miss():
    # into melee Hard, aimed: the penalty is eased away -> Standard 60. 70 fails at Standard, and it would
    # fail without the penalty too (Standard 60), so it is a plain miss, not a bystander hit (it used to
    # be judged against Easy 90 and hit Cora)
    a = {**ISSUE_6["attacker"], "into_melee": "Hard", "adjacent": ["Brand", "Cora"]}
    r = run({**ISSUE_6, "attacker": a, "dice": {"attack": [70], "stray": [2]}})
    assert (r.attack.effective_skill, r.hit, r.stray_target) == (60, False, None)
    # 50 <= 60 hits the target itself
    r = run({**ISSUE_6, "attacker": a, "dice": {"attack": [50], "damage": [5], "location": [10]}})
    assert (r.hit, r.damage, r.stray_target) == (True, 5, None)


def test_aim_into_melee_ruling():
    # situational-only: the Hard penalty stays, 60 × 2/3 = 40; 50 fails only because of it (Standard 60
    # without it) -> stray 1d2 = 2 -> Cora
    a = {**ISSUE_6["attacker"], "into_melee": "Hard", "adjacent": ["Brand", "Cora"]}
    r = run({**ISSUE_6, "attacker": a, "dice": {"attack": [50], "stray": [2]}},
            {"mythras.aim-eases": "situational-only"})
    assert (r.attack.effective_skill, r.stray_target) == (40, "Cora")
    assert "mythras.aim-eases" in r.trace.ruling_ids()
    # a Hard situational grade is eased first; the Formidable melee penalty stays: Standard + 2 = Formidable 30.
    # Without the melee penalty: Standard 60 (aim spent on the situational grade), so 45 strays -> Brand
    a = {**a, "difficulty": "Hard", "into_melee": "Formidable"}
    r = run({**ISSUE_6, "attacker": a, "dice": {"attack": [45], "stray": [1]}})
    assert (r.attack.effective_skill, r.stray_target) == (30, "Brand")


# ---- 7. Circumvent Parry: a critical-only attacker Effect; the parry stops nothing -------------------

SWORD = {"name": "Broadsword", "damage": "1d8", "size": "Medium", "traits": ["cutting"]}
ISSUE_7 = {"attacker": {"skill": 63, "str_siz": 22, "weapon": SWORD, "effects": ["Circumvent Parry"]},
           "defender": {"skill": 60, "weapon": SWORD, "armour": {"Chest": 2}},
           "dice": {"attack": [3], "parry": [20], "damage": [5], "location": [10]}}


def test_circumvent_parry_gets_round_a_successful_parry():
    # 03 <= ceil(6.3) = 7 Critical vs parry 20 <= 60 Success: 1 Effect, Circumvent Parry.
    # 1d8 = 5 (+0): the equal-Size parry would stop all, circumvented it stops none; Chest 2 -> 3
    r = run(ISSUE_7)
    assert r.attacker_effects == ("Circumvent Parry",) and "Circumvent Parry" in r.eligible["attacker"]
    assert (r.damage_rolled, r.damage_after_parry, r.armour, r.damage) == (5, 5, 2, 3)
    step = next(s for s in r.trace.walk() if s.label == "Circumvent Parry: the parry stops nothing")
    assert step.cites[-1].rule_id.startswith("mythras/supplement/special-effects#")
    assert [u.ruling_id for u in step.rulings] == ["mythras.circumvent-parry"]


def test_circumvent_parry_needs_a_critical_and_can_be_kept_to_the_record():
    # 30 is a plain Success vs Success: no Effects at all; the parry stops all 5
    r = run({**ISSUE_7, "dice": {**ISSUE_7["dice"], "attack": [30]}})
    assert (r.attacker_effects, r.damage) == ((), 0)
    # a Success vs a failed parry (70 > 60): 1 Effect, but Circumvent Parry needs a Critical: skipped
    r = run({**ISSUE_7, "dice": {**ISSUE_7["dice"], "attack": [30], "parry": [70]}})
    assert r.attacker_effects == () and "Circumvent Parry" not in r.eligible["attacker"]
    # record-only: the parry's Size stops all as usual
    assert run(ISSUE_7, {"mythras.circumvent-parry": "record-only"}).damage == 0


def test_circumvent_parry_odds():
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    # attack 63: Critical 01-07 (7), Success 08-63 (56); parry 60: Critical 01-06 (6), Success 07-60 (54),
    # Failure/Fumble 61-00 (40), all /100. A Critical attack takes Circumvent Parry unless the parry ties
    # it with a Critical: 7/100 × 94/100.
    data = {k: v for k, v in ISSUE_7.items() if k != "dice"}
    r = mythras_exchange_odds(data)
    assert r.effect_chance["attacker"]["Circumvent Parry"] == F(7, 100) * F(94, 100)
    # damage gets through a hit the parry did not stop: a failed parry (63 × 40) or a circumvented
    # successful one (Critical vs Success, 7 × 54); then 1d8 − 2 at the Chest (3/20) is 0 on 1-2:
    # P(> 0) = 1 − 3/20 × 2/8 = 77/80. Without the Effect the equal-Size parry would stop those 7 × 54.
    assert r.damage.prob(lambda d: d > 0) == F(63 * 40 + 7 * 54, 10000) * F(77, 80)


# ---- 8a. an ambush: no offensive actions that Round; the bonus Effect on the first attack only ----------

AMBUSH = {"attacker": {"name": "Ambusher", "skill": 60, "str_siz": 22, "weapon": SWORD,
                       "effects": ["Bleed", "Trip Opponent"]},
          "defender": {"name": "Sentry", "skill": 50, "weapon": SWORD, "surprised": True},
          "dice": {"attack": [30], "damage": [4], "location": [10]}}


def test_the_first_successful_attack_on_an_ambushed_target_gains_the_bonus():
    # the Sentry cannot defend (Failure): 30 <= 60 Success is 1 level up, +1 bonus = 2: Bleed, Trip Opponent
    r = run(AMBUSH)
    assert (r.effects_won, r.attacker_effects, r.surprise_bonus) == (2, ("Bleed", "Trip Opponent"), True)


def test_later_attacks_on_the_ambushed_target_do_not():
    # the bonus already went to an earlier attack: 1 Effect only (Bleed); the step says why
    d = {**AMBUSH["defender"], "surprise_bonus_spent": True}
    r = run({**AMBUSH, "defender": d})
    assert (r.effects_won, r.attacker_effects, r.surprise_bonus) == (1, ("Bleed",), False)
    assert "Surprise: the bonus Special Effect is spent" in [s.label for s in r.trace.walk()]
    # a failed attack does not take it either, so the next successful one still can
    r = run({**AMBUSH, "dice": {"attack": [80]}})
    assert (r.hit, r.surprise_bonus) == (False, False)


def test_an_ambushed_attacker_makes_no_attack_that_round():
    # "they take no offensive actions that Round": no roll is made, nothing is hit
    a = {**AMBUSH["attacker"], "surprised": True}
    r = run({"attacker": a, "defender": {"defence": "none"}, "dice": {}})
    assert (r.attack_level, r.attack.roll, r.hit, r.damage) == (None, None, False, 0)
    assert r.trace.children[0].label == "Surprised: no offensive actions this Round"
    assert "mythras/combat/surprise#1" in r.trace.cited_ids()


# ---- 8b. a Charge met by a counter: the longer weapon first; a set spear takes the charger's DM -----------

SET_SPEAR = json.loads((Path(__file__).resolve().parent.parent / "examples" / "mythras" / "charge-set-spear.json")
                       .read_text(encoding="utf-8"))


def charge(data, rulings=None):
    return resolve_charge(ChargeInput.from_dict(data), script=data.get("dice", {}), rulings=rulings)


def test_the_longer_set_spear_strikes_first_with_the_chargers_damage_modifier():
    # the spear is longer: the counter first. 20 <= 60 Success vs Kell not defending (Failure).
    # Kell's STR+SIZ 27 is +1d2, one step up for the Charge: +1d4, taken by the set spear.
    # 1d8+1 = 5 + 1 = 6, +1d4 = 3 -> 9 to Kell's Chest (no armour)
    r = charge(SET_SPEAR)
    assert r.first == "counter" and (r.counter.damage_rolled, r.counter.damage) == (9, 9)
    # then the charge: 70 Hard -> 47, 30 succeeds; 1d8 = 6, +1d4 (+1d2 one step up) = 2 -> 8; Chest 2 -> 6
    assert (r.charge.attack.effective_skill, r.charge.damage_rolled, r.charge.damage) == (47, 8, 6)
    labels = [s.label for s in r.trace.children]
    assert labels[:4] == ["The counter's weapon is longer: it strikes first",
                          "Set against the charge: Pikeman strikes with the charger's Damage Modifier +1d4",
                          "Counter: Mythras exchange", "Charge: Mythras exchange"]
    assert "mythras/combat/charge-evade-outmanoeuvre#1" in r.trace.cited_ids()


def test_set_spear_modifier_ruling():
    # standing: Kell's own +1d2 without the Charge's step: 6 + 2 = 8
    dice = {**SET_SPEAR["dice"], "counter.damage_modifier": [2]}
    r = charge({**SET_SPEAR, "dice": dice}, {"mythras.set-spear-modifier": "standing"})
    assert r.counter.damage == 8


def test_a_first_blow_that_lands_can_stop_the_second():
    r = charge(SET_SPEAR, {"mythras.charge-first-blow": "hit-stops-second"})
    assert (r.counter.damage, r.charge) == (9, None)
    assert r.trace.children[-1].label == "The first blow landed: the second is not struck"


def test_weapons_of_the_same_length():
    # default: both strike at once (neither can stop the other), whatever the first-blow ruling
    same = {**SET_SPEAR, "longer": "same"}
    r = charge(same, {"mythras.charge-first-blow": "hit-stops-second"})
    assert (r.first, r.charge.damage, r.counter.damage) == (None, 6, 9)
    r = charge(same, {"mythras.charge-same-length": "charger-first"})
    assert r.first == "charger" and r.trace.children[2].label == "Charge: Mythras exchange"


def test_charge_input_errors_name_the_field():
    with pytest.raises(RulesInputError) as e:
        charge({**SET_SPEAR, "attacker": {**SET_SPEAR["attacker"], "charge": False}})
    assert e.value.field == "attacker.charge"
    with pytest.raises(RulesInputError) as e:
        charge({**SET_SPEAR, "counter": {**SET_SPEAR["counter"],
                                         "attacker": {**SET_SPEAR["counter"]["attacker"], "skill": -5}}})
    assert e.value.field == "counter.attacker.skill"
    with pytest.raises(RulesInputError) as e:
        charge({**SET_SPEAR, "longer": "spear"})
    assert e.value.field == "longer"
    # a set spear outside a Charge
    with pytest.raises(RulesInputError) as e:
        run({**SET_SPEAR["counter"], "dice": {"attack": [20]}})
    assert e.value.field == "attacker.set_against_charge"


def test_cli_runs_a_charge_met_by_a_counter(capsys):
    from ruleslawyer.cli import main

    path = Path(__file__).resolve().parent.parent / "examples" / "mythras" / "charge-set-spear.json"
    assert main(["exchange", "mythras", "--input", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["first"], data["counter"]["damage"], data["charge"]["damage"]) == ("counter", 9, 6)


# ---- 8c. Outmanoeuvre: a group Opposed Evade; beaten foes cannot attack; beat everyone and leave ------

OUT = {"mover": {"name": "Vex", "skill": 60},
       "foes": [{"name": "A", "skill": 50}, {"name": "B", "skill": 45}]}


def outmanoeuvre(data, dice, rulings=None):
    return resolve_outmanoeuvre(OutmanoeuvreInput.from_dict(data), script=dice, rulings=rulings)


def test_beat_everyone_and_leave():
    # Vex 25 <= 60 Success (critical 01-06). A: 70 > 50 Failure -> beaten. B: 20 <= 45 Success, the same
    # level: the higher successful roll wins, 25 > 20 -> Vex. Both beaten: may engage one or leave.
    r = outmanoeuvre(OUT, {"evade": [25], "foes": [70, 20]})
    assert (r.cannot_attack, r.beat_everyone) == (("A", "B"), True)
    assert r.trace.children[-1].label == "Beat everyone: may safely engage one foe or leave the fight"
    assert "mythras/combat/charge-evade-outmanoeuvre#3" in r.trace.cited_ids()


def test_a_foe_who_wins_may_still_attack():
    # B 40 <= 45 Success beats Vex's 25 (higher successful roll): only A cannot attack
    r = outmanoeuvre(OUT, {"evade": [25], "foes": [70, 40]})
    assert (r.cannot_attack, r.beat_everyone) == (("A",), False)
    # a Critical beats a Success whatever the rolls: Vex 05 <= 6 vs B 40
    assert outmanoeuvre(OUT, {"evade": [5], "foes": [70, 40]}).beat_everyone


def test_opposed_roll_ruling_when_both_fail():
    # Vex 80 > 60 and A 70 > 50: two Failures. Default: nobody wins (A not beaten); higher-roll: 80 > 70, Vex
    one = {**OUT, "foes": OUT["foes"][:1]}
    assert outmanoeuvre(one, {"evade": [80], "foes": [70]}).cannot_attack == ()
    r = outmanoeuvre(one, {"evade": [80], "foes": [70]}, {"mythras.opposed-roll": "higher-roll"})
    assert r.cannot_attack == ("A",) and "mythras.opposed-roll" in r.trace.ruling_ids()


def test_foes_who_cannot_oppose_and_skills_over_100():
    # B has no AP left: beaten without a roll (ruling default); "not-beaten" keeps B free to attack
    data = {**OUT, "foes": [OUT["foes"][0], {"name": "B", "skill": 45, "action_points": 0}]}
    assert outmanoeuvre(data, {"evade": [25], "foes": [70]}).cannot_attack == ("A", "B")
    r = outmanoeuvre(data, {"evade": [25], "foes": [70]}, {"mythras.outmanoeuvre-unopposed": "not-beaten"})
    assert r.cannot_attack == ("A",)
    # Vex 130 vs a foe 80: both lose the excess 30 -> 100 vs 50; the foe's 60 now fails, Vex's 95 succeeds
    big = {"mover": {"name": "Vex", "skill": 130}, "foes": [{"name": "C", "skill": 80}]}
    r = outmanoeuvre(big, {"evade": [95], "foes": [60]})
    assert (r.foes[0].mover_level.value, r.foes[0].level.value, r.cannot_attack) == ("Success", "Failure", ("C",))


def test_outmanoeuvre_needs_an_action_point_and_foes():
    r = outmanoeuvre({**OUT, "mover": {"name": "Vex", "skill": 60, "action_points": 0}}, {})
    assert (r.mover, r.beat_everyone) == (None, False)
    for data, field in (({**OUT, "foes": []}, "foes"),
                        ({**OUT, "foes": [{"name": "A", "skill": -5}]}, "foes[0].skill")):
        with pytest.raises(RulesInputError) as e:
            outmanoeuvre(data, {"evade": [25], "foes": [70]})
        assert e.value.field == field


def test_withdraw_breaks_off_an_engagement():
    # attack 80 > 60 Failure, parry 05 Critical: the defender wins 2 and takes Withdraw, which the chapter
    # names as the way out of being Engaged (action-menu-essentials#4)
    data = {"attacker": {"skill": 60, "str_siz": 22, "weapon": SWORD},
            "defender": {"name": "D", "skill": 60, "weapon": SWORD, "effects": ["Withdraw"]},
            "dice": {"attack": [80], "parry": [5]}}
    r = run(data)
    assert r.defender_effects == ("Withdraw",)
    step = next(s for s in r.trace.walk() if s.label == "Withdraw (defender): recorded")
    assert step.cites[0].rule_id == "mythras/combat/action-menu-essentials#4" and "no longer Engaged" in step.detail


# ---- 8d. firearm fire modes: burst Hard, full-auto Formidable; only the first hit takes Effects ---------

PISTOL = {"name": "SMG", "damage": "1d8", "force": "Medium", "ranged": "firearm"}
BURST = {"attacker": {"name": "Gunner", "skill": 60, "weapon": PISTOL, "fire_mode": "burst", "rounds": 3,
                      "effects": ["Choose Location", "Maximise Damage"], "chosen_location": "Head"},
         "defender": {"name": "D", "defence": "none", "armour": {"Head": 2, "Chest": 1}},
         "dice": {"attack": [3], "rounds": [3], "location": [11, 2], "damage": [5, 4]}}


def test_a_burst_is_hard_and_only_its_first_hit_takes_special_effects():
    # burst: Hard, 60 × 2/3 = 40; 03 <= 4 Critical vs no defence (Failure): 2 Effects, Choose Location (Head)
    # and Maximise Damage. First hit: 1d8 maximised = 8 (firearm: no Damage Modifier), Head 2 -> 6.
    # 1d3 = 3 rounds hit; round 2: location 11 Chest, 1d8 = 5 - 1 = 4; round 3: 2 Right Leg, 4 - 0 = 4
    r = run(BURST)
    assert (r.attack.effective_skill, r.attack_level.value, r.location, r.damage) == (40, "Critical", "Head", 6)
    assert [(h.location, h.rolled, h.dealt) for h in r.extra_hits] == [("Chest", 5, 4), ("Right Leg", 4, 4)]
    assert r.total_damage == 6 + 4 + 4
    spray = next(s for s in r.trace.walk() if s.label == "Burst: only the first hit enjoys Special Effects")
    assert spray.value == "3 of 3 rounds hit" and [c.value for c in spray.children] == ["4 to the Chest",
                                                                                      "4 to the Right Leg"]
    assert spray.cites[0].rule_id == "mythras/combat/firearms-change-the-economy#1"


def test_full_auto_is_formidable_and_the_hits_ruling():
    # full-auto: Formidable, 60 / 2 = 30; 25 Success vs none: 1 Effect (Choose Location needs a Critical at
    # range: skipped). all-hit: both rounds at the target hit: 11 Chest 5 - 1 = 4, then 2 Right Leg 4
    a = {**BURST["attacker"], "fire_mode": "full-auto", "rounds": 2, "effects": []}
    r = run({**BURST, "attacker": a, "dice": {"attack": [25], "location": [11, 2], "damage": [5, 4]}},
            {"mythras.spray-hits": "all-hit"})
    assert (r.attack.effective_skill, r.damage, [h.dealt for h in r.extra_hits]) == (30, 4, [4])
    # a miss fires no further hits: 35 > 30
    r = run({**BURST, "attacker": a, "dice": {"attack": [35]}})
    assert (r.hit, r.extra_hits, r.total_damage) == (False, (), 0)


@pytest.mark.parametrize("change, field", [
    ({"weapon": {"name": "Bow", "ranged": "bow"}}, "attacker.fire_mode"),
    ({"rounds": None}, "attacker.rounds"),
    ({"fire_mode": "single"}, "attacker.rounds"),
    ({"fire_mode": "spray"}, "attacker.fire_mode"),
])
def test_fire_mode_input_errors(change, field):
    with pytest.raises(RulesInputError) as e:
        run({**BURST, "attacker": {**BURST["attacker"], **change}})
    assert e.value.field == field


def test_spray_odds_are_refused_not_wrong():
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    with pytest.raises(RulesInputError) as e:
        mythras_exchange_odds({k: v for k, v in BURST.items() if k != "dice"})
    assert e.value.field == "attacker.fire_mode"
