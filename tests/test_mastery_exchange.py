"""The Mastery exchange, worked by hand from the chapter (every expected number is derived in a comment)."""

import pytest

from ruleslawyer.errors import RulesInputError, RulingError
from ruleslawyer.rulesets.mastery import (Attack, Combatant, Situation, State, TraumaSheet, advance_dying,
                                          exchange_from_dict, resolve_exchange, triage)

AR = "mastery/combat/actions-and-reactions"


def fighter(**kw):
    base = dict(name="A", attack=Attack("melee", tier=3, weapon=2))
    base.update(kw)
    return Combatant(**base)


def target(**kw):
    base = dict(name="D", health=10)
    base.update(kw)
    return Combatant(**base)


def test_passive_melee_resistance_durability_health():
    # attack: d4 4+4+1 = 9 + WEA 2 = 11; passive: resistance 2 absorbs 2, durability 3 takes 3, health 6
    r = resolve_exchange(fighter(), target(armour_resistance=2, durability=3), Situation(defend=False),
                         script={"attack": [4, 4, 1]})
    assert (r.outcome, r.attack_total, r.absorbed, r.to_durability, r.to_health) == ("hit", 11, 2, 3, 6)
    assert (r.defender.health, r.defender.durability, r.defender.state) == (4, 0, State.STANDING)
    assert r.ap == {"attacker": {"spent": 1, "left": 1}, "defender": {"spent": 0, "left": 2}}
    assert r.engaged == ("A with D", "D with A")
    assert f"{AR}/defense#16" in r.trace.cited_ids()


@pytest.mark.parametrize("answer,dur,health", [
    # attack d4 3 + WEA 2 = 5; defense d2 1 + resistance 2 = 3 -> fails
    ("as-passive", 1, 2),            # 5 - resistance 2 = 3: durability 1, then 2 health
    ("attack-minus-defense", 1, 1),  # margin 5 - 3 = 2: durability 1, then 1 health
])
def test_failed_defense_damage_ruling(answer, dur, health):
    r = resolve_exchange(fighter(), target(armour_resistance=2, durability=1), Situation(),
                         script={"attack": [3], "defense": [1]},
                         rulings={"mastery.failed-defense-damage": answer})
    assert (r.attack_total, r.defense_total, r.outcome) == (5, 3, "hit")
    assert (r.to_durability, r.to_health) == (dur, health)
    assert r.ap["defender"] == {"spent": 1, "left": 1}
    assert "mastery.failed-defense-damage" in r.trace.ruling_ids()


def test_tie_goes_to_defender():
    # attack d4 2 + 2 = 4; defense d2 2 explodes + 1 = 3, + resistance 1 = 4 -> equal: defended
    r = resolve_exchange(fighter(), target(armour_resistance=1), Situation(), script={"attack": [2], "defense": [2, 1]})
    assert (r.attack_total, r.defense_total, r.outcome, r.to_health) == (4, 4, "defended", 0)
    assert r.engaged == ("A with D",)  # the defender took no damage


def test_counterattack_after_successful_defense():
    # A: d4 2 + 2 = 4. D defends: d2 2+1 = 3 + resistance 1 = 4 -> defended.
    # D counters (tier 2 d3 3 explodes + 1 = 4, + WEA 1 = 5); A defends: d2 1 -> 1 < 5; A takes 5 (no armour).
    a = fighter()
    d = target(armour_resistance=1, attack=Attack("melee", tier=2, weapon=1))
    r = resolve_exchange(a, d, Situation(counterattack=True), script={"attack": [2, 3, 1], "defense": [2, 1, 1]})
    assert r.outcome == "defended" and r.counter is not None
    assert (r.counter.attack_total, r.counter.defense_total, r.counter.outcome) == (5, 1, "hit")
    assert r.attacker.health == 5
    assert r.ap == {"attacker": {"spent": 2, "left": 0}, "defender": {"spent": 2, "left": 0}}
    assert f"{AR}/triggered-reactions-all-cost-1-ap#1" in r.trace.cited_ids()


def test_no_counterattack_without_ap():
    d = target(ap=1, armour_resistance=1, attack=Attack("melee", tier=2))
    r = resolve_exchange(fighter(), d, Situation(counterattack=True), script={"attack": [2], "defense": [2, 1]})
    assert r.outcome == "defended" and r.counter is None and r.defender.ap == 0


def test_flanking_first_attack_of_ap_only():
    a = fighter(attack=Attack("melee", tier=3, weapon=0))
    r = resolve_exchange(a, target(), Situation(defend=False, flanking=True), script={"attack": [1]})
    assert r.attack_total == 3  # 1 + 2 flanking
    r = resolve_exchange(a, target(), Situation(defend=False, flanking=True, first_attack_of_ap=False),
                         script={"attack": [1]})
    assert r.attack_total == 1


def test_elevation_dominance_and_impotence():
    # attacker elevated: attack d4 rolled twice 1 and 3 -> keeps 3 (+ WEA 2 = 5);
    # the lower defender has Impotence (ruling): d3 rolled twice 1 and 2 -> keeps 1
    r = resolve_exchange(fighter(), target(defense_tier=2), Situation(elevation="attacker"),
                         script={"attack": [1, 3], "defense": [1, 2]})
    assert (r.attack_total, r.defense_total) == (5, 1)
    assert {"mastery.dominance", "mastery.impotence", "mastery.elevation-lower-defense"} <= set(r.trace.ruling_ids())
    # defender elevated: attacker has Impotence (1 and 3 -> 1, + 2 = 3), defender Dominance (1 and 2 -> 2)
    r = resolve_exchange(fighter(), target(defense_tier=2), Situation(elevation="defender"),
                         script={"attack": [1, 3], "defense": [1, 2]})
    assert (r.attack_total, r.defense_total, r.outcome) == (3, 2, "hit")


def test_unarmed_defense_against_weapon_has_inferiority():
    # defense d3 rolled twice: 2 and 1 -> keeps 1
    r = resolve_exchange(fighter(), target(defense_tier=2, wielding="unarmed"), Situation(),
                         script={"attack": [1], "defense": [2, 1]})
    assert r.defense_total == 1 and f"{AR}/defense#7" in r.trace.cited_ids()
    # against an unarmed strike (not a weapon attack): one die, no Inferiority
    r = resolve_exchange(fighter(attack=Attack("unarmed", tier=3)), target(defense_tier=2, wielding="unarmed"),
                         Situation(), script={"attack": [1], "defense": [2]})
    assert r.defense_total == 2 and "mastery.inferiority" not in r.trace.ruling_ids()


def test_shield_only_holder_is_not_unarmed():
    r = resolve_exchange(fighter(), target(wielding="shield", shield=1), Situation(), script={"attack": [1], "defense": [1]})
    assert r.defense_total == 2 and "mastery.inferiority" not in r.trace.ruling_ids()  # d2 1 + shield 1
    assert f"{AR}/defense#5" in r.trace.cited_ids()


def bow(**kw):
    return fighter(perception_tier=2, attack=Attack("bow", tier=2, weapon=1, damage_type="piercing"), **kw)


def test_ranged_defense_needs_a_shield():
    # aim d3 2 vs DC 2 (close): success (equal meets the DC); attack d3 1 + 1 = 2; no shield -> passive
    r = resolve_exchange(bow(), target(), Situation(range="close"), script={"aim": [2], "attack": [1]})
    assert r.outcome == "hit" and not r.defended and r.defender.ap == 2 and r.to_health == 2
    assert f"{AR}/defense#14" in r.trace.cited_ids()


def test_projectile_wielder_cannot_defend():
    r = resolve_exchange(fighter(), target(wielding="projectile"), Situation(), script={"attack": [1]})
    assert not r.defended and r.defender.ap == 2 and f"{AR}/defense#6" in r.trace.cited_ids()


def test_no_ap_means_passive_defense():
    r = resolve_exchange(fighter(), target(ap=0), Situation(defend=True), script={"attack": [1]})
    assert not r.defended and r.to_health == 3 and f"{AR}/defense#3" in r.trace.cited_ids()


def test_spell_lost_on_defending():
    r = resolve_exchange(fighter(), target(casting=True), Situation(), script={"attack": [1], "defense": [1]})
    assert r.spell == "lost" and not r.defender.casting
    assert f"{AR}/defense#9" in r.trace.cited_ids()


def test_aiming_trial_dc_and_naturals():
    # DC 2 + 1 moderate + 1 ally adjacent + 1 cover = 5; d3 max 3 always hits
    sit = Situation(range="moderate", allies_adjacent_to_target=1, cover=1, defend=False)
    r = resolve_exchange(bow(), target(), sit, script={"aim": [3], "attack": [1]})
    assert r.outcome == "hit" and r.aim_total == 3
    # DC 2 + 3 far = 5 with a d4 (PER tier 3): 3 misses
    r = resolve_exchange(fighter(perception_tier=3, attack=Attack("bow", tier=2)), target(),
                         Situation(range="far", defend=False), script={"aim": [3]})
    assert r.outcome == "missed" and r.attacker.ap == 1  # the attack's AP is spent
    # a roll of 1 always misses, even at DC 2
    r = resolve_exchange(bow(), target(), Situation(range="close"), script={"aim": [1]})
    assert r.outcome == "missed"


def test_defense_ap_on_a_missed_shot():
    d = target(shield=1)
    r = resolve_exchange(bow(), d, Situation(range="close"), script={"aim": [1]})
    assert r.defender.ap == 1  # spent (declared before the roll)
    r = resolve_exchange(bow(), d, Situation(range="close"), script={"aim": [1]},
                         rulings={"mastery.defense-ap-on-miss": "refunded"})
    assert r.defender.ap == 2


def test_hostile_within_5ft():
    sit = Situation(range="close", hostile_within_5ft=True, defend=False)
    r = resolve_exchange(bow(), target(), sit)
    assert r.outcome == "not-allowed" and r.attacker.ap == 2 and f"{AR}/defense#8" in r.trace.cited_ids()
    spanned = fighter(perception_tier=2, attack=Attack("crossbow", tier=2, weapon="1d6", spanned=True))
    r = resolve_exchange(spanned, target(), sit, script={"aim": [2], "attack": [1, 2]})
    assert r.outcome == "hit" and r.attack_total == 3  # d3 1 + 1d6 2
    unspanned = fighter(attack=Attack("crossbow", tier=2, weapon="1d6", spanned=False))
    assert resolve_exchange(unspanned, target(), sit).outcome == "not-allowed"
    thrower = fighter(attack=Attack("thrown", tier=2, weapon=1))
    assert resolve_exchange(thrower, target(), sit, script={"aim": [2], "attack": [1]}).outcome == "hit"
    assert resolve_exchange(thrower, target(), sit, rulings={"mastery.thrown-projectile": "yes"}).outcome == "not-allowed"


def test_crossbow_weapon_dice_explode():
    # PER tier 2 d3 1, weapon 1d6: 6 explodes, + 2 = 8 -> 9
    xb = fighter(perception_tier=2, attack=Attack("crossbow", tier=2, weapon="1d6"))
    r = resolve_exchange(xb, target(), Situation(range="close", defend=False), script={"aim": [2], "attack": [1, 6, 2]})
    assert r.attack_total == 9 and f"{AR}/attack#9" in r.trace.cited_ids()


@pytest.mark.parametrize("answer,absorbed,dur,health", [
    ("resistance-then-health", 2, 0, 3),  # 5 fire: resistance 2 absorbs, 3 skips durability to health
    ("straight-to-health", 0, 0, 5),
    ("as-material", 2, 3, 0),
])
def test_energy_damage(answer, absorbed, dur, health):
    a = fighter(attack=Attack("melee", tier=3, weapon=2, damage_type="fire"))
    r = resolve_exchange(a, target(armour_resistance=2, durability=3), Situation(defend=False), script={"attack": [3]},
                         rulings={"mastery.energy-vs-armour": answer})
    assert (r.absorbed, r.to_durability, r.to_health) == (absorbed, dur, health)


@pytest.mark.parametrize("answer,health", [("each-portion", 1), ("once-per-hit", 2)])
def test_magic_portion(answer, health):
    # cutting 4 (d4 2 + 2): resistance 1, durability 3; fire 2: resistance 1 again (each-portion) -> 1 health,
    # or resistance already used (once-per-hit) -> 2 health
    a = fighter(attack=Attack.from_dict({"kind": "melee", "tier": 3, "weapon": 2,
                                         "magic": [{"amount": 2, "type": "fire"}]}))
    r = resolve_exchange(a, target(armour_resistance=1, durability=5), Situation(defend=False), script={"attack": [2]},
                         rulings={"mastery.portion-resistance": answer})
    assert r.damage == 6 and r.to_durability == 3 and r.to_health == health


def test_reaching_zero_endurance_trial_and_dc_ruling():
    # health 3, attack d4 3 + 2 = 5, no armour: 5 health damage; DC 5 (all health damage); tier 3 d4 4 < 5: unconscious
    d = target(health=3, endurance_tier=3)
    r = resolve_exchange(fighter(), d, Situation(defend=False), script={"attack": [3], "endurance": [4]})
    assert r.defender.health == 0 and r.defender.state == State.UNCONSCIOUS and r.defender.dying_rounds == 3
    assert "mastery/combat/death/reaching-0-health#4" in r.trace.cited_ids()
    # health-lost: DC 3; 4 >= 3: fights on
    r = resolve_exchange(fighter(), d, Situation(defend=False), script={"attack": [3], "endurance": [4]},
                         rulings={"mastery.zero-health-dc": "health-lost"})
    assert r.defender.state == State.FIGHTING_ON
    # choose to go down anyway
    r = resolve_exchange(fighter(), d, Situation(defend=False, fight_on=False), script={"attack": [3], "endurance": [4]},
                         rulings={"mastery.zero-health-dc": "health-lost"})
    assert r.defender.state == State.UNCONSCIOUS


def test_brutal_trauma_on_reaching_zero_and_natural_minimum():
    # Brutal: reaching 0 -> Trauma (d100 26 Blurred Vision); Endurance d4 natural 1 -> a second Trauma (33 Ringing Ears)
    d = target(health=3, endurance_tier=3)
    script = {"attack": [3], "endurance": [1], "trauma": [26, 33]}
    r = resolve_exchange(fighter(), d, Situation(defend=False, setting="brutal"), script=script)
    assert [t.roll for t in r.traumas] == [26, 33]
    r = resolve_exchange(fighter(), d, Situation(defend=False, setting="brutal"), script=script,
                         rulings={"mastery.trauma-per-hit": "one-per-hit"})
    assert [t.roll for t in r.traumas] == [26]
    r = resolve_exchange(fighter(), d, Situation(defend=False, setting="realistic"), script={"attack": [3], "endurance": [1]})
    assert r.traumas == ()


def test_deadly_exploding_hit():
    # d4 4 explodes + 1 = 5, + 2 = 7 health damage of 10; Deadly: Endurance (Straightforward 4), d2 1 fails -> Trauma 33
    script = {"attack": [4, 1], "endurance": [1], "trauma": [33]}
    r = resolve_exchange(fighter(), target(), Situation(defend=False, setting="deadly"), script=script)
    assert r.to_health == 7 and [t.roll for t in r.traumas] == [33]
    assert "mastery/combat/wounds-injuries-and-trauma/trauma-table#4" in r.trace.cited_ids()
    r = resolve_exchange(fighter(), target(), Situation(defend=False, setting="brutal"), script={"attack": [4, 1]})
    assert r.traumas == ()


def test_fighting_on_health_damage_means_trauma_and_trial():
    d = target(health=0, state="fighting-on", dying_rounds=2, endurance_tier=2, ap=0)
    # d4 1 + 2 = 3 health damage; Trauma 17 / finger 6 (right thumb); Endurance d3 2 < 3 -> unconscious
    r = resolve_exchange(fighter(), d, Situation(), script={"attack": [1], "trauma": [17], "finger": [6], "endurance": [2]})
    assert r.traumas[0].finger_lost == "right thumb" and "right thumb" in r.defender.sheet.lost
    assert r.defender.state == State.UNCONSCIOUS and r.defender.dying_rounds == 2
    assert "mastery/combat/death/fighting-on#3" in r.trace.cited_ids()


def test_unconscious_cannot_defend():
    d = target(health=0, state="unconscious", dying_rounds=1, shield=2)
    r = resolve_exchange(fighter(), d, Situation(defend=True), script={"attack": [1]})
    assert not r.defended and "mastery.unconscious-defense" in r.trace.ruling_ids()


def test_dying_timer_and_triage():
    d = target(health=0, state="unconscious", dying_rounds=2)
    r = advance_dying(d, 1)
    assert (r.rounds_left, r.died) == (1, False)
    r = advance_dying(d, 2)
    assert r.died and r.target.state == State.DEAD
    t = triage(d, medic_ap=2)
    assert t.stabilized and t.ap_left == 0 and t.patient.stabilized
    assert advance_dying(t.patient, 5).died is False
    assert not triage(d, medic_ap=1).stabilized  # needs 2 AP
    assert not triage(d, adjacent=False).stabilized


def test_bad_inputs_name_the_field():
    with pytest.raises(RulesInputError) as e:
        resolve_exchange(fighter(ap=0), target())
    assert e.value.field == "attacker.ap"
    with pytest.raises(RulesInputError) as e:
        Situation(range="point-blank")
    assert e.value.field == "situation.range"
    with pytest.raises(RulesInputError) as e:
        resolve_exchange(bow(), target(), Situation(range="melee"))
    assert e.value.field == "situation.range"
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {"tier": 0}}, "defender": {}})
    assert e.value.field == "attacker.attack.tier"
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {}}, "defender": {"armour_resistance": -1}})
    assert e.value.field == "defender.armour_resistance"
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {}}, "defender": {"colour": "red"}})
    assert e.value.field == "defender.colour"


def test_seeded_runs_reproduce():
    a = fighter()
    d = target(armour_resistance=1, durability=2, attack=Attack("melee", tier=2))
    s = Situation(counterattack=True, setting="deadly")
    one = resolve_exchange(a, d, s, seed=42).to_dict()
    two = resolve_exchange(a, d, s, seed=42).to_dict()
    assert one == two


def test_sheet_carries_through_input():
    d = exchange_from_dict({
        "attacker": {"attack": {"tier": 3, "weapon": 2}},
        "defender": {"health": 0, "state": "fighting-on", "ap": 0, "sheet": {"lost": ["left eye"]}},
        "dice": {"attack": [1], "trauma": [2], "endurance": [2]}})
    assert "Blinded" in d.defender.sheet.conditions
    assert isinstance(d.defender.sheet, TraumaSheet)


def test_explosion_cap_reported_in_the_exchange():
    # tier 1 = d2; every face a 2: 1 die + 5 extra under cap 5 = 12, reported as capped
    # (one cap for the whole kit: kit.explosion-cap; the Mastery copy is gone)
    a = fighter(attack=Attack("melee", tier=1, weapon=0))
    r = resolve_exchange(a, target(health=20), Situation(defend=False), script={"attack": [2] * 6},
                         rulings={"kit.explosion-cap": "5"})
    assert r.attack_total == 12 and r.capped and r.to_health == 12
    assert "kit.explosion-cap" in r.trace.ruling_ids()
    # weapon dice too: 1d2 under cap 5 rolls 2 x 6 = 12, + tier d2 1 = 13
    a = fighter(attack=Attack("melee", tier=1, weapon="1d2"))
    r = resolve_exchange(a, target(health=20), Situation(defend=False), script={"attack": [1] + [2] * 6},
                         rulings={"kit.explosion-cap": "5"})
    assert r.attack_total == 13 and r.capped and "kit.explosion-cap" in r.trace.ruling_ids()
    with pytest.raises(RulingError):
        resolve_exchange(a, target(), Situation(defend=False), rulings={"mastery.explosion-cap": "5"})


def test_counterattack_range_rules():
    # a bow shot from close range, defended with a shield (d2 2+1 = 3 + shield 1 = 4 >= d3 1 + 1 = 2)
    d = target(shield=1, attack=Attack("melee", tier=2))
    r = resolve_exchange(bow(), d, Situation(range="close", counterattack=True),
                         script={"aim": [2], "attack": [1], "defense": [2, 1]})
    assert r.outcome == "defended" and r.counter is None and r.defender.ap == 1
    assert "mastery.melee-counter-at-range" in r.trace.ruling_ids()
    # a bow counterattack in melee: the attacker is within 5 ft, so the shot is not allowed
    archer = target(attack=Attack("bow", tier=2, weapon=1), armour_resistance=1)
    r = resolve_exchange(fighter(), archer, Situation(counterattack=True), script={"attack": [1], "defense": [2, 1]})
    assert r.outcome == "defended" and r.counter.outcome == "not-allowed" and r.defender.ap == 1


def test_ap_capped_by_trauma_sheet():
    with pytest.raises(RulesInputError) as e:
        exchange_from_dict({"attacker": {"attack": {}}, "defender": {"sheet": {"ap_per_round": 1}}})
    assert e.value.field == "defender.ap"
    r = exchange_from_dict({"attacker": {"attack": {}}, "defender": {"ap": 1, "sheet": {"ap_per_round": 1}},
                            "dice": {"attack": [1], "defense": [2, 1]}})
    assert r.defended and r.defender.ap == 0


def test_one_ap_trauma_mid_round():
    # Brutal: reaching 0 -> Trauma 41 Cracked Sternum ("You have 1 AP per round"); the defender has 2 AP left
    d = target(health=3, endurance_tier=3)
    script = {"attack": [3], "endurance": [4], "trauma": [41]}
    r = resolve_exchange(fighter(), d, Situation(defend=False, setting="brutal"), script=script)
    assert r.defender.sheet.ap_per_round == 1 and r.defender.ap == 2
    r = resolve_exchange(fighter(), d, Situation(defend=False, setting="brutal"), script=script,
                         rulings={"mastery.one-ap-trauma-timing": "at-once"})
    assert r.defender.ap == 1
