"""Table panel, headless: seeded rolls, entered results, tables without a die, errors."""

import random

from ruleslawyer.widgets import TablePanel
from ruleslawyer.widgets.tables import ENTER, ROLL

TRAUMA = "mastery/combat/tables/trauma"


def test_seeded_trauma_roll_lands_on_skull_fracture():
    # Seed 7: random.Random(7).randint(1, 100) == 42; the Trauma Table row "42–43" is Skull Fracture
    # (Severe, 30 days' rest).
    assert random.Random(7).randint(1, 100) == 42
    panel = TablePanel(TRAUMA, seed=7)
    panel.button.click()
    assert panel.result.roll == 42
    assert panel.result.row.cells[0] == "42–43"
    out = panel.output.value
    assert 'data-roll="42"' in out and "Skull Fracture." in out and "30 days&#x27; rest" in out
    assert 'data-rule-id="mastery/combat/wounds-injuries-and-trauma/trauma-table#40"' in out
    assert "seed <b class=\"rl-seed-used\">7</b>" in panel.frame.status.value


def test_entered_result_looks_the_row_up():
    # d100 result 100 ("00") is the table's last row, which covers 100.
    panel = TablePanel(TRAUMA)
    panel.mode.value = ENTER
    assert panel.seed.disabled and not panel.die_result.disabled
    panel.die_result.value = 100
    panel.button.click()
    assert panel.result.roll == 100 and panel.result.row.high == 100
    assert "result entered: 100" in panel.frame.status.value


def test_out_of_range_result_is_a_message():
    panel = TablePanel(TRAUMA)
    panel.mode.value = ENTER
    panel.die_result.value = 0
    panel.run()
    assert panel.result is None
    assert '<b class="rl-field">roll</b>: a d100 roll must be a whole number from 1 to 100, got 0' in panel.output.value


def test_new_seed_rolls_with_the_seed_it_shows():
    panel = TablePanel(TRAUMA)
    panel.new_seed_button.click()
    assert panel.mode.value == ROLL and panel.result.seed == panel.seed.value
    expected = random.Random(panel.seed.value).randint(1, 100)
    assert panel.result.roll == expected


def test_hit_location_1d20():
    # Seed 3: random.Random(3).randint(1, 20) == 8 -> the humanoid table's 7–9 row (abdomen).
    assert random.Random(3).randint(1, 20) == 8
    panel = TablePanel("mythras/supplement/tables/hit-location-humanoid", seed=3)
    panel.run()
    assert panel.result.roll == 8 and panel.result.row.low == 7 and panel.result.row.high == 9
    assert "abdomen" in " ".join(panel.result.row.cells).lower()


def test_a_table_without_a_die_is_shown_whole_with_row_citations():
    panel = TablePanel("mastery/combat/tables/other-actions")
    assert panel.mode.disabled and panel.button.description == "Show table"
    panel.run()
    out = panel.output.value
    assert out.count("<tr data-rule-id=") == 20  # the Other Actions table has 20 rows
    assert panel.result is None
