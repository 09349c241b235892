"""The input layer itself (:mod:`ruleslawyer.inputs`): its strict primitives, the declarations agree
with the engines (enum values, bounds, dice slots), and every ``--schema`` is the JSON Schema of the
declarations the engine reads with: a valid draft 2020-12 schema that every example satisfies."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer import inputs as I
from ruleslawyer.cli import main
from ruleslawyer.errors import DiceScriptError, RulesInputError
from ruleslawyer.limits import INPUT_ITEMS, INPUT_NAME_CHARS, INPUT_NUMBER

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


# --------------------------------------------------------------------------- primitives

@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, [], "no"])
def test_boolean_is_only_true_or_false(value):
    with pytest.raises(RulesInputError) as e:
        I.boolean(value, "a.b")
    assert e.value.field == "a.b" and "true or false" in e.value.message
    assert I.boolean(False, "a.b") is False


@pytest.mark.parametrize("value", [12.5, 3.0, math.nan, math.inf, -math.inf, "60", True, None, 1000, -1,
                                   I.json_int("9" * 40)])
def test_whole_refuses_floats_text_bools_and_out_of_bounds(value):
    with pytest.raises(RulesInputError) as e:
        I.whole(value, "skill", 0, 999)
    assert e.value.field == "skill" and "from 0 to 999" in e.value.message
    assert I.whole(999, "skill", 0, 999) == 999 and I.whole(0, "skill", 0, 999) == 0


def test_whole_without_bounds_uses_the_input_number_bound():
    assert I.whole(INPUT_NUMBER, "n") == INPUT_NUMBER
    with pytest.raises(RulesInputError, match="1,000,000"):
        I.whole(INPUT_NUMBER + 1, "n")


def test_a_long_json_number_is_kept_as_text_and_echoed_by_its_digits():
    n = I.json_int("-" + "7" * 5000)
    assert isinstance(n, I.LongNumber) and repr(n) == "a number of 5000 digits"
    assert I.json_int("12") == 12
    with pytest.raises(RulesInputError, match="must be text"):
        I.text(I.json_int("1" * 40), "name")  # digits are never a name


def test_text_and_name_bounds():
    assert I.name("x" * INPUT_NAME_CHARS, "n") == "x" * INPUT_NAME_CHARS
    for bad in ("", "   ", "x" * (INPUT_NAME_CHARS + 1), 5, -math.inf):
        with pytest.raises(RulesInputError) as e:
            I.name(bad, "attacker.name")
        assert e.value.field == "attacker.name" and len(str(e.value)) < 200


def test_choice_reads_case_and_spacing_and_offers_the_closest():
    assert I.choice("very easy", ("Very Easy", "Hard"), "d") == "Very Easy"
    assert I.choice(" FULL_AUTO ", ("single", "full-auto"), "f") == "full-auto"
    with pytest.raises(RulesInputError, match=r"did you mean 'Hard'\? allowed: Very Easy, Hard"):
        I.choice("Hrad", ("Very Easy", "Hard"), "d")
    with pytest.raises(RulesInputError) as e:
        I.choice(True, ("a",), "d")
    assert "unknown value true;" in e.value.message


def test_known_fields_names_the_unknown_key_and_offers_the_closest():
    with pytest.raises(RulesInputError) as e:
        I.known_fields({"skill": 1, "skil": 2}, ["skill", "weapon"], "attacker")
    assert e.value.field == "attacker.skil" and "did you mean 'skill'?" in e.value.message
    with pytest.raises(RulesInputError) as e:
        I.known_fields({"zzz": 1}, ["skill"], "")
    assert e.value.field == "zzz" and "did you mean" not in e.value.message


def test_list_of_is_refused_past_its_bound_before_any_item_is_read():
    seen = []
    with pytest.raises(RulesInputError, match="0 to 1,000 items, got 1,001"):
        I.list_of([1] * (INPUT_ITEMS + 1), "actions", lambda v, f: seen.append(v))
    assert seen == []
    assert I.list_of([1, 2], "xs", lambda v, f: f) == ["xs[0]", "xs[1]"]


def test_dice_script_checks_slots_and_faces():
    assert I.dice_script({"attack": [4, 4, 1], "parry": 7}, ("attack", "parry")) == {"attack": (4, 4, 1),
                                                                                      "parry": (7,)}
    assert I.dice_script(None, ("attack",)) is None
    cases = [({"atack": [1]}, "dice.atack", "did you mean 'attack'?"), ({"attack": [0]}, "dice.attack[0]", "from 1"),
             ({"attack": ["4"]}, "dice.attack[0]", "whole number"), ({"attack": [1.0]}, "dice.attack[0]", "whole"),
             ({"attack": [1] * 1001}, "dice.attack", "1,000"), ([4], "dice", "object")]
    for script, field, words in cases:
        with pytest.raises(DiceScriptError) as e:
            I.dice_script(script, ("attack", "parry"))
        assert e.value.field == field and words in e.value.message, e.value


def test_obj_reads_present_fields_and_refuses_missing_required_ones():
    spec = I.Obj({"a": I.Bool(), "b": I.Int(0, 5, null=True), "c": I.ListOf(I.Name())}, required=("a",))
    assert spec.read({"a": True, "b": None}, "x") == {"a": True, "b": None}
    with pytest.raises(RulesInputError) as e:
        spec.read({"b": 2}, "x")
    assert e.value.field == "x.a" and "required" in e.value.message
    with pytest.raises(RulesInputError) as e:
        spec.read({"a": True, "c": ["ok", 5]}, "x")
    assert e.value.field == "x.c[1]"
    with pytest.raises(RulesInputError) as e:
        spec.read([], "")
    assert e.value.field == "input" and "got []" in e.value.message


def test_either_and_tagged_pick_by_shape():
    armour = I.Either(I.Int(0, 9), I.MapOf(I.Int(0, 9)))
    assert armour.read(3, "a") == 3 and armour.read({"Head": 2}, "a") == {"Head": 2}
    with pytest.raises(RulesInputError, match="a whole number or an object"):
        armour.read("3", "a")
    action = I.Tagged({"move": I.Obj({"move": I.Int(1, 9)}, required=("move",)),
                       "stow": I.Obj({"stow": I.Name()}, required=("stow",))})
    assert action.read({"move": 2}, "a") == {"move": 2}
    with pytest.raises(RulesInputError) as e:
        action.read({"mov": 2}, "actions[0]")
    assert e.value.field == "actions[0].mov" and "did you mean 'move'?" in e.value.message
    with pytest.raises(RulesInputError, match="not move, stow"):
        action.read({"move": 2, "stow": "x"}, "a")


def test_json_schema_mirrors_the_declaration():
    spec = I.Obj({"a": I.Bool(default=False), "n": I.Int(1, 10, null=True), "k": I.Choice(("x", "y"), null=True),
                  "d": I.DiceSlots(("attack",))}, required=("a",))
    s = I.json_schema(spec, "T", "about")
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema" and s["title"] == "T"
    assert s["additionalProperties"] is False and s["required"] == ["a"]
    assert s["properties"]["a"] == {"type": "boolean", "default": False}
    assert s["properties"]["n"] == {"type": ["integer", "null"], "minimum": 1, "maximum": 10}
    assert s["properties"]["k"] == {"enum": ["x", "y", None]}
    assert list(s["properties"]["d"]["properties"]) == ["attack"]


# --------------------------------------------------------------------------- declarations vs engines

def _choices(spec, path=""):
    """(path, values) of every Choice in a declaration."""
    if isinstance(spec, I.Choice):
        yield path, spec.values
    for key, sub in (getattr(spec, "fields", None) or {}).items():
        yield from _choices(sub, f"{path}.{key}")
    for attr in ("item", "value"):
        if isinstance(getattr(spec, attr, None), I.Spec):
            yield from _choices(getattr(spec, attr), path + "[]")
    for i, sub in enumerate(getattr(spec, "options", ())):
        yield from _choices(sub, f"{path}|{i}")
    for tag, sub in getattr(spec, "variants", {}).items():
        yield from _choices(sub, f"{path}<{tag}>")


def test_every_choice_is_an_enum_of_its_engine():
    from ruleslawyer.rulesets.darkmaster import actions as dm
    from ruleslawyer.rulesets.darkmaster import schema as dms
    from ruleslawyer.rulesets.mastery import combatant as mc, damage as md, exchange as mx, round as mr
    from ruleslawyer.rulesets.mastery import schema as ms, trauma as mt
    from ruleslawyer.rulesets.mythras import inputs as yi, levels as yl, special_effects as ys
    from ruleslawyer.rulesets.mythras import schema as yss

    enums = [yl.DifficultyGrade, ys.WeaponTrait, yi.RangedKind, yi.RangeBand, yi.FireMode, yi.Defence, mc.AttackKind,
             mc.Wielding, mc.State, md.DamageType, mx.Range, mx.Elevation, mt.TraumaSetting, mr.Phase, mr.Side,
             dm.ActionType, dm.ActionKind, dm.Side, dm.Assessment]
    values = {tuple(m.value for m in e) for e in enums}
    allowed_subsets = {("Hard", "Formidable"): yl.DifficultyGrade, ("charger", "counter", "same"): None,
                       ("quick", "body", "container"): None, ("quick", "container"): None,
                       ("heater", "kite", "targe"): None}
    found = [c for spec in (yss.CHARGE, yss.INITIATIVE, ms.EXCHANGE, ms.SEQUENCE, ms.AP, ms.SHEET, dms.SEQUENCE)
             for c in _choices(spec)]
    assert found
    for path, vals in found:
        assert vals in values or vals in allowed_subsets, (path, vals)
    from ruleslawyer.rulesets.mythras.charge import LONGER
    from ruleslawyer.rulesets.mastery.planner import _SHIELDS, _WHERE

    assert LONGER == ("charger", "counter", "same") and tuple(_SHIELDS) == ("heater", "kite", "targe")
    assert tuple(_WHERE) == ("quick", "body", "container")


def test_declared_bounds_and_slots_are_the_engines_own():
    from ruleslawyer.rulesets.darkmaster import actions as dm, schema as dms
    from ruleslawyer.rulesets.mastery import exchange as mx, movement, planner, round as mr, schema as ms, tiers
    from ruleslawyer.rulesets.mythras import damage, fighter, initiative, levels, schema as ys
    from ruleslawyer.rulesets.mythras import exchange as yx

    assert ys.ATTACKER.fields["skill"].high == levels.MAX_SKILL == ys.DEFENDER.fields["skill"].high
    assert ys.ATTACKER.fields["str_siz"].high == damage.MAX_STR_SIZ
    assert ys.DEFENDER.fields["action_points"].high == fighter.MAX_ACTION_POINTS
    assert ms.COMBATANT.fields["endurance_tier"].high == tiers.MAX_TIER == ms.ATTACK.fields["tier"].high
    assert ms.ACTION.variants["move"].fields["move"].high == movement.MAX_MOVES
    assert dms.COMBATANT.fields["cmb"].high == dm.MAX_CMB
    assert yx.SLOTS == ys.EXCHANGE_SLOTS and initiative.SLOTS == ys.INITIATIVE_SLOTS
    assert set(planner.ACTION_KEYS) == set(ms.ACTION.variants)
    assert ms.EXCHANGE_SLOTS == ("attack", "defense", "aim", "endurance", "trauma", "finger")
    assert ms.SEQUENCE_SLOTS == ("side", "startle_agility", "startle_perception")
    assert mx.EXCHANGE_SLOTS is ms.EXCHANGE_SLOTS and mr.SEQUENCE_SLOTS is ms.SEQUENCE_SLOTS


# --------------------------------------------------------------------------- --schema

SCHEMAS = [
    (["exchange", "mythras"], "ruleslawyer.rulesets.mythras.schema:EXCHANGE_SCHEMA",
     ["mythras/broadsword-vs-dagger.json", "mythras/burst-fire.json", "mythras/charge-long-spear.json",
      "mythras/charge-set-spear.json", "mythras/evade-daredevil.json", "mythras/longbow-into-melee.json",
      "mythras/surprise-ward.json"]),
    (["initiative", "mythras"], "ruleslawyer.rulesets.mythras.schema:INITIATIVE_SCHEMA", ["mythras/initiative.json"]),
    (["exchange", "mastery"], "ruleslawyer.rulesets.mastery.schema:EXCHANGE_SCHEMA",
     ["mastery/exchange-melee.json", "mastery/exchange-ranged.json", "mastery/exchange-fighting-on.json"]),
    (["sequence", "mastery"], "ruleslawyer.rulesets.mastery.schema:SEQUENCE_SCHEMA", ["mastery/sequence.json"]),
    (["mastery-ap"], "ruleslawyer.rulesets.mastery.schema:AP_SCHEMA", ["mastery/ap-torch.json"]),
    (["trauma"], "ruleslawyer.rulesets.mastery.schema:SHEET_SCHEMA", []),
    (["sequence", "darkmaster"], "ruleslawyer.rulesets.darkmaster.schema:SEQUENCE_SCHEMA",
     ["darkmaster/ambush-round.json", "darkmaster/instant-spell.json", "darkmaster/two-full-actions.json",
      "darkmaster/weapons-by-name.json"]),
]


@pytest.mark.parametrize(("argv", "name", "examples"), SCHEMAS, ids=[" ".join(a) for a, _, _ in SCHEMAS])
def test_schema_is_the_json_schema_of_the_declarations_and_every_example_fits_it(capsys, argv, name, examples):
    jsonschema = pytest.importorskip("jsonschema")
    import importlib

    module, attr = name.split(":")
    assert main([*argv, "--schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(getattr(importlib.import_module(module), attr)))
    jsonschema.Draft202012Validator.check_schema(printed)
    validator = jsonschema.Draft202012Validator(printed)
    for example in examples:
        doc = json.loads((EX / example).read_text(encoding="utf-8"))
        assert not list(validator.iter_errors(doc)), example
        doc["no_such_field"] = 1  # the schema refuses what the reader refuses
        assert list(validator.iter_errors(doc)), example


def test_search_does_not_import_the_input_layer_and_engine_schemas_stay_light():
    code = ("import sys; from ruleslawyer.cli import main; main(['search', 'parry', '--limit', '1']); "
            "print('ruleslawyer.inputs' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stderr.strip().splitlines()[-1] == "False", out.stderr
    code = ("import sys; from ruleslawyer.cli import main; main(['exchange', 'mythras', '--schema']); "
            "print(sorted(m for m in sys.modules if m.startswith(('ruleslawyer.rulesets.mythras.', 'msgspec', "
            "'pandas'))), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    # the declarations only: no engine module (levels, exchange, the database's tables), no pandas
    assert out.stderr.strip().splitlines()[-1] == "['ruleslawyer.rulesets.mythras.cli', " \
        "'ruleslawyer.rulesets.mythras.ruleset', 'ruleslawyer.rulesets.mythras.schema']", out.stderr
