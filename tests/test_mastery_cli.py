"""The Mastery CLI: trauma, exchange/sequence mastery, mastery-ap/-move/-health, rulings."""

import json
from pathlib import Path

import pytest

from ruleslawyer.cli import main

EX = Path(__file__).resolve().parent.parent / "examples" / "mastery"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_trauma_roll_and_finger(capsys):
    code, out, _ = run(capsys, "trauma", "--roll", "17", "--finger", "6", "--json")
    d = json.loads(out)
    assert code == 0 and d["finger_lost"] == "right thumb" and d["unit_id"].endswith("trauma-table#22")
    code, out, _ = run(capsys, "trauma", "--roll", "2")
    assert code == 0 and "Lose your right eye" in out


def test_trauma_setting_and_event(capsys):
    code, out, _ = run(capsys, "trauma", "--setting", "deadly", "--event", "exploded-hit-health-damage", "--json")
    d = json.loads(out)
    assert d["outcome"] == "endurance-trial-or-trauma" and d["endurance_dc"] == 4
    code, out, _ = run(capsys, "trauma", "--setting", "realistic", "--json")
    assert [e["outcome"] for e in json.loads(out)["events"]] == ["trauma", "none", "none", "none"]


def test_trauma_bad_roll(capsys):
    code, _, err = run(capsys, "trauma", "--roll", "101")
    assert code == 1 and "roll:" in err


def test_exchange_examples(capsys):
    code, out, _ = run(capsys, "exchange", "mastery", "--input", str(EX / "exchange-melee.json"), "--json")
    d = json.loads(out)
    # 4+4+1 + 2 = 11 vs 3+1 + 2 = 6; 11 - 2 resistance - 3 durability = 6 health: 0, unconscious
    assert (d["attack_total"], d["defense_total"], d["to_health"], d["defender"]["state"]) == (11, 6, 6, "unconscious")
    code, out, _ = run(capsys, "exchange", "mastery", "--input", str(EX / "exchange-ranged.json"), "--json")
    d = json.loads(out)
    # aim d3 3 (max: always hits) vs DC 4; attack 2 + 5 = 7; defense 2+1 + 2 shield + 1 = 6
    assert (d["aim_total"], d["attack_total"], d["defense_total"], d["outcome"]) == (3, 7, 6, "hit")
    code, out, _ = run(capsys, "exchange", "mastery", "--input", str(EX / "exchange-fighting-on.json"), "--json")
    d = json.loads(out)
    assert d["traumas"][0]["finger_lost"] == "right thumb" and d["defender"]["state"] == "fighting-on"


def test_exchange_text_schema_and_ruling_override(capsys, tmp_path):
    code, out, _ = run(capsys, "exchange", "mastery", "--input", str(EX / "exchange-melee.json"))
    assert code == 0 and "[mastery/combat/actions-and-reactions/defense#16]" in out
    code, out, _ = run(capsys, "exchange", "mastery", "--schema")
    schema = json.loads(out)
    examples = schema["$comment"].removeprefix("examples: ").split(", ")
    assert "situation" in schema["properties"] and all((EX.parent.parent / p).exists() for p in examples)
    code, out, _ = run(capsys, "exchange", "mastery", "--input", str(EX / "exchange-melee.json"), "--json",
                       "--ruling", "mastery.failed-defense-damage=attack-minus-defense")
    d = json.loads(out)
    assert d["to_durability"] == 3 and d["to_health"] == 2  # margin 11 - 6 = 5: durability 3, health 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"attacker": {"attack": {"tier": 0}}, "defender": {}}))
    code, _, err = run(capsys, "exchange", "mastery", "--input", str(bad))
    assert code == 1 and "attacker.attack.tier" in err


def test_sequence_example(capsys):
    code, out, _ = run(capsys, "sequence", "mastery", "--input", str(EX / "sequence.json"), "--json")
    d = json.loads(out)
    assert d["first"] == "enemies" and d["startle"][0]["condition"] == "Stunned"
    assert d["order"][0] == {"phase": "moderate", "side": "enemies", "combatants": ["Goblin"]}
    code, out, _ = run(capsys, "sequence", "mastery", "--schema")
    assert "hold_to" in out


def test_ap_move_health(capsys):
    code, out, _ = run(capsys, "mastery-ap", "--input", str(EX / "ap-torch.json"), "--json")
    d = json.loads(out)
    assert (d["ap"], d["rounds"]) == (8, 4)
    code, out, _ = run(capsys, "mastery-move", "--agility-tier", "2", "--moves", "2", "--json")
    assert json.loads(out)["squares"] == 12
    code, out, _ = run(capsys, "mastery-health", "--endurance-tier", "3", "--seed", "4", "--json")
    d = json.loads(out)
    assert d["dice"] == "1d2 + 1d3 + 1d4" and 3 <= d["total"] <= 9


def test_rulings_command(capsys):
    code, out, _ = run(capsys, "rulings", "--ruleset", "mastery", "--json")
    ids = {r["id"] for r in json.loads(out)}
    assert {"mastery.failed-defense-damage", "mastery.energy-vs-armour", "mastery.dominance",
            "mastery.trial-dice-explode", "mastery.tier-die-above-3", "mastery.trial-tie"} <= ids
    code, out, _ = run(capsys, "rulings")
    assert code == 0 and "mastery.inferiority" in out
    code, _, err = run(capsys, "rulings", "--ruleset", "nosuch")
    assert code == 1 and "ruleset" in err


def test_engine_dispatch_lists_registered_rulesets(capsys):
    with pytest.raises(SystemExit) as e:
        main(["exchange", "nosuch"])
    assert e.value.code == 2
    assert "mastery" in capsys.readouterr().err


def test_trauma_roll_with_setting(capsys):
    code, out, _ = run(capsys, "trauma", "--roll", "23", "--setting", "brutal", "--json")
    d = json.loads(out)
    assert d["trauma"]["text"].startswith("Lose your nose") and d["setting"] == "brutal"
    assert [e["outcome"] for e in d["events"]] == ["trauma", "trauma", "trauma", "none"]
