"""Mastery and Mythras exchange panels, headless, with scripted dice worked by hand."""

from ruleslawyer.widgets import MasteryExchangePanel, MythrasExchangePanel

XSS = "<img src=x onerror=alert(1)>"


def test_mastery_scripted_exchange_brute_goes_down():
    # Aldric: tier 3 die d4 rolls 4, 4, 1 (explodes twice) = 9, + WEA 2 = 11. Brute does not defend
    # (passive): armour resistance 2 absorbs 2, durability 3 takes 3, health takes the other 6 -> 0.
    # Endurance trial at 0 health: DC 6 (the damage), tier 1 die d2 scripted 2 -> failure: unconscious.
    panel = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    panel.button.click()
    r = panel.result
    assert (r.outcome, r.attack_total, r.absorbed, r.to_durability, r.to_health) == ("hit", 11, 2, 3, 6)
    assert r.defender.state.value == "unconscious"
    out = panel.output.value
    assert 'data-outcome="hit"' in out and "Brute: health 0, unconscious." in out
    assert 'data-rule-id="mastery/combat/actions-and-reactions/defense#16"' in out
    assert "scripted dice <code" in panel.frame.status.value


def test_mastery_failed_defense_ruling_switch_reruns():
    # attack d4 3 + WEA 2 = 5; defense d2 1 + resistance 2 = 3: the defense fails.
    # as-passive: 5 - resistance 2 = 3 -> durability 1, health 2; attack-minus-defense: margin 2 ->
    # durability 1, health 1.
    panel = MasteryExchangePanel(script="attack: 3; defense: 1")
    panel.load(defender={"health": 10, "durability": 1, "resistance": 2}, situation={"defend": True})
    panel.run()
    assert (panel.result.to_durability, panel.result.to_health) == (1, 2)
    dd = panel.frame.rulings.dropdowns["mastery.failed-defense-damage"]
    dd.value = "attack-minus-defense"
    assert (panel.result.to_durability, panel.result.to_health) == (1, 1)
    assert 'data-answer="attack-minus-defense"' in panel.output.value


def test_mastery_bad_input_is_a_message():
    panel = MasteryExchangePanel()
    panel.a_tier.value = 0
    panel.run()
    assert panel.result is None and '<b class="rl-field">attack.tier</b>' in panel.output.value
    panel.a_tier.value = 3
    panel.dice.mode.value = "Scripted dice"
    panel.dice.script.value = XSS
    panel.run()
    assert "<img" not in panel.output.value and "dice script" in panel.output.value


def test_mastery_names_are_escaped():
    panel = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    panel.a_name.value = XSS
    panel.run()
    assert "<img" not in panel.output.value and "&lt;img src=x onerror=alert(1)&gt;" in panel.output.value


MYTHRAS_SCRIPT = "attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11"


def test_mythras_winner_chooses_effects_after_the_differential_before_damage():
    # Ana 70%: rolls 05, a Critical (05 <= 7, a tenth of 70 rounded up). Bors parries 50%: rolls 80, a
    # Failure. Critical (rank 3) vs Failure (rank 1): the attacker wins 2 Special Effects.
    panel = MythrasExchangePanel(script=MYTHRAS_SCRIPT)
    panel.d_armour.value = 4
    panel.button.click()
    assert panel.stage == "differential"
    out = panel.output.value
    assert 'data-stage="differential"' in out and 'data-effects-won="2"' in out
    assert "5–7. Damage" not in out  # damage is not shown before the choice
    labels = [label for label, _ in panel.effects.options]
    assert "Choose Location" in labels and "Maximise Damage" in labels
    # Choose Location (Head) and Maximise Damage: 1d8 maximised 8 + Damage Modifier 1d2 (STR+SIZ 27,
    # band 26–30) scripted 2 = 10; the parry failed, so nothing is stopped; 4 Armor Points -> 6 to the Head.
    panel.effects.value = ("Choose Location", "Maximise Damage")
    panel.location.value = "Head"
    panel.apply_button.click()
    r = panel.result
    assert panel.stage == "done"
    assert r.attacker_effects == ("Choose Location", "Maximise Damage")
    assert (r.location, r.damage_rolled, r.armour, r.damage) == ("Head", 10, 4, 6)
    assert 'data-damage="6"' in panel.output.value and 'data-location="Head"' in panel.output.value
    assert panel.effects.layout.display == "none"


def test_mythras_too_many_effects_is_a_message():
    panel = MythrasExchangePanel(script=MYTHRAS_SCRIPT)
    panel.run()
    panel.effects.value = tuple(v for _, v in panel.effects.options[:3])
    panel.apply()
    assert '<b class="rl-field">effects</b>' in panel.output.value and "2 Special Effects" in panel.output.value


def test_mythras_no_effects_to_choose_shows_the_whole_exchange():
    # Attack 60 vs skill 70: Success; parry 30 vs 50: Success -> equal levels, no differential.
    # Damage 1d8 scripted 5, Damage Modifier 1d2 scripted 1 = 6; a Small dagger parrying a Medium
    # broadsword is one Size smaller and blocks half.
    panel = MythrasExchangePanel(script="attack: 60; parry: 30; damage: 5; damage_modifier: 1; location: 11")
    panel.run()
    assert panel.stage == "done" and panel.result.winner is None
    assert panel.result.damage_rolled == 6
    assert 'data-stage="done"' in panel.output.value


def test_mythras_a_stackable_effect_can_be_taken_twice():
    # Two Special Effects won (as above); the Damage Modifier 1d2 is scripted 1. Maximise Damage once:
    # 1d8 maximised 8 + 1 = 9. Twice: the Damage Modifier is maximised too under the default ruling
    # (weapon first, then the modifier): 8 + 2 = 10 to the Chest (location 1d20 scripted 11: the 10–12
    # row), less 4 Armor Points = 6.
    panel = MythrasExchangePanel(script=MYTHRAS_SCRIPT.replace("damage_modifier: 2", "damage_modifier: 1"))
    panel.d_armour.value = 4
    panel.run()
    labels = [label for label, _ in panel.effects.options]
    assert "Maximise Damage (again)" in labels
    values = dict(panel.effects.options)
    panel.effects.value = (values["Maximise Damage"],)
    panel.apply()
    assert panel.result.damage_rolled == 9
    panel.run()
    panel.effects.value = (values["Maximise Damage"], values["Maximise Damage (again)"])
    panel.apply()
    r = panel.result
    assert r.attacker_effects == ("Maximise Damage", "Maximise Damage")
    assert (r.location, r.damage_rolled, r.damage) == ("Chest", 10, 6)


def test_the_trace_as_markdown_for_a_handout():
    from ruleslawyer.render import to_markdown
    from ruleslawyer.widgets.base import resolve_rule

    panel = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    assert panel.frame.markdown_toggle.layout.display == "none"  # nothing to export yet
    panel.run()
    panel.frame.markdown_toggle.value = True
    assert panel.frame.markdown.layout.display is None
    assert panel.frame.markdown.value == to_markdown(panel.result.trace, resolve=resolve_rule)
    assert "**Attack roll (Aldric, melee)**: 11" in panel.frame.markdown.value
    panel.a_tier.value = 0
    panel.run()  # an error hides the export
    assert panel.frame.markdown.layout.display == "none"


def test_mastery_ranged_attack_needs_its_aiming_trial():
    # A bow at moderate range: the Aiming Trial rolls the Perception tier die (tier 2: d3) first; the
    # attack roll is made only if the aim succeeds. A melee range band for a bow is refused.
    panel = MasteryExchangePanel(script="aim: 1")
    panel.load(attacker={"kind": "bow", "weapon": "1d6", "perception": 2}, situation={"range": "melee"})
    panel.run()
    assert '<b class="rl-field">situation.range</b>' in panel.output.value
    panel.range.value = "moderate"
    panel.run()
    r = panel.result
    assert r.aim_total == 1 and r.attack_total is None and r.outcome == "missed"
    assert "Aiming Trial 1" in panel.output.value
