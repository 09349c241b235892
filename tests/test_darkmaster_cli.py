"""``ruleslawyer sequence darkmaster`` on the shipped examples."""

from __future__ import annotations

import json
from pathlib import Path

from ruleslawyer.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "darkmaster"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ambush_round(capsys):
    code, out, _ = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "ambush-round.json"), "--json")
    data = json.loads(out)
    assert code == 0
    phases = [p["phase"] for p in data["phases"]]
    assert phases == ["Assessment Phase", "Action Declaration Phase", "Spell Phase A", "Ranged Phase A",
                      "Melee Phase", "Other Actions Phase"]
    melee = next(p for p in data["phases"] if p["phase"] == "Melee Phase")["placements"]
    # Aldric's longsword with a Positional Bonus and the Goblin's Dashing Long spear both attack as Longest:
    # CMB 60 beats 45; the Orc's handaxe (Short) with a Positional Bonus attacks as Long, last
    assert [(p["combatant"], p["length"], p["penalty"]) for p in melee] == [
        ("Aldric", "Longest", -20), ("Goblin", "Longest", -30), ("Orc", "Long", 0)]
    assert data["declaration_order"][:2] == ["Orc", "Goblin"]
    assert data["parries"] == {"Aldric": 10, "Brom": 20}


def test_two_full_actions_exit_1_naming_the_field(capsys):
    code, out, err = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "two-full-actions.json"))
    assert code == 1
    assert err.startswith("ruleslawyer: error: combatants[0].actions[1]:")
    assert "darkmaster/combat/action-types#2" in err


def test_text_output_and_schema(capsys):
    code, out, _ = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "ambush-round.json"))
    assert code == 0 and "Melee Phase" in out and "[darkmaster/combat/" in out
    code, out, _ = run(capsys, "sequence", "darkmaster", "--schema")
    assert "combatants" in json.loads(out)["properties"]
