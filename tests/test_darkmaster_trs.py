"""Against the Darkmaster: the Tactical Round Sequence, placements worked by hand from the chapter."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.darkmaster.trs import Phase, SequenceInput, effective_length, sequence_round


def seq(combatants, rulings=None, strict=True):
    return sequence_round(SequenceInput.from_dict({"combatants": combatants}), rulings=rulings, strict=strict)


def melee(name, length, **kw):
    return {"name": name, "kind": "melee", "weapon_length": length, **kw}


def order(result, phase):
    p = next(p for p in result.phases if p.phase is phase)
    return [(x.position, x.combatant) for x in p.placements]


def test_chapter_examples_positional_bonus():
    # "A longsword becomes Longest; a handaxe becomes Long."
    assert effective_length("longsword", positional_bonus=True)[1] == "Longest"
    assert effective_length("handaxe", positional_bonus=True)[1] == "Long"
    assert effective_length("longsword")[1] == "Long"
    assert effective_length("handaxe")[1] == "Short"


def test_melee_order_length_then_cmb_then_simultaneous():
    r = seq([
        {"name": "Axe", "cmb": 70, "actions": [melee("Handaxe", "handaxe")]},
        {"name": "Sword", "cmb": 40, "actions": [melee("Longsword", "longsword")]},
        {"name": "Spear", "cmb": 50, "actions": [melee("Spear", "Long")]},
        {"name": "Twin", "cmb": 50, "actions": [melee("Spear", "Long")]},
        {"name": "Flank", "cmb": 10, "actions": [melee("Dagger", "Hand", positional_bonus=True)]},
    ])
    # Long weapons first: Spear 50 and Twin 50 tie (simultaneous, position 1), then Sword 40; then Short:
    # Axe 70 (Short) and Flank (Hand +1 = Short) 10
    assert order(r, Phase.MELEE) == [(1, "Spear"), (1, "Twin"), (2, "Sword"), (3, "Axe"), (4, "Flank")]
    spear = next(p for p in r.phases if p.phase is Phase.MELEE).placements[0]
    assert "simultaneous" in spear.reason
    assert "darkmaster/combat/tactical-round-sequence/melee-phase#2" in spear.cites


def test_positional_bonus_beats_a_higher_cmb():
    r = seq([{"name": "Orc", "side": "npc", "cmb": 90, "actions": [melee("Longsword", "longsword")]},
             {"name": "Hero", "cmb": 30, "actions": [melee("Longsword", "longsword", positional_bonus=True)]}])
    assert order(r, Phase.MELEE) == [(1, "Hero"), (2, "Orc")]
    hero = next(p for p in r.phases if p.phase is Phase.MELEE).placements[0]
    assert hero.length == "Longest" and "darkmaster.weapon-lengths" in [u.ruling_id for u in hero.rulings]


def test_longest_plus_a_bonus_ruling():
    c = [{"name": "Pike", "cmb": 10, "actions": [melee("Pike", "Longest", positional_bonus=True)]},
         {"name": "Lance", "cmb": 60, "actions": [melee("Lance", "Longest")]}]
    assert order(seq(c), Phase.MELEE) == [(1, "Lance"), (2, "Pike")]  # stays Longest; CMB 60 first
    r = seq(c, {"darkmaster.length-past-longest": "ahead-of-longest"})
    assert order(r, Phase.MELEE) == [(1, "Pike"), (2, "Lance")]


def test_positional_and_dashing_stack_by_ruling():
    assert effective_length("Short", True, True)[1] == "Longest"    # 2 + 2 = step 4
    assert effective_length("Short", True, True, {"darkmaster.length-steps-stack": "one-step"})[1] == "Long"


def test_dashing_attack_tie_cmb_ruling():
    # both attack as Longest; declared CMB 45 vs 40 -> Dasher first; after -30 penalty 15 vs 40 -> other first
    c = [{"name": "Dasher", "cmb": 45, "actions": [melee("Lunge", "Long", dashing=True)]},
         {"name": "Pike", "cmb": 40, "actions": [melee("Pike", "Longest")]}]
    assert order(seq(c), Phase.MELEE) == [(1, "Dasher"), (2, "Pike")]
    assert order(seq(c, {"darkmaster.tie-cmb": "after-penalties"}), Phase.MELEE) == [(1, "Pike"), (2, "Dasher")]


def test_spell_phases():
    r = seq([
        {"name": "Old", "caster_level": 5, "spell_casting_bonus": 10, "actions": [{"name": "Bolt", "kind": "spell",
                                                                                   "prepared_rounds": 1}]},
        {"name": "Quick", "caster_level": 2, "actions": [{"name": "Blink", "kind": "spell", "instant": True,
                                                          "type": "Half"}]},
        {"name": "Keen", "caster_level": 5, "spell_casting_bonus": 30, "actions": [{"name": "Ward", "kind": "spell",
                                                                                    "prepared_rounds": 2}]},
        {"name": "Slow", "caster_level": 9, "actions": [{"name": "Storm", "kind": "spell"}]},
    ])
    # Spell A: level 5 (bonus 30) Keen, level 5 (bonus 10) Old, level 2 Quick; unprepared Storm -> Spell B
    assert order(r, Phase.SPELL_A) == [(1, "Keen"), (2, "Old"), (3, "Quick")]
    assert order(r, Phase.SPELL_B) == [(1, "Slow")]


def test_spell_tie_is_a_ruling():
    r = seq([{"name": "A", "caster_level": 3, "actions": [{"name": "X", "kind": "spell", "instant": True}]},
             {"name": "B", "caster_level": 3, "actions": [{"name": "Y", "kind": "spell", "instant": True}]}])
    assert order(r, Phase.SPELL_A) == [(1, "A"), (1, "B")]
    assert "darkmaster.spell-tie" in r.trace.ruling_ids()


def test_ranged_phases():
    r = seq([
        {"name": "Archer", "cmb": 40, "actions": [{"name": "Shoot", "kind": "ranged", "reloaded_before": True}]},
        {"name": "Thrower", "cmb": 55, "actions": [{"name": "Javelin", "kind": "ranged", "thrown_in_hand": True}]},
        {"name": "Twin", "cmb": 40, "actions": [{"name": "Shoot", "kind": "ranged", "reloaded_before": True}]},
        {"name": "Late", "cmb": 90, "actions": [{"name": "Shoot", "kind": "ranged"}]},
        {"name": "Later", "cmb": 20, "actions": [{"name": "Shoot", "kind": "ranged"}]},
    ])
    assert order(r, Phase.RANGED_A) == [(1, "Thrower"), (2, "Archer"), (2, "Twin")]
    assert order(r, Phase.RANGED_B) == [(1, "Late"), (2, "Later")]
    r2 = seq([{"name": "Late", "cmb": 90, "actions": [{"name": "Shoot", "kind": "ranged"}]},
              {"name": "Later", "cmb": 20, "actions": [{"name": "Shoot", "kind": "ranged"}]}],
             {"darkmaster.phase-b-order": "simultaneous"})
    assert order(r2, Phase.RANGED_B) == [(1, "Late"), (1, "Later")]


def test_phase_order_skips_empty_and_npcs_declare_first():
    r = seq([{"name": "Hero", "cmb": 50, "actions": [melee("Sword", "Long"), {"name": "Step", "type": "Half",
                                                                              "kind": "move"}]},
             {"name": "Troll", "side": "npc", "cmb": 60, "actions": [melee("Club", "Long")]}])
    assert [p.phase for p in r.phases] == [Phase.DECLARATION, Phase.MOVE, Phase.MELEE]
    assert Phase.SPELL_A in r.skipped and Phase.ASSESSMENT in r.skipped
    assert r.declaration_order == ("Troll", "Hero")
    assert [p.order for p in r.phases] == [2, 3, 6]
    assert "darkmaster/combat/tactical-round-sequence#1" in r.trace.cited_ids()


def test_every_placement_has_a_reason_and_a_citation():
    r = seq([{"name": "A", "cmb": 5, "actions": [melee("Sword", "Long"), {"name": "Shout", "type": "Free"}]},
             {"name": "B", "assessment": "passed", "actions": [{"name": "Climb", "kind": "other"}]},
             {"name": "C", "actions": [{"name": "Wait for the door", "kind": "ranged", "readied": True}]}])
    for p in r.phases:
        for x in p.placements:
            assert x.reason and x.cites
    assert [x.action for x in r.readied] == ["Wait for the door"]
    assert r.readied[0].cites == ("darkmaster/combat/action-types/readied-actions#1",)
    assert [x.action for x in r.any_time] == ["Shout"]
    assert order(r, Phase.ASSESSMENT) == [(1, "B")]


def test_unknown_weapon_length_names_the_field():
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "A", "actions": [melee("Whip", "Very Long")]}])
    assert e.value.field == "combatants.A.actions[0].weapon_length" and "Longest" in e.value.message
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "A", "actions": [{"name": "Hit", "kind": "melee"}]}])
    assert e.value.field == "combatants.A.actions[0].weapon_length"
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "A", "cmb": "high"}])
    assert e.value.field == "combatants.A.cmb"
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "A", "actions": [{"name": "Hit", "kind": "kick"}]}])
    assert e.value.field == "combatants.A.actions[0].kind"


def test_a_character_who_failed_the_assessment_roll_declares_nothing_new():
    # assessment-phase#3: "If the Perception Roll fails, the character cannot declare new actions in the
    # following Action Declaration Phase". Troll (npc) declares first, Hero second; Brom failed: listed
    # without a place in the order, citing #3 only; he continues last Round's spear thrust.
    r = seq([{"name": "Hero", "cmb": 50, "actions": [melee("Sword", "Long")]},
             {"name": "Brom", "cmb": 40, "assessment": "failed", "parry": 20,
              "actions": [melee("Spear thrust", "Longest", continuing=True)]},
             {"name": "Troll", "side": "npc", "cmb": 60, "actions": [melee("Club", "Long")]}])
    decl = next(p for p in r.phases if p.phase is Phase.DECLARATION)
    assert [(x.position, x.combatant, x.action) for x in decl.placements] == [
        (1, "Troll", "declares actions and targets"), (2, "Hero", "declares actions and targets"),
        (0, "Brom", "declares no new actions")]
    brom = decl.placements[2]
    assert brom.cites == ("darkmaster/combat/tactical-round-sequence/assessment-phase#3",)
    assert "Spear thrust" in brom.reason
    assert r.declaration_order == ("Troll", "Hero")
    head = next(s for s in r.trace.children if s.label.endswith("Action Declaration Phase"))
    assert head.value == "2 characters declare; 1 cannot (failed Assessment Roll)"
    assert [c.label for c in head.children] == ["1. Troll: declares actions and targets",
                                                "2. Hero: declares actions and targets",
                                                "Brom: declares no new actions"]
    # his continued thrust still resolves: Longest first in the Melee Phase
    assert order(r, Phase.MELEE) == [(1, "Brom"), (2, "Troll"), (3, "Hero")]


@pytest.mark.parametrize(("given", "length", "kit"), [
    ("longsword", "Long", False), ("Long Sword", "Long", False), ("hand axe", "Short", False),
    ("Hand-Axe", "Short", False), ("staff", "Long", True), ("dagger", "Hand", True), ("spear", "Longest", True),
    ("Longest", "Longest", False),
])
def test_weapons_by_the_names_of_the_supplement_table(given, length, kit):
    # weapon-examples: the chapter places the longsword (Long) and the handaxe (Short); the other rows are
    # the kit's reading and carry the ruling darkmaster.weapon-examples
    _, name, why, _, uses = effective_length(given)
    assert name == length
    assert ("darkmaster.weapon-examples" in [u.ruling_id for u in uses]) is kit
    assert ("(the kit's reading)" in why) is kit


def test_every_row_of_the_weapons_table_is_accepted():
    from ruleslawyer.rulesets.darkmaster import _tables

    rows = _tables.weapons().values()
    assert {"longbow", "staff", "heavy crossbow", "longsword", "handaxe"} <= {w.name for w in rows}
    for w in rows:
        if w.length is None:  # a ranged weapon: named on a ranged action
            r = seq([{"name": "A", "actions": [{"name": "Shoot", "kind": "ranged", "weapon": w.name}]}])
            assert order(r, Phase.RANGED_B) == [(1, "A")]
            assert next(p for p in r.phases if p.phase is Phase.RANGED_B).placements[0].reason.startswith(w.name)
        else:
            r = seq([{"name": "A", "actions": [{"name": "Hit", "kind": "melee", "weapon": w.name}]}])
            assert next(p for p in r.phases if p.phase is Phase.MELEE).placements[0].length == w.length
            assert w.row.unit_id in r.trace.cited_ids()


def test_a_ranged_weapon_in_melee_and_the_chapter_only_ruling_are_refused_naming_the_field():
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "Tamsin", "actions": [melee("Swing", "longbow")]}])
    assert e.value.field == "combatants.Tamsin.actions[0].weapon_length"
    assert "longbow is a ranged weapon" in e.value.message
    chapter_only = {"darkmaster.weapon-examples": "chapter-only"}
    with pytest.raises(RulesInputError) as e:
        seq([{"name": "Mira", "actions": [{"name": "Whack", "kind": "melee", "weapon": "staff"}]}], chapter_only)
    assert e.value.field == "combatants.Mira.actions[0].weapon" and "give its length" in e.value.message
    # the chapter's own weapons need no ruling
    r = seq([{"name": "Mira", "actions": [melee("Cut", "longsword")]}], chapter_only)
    assert "darkmaster.weapon-examples" not in r.trace.ruling_ids()
