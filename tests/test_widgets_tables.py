"""Table panel, headless: rolls that roll (a fresh, shown seed per Roll; Replay repeats it), entered
results, tables without a die, errors, the result line."""

import random

import pytest

from ruleslawyer.rulesdb import list_tables
from ruleslawyer.widgets import TablePanel
from ruleslawyer.widgets import tables as tables_mod
from ruleslawyer.widgets.tables import ENTER, ROLL

TRAUMA = "mastery/combat/tables/trauma"


@pytest.fixture
def seeds(monkeypatch):
    """new_seed() returns 7, then 1, then 3 ...: each Roll's fresh seed, known in advance."""
    drawn = iter([7, 1, 3, 7])
    monkeypatch.setattr(tables_mod, "new_seed", lambda: next(drawn))


def test_replay_rolls_the_seed_shown_seed_7_lands_on_skull_fracture():
    # Seed 7: random.Random(7).randint(1, 100) == 42; the Trauma Table row "42–43" is Skull Fracture
    # (Severe, 30 days' rest).
    assert random.Random(7).randint(1, 100) == 42
    panel = TablePanel(TRAUMA, seed=7)
    panel.replay_button.click()
    assert panel.result.roll == 42
    assert panel.result.row.cells[0] == "42–43"
    out = panel.output.value
    assert 'data-roll="42"' in out and "Skull Fracture." in out and "30 days&#x27; rest" in out
    assert 'data-rule-id="mastery/combat/wounds-injuries-and-trauma/trauma-table#40"' in out
    assert "seed <b class=\"rl-seed-used\">7</b>" in panel.frame.status.value
    # result first: the output opens with the one-line result, the trace is folded after it
    assert out.index('class="rl-result-line"') < out.index('class="rl-outcome"') < out.index('class="rl-explain"')
    assert panel.frame.summary == "d100 42 → row 42–43: Skull Fracture. (Severe; 30 days' rest)"
    assert '<details class="rl-explain">' in out  # closed until clicked


def test_each_roll_draws_a_fresh_seed_and_shows_it(seeds):
    # Roll draws 7 then 1: random.Random(7) -> 42 (Skull Fracture), random.Random(1) -> 18 (17–18,
    # Lose a finger). The seed box shows each seed, so Replay repeats the last roll exactly.
    assert (random.Random(7).randint(1, 100), random.Random(1).randint(1, 100)) == (42, 18)
    panel = TablePanel(TRAUMA, seed=99)
    panel.button.click()
    assert (panel.seed.value, panel.result.seed, panel.result.roll) == (7, 7, 42)
    panel.button.click()
    assert (panel.seed.value, panel.result.seed, panel.result.roll) == (1, 1, 18)
    panel.replay_button.click()
    assert (panel.seed.value, panel.result.roll) == (1, 18)
    panel.seed.value = 7  # a seed typed from a note: Replay repeats that roll
    panel.replay_button.click()
    assert panel.result.roll == 42


def test_entered_result_looks_the_row_up():
    # d100 result 100 ("00") is the table's last row, which covers 100.
    panel = TablePanel(TRAUMA)
    panel.mode.value = ENTER
    assert panel.seed.disabled and panel.replay_button.disabled and not panel.die_result.disabled
    panel.die_result.value = 100
    seed_before = panel.seed.value
    panel.button.click()
    assert panel.result.roll == 100 and panel.result.row.high == 100
    assert panel.seed.value == seed_before  # Look up draws no seed
    assert "result entered: 100" in panel.frame.status.value


def test_out_of_range_result_is_a_message_and_a_good_run_clears_it():
    panel = TablePanel(TRAUMA)
    panel.mode.value = ENTER
    panel.die_result.value = 101
    panel.run()
    assert panel.result is None
    assert '<b class="rl-field">roll</b>' in panel.output.value and "got 101" in panel.output.value
    panel.die_result.value = 42
    panel.run()
    assert "rl-error" not in panel.output.value and panel.result.roll == 42


def test_reroll_switches_to_roll_mode(seeds):
    panel = TablePanel(TRAUMA)
    panel.mode.value = ENTER
    panel.reroll()
    assert panel.mode.value == ROLL and panel.result.seed == panel.seed.value == 7
    assert panel.result.roll == random.Random(7).randint(1, 100)


def test_hit_location_1d20():
    # Seed 3: random.Random(3).randint(1, 20) == 8 -> the humanoid table's 7–9 row (abdomen).
    assert random.Random(3).randint(1, 20) == 8
    panel = TablePanel("mythras/supplement/tables/hit-location-humanoid", seed=3)
    panel.run()
    assert panel.result.roll == 8 and panel.result.row.low == 7 and panel.result.row.high == 9
    assert "abdomen" in " ".join(panel.result.row.cells).lower()
    assert panel.frame.summary.lower().startswith("1d20 8 → row 7–9: abdomen")


def test_a_table_without_a_die_is_shown_whole_with_row_citations():
    panel = TablePanel("mastery/combat/tables/other-actions")
    assert panel.mode.disabled and panel.button.description == "Show table"
    panel.button.click()
    out = panel.output.value
    assert out.count("<tr data-rule-id=") == 20  # the Other Actions table has 20 rows
    assert panel.result is None
    assert "Other Actions" in panel.frame.summary and "20 rows" in panel.frame.summary


OMENS = """---
ruleset: house
ruleset_title: House
chapter: extras
title: House Rules
kind: house-rules
provenance: The widget tests' own table.
---
# House Rules

## Omens

<!-- table: omens | Omens -->

| 1d2 | Omen |
|---|---|
| 1 | A crow calls. |
| 2 | The wind drops. |
"""


def house_rules(tmp_path):
    """A rules handle on a database of its own, built with a house-rules table ``house/extras/tables/omens``."""
    from ruleslawyer.rulesdb.handle import open_rules

    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "omens.md").write_text(OMENS, encoding="utf-8")
    return open_rules(tmp_path / "house.db", folder)


def test_the_panel_lists_and_rolls_the_tables_of_its_rules_handle(tmp_path):
    # The house table exists only in the second database: a panel on that handle lists and rolls it
    # (random.Random(7).randint(1, 2) == 2: "The wind drops."); a panel on the default database does not list it.
    assert random.Random(7).randint(1, 2) == 2
    rules = house_rules(tmp_path)
    omens = [t.id for t in list_tables(rules=rules) if t.title == "Omens"]
    assert len(omens) == 1
    panel = TablePanel(omens[0], seed=7, rules=rules)
    assert panel.table.value == omens[0]
    panel.run()
    assert panel.result.roll == 2 and "The wind drops." in panel.output.value
    assert omens[0] not in [v for _, v in TablePanel(TRAUMA).table.options]
