"""Round flow: Startle/Ambush, phases from declarations, the side roll and holds (Mastery)."""

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mastery import (Declaration, HoldTrigger, RoundCombatant, Spell, declared_phase,
                                          sequence_from_dict, sequence_round, startle)

RES = "mastery/combat/startle-and-ambush/results#"


@pytest.mark.parametrize("ag,pe,failed_by,tier,cond", [
    # Agility tier 3 (d4) + Perception tier 3 (d4) vs DC 6
    (4, 2, 0, 0, ""),          # 6 = DC: success (meets the DC, ruling mastery.trial-tie)
    (3, 2, 1, 1, "Dazed"),     # 5: failed by 1
    (2, 2, 2, 1, "Dazed"),     # 4: failed by 2
    (2, 1, 3, 2, "Stunned"),   # 3: failed by 3
    (1, 1, 4, 2, "Stunned"),   # 2: failed by 4
])
def test_startle_results(ag, pe, failed_by, tier, cond):
    s = startle(Dice(script={"startle_agility": [ag], "startle_perception": [pe]}), agility_tier=3, perception_tier=3)
    assert (s.total, s.failed_by, s.impaired_tier, s.condition) == (ag + pe, failed_by, tier, cond)
    assert s.success == (tier == 0)


def test_startle_by_five_is_paralyzed_and_steps_down():
    # tier 1 dice: d2 1 + d2 1 = 2 vs ambush DC 7: failed by 5 -> Tier 3 Paralyzed
    d = {"startle_agility": [1], "startle_perception": [1]}
    s = startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7)
    assert (s.failed_by, s.impaired_tier, s.condition) == (5, 3, "Paralyzed")
    assert RES + "3" in s.trace.cited_ids() and "mastery/combat/startle-and-ambush/ambush#1" in s.trace.cited_ids()
    # round 2: Stunned (tier 2); round 4: over (ruling: below tier 1 ends it)
    assert startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7, round_number=2).tier_this_round == 2
    s4 = startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7, round_number=4)
    assert s4.tier_this_round == 0 and "mastery.impaired-below-1" in s4.trace.ruling_ids()
    s1 = startle(Dice(script=d), agility_tier=1, perception_tier=1, ambush_dc=7,
                 rulings={"mastery.impaired-first-step": "from-round-1"})
    assert s1.tier_this_round == 2


def test_startle_failed_by_3_is_stunned():
    # d4 2 + d2 1 = 3 vs DC 6: failed by 3 -> Tier 2 Stunned
    s = startle(Dice(script={"startle_agility": [2], "startle_perception": [1]}), agility_tier=3, perception_tier=1)
    assert (s.failed_by, s.impaired_tier, s.condition) == (3, 2, "Stunned")
    assert RES + "2" in s.trace.cited_ids()


def test_phase_from_declaration():
    assert declared_phase(Declaration(weapon="dagger"))[0] == "fast"
    assert declared_phase(Declaration(weapon="unarmed"))[0] == "fast"
    assert declared_phase(Declaration(weapon="maul"))[0] == "slow"
    # switching from a sword to a dagger: the slowest involved, Moderate
    assert declared_phase(Declaration(weapon="sword", switch_to="dagger"))[0] == "moderate"
    # a dagger attack and Thunderclap: the slower, Moderate
    assert declared_phase(Declaration(weapon="dagger", spell=Spell("Thunderclap")))[0] == "moderate"
    # a maul held without a declared attack, casting a 2-magan spell: Fast
    assert declared_phase(Declaration(weapon="maul", attack=False, spell=Spell(magan=2)))[0] == "fast"
    ph, step = declared_phase(Declaration())
    assert ph == "fast" and step.ruling_ids() == ("mastery.phase-nothing-declared",)
    with pytest.raises(RulesInputError) as e:
        declared_phase(Declaration(spell=Spell(magan=5)))
    assert e.value.field == "declaration.spell.speed"


def cast():
    return [RoundCombatant("Aldric", "pcs", Declaration(weapon="sword")),
            RoundCombatant("Mira", "pcs", Declaration(weapon="dagger")),
            RoundCombatant("Orc", "enemies", Declaration(weapon="maul")),
            RoundCombatant("Goblin", "enemies", Declaration(weapon="dagger"))]


@pytest.mark.parametrize("face,first", [(1, "pcs"), (3, "pcs"), (4, "enemies"), (6, "enemies")])
def test_side_roll_orders_each_phase(face, first):
    r = sequence_round(cast(), script={"side": [face]})
    assert r.first == first
    fast = [o for o in r.order if o["phase"] == "fast"]
    assert [o["side"] for o in fast] == ([first, "enemies" if first == "pcs" else "pcs"])
    assert [o["phase"] for o in r.order] == ["fast", "fast", "moderate", "slow"]


def test_hold_to_later_phase_and_refusal():
    cs = cast()
    cs[1] = RoundCombatant("Mira", "pcs", Declaration(weapon="dagger", hold_to="slow"))
    r = sequence_round(cs, side_roll=2)
    assert r.combatants["Mira"]["acting_phase"] == "slow"
    assert r.order[-1] == {"phase": "slow", "side": "enemies", "combatants": ["Orc"]}
    assert r.order[-2] == {"phase": "slow", "side": "pcs", "combatants": ["Mira"]}
    cs[2] = RoundCombatant("Orc", "enemies", Declaration(weapon="maul", hold_to="fast"))
    with pytest.raises(RulesInputError) as e:
        sequence_round(cs, side_roll=2)
    assert e.value.field == "combatants[2].declaration.hold_to" and "earlier" in str(e.value)


def test_hold_for_trigger():
    def run(occurs):
        cs = [RoundCombatant("Archer", "enemies", Declaration(weapon="sword", hold_trigger=HoldTrigger("door", 1, occurs)))]
        return sequence_round(cs, side_roll=5).combatants["Archer"]
    assert run("fast")["acting_phase"] is None          # before the natural (Moderate) phase: cannot react
    assert run("moderate")["acting_phase"] == "moderate"
    assert run("slow")["acting_phase"] == "slow"         # after: acts immediately
    never = run(None)
    assert never["acting_phase"] is None and "AP lost" in never["hold"]


def test_sequence_from_dict_with_startle():
    data = {"combatants": [
        {"name": "Aldric", "side": "pcs", "unaware": True, "agility_tier": 2, "perception_tier": 1,
         "declaration": {"weapon": "sword"}},
        {"name": "Orc", "side": "enemies", "declaration": {"weapon": "maul"}}],
        "dice": {"side": [5], "startle_agility": [1], "startle_perception": [1]}}
    r = sequence_from_dict(data)
    # d3 1 + d2 1 = 2 vs 6: failed by 4 -> Stunned
    assert r.startle[0].condition == "Stunned" and r.first == "enemies"
    with pytest.raises(RulesInputError) as e:
        sequence_from_dict({"combatants": [{"name": "X", "side": "neutral"}]})
    assert e.value.field == "combatants[0].side"
    with pytest.raises(RulesInputError) as e:
        sequence_round(cast(), side_roll=7)
    assert e.value.field == "side_roll"
