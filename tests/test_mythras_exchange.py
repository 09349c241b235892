"""The Mythras exchange, worked by hand from the chapter and the supplement tables.

Common kit: a broadsword 1d8 Medium cutting; STR+SIZ 22 -> Damage Modifier +0 (21–25, no die);
hit location 11 -> Chest (10–12).
"""

from __future__ import annotations

import pytest

from ruleslawyer.errors import DiceScriptError, RulesInputError
from ruleslawyer.rulesets.mythras.exchange import Defence, ExchangeInput, resolve_exchange

SWORD = {"name": "Broadsword", "damage": "1d8", "size": "Medium", "traits": ["cutting"]}
DAGGER = {"name": "Dagger", "damage": "1d4+1", "size": "Small", "traits": ["impaling"]}
GREATAXE = {"name": "Great Axe", "damage": "2d6+2", "size": "Huge", "traits": ["cutting", "two-handed"]}
MACE = {"name": "Mace", "damage": "1d8", "size": "Medium", "traits": ["bludgeoning"]}
BUCKLER = {"name": "Buckler", "damage": "1d3", "size": "Small", "traits": ["shield"]}
SHIELD = {"name": "Target", "damage": "1d4", "size": "Medium", "traits": ["shield"]}
BOW = {"name": "Longbow", "damage": "1d8", "force": "Large", "ranged": "bow", "traits": ["impaling"]}
PISTOL = {"name": "Pistol", "damage": "1d8", "force": "Medium", "ranged": "firearm"}


def ex(attacker=None, defender=None, dice=None, rulings=None):
    a = {"name": "A", "skill": 60, "weapon": SWORD, "str_siz": 22, **(attacker or {})}
    d = {"name": "D", "skill": 60, "defence": "parry", "weapon": SWORD, **(defender or {})}
    return resolve_exchange(ExchangeInput.from_dict({"attacker": a, "defender": d}), script=dice or {},
                            rulings=rulings)


def test_two_plain_successes_give_no_effects_and_an_equal_parry_stops_all():
    # attack 30 <= 60 Success (critical 01–06); parry 40 <= 60 Success: ranks 2 vs 2 -> 0 effects.
    # 1d8 = 5, +0, Chest; Medium parries Medium -> stops all -> 0.
    r = ex(dice={"attack": [30], "parry": [40], "damage": [5], "location": [11]})
    assert (r.attack_level.value, r.defence_level.value, r.winner, r.effects_won) == ("Success", "Success", None, 0)
    assert (r.location, r.damage_rolled, r.damage_after_parry, r.damage) == ("Chest", 5, 0, 0)
    assert "mythras/combat/the-attack-parry-exchange#7" in r.trace.cited_ids()


def test_failed_parry_reduces_nothing():
    # attack 30 Success, parry 70 > 60 Failure: attacker +1 effect (none wanted).
    # 1d8 = 5 + Damage Modifier 1d2 (STR+SIZ 26) = 2 -> 7; Chest armour 2 -> 5.
    r = ex({"str_siz": 26}, {"armour": {"Chest": 2}},
           dice={"attack": [30], "parry": [70], "damage": [5], "damage_modifier": [2], "location": [11]})
    assert (r.winner, r.effects_won, r.attacker_effects) == ("attacker", 1, ())
    assert (r.damage_rolled, r.damage_after_parry, r.armour, r.damage) == (7, 7, 2, 5)
    assert "The parry failed: it reduces nothing" in [s.label for s in r.trace.walk()]


@pytest.mark.parametrize("answer, through", [("round-up", 5), ("round-down", 4)])
def test_parry_one_step_smaller_halves_with_rounding_ruling(answer, through):
    # dagger (Small) parries a broadsword (Medium): one step smaller -> half of 9 = 4.5
    r = ex(defender={"weapon": DAGGER}, dice={"attack": [30], "parry": [40], "damage": [8],
                                               "damage_modifier": [1], "location": [11]},
           attacker={"str_siz": 26}, rulings={"mythras.halving": answer})
    assert r.damage_rolled == 9  # 8 + 1
    assert r.damage_after_parry == through == r.damage
    assert ("mythras.halving" in r.trace.ruling_ids())


def test_parry_two_steps_smaller_stops_nothing():
    # dagger (Small) vs great axe (Huge): three steps smaller -> none; 2d6+2 = 4+5+2 = 11
    r = ex({"weapon": GREATAXE}, {"weapon": DAGGER}, dice={"attack": [30], "parry": [40], "damage": [4, 5],
                                                           "location": [11]})
    assert (r.damage_rolled, r.damage_after_parry, r.damage) == (11, 11, 11)
    assert "mythras/combat/the-attack-parry-exchange#9" in r.trace.cited_ids()


def test_not_parrying_counts_as_failure():
    r = ex(defender={"defence": "none"}, dice={"attack": [30], "damage": [5], "location": [11]})
    assert r.defence is None and r.defence_level.value == "Failure"
    assert (r.winner, r.effects_won, r.damage) == ("attacker", 1, 5)
    assert "mythras/combat/the-attack-parry-exchange#11" in r.trace.cited_ids()


def test_parrying_a_miss_on_purpose_wins_defensive_effects():
    # attack 80 > 60 Failure; parry 05 <= ceil(6.0) = 6 Critical: ranks 1 vs 3 -> defender 2 effects
    r = ex(defender={"effects": ["Enhance Parry", "Withdraw", "Arise"]}, dice={"attack": [80], "parry": [5]})
    assert (r.winner, r.effects_won) == ("defender", 2)
    assert r.defender_effects == ("Enhance Parry", "Withdraw")
    assert set(r.eligible["defender"]) >= {"Enhance Parry", "Blind Opponent", "Slip Free", "Withdraw", "Arise"}
    assert not r.hit and r.damage == 0 and r.location is None


def test_maximise_damage_stacks_onto_the_damage_modifier():
    # attack 03 Critical vs no defence (Failure): 3 - 1 = 2 effects. Maximise ×2: 1d8 -> 8, +1d4 (31–35) -> 4
    r = ex({"str_siz": 31, "effects": ["Maximise Damage", "Maximise Damage"]}, {"defence": "none"},
           dice={"attack": [3], "location": [19]})
    assert r.attacker_effects == ("Maximise Damage", "Maximise Damage")
    assert (r.location, r.damage_rolled, r.damage) == ("Head", 12, 12)
    # one pick only maximises the weapon: 8 + rolled 1d4 = 2 -> 10
    r = ex({"str_siz": 31, "effects": ["Maximise Damage"]}, {"defence": "none"},
           dice={"attack": [3], "damage_modifier": [2], "location": [19]})
    assert r.damage_rolled == 10
    r = ex({"str_siz": 31, "effects": ["Maximise Damage"]}, {"defence": "none"},
           dice={"attack": [3], "location": [19]}, rulings={"mythras.maximise-damage": "weapon-and-modifier"})
    assert r.damage_rolled == 12


def test_critical_only_effects_need_a_critical_and_non_stackables_do_not_repeat():
    # attack 30 Success vs no defence: 1 effect; Maximise Damage is Critical-only -> skipped; Bleed taken
    r = ex({"effects": ["Maximise Damage", "Bleed"]}, {"defence": "none"},
           dice={"attack": [30], "damage": [4], "location": [11]})
    assert r.attacker_effects == ("Bleed",)
    assert "Maximise Damage" not in r.eligible["attacker"]
    # Critical vs none: 2 effects, Bleed twice is not allowed
    r = ex({"effects": ["Bleed", "Bleed", "Trip Opponent"]}, {"defence": "none"},
           dice={"attack": [2], "damage": [4], "location": [11]})
    assert r.attacker_effects == ("Bleed", "Trip Opponent")


@pytest.mark.parametrize("weapon, effect, ok", [
    (GREATAXE, "Sunder", True), (SWORD, "Sunder", False), (MACE, "Stun Location", True),
    (SWORD, "Stun Location", False), (MACE, "Bash", True), (BUCKLER, "Bash", True), (SWORD, "Bash", False),
    ({"name": "Fist", "damage": "1d3", "size": "Small", "traits": ["unarmed"]}, "Grip", True),
    (SWORD, "Grip", False), (DAGGER, "Impale", True), (MACE, "Impale", False), (SWORD, "Bleed", True),
])
def test_weapon_eligibility(weapon, effect, ok):
    r = ex({"weapon": weapon}, {"defence": "none"}, dice={"attack": [30], "damage": [1, 1], "location": [11]})
    assert (effect in r.eligible["attacker"]) is ok


def test_fumble_effects_go_to_the_defender():
    # attack 99 Fumble (skill 60) vs parry 40 Success: ranks 0 vs 2 -> defender 2
    r = ex(defender={"effects": ["Weapon Malfunction", "Force Failure", "Accidental Injury"]},
           dice={"attack": [99], "parry": [40]})
    assert (r.winner, r.effects_won) == ("defender", 2)
    assert "Weapon Malfunction" not in r.eligible["defender"]  # the sword is not a firearm
    assert r.defender_effects == ("Force Failure", "Accidental Injury")
    # a firearm's fumble: the defender cannot parry the bullet (Failure) but still gains 1 effect
    r = ex({"weapon": PISTOL}, {"effects": ["Weapon Malfunction"]}, dice={"attack": [100]})
    assert r.defence_kind is Defence.NONE and r.defender_effects == ("Weapon Malfunction",)
    assert "mythras/combat/firearms-change-the-economy#1" in r.trace.cited_ids()


def test_opponent_fumble_effects_need_the_fumble():
    r = ex(defender={"effects": ["Force Failure", "Withdraw"]}, dice={"attack": [80], "parry": [40]})
    assert r.defender_effects == ("Withdraw",)  # attack only failed; Force Failure needs a Fumble


def test_choose_location_replaces_the_roll_and_needs_a_location():
    r = ex({"effects": ["Choose Location"], "chosen_location": "head"}, {"defence": "none"},
           dice={"attack": [30], "damage": [6]})
    assert r.location == "Head" and r.damage == 6
    with pytest.raises(RulesInputError) as e:
        ex({"effects": ["Choose Location"]}, {"defence": "none"}, dice={"attack": [30]})
    assert e.value.field == "attacker.chosen_location"


def test_choose_location_at_range_needs_a_critical_unless_close_and_still():
    a = {"weapon": BOW, "range": "Effective", "effects": ["Choose Location"], "chosen_location": "Head"}
    r = ex(a, {"defence": "none"}, dice={"attack": [30], "damage": [3], "location": [1]})
    assert "Choose Location" not in r.eligible["attacker"] and r.location == "Right Leg"
    r = ex({**a, "range": "Close", "target_still_or_unaware": True}, {"defence": "none"},
           dice={"attack": [30], "damage": [3]})
    assert r.location == "Head"
    r = ex(a, {"defence": "none"}, dice={"attack": [30], "damage": [3]},
           rulings={"mythras.ranged-choose-location": "as-melee"})
    assert r.location == "Head"


def test_bypass_armor_layers():
    # Critical vs none: 2 effects. Chest worn 4 + natural 2. 1d8 = 6.
    base = {"effects": ["Bypass Armor", "Choose Location"], "chosen_location": "Chest"}
    d = {"defence": "none", "armour": {"Chest": 4}, "natural_armour": 2}
    r = ex(base, d, dice={"attack": [2], "damage": [6]})
    assert (r.armour, r.damage) == (2, 4)  # worn ignored: 6 - 2
    r = ex(base, d, dice={"attack": [2], "damage": [6]}, rulings={"mythras.bypass-armor": "natural-then-worn"})
    assert (r.armour, r.damage) == (4, 2)
    r = ex({"effects": ["Bypass Armor", "Bypass Armor"]}, d, dice={"attack": [2], "damage": [6], "location": [11]})
    assert (r.armour, r.damage) == (0, 6)


def test_impale_rolls_twice_and_keeps_the_higher():
    r = ex({"weapon": DAGGER, "effects": ["Impale"]}, {"defence": "none"},
           dice={"attack": [30], "damage": [1, 4], "location": [11]})
    assert r.damage_rolled == 5  # 1d4+1: 2 and 5 -> 5
    r = ex({"weapon": DAGGER, "effects": ["Impale"]}, {"defence": "none"},
           dice={"attack": [30], "damage": [1], "location": [11]}, rulings={"mythras.impale": "record-only"})
    assert r.damage_rolled == 2


def test_enhance_parry_stops_everything():
    # attack 30 Success; parry 03 Critical: defender 1 effect. Dagger (Small) vs great axe (Huge) would stop none.
    d = {"weapon": DAGGER, "effects": ["Enhance Parry"]}
    r = ex({"weapon": GREATAXE}, d, dice={"attack": [30], "parry": [3], "damage": [6, 6], "location": [11]})
    assert r.defender_effects == ("Enhance Parry",) and (r.damage_rolled, r.damage) == (14, 0)
    r = ex({"weapon": GREATAXE}, {**d, "effects": []},
           dice={"attack": [30], "parry": [3], "damage": [6, 6], "location": [11]})
    assert r.damage == 14


def test_charge():
    # skill 60 Hard -> 40: 40 succeeds, 41 fails. Size Medium -> Large; DM +0 -> +1d2 (biped) / +1d4 (quadruped)
    # Medium shield vs Large: one step smaller -> half. 1d8 = 7, +1d2 = 2 -> 9 -> 5 (round up); Chest 1 -> 4
    r = ex({"charge": True}, {"weapon": SHIELD, "skill": 50, "armour": {"Chest": 1}},
           dice={"attack": [40], "parry": [20], "damage": [7], "damage_modifier": [2], "location": [11]})
    assert r.attack.effective_skill == 40 and r.attack_level.value == "Success"
    assert (r.damage_rolled, r.damage_after_parry, r.damage) == (9, 5, 4)
    assert "mythras/combat/charge-evade-outmanoeuvre#1" in r.trace.cited_ids()
    r = ex({"charge": True, "quadruped": True}, {"defence": "none"},
           dice={"attack": [40], "damage": [7], "damage_modifier": [4], "location": [11]})
    assert r.damage_rolled == 11  # +1d4 rolled 4
    r = ex({"charge": True}, {"defence": "none"}, dice={"attack": [41]})
    assert r.attack_level.value == "Failure"


def test_outside_style_is_harder():
    r = ex({"outside_style": True}, {"defence": "none"}, dice={"attack": [41]})
    assert r.attack.effective_skill == 40  # one grade (ruling default): Hard, 60 × 2/3
    r = ex({"outside_style": True, "outside_style_grades": 2}, {"defence": "none"}, dice={"attack": [41]})
    assert r.attack.effective_skill == 30  # Formidable
    assert "mythras/combat/combat-styles#1" in r.trace.cited_ids()


def test_charge_outside_style_combine_grades_ruling():
    # add-steps: Hard (1) + outside (1) = Formidable -> 30; hardest-only: Hard -> 40
    r = ex({"charge": True, "outside_style": True}, {"defence": "none"}, dice={"attack": [95]})
    assert r.attack.effective_skill == 30
    r = ex({"charge": True, "outside_style": True}, {"defence": "none"}, dice={"attack": [95]},
           rulings={"mythras.combine-grades": "hardest-only"})
    assert r.attack.effective_skill == 40


def test_long_range_halves_damage_and_drops_force():
    # bow Force Large -> Medium at Long range; 1d8 = 7 (+0) -> ceil(3.5) = 4;
    # buckler (Small) vs Force Medium: one step smaller -> ceil(4/2) = 2
    r = ex({"weapon": BOW, "range": "Long", "skill": 65}, {"weapon": BUCKLER},
           dice={"attack": [30], "parry": [20], "damage": [7], "location": [11]})
    assert (r.damage_rolled, r.damage_after_parry, r.damage) == (4, 2, 2)
    assert "mythras/combat/ranged-combat#3" in r.trace.cited_ids()


def test_aim_eases_one_grade_and_firing_into_melee_strays():
    # changed with the aiming fix (ranged-combat#4 eases "one situational or range grade"): a Standard
    # shot has no penalty to ease and stays Standard, 65 (it was eased to Easy 98)
    r = ex({"weapon": BOW, "range": "Effective", "skill": 65, "aimed": True}, {"defence": "none"},
           dice={"attack": [97]})
    assert r.attack.effective_skill == 65
    # into melee Formidable (+2) eased by aiming to Hard (+1): 65 × 2/3 = 43.3 -> 44; 50 fails only because
    # of the melee penalty (Standard 65 without it) -> stray shot 1d2 = 2 -> Cora
    a = {"weapon": BOW, "range": "Effective", "skill": 65, "aimed": True, "into_melee": "Formidable",
         "adjacent": ["Brand", "Cora"]}
    r = ex(a, {"defence": "none"}, dice={"attack": [50], "stray": [2]})
    assert r.attack.effective_skill == 44 and r.stray_target == "Cora" and not r.hit
    r = ex(a, {"defence": "none"}, dice={"attack": [99]})  # a fumble is not the penalty's fault
    assert r.stray_target is None


def test_missiles_and_bullets_versus_parries():
    # a sword cannot parry an arrow under shields-only: counts as no parry (Failure)
    r = ex({"weapon": BOW, "range": "Effective"}, {}, dice={"attack": [30], "damage": [3], "location": [11]})
    assert r.defence_kind is Defence.NONE and r.damage == 3
    assert "mythras.parry-missiles" in r.trace.ruling_ids()
    r = ex({"weapon": BOW, "range": "Effective"}, {}, dice={"attack": [30], "parry": [20], "damage": [3],
                                                            "location": [11]},
           rulings={"mythras.parry-missiles": "any-weapon"})
    assert r.defence_kind is Defence.PARRY and r.damage == 2  # Medium sword vs Force Large: one step, ceil(3/2)
    # firearms: no Damage Modifier by default
    r = ex({"weapon": PISTOL, "range": "Effective", "str_siz": 40}, {"weapon": SHIELD},
           dice={"attack": [30], "damage": [6], "location": [11]})
    assert r.defence_kind is Defence.NONE and r.damage_rolled == 6


def test_evade():
    # Evade 40 Success vs attack 30 Success: no damage, prone; Daredevil keeps them up
    r = ex(defender={"defence": "evade", "weapon": None}, dice={"attack": [30], "evade": [40]})
    assert (r.hit, r.damage, r.prone) == (False, 0, True)
    r = ex(defender={"defence": "evade", "traits": ["Daredevil"]}, dice={"attack": [30], "evade": [40]})
    assert r.prone is False
    # Evade Critical (03) vs Success: defender 1 effect, Arise -> stays up
    r = ex(defender={"defence": "evade", "effects": ["Arise"]}, dice={"attack": [30], "evade": [3]})
    assert r.defender_effects == ("Arise",) and r.prone is False
    # failed Evade: hit and prone
    r = ex(defender={"defence": "evade"}, dice={"attack": [30], "evade": [80], "damage": [4], "location": [11]})
    assert (r.hit, r.damage, r.prone) == (True, 4, True)
    # ruling: the Evade must beat the attack's level
    r = ex(defender={"defence": "evade"}, dice={"attack": [30], "evade": [40], "damage": [4], "location": [11]},
           rulings={"mythras.evade-success": "level-above-attack"})
    assert r.hit and r.damage == 4


def test_ward_location():
    d = {"defence": "none", "ward": {"locations": ["Chest"], "size": "Medium"}}
    r = ex({}, d, dice={"attack": [30], "damage": [6], "location": [11]})
    assert r.damage == 0  # Medium shield vs Medium sword stops all
    r = ex({}, d, dice={"attack": [30], "damage": [6], "location": [19]})
    assert r.damage == 6  # the head is not warded
    r = ex({}, d, dice={"attack": [30], "damage": [6], "location": [11]}, rulings={"mythras.ward-location": "record-only"})
    assert r.damage == 6


def test_surprise_and_no_action_points():
    # surprised: cannot defend (Failure) and the first successful attack gains a bonus effect: 1 + 1
    r = ex({"effects": ["Bleed", "Trip Opponent"]}, {"surprised": True},
           dice={"attack": [30], "damage": [4], "location": [11]})
    assert r.defence_kind is Defence.NONE and r.effects_won == 2
    assert r.attacker_effects == ("Bleed", "Trip Opponent")
    assert "mythras/combat/surprise#1" in r.trace.cited_ids()
    r = ex({}, {"action_points": 0}, dice={"attack": [30], "damage": [4], "location": [11]})
    assert r.defence_kind is Defence.NONE and r.effects_won == 1


def test_over_100_in_an_exchange():
    # 130 vs 80 -> 100 vs 50: parry 60 now fails; attack critical range becomes 01–10
    r = ex({"skill": 130}, {"skill": 80}, dice={"attack": [12], "parry": [60], "damage": [4], "location": [11]})
    assert r.attack.effective_skill == 100 and r.defence.effective_skill == 50
    assert (r.attack_level.value, r.defence_level.value, r.effects_won) == ("Success", "Failure", 1)


# 121 changed with the fix "the progression continues one step per 10 points": 121–130 is the step
# after +2d10+1d2, i.e. +2d10+1d4 (was +2d10+1d2 under mythras.step-past-end)
@pytest.mark.parametrize("str_siz, dm", [(0, "-1d8"), (5, "-1d8"), (6, "-1d6"), (20, "-1d2"), (21, "+0"), (25, "+0"),
                                          (26, "+1d2"), (50, "+1d10"), (51, "+1d12"), (120, "+2d10+1d2"),
                                          (121, "+2d10+1d4")])
def test_damage_modifier_edges(str_siz, dm):
    from ruleslawyer.rulesets.mythras.damage import damage_modifier_row
    row, step = damage_modifier_row(str_siz, "attacker.str_siz")
    assert row.dice == dm
    assert ("mythras.damage-modifier-ladder" in [u.ruling_id for u in step.rulings]) is (str_siz > 120)


def test_damage_modifier_past_the_table_can_be_refused():
    # the override moved from mythras.step-past-end to mythras.damage-modifier-ladder with the same fix
    with pytest.raises(RulesInputError) as e:
        ex({"str_siz": 125}, {"defence": "none"}, dice={"attack": [30], "damage": [4], "location": [11]},
           rulings={"mythras.damage-modifier-ladder": "refuse"})
    assert e.value.field == "attacker.str_siz"


def test_negative_damage_floors_at_zero():
    # 1d4 = 1 with -1d8 = -6 (STR+SIZ 5) -> -5 -> 0
    r = ex({"weapon": {"damage": "1d4", "size": "Small"}, "str_siz": 5}, {"defence": "none"},
           dice={"attack": [30], "damage": [1], "damage_modifier": [6], "location": [11]})
    assert r.damage_rolled == 0 and r.damage == 0
    assert "mythras.damage-floor" in r.trace.ruling_ids()


def test_hopeless_attack_is_not_attempted():
    r = ex({"difficulty": "Hopeless"}, {}, dice={})
    assert r.attack_level is None and not r.hit and r.damage == 0


@pytest.mark.parametrize("attacker, defender, field", [
    ({"skill": -5}, {}, "attacker.skill"),
    ({"weapon": {**SWORD, "size": "Gigantic"}}, {}, "attacker.weapon.size"),
    ({}, {"weapon": {**SWORD, "size": "Tiny"}}, "defender.weapon.size"),
    ({"weapon": {**BOW, "force": "Vast"}}, {}, "attacker.weapon.force"),
    ({}, {"skill": 1000}, "defender.skill"),
    ({}, {"armour": {"Tail": 2}}, "defender.armour"),
    ({"effects": ["Backstab"]}, {"defence": "none"}, "attacker.effects[0]"),
    ({"difficulty": "Tricky"}, {}, "attacker.difficulty"),
    ({"range": "Long"}, {}, "attacker.range"),
    ({"weapon": {**SWORD, "traits": ["serrated"]}}, {}, "attacker.weapon.traits[0]"),
    ({"str_siz": None}, {"defence": "none"}, "attacker.str_siz"),
    ({"bogus": 1}, {}, "attacker.bogus"),
    ({"damage_modifier": "+3d6"}, {"defence": "none"}, "attacker.damage_modifier"),
])
def test_bad_input_names_the_field(attacker, defender, field):
    with pytest.raises(RulesInputError) as e:
        ex(attacker, defender, dice={"attack": [30], "parry": [40], "damage": [4], "location": [11]})
    assert e.value.field == field


def test_parry_needs_a_weapon():
    with pytest.raises(RulesInputError) as e:
        resolve_exchange(ExchangeInput.from_dict({"attacker": {"skill": 50, "str_siz": 22}, "defender": {"skill": 50}}),
                         script={"attack": [30]})
    assert e.value.field == "defender.weapon"


def test_script_running_out_is_an_error():
    with pytest.raises(DiceScriptError):
        ex(dice={"attack": []})


def test_seeded_runs_repeat():
    a = resolve_exchange(ExchangeInput.from_dict({"attacker": {"skill": 70, "str_siz": 30, "weapon": SWORD},
                                                   "defender": {"skill": 50, "weapon": DAGGER}}), seed=42)
    b = resolve_exchange(ExchangeInput.from_dict({"attacker": {"skill": 70, "str_siz": 30, "weapon": SWORD},
                                                   "defender": {"skill": 50, "weapon": DAGGER}}), seed=42)
    assert a.to_dict() == b.to_dict() and a.seed == 42


def test_flags_must_be_booleans():
    with pytest.raises(RulesInputError) as e:
        ex({"charge": "yes"}, {})
    assert e.value.field == "attacker.charge"


def test_natural_armour_by_location():
    # 1d8 = 6 to the Head: worn 1 + natural 3 (Head only) = 4 -> 2; to the Chest natural 0 -> 6
    d = {"defence": "none", "armour": {"Head": 1}, "natural_armour": {"Head": 3}}
    assert ex({}, d, dice={"attack": [30], "damage": [6], "location": [20]}).damage == 2
    assert ex({}, d, dice={"attack": [30], "damage": [6], "location": [12]}).damage == 6


def test_hit_location_cites_the_row_landed_on():
    r = ex({}, {"defence": "none"}, dice={"attack": [30], "damage": [6], "location": [16]})
    assert r.location == "Left Arm"  # 16–18
    loc = next(s for s in r.trace.walk() if s.label == "Hit location: Left Arm")
    assert loc.value == 16 and loc.cites[1].rule_id.startswith("mythras/supplement/hit-location#")
