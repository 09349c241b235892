"""The issue's points 9-12, each with its exact smallest input, through the command line in-process
(the real ``--input`` reader and handler). Their whole kinds are in test_inputs_properties.py."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from ruleslawyer.cli import main
from ruleslawyer.errors import DiceScriptError, RulesInputError
from ruleslawyer.rulesdb.handle import open_rules

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def run(capsys, *argv: str) -> tuple[int, dict]:
    """``ruleslawyer ARGV --json``: the exit code and the JSON document printed."""
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def write(tmp_path: Path, data, name: str = "input.json") -> str:
    f = tmp_path / name
    f.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(f)


def example(name: str) -> dict:
    return json.loads((EX / name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- 9: strings as booleans

def _initiative(tmp_path, capsys, surprised):
    # d10 8 + Initiative Modifier 10 - 0 armour = 18; surprised: -10 -> 8 (mythras/combat/surprise#1)
    data = {"combatants": [{"name": "Cal", "initiative_modifier": 10, "roll": 8, "surprised": surprised}]}
    return run(capsys, "initiative", "mythras", "--input", write(tmp_path, data))


def test_9_surprised_given_as_the_text_false_is_refused_not_read_as_true(tmp_path, capsys):
    code, doc = _initiative(tmp_path, capsys, "false")
    assert code == 1 and doc["error"]["field"] == "combatants[0].surprised"
    assert "true or false" in doc["error"]["message"] and "'false'" in doc["error"]["message"]
    assert _initiative(tmp_path, capsys, False)[1]["order"][0]["total"] == 18
    assert _initiative(tmp_path, capsys, True)[1]["order"][0]["total"] == 8


def test_9_in_python_too_a_text_boolean_is_refused_by_the_same_declaration():
    from ruleslawyer.rulesets.mythras import InitiativeCombatant, roll_initiative
    from ruleslawyer.rulesets.mythras.inputs import Attacker

    with pytest.raises(RulesInputError) as e:
        roll_initiative([InitiativeCombatant("Cal", 10, roll=8, surprised="false")], seed=1)
    assert e.value.field == "combatants[0].surprised"
    with pytest.raises(RulesInputError) as e:
        Attacker(surprised="false")
    assert e.value.field == "attacker.surprised"


# --------------------------------------------------------------------------- 10: misspelt dice slots

@pytest.mark.parametrize(("argv", "example_file", "right", "typo"), [
    (("exchange", "mythras"), "mythras/broadsword-vs-dagger.json", "attack", "atack"),
    (("initiative", "mythras"), "mythras/initiative.json", "initiative", "initiativ"),
    (("exchange", "mastery"), "mastery/exchange-melee.json", "attack", "atack"),
    (("sequence", "mastery"), "mastery/sequence.json", "side", "sid"),
    (("exchange", "mythras"), "mythras/charge-set-spear.json", "counter.attack", "counter.atack"),
])
def test_10_a_misspelt_dice_slot_is_refused_naming_it_with_a_did_you_mean(tmp_path, capsys, argv, example_file,
                                                                         right, typo):
    data = example(example_file)
    assert right in data["dice"]
    data["dice"][typo] = data["dice"].pop(right)
    code, doc = run(capsys, *argv, "--input", write(tmp_path, data))
    assert code == 1 and doc["error"]["field"] == f"dice.{typo}"  # not another slot running out
    assert f"did you mean {right!r}?" in doc["error"]["message"]


def test_10_the_engines_check_their_slots_when_called_from_python():
    from ruleslawyer.rulesets.mastery import exchange_from_dict
    from ruleslawyer.rulesets.mythras import ExchangeInput, resolve_exchange

    inp = ExchangeInput.from_dict(example("mythras/broadsword-vs-dagger.json"))
    with pytest.raises(DiceScriptError) as e:
        resolve_exchange(inp, script={"atack": [7]}, seed=1)
    assert e.value.field == "dice.atack" and "did you mean 'attack'?" in e.value.message
    data = example("mastery/exchange-melee.json")
    data["dice"]["defence"] = data["dice"].pop("defense")
    with pytest.raises(DiceScriptError) as e:
        exchange_from_dict(data, rules=open_rules())
    assert e.value.field == "dice.defence" and "did you mean 'defense'?" in e.value.message


# --------------------------------------------------------------------------- 11: unknown fields

def test_11_an_unknown_field_of_mastery_ap_is_refused_not_ignored(tmp_path, capsys):
    data = example("mastery/ap-torch.json")
    # 2 AP retrieval + 6 AP tinderbox = 8 AP; at 2 AP per round: 4 rounds (mastery/combat/action-points#1)
    assert run(capsys, "mastery-ap", "--input", write(tmp_path, data))[1]["rounds"] == 4
    data["ap_per_rund"] = 1
    code, doc = run(capsys, "mastery-ap", "--input", write(tmp_path, data))
    assert code == 1 and doc["error"]["field"] == "ap_per_rund"
    assert "did you mean 'ap_per_round'?" in doc["error"]["message"]
    data["ap_per_round"] = data.pop("ap_per_rund")  # 8 AP at 1 AP per round: 8 rounds
    assert run(capsys, "mastery-ap", "--input", write(tmp_path, data))[1]["rounds"] == 8


@pytest.mark.parametrize("sheet", ["[]", "false", "0", "\"\"", "{\"lost\": [\"left eye\"], \"lots\": 1}"])
def test_11_a_trauma_sheet_that_is_not_a_sheet_is_refused(tmp_path, capsys, sheet):
    code, doc = run(capsys, "trauma", "--roll", "50", "--sheet", write(tmp_path, sheet))
    assert code == 1 and doc["error"]["field"] in ("sheet", "sheet.lots")


def test_11_the_trauma_sheet_schema_is_printed(capsys):
    assert main(["trauma", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["additionalProperties"] is False and "punctured_lungs" in schema["properties"]


# --------------------------------------------------------------------------- 12: sizes and names

def test_12_a_huge_action_list_is_refused_at_once(tmp_path, capsys):
    from ruleslawyer.rulesets.mastery import plan_actions

    start = time.perf_counter()
    with pytest.raises(RulesInputError) as e:
        plan_actions([{"move": 1}] * 166_666, rules=open_rules())  # once 16 s and 480 MB
    assert e.value.field == "actions" and "1,000" in e.value.message and "166,666" in e.value.message
    code, doc = run(capsys, "mastery-ap", "--input", write(tmp_path, {"actions": [{"move": 1}] * 60_000}))
    assert code == 1 and doc["error"]["field"] == "actions"
    assert time.perf_counter() - start < 5
    plan = plan_actions([{"move": 1}] * 1000, rules=open_rules())  # the bound itself answers: 1,000 AP
    assert (plan.ap, plan.rounds) == (1000, 500)


@pytest.mark.parametrize(("argv", "example_file", "path"), [
    (("exchange", "mythras"), "mythras/broadsword-vs-dagger.json", ("attacker", "name")),
    (("exchange", "mythras"), "mythras/broadsword-vs-dagger.json", ("attacker", "weapon", "name")),
    (("initiative", "mythras"), "mythras/initiative.json", ("combatants", 0, "name")),
    (("sequence", "darkmaster"), "darkmaster/ambush-round.json", ("combatants", 0, "name")),
    (("exchange", "mastery"), "mastery/exchange-melee.json", ("attacker", "name")),
    (("sequence", "mastery"), "mastery/sequence.json", ("combatants", 0, "name")),
    (("mastery-ap",), "mastery/ap-torch.json", ("actions", 1, "table")),
])
@pytest.mark.parametrize("value", [float("-inf"), float("nan"), 5, True, None, [], {}, "x" * 101])
def test_12_a_name_must_be_text_of_at_most_100_characters(tmp_path, capsys, argv, example_file, path, value):
    data = example(example_file)
    holder = data
    for p in path[:-1]:
        holder = holder[p]
    holder[path[-1]] = value  # -Infinity once showed as "-inf attacks"
    code, doc = run(capsys, *argv, "--input", write(tmp_path, data))
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert code == 1 and doc["error"]["field"] == field, doc


def test_12_a_number_of_5000_digits_is_refused_by_its_field_not_an_internal_error(tmp_path, capsys):
    data = example("mythras/broadsword-vs-dagger.json")
    text = json.dumps(data).replace('"skill": 63', '"skill": ' + "9" * 5000)
    code, doc = run(capsys, "exchange", "mythras", "--input", write(tmp_path, text))
    assert code == 1 and doc["error"]["field"] == "attacker.skill"
    assert "a number of 5000 digits" in doc["error"]["message"]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 12.5, 63.0, "63", 1000, -1])
def test_12_a_skill_past_its_bounds_or_not_whole_is_refused(tmp_path, capsys, value):
    data = example("mythras/broadsword-vs-dagger.json")
    data["attacker"]["skill"] = value
    code, doc = run(capsys, "exchange", "mythras", "--input", write(tmp_path, data))
    assert code == 1 and doc["error"]["field"] == "attacker.skill"


@pytest.mark.parametrize(("argv", "example_file", "path", "value"), [
    (("exchange", "mastery"), "mastery/exchange-melee.json", ("attacker", "attack", "weapon"), "9999d6"),
    (("exchange", "mastery"), "mastery/exchange-melee.json", ("attacker", "attack", "weapon"), "1d4+99999"),
    (("exchange", "mythras"), "mythras/broadsword-vs-dagger.json", ("attacker", "weapon", "damage"), "1d4+99999"),
])
def test_12_dice_past_their_bounds_are_refused_naming_the_field_that_holds_them(tmp_path, capsys, argv,
                                                                                example_file, path, value):
    data = example(example_file)
    holder = data
    for p in path[:-1]:
        holder = holder[p]
    holder[path[-1]] = value
    code, doc = run(capsys, *argv, "--input", write(tmp_path, data))
    assert code == 1 and doc["error"]["field"] == ".".join(path), doc
