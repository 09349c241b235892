"""Rolls on a table read alone: one roll step citing the row, a headline naming the row, "As left
arm." rows resolved to the row they name, and a seed shown so an unseeded roll can be repeated."""

from __future__ import annotations

import json
import re

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main
from ruleslawyer.render import to_text
from ruleslawyer.rulesets.mastery import roll_trauma
from ruleslawyer.rulesets.mastery._tables import trauma_table
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.tables import see_also
from ruleslawyer.trace import StepKind
from ruleslawyer.widgets import TablePanel, TraumaPanel
from ruleslawyer.widgets.tables import ENTER as TABLE_ENTER
from ruleslawyer.widgets.trauma import ENTER

TRAUMA = "mastery/combat/tables/trauma"
ROW = "mastery/combat/wounds-injuries-and-trauma/trauma-table#"
SKULL = ("Whenever you spend AP to attack or cast a spell, make an Endurance trial (Straightforward, 4); on "
         "failure, the AP is spent with no effect.")
ARM = "You cannot hold anything with two hands, and you can hold only one object at a time."


def _rolls(trace):
    return [s for s in trace.walk() if s.kind is StepKind.ROLL]


def test_a_table_roll_has_one_roll_step_citing_the_row_and_a_headline():
    r = rulesdb.roll(TRAUMA, seed=7)
    assert r.trace.label == f"Trauma 42: Skull Fracture — {SKULL}"
    assert r.trace.detail == "Tier: Severe; Mundane recovery: 30 days' rest"
    (roll,) = _rolls(r.trace)
    assert (roll.label, roll.value, roll.detail) == ("rolled d100 (seed 7)", 42, "row 42–43")
    assert [c.rule_id for c in roll.cites] == [ROW + "40"]
    text = to_text(r.trace)
    assert text.count("(seed 7)") == 1 and "Trauma settings (optional)" not in text


def test_a_trauma_roll_has_one_roll_step_citing_the_roll_rule_and_the_row():
    t = roll_trauma(seed=7)
    assert t.trace.label == f"Trauma 42: Skull Fracture — {SKULL}"
    (roll,) = _rolls(t.trace)
    assert roll.label == "d100 rolled (seed 7)" and roll.value == 42
    assert [c.rule_id for c in roll.cites] == [ROW + "6", ROW + "40"]
    text = to_text(t.trace)
    assert text.count("d100 rolled") == 1 and text.splitlines()[2].startswith("  d100 rolled (seed 7): 42 [")


# -- "As left arm." ---------------------------------------------------------------------------------

# Every "As ..." row of the Trauma table and the row it names (combat.md's table, by hand).
AS_ROWS = {2: (1, "left eye"), 7: (6, "left hand"), 12: (11, "left foot"), 22: (21, "left ear"),
           28: (27, "left arm"), 32: (31, "left leg"), 48: (46, "left leg"), 51: (50, "left arm"),
           57: (54, "left shoulder")}


def test_see_also_resolves_every_as_row_of_the_trauma_table():
    table = trauma_table(resolve_rules(None))
    found = {}
    for row in table.rows:
        s = see_also(table, row)
        if s is not None:
            found[row.low] = (s.row.low, s.phrase)
            name = s.row.cells[1].partition(". ")[0]
            assert s.row.cells[1] == f"{name}. {s.text}"  # the named row's effect, verbatim
    assert found == AS_ROWS
    arm = see_also(table, table.row_for(51))
    assert arm.row.cells[1].startswith("Left Arm Bruised to the Bone.")  # not "Break your left arm"
    assert arm.text == "Penalty -1 on Strength and Physique trials that use your arms."
    assert see_also(table, table.row_for(42)) is None


def test_a_roll_on_an_as_row_shows_the_named_row_and_keeps_its_own_text():
    r = rulesdb.roll(TRAUMA, roll=28)
    assert r.cells["Trauma"] == "Break your right arm. As left arm."
    assert r.see_also.line == f"As left arm: {ARM} [{ROW}29]"
    step = r.trace.children[-1]
    assert (step.label, step.detail, [c.rule_id for c in step.cites]) == ("As left arm", ARM, [ROW + "29"])
    t = roll_trauma(roll=28)
    assert t.text == "Break your right arm. As left arm." and t.see_also.row.unit_id == ROW + "29"
    assert t.to_dict()["see_also"]["line"] == f"As left arm: {ARM} [{ROW}29]"
    assert roll_trauma(roll=42).see_also is None


def test_the_commands_and_panels_show_the_named_row(capsys):
    assert main(["roll", TRAUMA, "--roll", "28"]) == 0
    assert f"  As left arm: {ARM} [{ROW}29]" in capsys.readouterr().out.splitlines()
    assert main(["trauma", "--roll", "28"]) == 0
    out = capsys.readouterr().out
    assert f"As left arm [{ROW}29]" in out and ARM in out
    panel = TraumaPanel(seed=7)
    panel.mode.value = ENTER
    panel.d100.value = 28
    panel.button.click()
    assert 'class="rl-see-also"' in panel.output.value and ARM in panel.output.value
    tables = TablePanel(TRAUMA, seed=7)
    tables.mode.value = TABLE_ENTER
    tables.die_result.value = 28
    tables.button.click()
    assert tables.result.see_also.row.unit_id == ROW + "29"
    assert 'class="rl-see-also"' in tables.output.value and ARM in tables.output.value


# -- the seed -------------------------------------------------------------------------------------


def test_an_unseeded_trauma_roll_shows_its_seed_and_the_seed_repeats_it(capsys):
    assert main(["trauma", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    seed = doc["seed"]
    assert isinstance(seed, int)
    assert main(["trauma"]) == 0
    assert re.search(r"d100 rolled \(seed \d+\): \d+", capsys.readouterr().out)
    assert main(["trauma", "--seed", str(seed), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["roll"] == doc["roll"] and again["seed"] == seed
    assert roll_trauma(roll=5).seed is None and roll_trauma(seed=7).seed == 7


@pytest.mark.parametrize("argv", [["roll", TRAUMA], ["trauma"], ["mastery-health", "--endurance-tier", "2"]])
def test_seed_flags_hold_the_one_seed_bound(capsys, argv):
    with pytest.raises(SystemExit):
        main([*argv, "--seed", "1" + "0" * 30])
    assert "must be a whole number from -1,000,000,000,000,000,000" in capsys.readouterr().err
