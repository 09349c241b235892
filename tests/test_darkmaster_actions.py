"""Against the Darkmaster: what a character may declare in a Round, each refusal citing its rule."""

from __future__ import annotations

import pytest

from ruleslawyer.rulesets.darkmaster.actions import DeclarationError
from ruleslawyer.rulesets.darkmaster.trs import Phase, SequenceInput, sequence_round

SWORD = {"name": "Sword attack", "type": "Full", "kind": "melee", "weapon_length": "Long"}


def seq(actions, rulings=None, strict=True, **c):
    data = {"combatants": [{"name": "Hero", "cmb": 60, **c, "actions": actions}]}
    return sequence_round(SequenceInput.from_dict(data), rulings=rulings, strict=strict)


def penalties(r):
    return {x.action: x.penalty for p in r.phases for x in p.placements if p.phase not in
            (Phase.DECLARATION, Phase.ASSESSMENT)} | {x.action: x.penalty for x in r.any_time}


def refused(actions, **kw):
    with pytest.raises(DeclarationError) as e:
        seq(actions, **kw)
    return e.value


def test_two_full_actions_are_refused_naming_the_field():
    err = refused([SWORD, {"name": "Sprint", "type": "Full", "kind": "move"}])
    assert err.field == "combatants.Hero.actions[1]"
    assert err.refusals[0].rule_id == "darkmaster/combat/action-types#2"
    assert "darkmaster/combat/action-types#2" in str(err)


def test_half_with_full_costs_20_to_both():
    r = seq([SWORD, {"name": "Draw dagger", "type": "Half", "kind": "other"}])
    assert penalties(r) == {"Sword attack": -20, "Draw dagger": -20}


def test_two_halves_are_free_of_penalty():
    r = seq([{"name": "Step", "type": "Half", "kind": "move"}, {"name": "Draw", "type": "Half", "kind": "other"}])
    assert penalties(r) == {"Step": 0, "Draw": 0}
    assert "darkmaster/combat/action-types#3" in r.trace.cited_ids()


def test_combinations_ruling():
    three = [{"name": f"H{i}", "type": "Half", "kind": "other"} for i in range(3)]
    err = refused(three)
    assert err.field == "combatants.Hero.actions[2]"
    assert err.refusals[0].rule_id == "darkmaster/combat/action-types/combining-actions#1"
    assert err.refusals[0].ruling.ruling_id == "darkmaster.action-combinations"
    err = refused([SWORD, *three[:2]])
    assert err.field == "combatants.Hero.actions[2]"
    r = seq([SWORD, *three[:2]], {"darkmaster.action-combinations": "full-and-any-halves"})
    assert penalties(r) == {"Sword attack": -20, "H0": -20, "H1": -20}


def test_one_free_action_more_count_as_half():
    # Free + Free: the second counts as Half; with a Full beside it both take -20
    r = seq([SWORD, {"name": "Shout", "type": "Free"}, {"name": "Drop torch", "type": "Free"}])
    assert [x.action for x in r.any_time] == ["Shout"]
    assert penalties(r) == {"Sword attack": -20, "Drop torch": -20, "Shout": 0}
    # the Assessment Roll is itself the Free Action
    r = seq([{"name": "Shout", "type": "Free"}], assessment="passed")
    assert r.any_time == () and penalties(r) == {"Shout": 0}
    assert "darkmaster/combat/action-types#4" in r.trace.cited_ids()


def test_dashing_attack_minus_30_and_no_parry():
    r = seq([{**SWORD, "dashing": True}])
    assert penalties(r) == {"Sword attack": -30}
    err = refused([{**SWORD, "dashing": True}], parry=20)
    assert err.field == "combatants.Hero.parry"
    assert err.refusals[0].rule_id == "darkmaster/combat/tactical-round-sequence/melee-phase#4"


def test_multi_round_actions():
    r = seq([{"name": "Load (2)", "kind": "other"}, {"name": "Curse", "type": "Free"}])
    p = next(p for p in r.phases if p.phase is Phase.OTHER).placements[0]
    assert "Round 1 of 2" in p.reason and "darkmaster/combat/action-types/multi-round-actions#1" in p.cites
    err = refused([{"name": "Load (2)", "kind": "other"}, {"name": "Step", "type": "Half", "kind": "move"}])
    assert err.field == "combatants.Hero.actions[1]"
    assert err.refusals[0].rule_id == "darkmaster/combat/action-types/multi-round-actions#1"
    r = seq([{"name": "Load (2)", "kind": "other", "round": 2, "interrupted": True}])
    assert r.lost == ("Hero: Load (2)",) and Phase.OTHER in r.skipped
    r = seq([{"name": "Hold the door", "rounds": 3, "round": 2, "kind": "other"}])
    assert "Round 2 of 3" in next(p for p in r.phases if p.phase is Phase.OTHER).placements[0].reason


def test_failed_assessment():
    # no new actions; continuing is allowed; Parry at most half of CMB 45 = 22 (rounded down by ruling)
    err = refused([SWORD], assessment="failed")
    assert err.refusals[0].rule_id == "darkmaster/combat/tactical-round-sequence/assessment-phase#3"
    r = seq([{**SWORD, "continuing": True}], assessment="failed", cmb=45, parry=22)
    assert r.parries == {"Hero": 22}
    err = refused([], assessment="failed", cmb=45, parry=23)
    assert err.field == "combatants.Hero.parry" and "22" in err.message
    r = seq([], assessment="failed", cmb=45, parry=23, rulings={"darkmaster.half-cmb-rounding": "up"})
    assert r.parries == {"Hero": 23}


def test_non_strict_lists_refusals_and_leaves_them_out():
    r = seq([SWORD, {"name": "Sprint", "type": "Full", "kind": "move"}], strict=False)
    assert [x.field for x in r.refusals] == ["combatants.Hero.actions[1]"]
    assert Phase.MOVE in r.skipped and Phase.MELEE not in r.skipped


def test_refused_parry_is_not_held_back():
    # a Dashing Attack with a Parry: non-strict leaves the Parry out
    r = seq([{**SWORD, "dashing": True}], parry=20, strict=False)
    assert r.parries == {} and [x.field for x in r.refusals] == ["combatants.Hero.parry"]


def test_flags_must_be_booleans():
    from ruleslawyer.errors import RulesInputError
    with pytest.raises(RulesInputError) as e:
        seq([{**SWORD, "dashing": "yes"}])
    assert e.value.field == "combatants.Hero.actions[0].dashing"


@pytest.mark.parametrize(("action", "what"), [
    ({"name": "Spear thrust", "kind": "melee", "weapon_length": "Longest"}, "a melee attack"),
    ({"name": "Shortbow shot", "kind": "ranged"}, "a ranged attack"),
    ({"name": "Fire bolt", "kind": "spell"}, "a non-instant Spell"),
])
@pytest.mark.parametrize("declared", ["Half", "Free"])
def test_attacks_and_non_instant_spells_are_full_actions(action, what, declared):
    # action-types#2: "Full Actions ... Examples: making a melee or ranged attack, casting a
    # non-instant Spell, moving at full Move Rate."
    err = refused([{**action, "type": declared}])
    assert err.field == "combatants.Hero.actions[0].type"
    assert err.refusals[0].rule_id == "darkmaster/combat/action-types#2"
    assert str(err.refusals[0]) == (
        f"combatants.Hero.actions[0].type: {action['name']!r} is {what}, which the rules give as a Full Action; "
        f"declare it as Full, not {declared} [darkmaster/combat/action-types#2]")
    # declared Full it is accepted, with no penalty on its own
    assert penalties(seq([{**action, "type": "Full"}])) == {action["name"]: 0}


def test_half_actions_the_chapter_names_are_accepted():
    # action-types#3: "casting an Instant Spell, taking a Half Movement" are Half; two Halves: no penalty
    r = seq([{"name": "Blink", "kind": "spell", "instant": True, "type": "Half"},
             {"name": "Step", "kind": "move", "type": "Half"}])
    assert penalties(r) == {"Blink": 0, "Step": 0}


def test_the_darkmaster_examples_declare_attacks_as_full():
    import json
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parent.parent / "examples" / "darkmaster").glob("*.json")):
        for c in json.loads(path.read_text())["combatants"]:
            for a in c.get("actions", []):
                if a.get("kind") in ("melee", "ranged") or (a.get("kind") == "spell" and not a.get("instant")):
                    assert a.get("type", "Full") == "Full", (path.name, a["name"])


# -- an Instant Spell is a Half Action (action-types#3) --------------------------------------------------------

MIRA = {"name": "Mira", "cmb": 40, "actions": [{"name": "Staff", "kind": "melee", "weapon_length": "Long"},
                                               {"name": "Blink", "kind": "spell", "instant": True}]}


def test_a_full_attack_and_an_instant_spell_both_take_minus_20():
    # action-types#2: "making a melee ... attack" is a Full Action; action-types#3: "casting an Instant
    # Spell" is a Half Action, and "Combined with a Full Action, both suffer a -20 penalty to any roll
    # involved": Staff 0 - 20 = -20, Blink 0 - 20 = -20 (not refused as two Full Actions).
    r = sequence_round(SequenceInput.from_dict({"combatants": [MIRA]}))
    assert penalties(r) == {"Staff": -20, "Blink": -20}
    blink = next(p for p in r.phases if p.phase is Phase.SPELL_A).placements[0]
    staff = next(p for p in r.phases if p.phase is Phase.MELEE).placements[0]
    half = "darkmaster/combat/action-types#3"
    assert half in blink.cites and half in staff.cites  # each placement cites the rule behind its -20
    assert blink.reason.startswith("Half Action in its Phase: an Instant Spell")


@pytest.mark.parametrize("declared", ["Full", "Free"])
def test_an_instant_spell_declared_as_another_type_is_refused_citing_half_actions(declared):
    err = refused([{"name": "Blink", "kind": "spell", "instant": True, "type": declared}])
    assert err.field == "combatants.Hero.actions[0].type"
    assert str(err.refusals[0]) == (
        f"combatants.Hero.actions[0].type: 'Blink' is an Instant Spell, which the rules give as a Half Action; "
        f"declare it as Half, not {declared} [darkmaster/combat/action-types#3]")


@pytest.mark.parametrize(("action", "counts_as"), [
    ({"name": "Cut", "kind": "melee", "weapon_length": "Short"}, "Full"),
    ({"name": "Shot", "kind": "ranged"}, "Full"),
    ({"name": "Storm", "kind": "spell"}, "Full"),
    ({"name": "Blink", "kind": "spell", "instant": True}, "Half"),
    ({"name": "Run", "kind": "move"}, "Full"),
    ({"name": "Climb", "kind": "other"}, "Full"),
])
def test_an_action_given_no_type_takes_the_one_the_chapter_gives_its_kind(action, counts_as):
    # action-types#2 (Full: attacks, non-instant Spells, full Move Rate) and #3 (Half: an Instant Spell);
    # anything else defaults to Full
    from ruleslawyer.rulesets.darkmaster import check_declarations
    from ruleslawyer.rulesets.darkmaster.actions import Combatant

    (d,), refusals, _ = check_declarations([Combatant.from_dict({"name": "Hero", "actions": [action]}, "c")])
    assert refusals == [] and d.counts_as.value == counts_as


# -- a Parry is CMB held back: at most the CMB (supplement parry#1) ----------------------------------------------

def test_a_parry_larger_than_the_cmb_is_refused_naming_the_combatant():
    # CMB 40, Parry 60: 60 > 40 -> refused; the field names Brom, the rule is the supplement's Parry paragraph
    data = {"combatants": [{"name": "Brom", "cmb": 40, "parry": 60}]}
    with pytest.raises(DeclarationError) as e:
        sequence_round(SequenceInput.from_dict(data))
    assert e.value.field == "combatants.Brom.parry"
    assert e.value.refusals[0].rule_id == "darkmaster/supplement/parry#1"
    assert "Brom's Parry 60 is more than the CMB 40" in e.value.message
    # all of the CMB may be held back: 40 of 40 is allowed
    assert sequence_round(SequenceInput.from_dict({"combatants": [{"name": "Brom", "cmb": 40, "parry": 40}]})
                          ).parries == {"Brom": 40}


@pytest.mark.parametrize(("cmb", "parry", "allowed"), [(40, 41, False), (0, 1, False), (-10, 5, False),
                                                       (-10, 0, True), (1, 1, True)])
def test_the_parry_limit_is_the_cmb_but_never_below_zero(cmb, parry, allowed):
    r = seq([], strict=False, cmb=cmb, parry=parry)
    assert [x.field for x in r.refusals] == ([] if allowed else ["combatants.Hero.parry"])


def test_after_a_failed_assessment_the_half_cmb_limit_alone_applies():
    # CMB 40 failed: at most 40 / 2 = 20; a Parry of 60 is refused once, by assessment-phase#3
    r = seq([], strict=False, cmb=40, parry=60, assessment="failed")
    assert [(x.field, x.rule_id) for x in r.refusals] == [
        ("combatants.Hero.parry", "darkmaster/combat/tactical-round-sequence/assessment-phase#3")]


def test_errors_name_the_combatant_not_a_position():
    from ruleslawyer.errors import RulesInputError

    data = {"combatants": [{"name": f"c{i}", "cmb": 10} for i in range(5)]
            + [{"name": "Brom", "cmb": 40, "actions": [{"name": "Hit", "kind": "melee", "weapon_length": "Huge"}]}]}
    with pytest.raises(RulesInputError) as e:
        sequence_round(SequenceInput.from_dict(data))
    assert e.value.field == "combatants.Brom.actions[0].weapon_length" and "combatants[5]" not in str(e.value)
    data["combatants"][5] = {"name": "Brom", "side": "monster"}
    with pytest.raises(RulesInputError) as e:
        sequence_round(SequenceInput.from_dict(data))
    assert e.value.field == "combatants.Brom.side"
    # a combatant with no usable name can only be named by position
    data["combatants"][5] = {"name": "c1"}
    with pytest.raises(RulesInputError) as e:
        sequence_round(SequenceInput.from_dict(data))
    assert e.value.field == "combatants[5].name" and "'c1' is used twice" in e.value.message
