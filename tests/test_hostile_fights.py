"""Hostile fight inputs, for every ruleset with a fight engine: the seed bound, ``rulings`` that are not
an object, hand-edited saved fights (full field paths, the ruleset), rounds declared after the end,
and the Darkmaster fight's own checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from ruleslawyer.cli import main
from ruleslawyer.commands.fight import encounter_class
from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import INPUT_SEED

RULESETS = ("mastery", "mythras", "darkmaster")
EXAMPLES = Path(__file__).parents[1] / "examples"
FILES = {"mastery": "fight-duel.json", "mythras": "fight-duel.json", "darkmaster": "fight-skirmish.json"}


def _example(ruleset: str) -> dict:
    return json.loads((EXAMPLES / ruleset / FILES[ruleset]).read_text(encoding="utf-8"))


def _run(capsys, tmp_path, ruleset, data, *extra, as_json=True):
    f = tmp_path / "fight.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    try:
        code = main(["fight", ruleset, "--input", str(f), *extra] + (["--json"] if as_json else []))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out = capsys.readouterr()
    body = json.loads(out.out) if as_json and out.out.strip().startswith("{") else out.out
    return code, body, out.err


def _saved(capsys, tmp_path, ruleset, *extra) -> dict:
    code, body, err = _run(capsys, tmp_path, ruleset, _example(ruleset), "--rounds", "1", *extra)
    assert code == 0, err
    return body["fight"]


# -- 2: one seed bound, wherever a seed is taken ---------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_seed_bound_holds_in_python_and_a_saved_fight_at_the_bound_loads(ruleset, capsys, tmp_path):
    cls = encounter_class(ruleset)
    combatants = _example(ruleset)["combatants"]
    assert cls.start(combatants, seed=INPUT_SEED).seed == 10**18
    assert cls.start(combatants, seed=-INPUT_SEED).seed == -10**18
    for bad in (INPUT_SEED + 1, -INPUT_SEED - 1, 10**40, 1.0, "7", True):
        with pytest.raises(RulesInputError) as e:
            cls.start(combatants, seed=bad)
        assert e.value.field == "seed" and "from -1,000,000,000,000,000,000 to 1,000,000,000,000,000,000" in str(e.value)
    saved = _saved(capsys, tmp_path, ruleset, "--seed", str(INPUT_SEED))
    assert saved["seed"] == 10**18 and saved["state"]["round"] == 1
    code, body, err = _run(capsys, tmp_path, ruleset, {"fight": saved})
    assert code == 0 and body["fight"]["seed"] == 10**18, err


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [str(INPUT_SEED + 1), "9" * 32, str(-INPUT_SEED - 1)])
def test_a_seed_past_the_bound_is_refused_on_the_command_line(ruleset, seed, capsys, tmp_path):
    code, _, err = _run(capsys, tmp_path, ruleset, _example(ruleset), "--seed", seed)
    assert code == 2 and "--seed: must be a whole number from -1,000,000,000,000,000,000" in err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_saved_seed_past_the_bound_names_its_path(ruleset, capsys, tmp_path):
    saved = _saved(capsys, tmp_path, ruleset)
    code, body, _ = _run(capsys, tmp_path, ruleset, {"fight": dict(saved, seed=10**19)})
    assert code == 1 and body["error"]["field"] == "fight.seed"
    assert "must be a whole number from" in body["error"]["message"]


def test_every_engine_seed_takes_the_same_bound():
    from ruleslawyer.dice import Dice

    assert Dice(seed=INPUT_SEED).seed == 10**18
    with pytest.raises(RulesInputError) as e:
        Dice(seed=INPUT_SEED + 1)
    assert e.value.field == "seed"


# -- 3: rulings that are not an object --------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("bad", [["x"], "x", 5, True])
def test_rulings_that_are_not_an_object_are_refused_by_name(ruleset, bad, capsys, tmp_path):
    code, body, _ = _run(capsys, tmp_path, ruleset, {**_example(ruleset), "rulings": bad})
    assert code == 1 and body["error"]["field"] == "rulings" and body["error"]["internal"] is False
    assert "rulings: must be an object of ruling id -> answer" in body["error"]["message"]
    cls = encounter_class(ruleset)
    with pytest.raises(RulesInputError) as e:
        cls.start(_example(ruleset)["combatants"], rulings=bad)
    assert e.value.field == "rulings"
    with pytest.raises(RulesInputError) as e:  # the fight panel's path
        cls.from_input({**_example(ruleset), "rulings": bad}, field="input")
    assert e.value.field == "input.rulings"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_fight_panel_shows_the_field_of_bad_rulings(ruleset):
    from ruleslawyer.widgets.fight import FightPanel

    panel = FightPanel(ruleset)
    panel.frame.guard(lambda: panel.load_input({**_example(ruleset), "rulings": ["x"]}))
    assert "input.rulings" in str(panel.frame.error) and "must be an object" in str(panel.frame.error)


# -- 4: hand-edited saved fights ------------------------------------------------------------------

def _set(data: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("path, value, field", [
    (("log",), "garbage", "fight.log"), (("log",), [5, None], "fight.log[0]"),
    (("log", 0, "round"), "1", "fight.log[0].round"), (("pending",), 5, "fight.pending"),
    (("pending",), {"Nobody": {}}, "fight.pending.Nobody"), (("rulings",), ["x"], "fight.rulings"),
    (("state", "ruleset"), "darkmaster", "fight.state.ruleset"), (("state", "round"), -1, "fight.state.round"),
    (("state", "over"), "no", "fight.state.over"), (("state", "combatants", 0, "name"), 5,
                                                     "fight.state.combatants[0].name"),
    (("state", "combatants"), [], "fight.state.combatants"), (("options",), 5, "fight.options"),
    (("extra",), 1, "fight.extra"),
])
def test_a_hand_edited_saved_fight_names_the_full_path(ruleset, path, value, field, capsys, tmp_path):
    saved = _saved(capsys, tmp_path, ruleset)
    code, body, err = _run(capsys, tmp_path, ruleset, {"fight": _set(saved, path, value)})
    assert code == 1, err
    assert body["error"]["field"] == field and body["error"]["internal"] is False


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_saved_fight_of_another_ruleset_is_refused_naming_it(ruleset, capsys, tmp_path):
    other = next(r for r in RULESETS if r != ruleset)
    saved = _saved(capsys, tmp_path, ruleset)
    code, body, _ = _run(capsys, tmp_path, other, {"fight": saved})
    assert code == 1 and body["error"]["field"] == "fight.ruleset"
    assert f"fight.ruleset: this is a saved '{ruleset}' fight, not a {other} one" in body["error"]["message"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("key", ["combatants", "seed", "options"])
def test_a_saved_fight_with_combatants_seed_or_options_beside_it_is_refused(ruleset, key, capsys, tmp_path):
    saved = _saved(capsys, tmp_path, ruleset)
    code, body, _ = _run(capsys, tmp_path, ruleset, {"fight": saved, key: saved["state"].get(key, 1)})
    assert code == 1 and body["error"]["field"] == key and "not both" in body["error"]["message"]


@pytest.mark.parametrize("ruleset, key", [("mastery", "health"), ("mythras", "action_points"), ("darkmaster", "hits")])
def test_a_bad_combatant_field_in_a_saved_fight_is_under_state(ruleset, key, capsys, tmp_path):
    saved = _saved(capsys, tmp_path, ruleset)
    saved["state"]["combatants"][0][key] = "x"
    code, body, _ = _run(capsys, tmp_path, ruleset, {"fight": saved})
    assert code == 1 and body["error"]["field"] == f"fight.state.combatants[0].{key}"


# -- 7: rounds declared after the fight ends ------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_rounds_after_the_end_are_reported_not_dropped_silently(ruleset, capsys, tmp_path):
    data = _example(ruleset)
    played = len(data["rounds"])
    data["rounds"] += [data["rounds"][-1], {"declare": {}}]
    code, body, err = _run(capsys, tmp_path, ruleset, data)
    assert code == 0 and body["fight"]["state"]["over"] is True
    last = body["fight"]["state"]["round"]
    assert last <= played and body["not_played"] == len(data["rounds"]) - last
    note = f"the fight ended in round {last}; the {len(data['rounds']) - last} rounds declared after it were not played"
    assert body["note"] == note and f"ruleslawyer: note: {note}" in err
    code, text, err = _run(capsys, tmp_path, ruleset, data, as_json=False)
    assert code == 0 and text.rstrip().endswith(f"note: {note}") and note in err
    code, body, err = _run(capsys, tmp_path, ruleset, _example(ruleset))
    assert body["not_played"] == 0 and body["note"] == "" and "note" not in err


# -- 6: the Darkmaster fight's checks -------------------------------------------------------------

DM = [{"name": "Aldric", "side": "player", "cmb": 60, "hits": 40}, {"name": "Grak", "side": "npc", "cmb": 45, "hits": 30}]


@pytest.mark.parametrize("kind", ["melee", "ranged"])
def test_darkmaster_an_attack_on_oneself_is_refused(kind):
    fight = encounter_class("darkmaster").start(DM, seed=7)
    action = {"name": "Strike", "kind": kind, "target": "Aldric"} | ({"weapon_length": "Long"} if kind == "melee" else {})
    with pytest.raises(RulesInputError) as e:
        fight.declare("Aldric", {"actions": [action]})
    assert e.value.field == "declarations.Aldric.actions[0].target"
    assert e.value.message.startswith("must name another combatant, got 'Aldric'")


@pytest.mark.parametrize("name", ["Load (0)", "Chant (201)"])
def test_darkmaster_a_multi_round_action_of_no_rounds_names_the_name(name):
    fight = encounter_class("darkmaster").start(DM, seed=7)
    with pytest.raises(RulesInputError) as e:
        fight.declare("Aldric", {"actions": [{"name": name}]})
    assert e.value.field == "declarations.Aldric.actions[0].name" and "n from 1 to 200" in e.value.message


@pytest.mark.parametrize("hits", [0, -5])
def test_darkmaster_a_combatant_out_of_hits_and_standing_is_refused(hits):
    cls = encounter_class("darkmaster")
    with pytest.raises(RulesInputError) as e:
        cls.start([DM[0], {**DM[1], "hits": hits}])
    assert e.value.field == "combatants[1].hits" and f"Grak has {hits} hits" in e.value.message
    assert cls.start([DM[0], {**DM[1], "hits": hits, "conditions": [{"name": "Unconscious"}]}]).state.combatants[1].hits == hits
    ok = cls.start([DM[0], {**DM[1], "hits": hits}], rulings={"darkmaster.out-of-hits": "record-only"})
    assert ok.state.combatants[1].hits == hits
