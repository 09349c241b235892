"""Hostile fight inputs, every ruleset: an impossible combatant, declaration or dice script is a
``RulesInputError`` naming the field path and what is allowed, and leaves the fight as it was.

Fights read their combatants and declarations through the strict input layer
(:mod:`ruleslawyer.inputs`, each ruleset's ``schema.py``) and a round's dice script against the
ruleset's dice slots (``Encounter.dice_slots``); a scripted face is checked against the die it is rolled
on. ``fight RULESET --schema`` prints that same declaration as a JSON Schema, which the shipped
examples satisfy and the hostile inputs do not.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import jsonschema
import pytest

from ruleslawyer.cli import main
from ruleslawyer.commands.fight import encounter_class
from ruleslawyer.errors import DiceScriptError, RulesInputError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FIGHTS = {"mastery": "fight-duel.json", "mythras": "fight-duel.json", "darkmaster": "fight-skirmish.json"}
RULESETS = tuple(FIGHTS)


def example(ruleset: str) -> dict:
    return json.loads((EXAMPLES / ruleset / FIGHTS[ruleset]).read_text(encoding="utf-8"))


def start(ruleset: str, data: dict | None = None):
    data = data or example(ruleset)
    return encounter_class(ruleset).start(data["combatants"], seed=7, rulings=data.get("rulings"),
                                          options=data.get("options"))


def refused(call, *args, cls=RulesInputError) -> RulesInputError:
    with pytest.raises(cls) as e:
        call(*args)
    return e.value


# -- dice scripts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("script, field, words", [
    ({"atack": [4]}, "dice.atack", ("unknown dice slot", "did you mean 'attack'")),
    ({"attack": ["4"]}, "dice.attack[0]", ("whole number",)),
    ({"attack": [True]}, "dice.attack[0]", ("whole number",)),
    ({"attack": [0]}, "dice.attack[0]", ("from 1",)),
    ({"attack": [1] * 1001}, "dice.attack", ("1,000",)),
    ({"attack": {"a": 1}}, "dice.attack", ("list",)),
    ([4, 4], "dice", ("object",)),
])
def test_a_bad_dice_script_names_the_slot_and_leaves_the_fight_as_it_was(ruleset, script, field, words):
    fight = start(ruleset)
    e = refused(fight.resolve_round, script, cls=DiceScriptError)
    assert e.field == field and all(w in e.message for w in words), e
    assert fight.state.round == 0 and fight.log == ()
    fight.resolve_round()  # the fight goes on
    assert fight.state.round == 1


@pytest.mark.parametrize("ruleset, script, die", [
    ("mastery", {"side": [7]}, "d6"),           # the 1d6 side roll given 7
    ("mythras", {"initiative": [11]}, "d10"),   # Initiative's d10 given 11
    ("darkmaster", {"attack": [101]}, "d100"),  # an open-ended d100 given 101
])
def test_a_scripted_face_the_die_cannot_show_is_refused_naming_the_die(ruleset, script, die):
    data = example(ruleset)
    fight = start(ruleset, data)
    for name, decl in data["rounds"][0].get("declare", {}).items():
        fight.declare(name, decl)
    (slot, (face,)), = script.items()
    e = refused(fight.resolve_round, script, cls=DiceScriptError)
    sides = int(die[1:])
    assert e.field == f"dice.{slot}" and f"impossible on a {die}" in e.message and f"1 to {sides}" in e.message
    assert str(face) in e.message
    assert fight.state.round == 0 and fight.log == ()  # nothing resolved, the declarations still pending
    assert set(fight.pending) == set(data["rounds"][0].get("declare", {}))


# -- combatants ----------------------------------------------------------------------------------------

COMBATANT_CASES = {
    "mastery": [({"name": 5}, "name", "text"), ({"name": "x" * 101}, "name", "100"),
                ({"helth": 3}, "helth", "did you mean 'health'"), ({"health": "10"}, "health", "whole number"),
                ({"agility_tier": 11}, "agility_tier", "10"), ({"impaired": 4}, "impaired", "3"),
                ({"side": "pc"}, "side", "pcs"), ({"hazard": "lava"}, "hazard", "fire"),
                ({"within_reach": "Brute"}, "within_reach", "list"),
                ({"triage_begun": ["Brute", 1, 2]}, "triage_begun", "2")],
    "mythras": [({"name": 5}, "name", "text"), ({"name": "x" * 101}, "name", "100"),
                ({"combat_style": 5000}, "combat_style", "999"), ({"hit_ponts": {}}, "hit_ponts", "hit_points"),
                ({"weapon_arm": "Tail"}, "weapon_arm", "Right Arm"), ({"action_points": 11}, "action_points", "10"),
                ({"condition": {"status": "asleep"}}, "condition.status", "incapacitated"),
                ({"armour": {"Chest": -1}}, "armour.Chest", "0")],
    "darkmaster": [({"name": 5}, "name", "text"), ({"name": "x" * 101}, "name", "100"),
                   ({"cmb": 1000}, "cmb", "999"), ({"side": "pc"}, "side", "npc"),
                   ({"hitz": 3}, "hitz", "hits"), ({"conditions": [{"name": "Dying"}]}, "conditions[0].rounds", "")],
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_impossible_combatant_names_its_field_and_what_is_allowed(ruleset):
    for change, key, words in COMBATANT_CASES[ruleset]:
        data = example(ruleset)
        data["combatants"][0].update(change)
        e = refused(start, ruleset, data)
        assert e.field == f"combatants[0].{key}" and words in e.message, (change, e)
    data = example(ruleset)
    data["combatants"][1] = "Brute"
    assert refused(start, ruleset, data).field == "combatants[1]"


@pytest.mark.parametrize("ruleset", ("mastery", "mythras"))
def test_a_required_combatant_field_is_named(ruleset):
    data = example(ruleset)
    required = {"mastery": "side", "mythras": "hit_points"}[ruleset]
    del data["combatants"][0][required]
    e = refused(start, ruleset, data)
    assert e.field == f"combatants[0].{required}" and "required" in e.message


# -- declarations --------------------------------------------------------------------------------------

DECLARATION_CASES = {
    "mastery": [({"actions": [{"action": "cast", "spell": "Flame Dart", "ap": 3}]}, "actions[0].ap", "2"),
                ({"actions": [{"action": "attack", "target": "Brute", "situation": {"range": "near"}}]},
                 "actions[0].situation.range", "moderate"),
                ({"actions": [{"action": "move", "through": "lava"}]}, "actions[0].through", "hazardous"),
                ({"hold_to": "fast"}, "hold_to", "moderate"), ({"wepon": "sword"}, "wepon", "weapon"),
                ({"actions": "attack"}, "actions", "list")],
    "mythras": [({"defence": "block"}, "defence", "parry"), ({"actions": [{"action": "Dance"}]},
                                                              "actions[0].action", "Attack"),
                ({"actions": [5]}, "actions[0]", "text or an object"), ({"tagret": "Brute"}, "tagret", "target")],
    "darkmaster": [({"parry": -1}, "parry", "0"), ({"actions": [{"name": "Stab", "kind": "bite"}]},
                                                    "actions[0].kind", "melee"),
                   ({"assessment": "maybe"}, "assessment", "passed")],
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_impossible_declaration_names_its_field_and_what_is_allowed(ruleset):
    fight = start(ruleset)
    name = fight.state.combatants[0].name
    for decl, key, words in DECLARATION_CASES[ruleset]:
        e = refused(fight.declare, name, decl)
        assert e.field == f"declarations.{name}.{key}" and words in e.message, (decl, e)
    assert fight.pending == {}


# -- the schema: printed by --schema, satisfied by the examples, refusing what the engine refuses ---------

def cli_schema(ruleset: str, capsys) -> dict:
    assert main(["fight", ruleset, "--schema"]) == 0
    printed = capsys.readouterr().out
    _check_schema(printed)
    return json.loads(printed)


@functools.cache
def _check_schema(printed: str) -> None:
    """The printed schema is a valid JSON Schema (checked once per text printed: the meta-schema
    check takes ~0.04 CPU-s)."""
    jsonschema.Draft202012Validator.check_schema(json.loads(printed))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_schema_is_json_schema_the_shipped_examples_satisfy(ruleset, capsys):
    schema = cli_schema(ruleset, capsys)
    assert schema["$schema"].startswith("https://json-schema.org/") and schema["type"] == "object"
    files = sorted((EXAMPLES / ruleset).glob("fight-*.json"))
    assert files
    validator = jsonschema.validators.validator_for(schema)(schema)  # checked once, in cli_schema
    for path in files:
        validator.validate(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_schema_refuses_the_hostile_combatants_and_declarations(ruleset, capsys):
    validator = jsonschema.Draft202012Validator(cli_schema(ruleset, capsys))
    for change, key, _ in COMBATANT_CASES[ruleset]:
        if key.endswith(".rounds"):
            continue  # what a condition's fields mean together: the engine's check, not the shape's
        data = example(ruleset)
        data["combatants"][0].update(change)
        assert not validator.is_valid(data), change
    name = example(ruleset)["combatants"][0]["name"]
    for decl, key, _ in DECLARATION_CASES[ruleset]:
        data = example(ruleset)
        data["rounds"][0]["declare"] = {name: decl}
        assert not validator.is_valid(data), decl
    data = example(ruleset)
    data["rounds"][0]["dice"] = {"atack": [1]}
    assert not validator.is_valid(data)


def test_mastery_schema_declares_every_field_the_engine_reads():
    from dataclasses import fields

    from ruleslawyer.rulesets.mastery import orders, schema
    from ruleslawyer.rulesets.mastery.fighter import COMBATANT_FIELDS, FIGHTER_FIELDS

    assert set(schema.FIGHTER.fields) == COMBATANT_FIELDS | FIGHTER_FIELDS
    assert set(schema.ORDERS.fields) == {f.name for f in fields(orders.Orders)}
    keys = set().union(*orders._KEYS.values()) | {"action"}
    assert set(schema.FIGHT_ACTION.fields) == keys
    assert set(schema.FIGHT_ACTION.fields["situation"].fields) == orders._SITUATION_KEYS


def test_a_fights_schema_and_its_start_agree_on_a_saved_fight(capsys):
    # a fight saved after a round is read back by the same declarations (the saved state's fields)
    for ruleset in RULESETS:
        data = example(ruleset)
        fight = start(ruleset, data)
        for name, decl in data["rounds"][0].get("declare", {}).items():
            fight.declare(name, decl)
        fight.resolve_round(data["rounds"][0].get("dice"))
        saved = fight.to_dict()
        again = encounter_class(ruleset).from_dict(copy.deepcopy(saved))
        assert again.to_dict()["state"] == saved["state"]
        schema = cli_schema(ruleset, capsys)
        jsonschema.validators.validator_for(schema)(schema).validate({"combatants": saved["state"]["combatants"]})


@pytest.mark.parametrize("ruleset, options, field, words", [
    ("mastery", {"trauma_setting": "grim"}, "options.trauma_setting", "realistic, brutal, deadly"),
    ("mastery", {"precipitation": "yes"}, "options.precipitation", "true or false"),
    ("mastery", {"rain": True}, "options.rain", "precipitation"),
    ("mythras", {"rain": True}, "options.rain", "no options"),
    ("darkmaster", [], "options", "object"),
])
def test_bad_fight_options_are_named(ruleset, options, field, words):
    data = dict(example(ruleset), options=options)
    e = refused(start, ruleset, data)
    assert e.field == field and words in e.message, e
