"""Darkmaster inputs refused where they are wrong and accepted where play put them: a "(0)" Multi-Round
Action in a single round's sequence names the action's name; a saved fight in which a character woke at
0 hits or below loads and goes on."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.cli import main
from ruleslawyer.commands.fight import encounter_class
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.darkmaster.actions import Action, Combatant, check_declarations

ALDRIC = {"name": "Aldric", "side": "player", "cmb": 60, "hits": 40}
SNAG = {"name": "Snag", "side": "npc", "cmb": 30, "hits": 20}
GRAK_OUT = {"name": "Grak", "side": "npc", "cmb": 45, "hits": -2, "conditions": [{"name": "Unconscious", "rounds": 1}]}


@pytest.mark.parametrize("name, got", [("Load (0)", 0), ("Chant (1001)", 1001)])
def test_a_sequence_refuses_a_multi_round_name_of_no_rounds_by_its_name(name, got):
    with pytest.raises(RulesInputError) as e:
        check_declarations([Combatant("Bolt", cmb=40, actions=[Action(name)])])
    assert e.value.field == "combatants.Bolt.actions[0].name"
    assert e.value.message.endswith(f"n from 1 to 1000; got {got}")


def test_the_sequence_command_names_the_name_field(tmp_path, capsys):
    path = tmp_path / "seq.json"
    path.write_text(json.dumps({"combatants": [{"name": "Bolt", "cmb": 40, "actions": [{"name": "Load (0)"}]}]}))
    assert main(["sequence", "darkmaster", "--input", str(path)]) == 1
    err = capsys.readouterr().err
    assert "combatants.Bolt.actions[0].name: 'Load (0)'" in err and "round:" not in err
    assert check_declarations([Combatant("Bolt", cmb=40, actions=[Action("Load (2)", round=2)])])


def test_a_saved_fight_with_a_character_woken_at_negative_hits_loads():
    cls = encounter_class("darkmaster")
    fight = cls.start([ALDRIC, GRAK_OUT, SNAG], seed=7)
    fight.resolve_round()  # round 1: Grak's Unconscious lasts its last Round
    r2 = fight.resolve_round()  # round 2: it ends
    assert "Grak wakes (Unconscious ends): an Assessment Roll is due" in [line.text for line in r2.lines]
    grak = fight.state.combatant("Grak")
    assert grak.hits == -2 and not grak.down
    again = cls.from_dict(json.loads(json.dumps(fight.to_dict())))
    assert again.state.round == 2 and again.state.combatant("Grak").hits == -2
    again.resolve_round()
    assert again.state.round == 3
    # a new fight still refuses a standing combatant out of hits
    with pytest.raises(RulesInputError) as e:
        cls.start([ALDRIC, {**GRAK_OUT, "conditions": []}])
    assert e.value.field == "combatants[1].hits"
