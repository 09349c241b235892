"""Trauma panel, headless: seeded rolls, entered results, finger sub-roll, the accumulating sheet."""

import random

from ruleslawyer.widgets import TraumaPanel
from ruleslawyer.widgets.trauma import ENTER


def test_seed_7_rolls_42_skull_fracture_onto_the_sheet():
    # random.Random(7).randint(1, 100) == 42 -> Trauma Table row 42–43: Skull Fracture (Severe, 30 days' rest).
    assert random.Random(7).randint(1, 100) == 42
    panel = TraumaPanel(seed=7)
    panel.replay_button.click()  # the seed shown (Roll Trauma would draw a fresh one)
    assert panel.result.roll == 42 and panel.result.range == "42–43"
    assert panel.result.tier == "Severe"
    out = panel.output.value
    assert 'data-roll="42"' in out and "Skull Fracture." in out
    assert 'data-rule-id="mastery/combat/wounds-injuries-and-trauma/trauma-table#40"' in out
    assert panel.sheet.traumas == ("42: Skull Fracture",)
    assert 'seed <b class="rl-seed-used">7</b>' in panel.frame.status.value


def test_seed_1_is_a_finger_row_and_the_d10_names_the_finger():
    # random.Random(1): d100 -> 18 (row 17–18, Lose a finger), then d10 -> 10; counted from the left
    # little finger across both hands, 10 is the right little finger.
    rng = random.Random(1)
    assert (rng.randint(1, 100), rng.randint(1, 10)) == (18, 10)
    panel = TraumaPanel(seed=1)
    panel.run()
    assert panel.result.finger == 10 and panel.result.finger_lost == "right little finger"
    assert "Finger d10: 10 → <b>right little finger</b>" in panel.output.value
    assert "mastery.finger-order" in panel.frame.rulings.dropdowns


def test_second_eye_blinds_and_the_sheet_accumulates():
    # Rows 1 and 2: lose the left eye, then the right eye; "If you have no eyes left, you are Blinded."
    panel = TraumaPanel()
    panel.mode.value = ENTER
    panel.d100.value = 1
    panel.button.click()
    assert panel.sheet.conditions == ()
    panel.d100.value = 2
    panel.button.click()
    assert panel.sheet.conditions == ("Blinded",)
    assert panel.sheet.lost == frozenset({"left eye", "right eye"})
    assert '<b class="rl-conditions">Blinded</b>' in panel.output.value
    assert len(panel.sheet.traumas) == 2
    panel.reset_button.click()
    assert panel.sheet.traumas == () and "no Traumas yet" in panel.output.value


def test_entered_finger_sub_roll_and_ruling_switch_rerolls_nothing():
    # d100 17 (Lose a finger) with finger d10 = 6: the default order counts left little (1) ... left
    # thumb (5), right thumb (6).
    panel = TraumaPanel()
    panel.mode.value = ENTER
    panel.d100.value = 17
    panel.finger.value = 6
    panel.run()
    assert panel.result.finger_lost == "right thumb"
    dd = panel.frame.rulings.dropdowns["mastery.finger-order"]
    other = [a for a in dd.options if a != dd.value][0]
    dd.value = other  # switching the ruling re-resolves the same roll against the sheet before it
    assert len(panel.sheet.traumas) == 1
    assert panel.frame.rulings.overrides == {"mastery.finger-order": other}


def test_bad_entry_is_a_message_and_keeps_the_sheet():
    panel = TraumaPanel()
    panel.mode.value = ENTER
    panel.d100.value = 101
    panel.run()
    assert '<b class="rl-field">roll</b>' in panel.output.value and "101" in panel.output.value
    assert panel.sheet.traumas == ()


def test_setting_check_cites_the_setting():
    # Reaching 0 health gives a Trauma from Brutal up; under Realistic it does not.
    panel = TraumaPanel()
    panel.event.value = "reached-zero"
    panel.setting.value = "realistic"
    panel.check_button.click()
    assert panel.check.outcome == "none" and 'data-outcome="none"' in panel.output.value
    panel.setting.value = "brutal"
    panel.check_button.click()
    assert panel.check.outcome == "trauma"
    panel.event.value = "exploded-hit-health-damage"
    panel.setting.value = "deadly"
    panel.check_button.click()
    assert panel.check.endurance_dc == 4 and "Endurance trial (DC 4)" in panel.output.value


def test_a_roll_sets_the_seed_box_and_status_line_before_the_result():
    # each is a widget of its own, drawn in the order the kernel sends them: the seed box and the status
    # line must never trail the result they describe (a browser read the last roll's seed beside a new row)
    panel = TraumaPanel(seed=7)
    order = []
    panel.seed.observe(lambda c: order.append(("seed", c["new"])), names="value")
    panel.frame.status.observe(lambda c: order.append(("status", c["new"])), names="value")
    panel.output.observe(lambda c: order.append(("output", c["new"])), names="value")
    panel.roll()
    kinds = [k for k, _ in order]
    assert kinds == ["seed", "status", "output"], kinds
    seed = order[0][1]
    face = random.Random(int(seed)).randint(1, 100)
    assert f'<b class="rl-seed-used">{seed}</b>: {face}' in order[1][1]
    assert f'data-roll="{face}"' in order[2][1]
