"""Rulings switched in the odds: the odds functions and the odds panel compute under the answer chosen.

Hand-worked: a Mastery trial rolls the tier die (tier 2: a d3, not exploding by default,
``mastery.trial-dice-explode``) against the DC; ``mastery.trial-tie`` decides a roll equal to the DC.
"""

from fractions import Fraction

from ruleslawyer.odds.mastery import trial_odds
from ruleslawyer.widgets.odds import OddsPanel

TIE, EXPLODE = "mastery.trial-tie", "mastery.trial-dice-explode"


def test_trial_tie_ruling_moves_the_odds_by_the_chance_of_rolling_the_dc():
    # d3 vs DC 2: default (a roll equal to the DC succeeds) 2 or 3 -> 2/3; 'failure': only 3 -> 1/3.
    # The difference is P(d3 = 2) = 1/3.
    default = trial_odds(2, 2).p_success
    switched = trial_odds(2, 2, rulings={TIE: "failure"}).p_success
    assert (default, switched, default - switched) == (Fraction(2, 3), Fraction(1, 3), Fraction(1, 3))


def test_trial_explode_ruling_reaches_a_dc_the_die_cannot_show():
    # d3 vs DC 4: a plain d3 never reaches 4 -> 0; exploding, a 3 rolls again and adds at least 1 -> 1/3.
    # With both switched (tie fails): 3 then 2 or 3 -> 1/3 * 2/3 = 2/9.
    assert trial_odds(2, 4).p_success == 0
    assert trial_odds(2, 4, rulings={EXPLODE: "yes"}).p_success == Fraction(1, 3)
    assert trial_odds(2, 4, rulings={EXPLODE: "yes", TIE: "failure"}).p_success == Fraction(2, 9)


def test_odds_panel_recomputes_with_the_ruling_chosen_in_its_bar():
    panel = OddsPanel("mastery-trial")
    panel.tier.value, panel.dc.value = 2, 2
    panel.run()
    assert panel.result.p_success == Fraction(2, 3)
    assert set(panel.frame.rulings.shown) == {TIE, EXPLODE}
    panel.frame.rulings.dropdowns[TIE].value = "failure"  # reruns the panel
    assert panel.result.p_success == Fraction(1, 3)
    assert "P(success) 33.3% (1/3)" in panel.output.value
    panel.dc.value = 4
    panel.frame.rulings.dropdowns[EXPLODE].value = "yes"
    assert panel.result.p_success == Fraction(2, 9)
    panel.frame.rulings.dropdowns[TIE].value = "success"  # back to the default: dropped from the overrides
    assert panel.frame.rulings.overrides == {EXPLODE: "yes"}
    assert panel.result.p_success == Fraction(1, 3)


def test_odds_panel_exchange_odds_follow_the_failed_defense_ruling():
    # The panel's default exchange (attack tier 3 + WEA 2 against defense tier 1, resistance 2, health 6,
    # defending): a failed defense lets the full attack through by default; 'attack-minus-defense' lets
    # only the margin through, so less reaches health.
    from ruleslawyer.odds.mastery import mastery_exchange_odds

    panel = OddsPanel()
    default = panel.result
    panel.frame.rulings.dropdowns["mastery.failed-defense-damage"].value = "attack-minus-defense"
    switched = panel.result
    data = {"attacker": {"attack": {"tier": 3, "weapon": 2}},
            "defender": {"defense_tier": 1, "armour_resistance": 2, "health": 6}, "situation": {"defend": True}}
    direct = mastery_exchange_odds(data, rulings={"mastery.failed-defense-damage": "attack-minus-defense"})
    assert dict(switched.to_health.items()) == dict(direct.to_health.items())
    assert switched.p_zero_health == direct.p_zero_health
    assert switched.to_health.mean() < default.to_health.mean()
    assert switched.p_hit == default.p_hit  # the ruling changes what lands, not whether the attack hits


def test_a_mastery_answer_is_not_sent_to_the_mythras_odds():
    panel = OddsPanel("mastery-trial")
    panel.frame.rulings.dropdowns[TIE].value = "failure"
    panel.mode.value = "mythras-exchange"
    panel.run()
    assert panel.frame.error is None and panel.overrides() == {}
    assert panel.frame.rulings.overrides == {TIE: "failure"}  # still chosen, for the Mastery modes
    panel.mode.value = "mastery-trial"
    assert panel.overrides() == {TIE: "failure"}
