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
    code, _, err = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "two-full-actions.json"))
    assert code == 1
    assert err.startswith("ruleslawyer: error: combatants.Aldric.actions[1]:")
    assert "darkmaster/combat/action-types#2" in err


def test_text_output_and_schema(capsys):
    code, out, _ = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "ambush-round.json"))
    assert code == 0 and "Melee Phase" in out and "[darkmaster/combat/" in out
    code, out, _ = run(capsys, "sequence", "darkmaster", "--schema")
    assert "combatants" in json.loads(out)["properties"]


def test_instant_spell_beside_a_full_attack(capsys):
    # the app issue's round: Staff (melee: Full) + Blink (Instant Spell: Half) -> -20 on both (action-types#3)
    code, out, _ = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "instant-spell.json"), "--json")
    assert code == 0
    placed = {p["action"]: p["penalty"] for ph in json.loads(out)["phases"] for p in ph["placements"]
              if ph["phase"] in ("Spell Phase A", "Melee Phase")}
    assert placed == {"Blink": -20, "Staff": -20}


def test_weapons_by_name(capsys):
    # Tamsin's longbow fires in Ranged Phase A; the Orc's hand axe (handaxe: Short, +1 Positional Bonus =
    # Long) and Mira's staff (Long, the kit's reading) tie on length: CMB 45 beats 40
    code, out, _ = run(capsys, "sequence", "darkmaster", "--input", str(EXAMPLES / "weapons-by-name.json"), "--json")
    assert code == 0
    data = json.loads(out)
    melee = next(p for p in data["phases"] if p["phase"] == "Melee Phase")["placements"]
    assert [(p["combatant"], p["length"], p["position"]) for p in melee] == [("Orc", "Long", 1), ("Mira", "Long", 2)]
    ranged = next(p for p in data["phases"] if p["phase"] == "Ranged Phase A")["placements"]
    assert [p["combatant"] for p in ranged] == ["Tamsin"]


def test_a_parry_over_the_cmb_exits_1_naming_the_combatant(capsys, tmp_path):
    path = tmp_path / "brom.json"
    path.write_text(json.dumps({"combatants": [{"name": "Brom", "cmb": 40, "parry": 60}]}))
    code, _, err = run(capsys, "sequence", "darkmaster", "--input", str(path))
    assert code == 1
    assert err.startswith("ruleslawyer: error: combatants.Brom.parry: Brom's Parry 60 is more than the CMB 40")
    assert "darkmaster/supplement/parry#1" in err
