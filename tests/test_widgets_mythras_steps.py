"""The Mythras exchange panel's two steps, headless: the dice of step one are kept for step two,
nothing that depends on the choice shows before it, and editing the dice between the steps cancels
the pending choice with a message."""

import random

from ruleslawyer.widgets import MythrasExchangePanel
from ruleslawyer.widgets.base import slot_dice

SCRIPT = "attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11"
LOCATIONS = ("Head", "Chest", "Abdomen", "Right Arm", "Left Arm", "Right Leg", "Left Leg")


def test_nothing_that_depends_on_the_choice_shows_before_it():
    # Ana 70% rolls 05: Critical (05 <= 7). Bors parries 50% with 80: Failure. The attacker wins 2
    # Special Effects; the location die (11: Chest) and the damage (1d8 6 + 1d2 2) are not shown yet.
    panel = MythrasExchangePanel(script=SCRIPT)
    panel.d_armour.value = 4
    panel.button.click()
    assert panel.stage == "differential"
    out = panel.output.value
    assert "damage to the" not in out and not any(loc in out for loc in LOCATIONS)
    assert "5–7. Damage" not in out
    assert panel.frame.summary == ("Ana (attacker) wins 2 Special Effects (Critical vs Failure): choose, then "
                                   "apply to roll damage")
    # Maximise Damage alone: the location is rolled in step two, 11 on the d20 -> Chest (10–12);
    # damage 1d8 maximised 8 + Damage Modifier 1d2 scripted 2 = 10, parry failed, 4 Armor Points -> 6.
    panel.effects.value = ("Maximise Damage",)
    panel.apply_button.click()
    r = panel.result
    assert panel.stage == "done" and (r.location, r.damage_rolled, r.armour, r.damage) == ("Chest", 10, 4, 6)
    assert panel.frame.summary.startswith("Hit: 6 damage to the Chest (10 rolled − 4 armour); Critical vs Failure")


def first_choice(panel, who="attacker", effect="Choose Location"):
    """Roll seeds 0, 1, 2, ... (seeded dice) until ``who`` wins and may take ``effect``; return the seed."""
    for seed in range(500):
        panel.dice.seed.value = seed
        panel.run()
        r = panel.result
        if panel.stage == "differential" and r.winner == who and effect in r.eligible[who]:
            return seed
    raise AssertionError("no seed below 500 gives the choice")


def test_step_two_keeps_step_ones_dice_and_choose_location_does_not_shift_the_damage():
    panel = MythrasExchangePanel()
    seed = first_choice(panel)
    one = panel.result
    # each unscripted slot rolls from its own stream: random.Random(f"{seed}/attack") and so on
    assert one.attack.roll == random.Random(f"{seed}/attack").randint(1, 100)
    assert one.defence.roll == random.Random(f"{seed}/parry").randint(1, 100)
    panel.effects.value = ()
    panel.apply()  # no Effect taken: the location is rolled
    plain = panel.result
    assert (plain.attack.roll, plain.defence.roll) == (one.attack.roll, one.defence.roll)
    assert plain.location == _location_rolled(seed)
    panel.run()  # the same seed again (a plain run, like Replay): the same differential
    assert panel.stage == "differential" and panel.result.attack.roll == one.attack.roll
    panel.effects.value = ("Choose Location",)
    panel.location.value = "Head"
    panel.apply()
    chosen = panel.result
    assert (chosen.attack.roll, chosen.defence.roll) == (one.attack.roll, one.defence.roll)
    assert chosen.location == "Head" and chosen.attacker_effects == ("Choose Location",)
    # Choose Location skips the location die; the damage dice are the same as without it
    assert chosen.damage_rolled == plain.damage_rolled


def _location_rolled(seed: int) -> str:
    """The hit location the panel's dice roll for ``seed``: its own d20 stream, on the humanoid table."""
    face = random.Random(f"{seed}/location").randint(1, 20)
    spans = {(1, 3): "Right Leg", (4, 6): "Left Leg", (7, 9): "Abdomen", (10, 12): "Chest", (13, 15): "Right Arm",
             (16, 18): "Left Arm", (19, 20): "Head"}
    return next(name for (lo, hi), name in spans.items() if lo <= face <= hi)


def test_editing_the_seed_or_the_script_between_the_steps_cancels_the_choice():
    panel = MythrasExchangePanel(script=SCRIPT)
    panel.run()
    assert panel.stage == "differential"
    panel.dice.seed.value = panel.dice.seed.value + 1
    assert panel.stage == "" and panel.effects.layout.display == "none"
    assert panel.apply_button.layout.display == "none"
    assert "The seed changed after the roll" in panel.output.value
    assert panel.frame.summary == "Choice cancelled: the seed changed"
    panel.effects.value = ()
    panel.apply()  # nothing pending: a message, not a silent re-roll
    assert "no choice is pending" in panel.output.value and panel.stage == ""
    panel.run()
    assert panel.stage == "differential"
    panel.dice.script.value = SCRIPT.replace("location: 11", "location: 19")
    assert panel.stage == "" and "The dice script changed after the roll" in panel.output.value


def test_roll_draws_a_fresh_seed_replay_repeats_the_differential(monkeypatch):
    from ruleslawyer.widgets import base

    panel = MythrasExchangePanel()
    seed = first_choice(panel)
    roll = panel.result.attack.roll
    monkeypatch.setattr(base, "new_seed", lambda: seed)  # Roll draws this seed: the same dice as before
    panel.dice.seed.value = seed + 1000
    panel.button.click()
    assert panel.dice.seed.value == seed and panel.stage == "differential" and panel.result.attack.roll == roll
    panel.dice.replay_button.click()
    assert panel.stage == "differential" and panel.result.attack.roll == roll


def test_slot_dice_streams_are_independent_and_repeatable():
    a = slot_dice(42)
    faces = (a.roll(20, "location"), a.roll(8, "damage"))
    b = slot_dice(42)
    assert b.roll(8, "damage") == faces[1]  # the location was not rolled first: the damage is the same
    assert faces == (random.Random("42/location").randint(1, 20), random.Random("42/damage").randint(1, 8))
    c = slot_dice(42, {"damage": [3]})
    assert c.roll(8, "damage") == 3 and [d.face for d in c.history] == [3]
