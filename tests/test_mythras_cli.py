"""``ruleslawyer exchange mythras`` and ``ruleslawyer initiative mythras`` on the shipped examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleslawyer.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mythras"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_exchange_example_json(capsys):
    code, out, _ = run(capsys, "exchange", "mythras", "--input", str(EXAMPLES / "broadsword-vs-dagger.json"), "--json")
    data = json.loads(out)
    # 07 <= ceil(6.3) = 7 Critical vs parry 40 <= 50 Success: 1 effect, Choose Location (Head).
    # 1d8 = 7 + 1d2 (STR+SIZ 27) = 2 -> 9; Small dagger vs Medium: half, ceil(4.5) = 5; Head 3 + natural 1 -> 1
    assert code == 0
    assert (data["attack_level"], data["defence_level"], data["attacker_effects"]) == ("Critical", "Success",
                                                                                      ["Choose Location"])
    assert (data["location"], data["damage_rolled"], data["damage_after_parry"], data["damage"]) == ("Head", 9, 5, 1)
    assert data["trace"]["kind"] == "result"


def test_all_examples_run(capsys):
    for f in sorted(EXAMPLES.glob("*.json")):
        if f.name.startswith("fight-"):
            continue  # whole fights: tests/test_mythras_fight.py
        cmd = "initiative" if "initiative" in f.name else "exchange"
        code, out, err = run(capsys, cmd, "mythras", "--input", str(f), "--seed", "3")
        assert code == 0 and out.strip(), (f, err)


def test_charge_example(capsys):
    # 70 Hard -> 47: 30 succeeds; buckler 80 > 55 fails. Impale: 1d8+1 twice = 6, 9 -> 9; +1d4 -> +1d6 (charge) = 3
    # -> 12; Chest armour 3 -> 9
    code, out, _ = run(capsys, "exchange", "mythras", "--input", str(EXAMPLES / "charge-long-spear.json"), "--json")
    data = json.loads(out)
    assert (data["damage_rolled"], data["damage"], data["location"]) == (12, 9, "Chest")


def test_initiative_example(capsys):
    # Ana 6 + 13 − 4 = 15; Bor 4 + 15 − 2 = 17; Cal 9 + 12 − 0 − 10 = 11
    code, out, _ = run(capsys, "initiative", "mythras", "--input", str(EXAMPLES / "initiative.json"), "--json")
    data = json.loads(out)
    assert [(e["name"], e["total"]) for e in data["order"]] == [("Bor", 17), ("Ana", 15), ("Cal", 11)]


def test_schema(capsys):
    code, out, _ = run(capsys, "exchange", "mythras", "--schema")
    schema = json.loads(out)
    assert code == 0 and set(schema["properties"]) >= {"attacker", "defender", "dice"}
    code, out, _ = run(capsys, "initiative", "mythras", "--schema")
    assert "combatants" in json.loads(out)["properties"]


def test_ruling_override_flag(capsys, tmp_path):
    f = tmp_path / "x.json"
    data = json.loads((EXAMPLES / "broadsword-vs-dagger.json").read_text())
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "exchange", "mythras", "--input", str(f), "--json", "--ruling",
                       "mythras.halving=round-down")
    assert json.loads(out)["damage_after_parry"] == 4  # 9 halved, rounded down


@pytest.mark.parametrize("change, field", [
    ({"attacker": {"skill": -5}}, "attacker.skill"),
    ({"defender": {"weapon": {"size": "Gigantic"}}}, "defender.weapon.size"),
])
def test_bad_input_exits_1_naming_the_field(capsys, tmp_path, change, field):
    data = json.loads((EXAMPLES / "broadsword-vs-dagger.json").read_text())
    for side, fields in change.items():
        for k, v in fields.items():
            data[side][k] = {**data[side][k], **v} if isinstance(v, dict) else v
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    code, out, err = run(capsys, "exchange", "mythras", "--input", str(f))
    assert code == 1 and err.startswith("ruleslawyer: error: " + field)


def test_missing_input(capsys):
    code, _, err = run(capsys, "exchange", "mythras")
    assert code == 1 and "--input" in err


def test_engines_stay_pure():
    import subprocess
    import sys
    code = ("import sys, ruleslawyer.rulesets.mythras, ruleslawyer.rulesets.darkmaster, "
            "ruleslawyer.rulesets.mythras.cli, ruleslawyer.rulesets.darkmaster.cli; "
            "print(sorted(m for m in ('sqlite3', 'pandas', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_evade_and_surprise_examples(capsys):
    # Evade 12 <= 68 Success vs attack 33 <= 55 Success: no effects, no damage, Daredevil stays standing
    code, out, _ = run(capsys, "exchange", "mythras", "--input", str(EXAMPLES / "evade-daredevil.json"), "--json")
    data = json.loads(out)
    assert (data["hit"], data["damage"], data["prone"], data["effects_won"]) == (False, 0, False, 0)
    # a surprised Sentry cannot parry (Failure): 1 + 1 bonus effect; Choose Location on the warded Left Arm:
    # the Huge shield's passive block stops all of the Medium spear's Impale-rolled 7 (1d8+1: 3 and 7)
    code, out, _ = run(capsys, "exchange", "mythras", "--input", str(EXAMPLES / "surprise-ward.json"), "--json")
    data = json.loads(out)
    assert data["attacker_effects"] == ["Choose Location", "Impale"]
    assert (data["location"], data["damage_rolled"], data["damage_after_parry"], data["damage"]) == (
        "Left Arm", 7, 0, 0)
