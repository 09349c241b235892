"""The ``fight`` command's own input: rounds, their declarations and dice, for every ruleset."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.cli import main

RULESETS = ("mastery", "mythras", "darkmaster")


def _run(capsys, tmp_path, data, *extra):
    f = tmp_path / "fight.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    code = main(["fight", *extra, "--input", str(f), "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out.strip() else None, out.err


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("rounds, field", [
    ([{"declare": 5}], "rounds[0].declare"), ([{"dice": [1, 2]}], "rounds[0].dice"),
    ([{"declare": {}, "dcie": {}}], "rounds[0].dcie"), ({"declare": {}}, "rounds"), (["x"], "rounds[0]"),
])
def test_a_malformed_round_names_its_field(ruleset, rounds, field, capsys, tmp_path):
    from ruleslawyer.commands.fight import encounter_class

    example = json.loads((__import__("pathlib").Path(__file__).parents[1] / "examples" / ruleset /
                          sorted(p.name for p in (__import__("pathlib").Path(__file__).parents[1] / "examples" /
                                                  ruleset).glob("fight-*.json"))[0]).read_text())
    assert encounter_class(ruleset).ruleset == ruleset
    code, data, err = _run(capsys, tmp_path, {**example, "rounds": rounds}, ruleset)
    assert code == 1 and data["error"]["field"] == field, err
    assert data["error"]["internal"] is False


def test_a_ruleset_with_no_fight_engine_is_named(capsys, tmp_path):
    code, data, _ = _run(capsys, tmp_path, {"combatants": []}, "dnd")
    assert code == 1 and data["error"]["field"] == "ruleset"
