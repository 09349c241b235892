"""Tier dice, exploding rolls, edges and trials (Mastery)."""

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.errors import DiceScriptError, RulesInputError, RulingError
from ruleslawyer.rulesets.mastery import Edge, named_dc, roll_tier_die, roll_trial, tier_die


@pytest.mark.parametrize("tier,sides,row", [(1, 2, 2), (2, 3, 3), (3, 4, 4)])
def test_chapter_tier_dice(tier, sides, row):
    # health-types#3: "A character who starts at Endurance Tier 3 has 1d2 + 1d3 + 1d4." -- the
    # supplement's tier-dice table reads that off (rows ¶2-¶4 = tiers 1-3); each die cites its own
    # row, not the tier-3 sentence.
    got, step = tier_die(tier)
    assert got == sides
    assert step.cited_ids() == (f"mastery/supplement/tier-dice#{row}",)
    assert step.ruling_ids() == ()


def test_every_tier_die_in_a_trace_cites_its_own_row():
    from ruleslawyer.rulesdb import load_table
    from ruleslawyer.rulesets.mastery import starting_health

    rows = {r.cells[0]: r.unit_id for r in load_table("mastery/supplement/tables/tier-dice").rows}
    assert rows == {"1": "mastery/supplement/tier-dice#2", "2": "mastery/supplement/tier-dice#3",
                    "3": "mastery/supplement/tier-dice#4"}
    # Endurance tier 3 rolls 1d2 + 1d3 + 1d4 (health-types#3): 2 + 1 + 3 = 6
    r = starting_health(3, script={"health": [2, 1, 3]})
    assert r.total == 6
    dice_steps = [s for s in r.trace.walk() if s.label.startswith("Tier ") and s.label.endswith(" die")]
    assert [(s.label, s.cited_ids()) for s in dice_steps] == [
        (f"Tier {t} die", (rows[str(t)],)) for t in (1, 2, 3)]
    assert "mastery/combat/additional-combat-rules/health-types#3" not in {c for s in dice_steps for c in s.cited_ids()}


def test_tier_above_3_is_a_ruling():
    sides, step = tier_die(4)
    assert sides == 5  # next-die: d4 at tier 3, +1 per tier
    assert step.ruling_ids() == ("mastery.tier-die-above-3",)
    assert step.cited_ids() == ("mastery/supplement/tables/tier-dice",)
    assert tier_die(6)[0] == 7
    with pytest.raises(RulesInputError) as e:
        tier_die(4, {"mastery.tier-die-above-3": "refuse"})
    assert e.value.field == "tier"


@pytest.mark.parametrize("bad", [0, -1, 11, 2.5, True, "3"])
def test_bad_tier_names_field(bad):
    with pytest.raises(RulesInputError) as e:
        tier_die(bad, field="attacker.tier")
    assert e.value.field == "attacker.tier"


def test_exploding_tier_die_script():
    # d4 (tier 3): 4 explodes, 4 explodes, 1 stops: 4 + 4 + 1 = 9
    r = roll_tier_die(Dice(script={"attack": [4, 4, 1]}), 3, "attack", label="a", explode=True)
    assert (r.faces, r.total, r.exploded, r.capped) == ((4, 4, 1), 9, True, False)


def test_explosion_cap_reported_on_d2():
    # tier 1 = d2; cap ruling 5: 1 face + 5 extra all 2s -> total 12, capped, never a hang
    r = roll_tier_die(Dice(script={"attack": [2] * 6}), 1, "attack", label="a", explode=True,
                      rulings={"kit.explosion-cap": "5"})
    assert r.total == 12 and r.capped
    assert "kit.explosion-cap" in r.step.ruling_ids()


def test_script_out_of_faces_and_impossible_face():
    with pytest.raises(DiceScriptError):
        roll_tier_die(Dice(script={"attack": [4]}), 3, "attack", label="a", explode=True)
    with pytest.raises(DiceScriptError):
        roll_tier_die(Dice(script={"attack": [5]}), 3, "attack", label="a", explode=True)


def test_dominance_keeps_higher_impotence_lower():
    # d4 twice: 1 and 3 -> Dominance keeps 3, Impotence keeps 1
    r = roll_tier_die(Dice(script={"a": [1, 3]}), 3, "a", label="x", explode=True, edges=[Edge.DOMINANCE])
    assert r.total == 3
    r = roll_tier_die(Dice(script={"a": [1, 3]}), 3, "a", label="x", explode=True, edges=[Edge.IMPOTENCE])
    assert r.total == 1
    # Dominance cancels Inferiority: one roll only
    r = roll_tier_die(Dice(script={"a": [2]}), 3, "a", label="x", explode=True,
                      edges=[Edge.DOMINANCE, Edge.INFERIORITY])
    assert r.total == 2 and "mastery.edge-combining" in r.step.ruling_ids()


def test_edge_plus_minus_answers():
    r = roll_tier_die(Dice(script={"a": [2]}), 3, "a", label="x", explode=True, edges=[Edge.DOMINANCE],
                      rulings={"mastery.dominance": "plus-2"})
    assert r.total == 4  # 2 + 2
    r = roll_tier_die(Dice(script={"a": [3]}), 3, "a", label="x", explode=True, edges=[Edge.INFERIORITY],
                      rulings={"mastery.inferiority": "minus-2"})
    assert r.total == 1  # 3 - 2


def test_trial_tie_and_explosion_rulings():
    # tier 2 d3 rolls 2 vs DC 2: success by default (meet the DC), failure under the alternative
    t = roll_trial(Dice(script={"e": [2]}), 2, 2, "e", label="t", cites=[])
    assert t.success and "mastery.trial-tie" in t.trace.ruling_ids()
    t = roll_trial(Dice(script={"e": [2]}), 2, 2, "e", label="t", cites=[], rulings={"mastery.trial-tie": "failure"})
    assert not t.success
    # trial dice do not explode by default: d3 3 vs DC 4 fails; with "yes": 3 + 2 = 5 succeeds
    t = roll_trial(Dice(script={"e": [3]}), 2, 4, "e", label="t", cites=[])
    assert (t.total, t.success) == (3, False)
    t = roll_trial(Dice(script={"e": [3, 2]}), 2, 4, "e", label="t", cites=[],
                   rulings={"mastery.trial-dice-explode": "yes"})
    assert (t.total, t.success) == (5, True)


def test_named_dc_from_supplement():
    assert named_dc("Straightforward")[0] == 4
    assert named_dc("easy")[0] == 2
    assert named_dc("Tricky")[0] == 6
    with pytest.raises(RulesInputError):
        named_dc("Impossible")


def test_bad_ruling_answer():
    with pytest.raises(RulingError):
        tier_die(4, {"mastery.tier-die-above-3": "d100"})
