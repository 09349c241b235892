"""The kit's own panels in the app, headless: Glossary, Compare, Rulings and Odds."""

from fractions import Fraction

from ruleslawyer.registry import all_rulings
from ruleslawyer.rulesdb.glossary import define
from ruleslawyer.widgets import ComparePanel, GlossaryPanel, OddsPanel, RulingsPanel
from ruleslawyer.widgets.base import esc

XSS = "<img src=x onerror=alert(1)>"


# ---------------------------------------------------------------- glossary

def test_glossary_quotes_every_definition_with_its_citation():
    # "Engaged" is defined by Mastery (additional combat rules ¶3) and by Mythras (action menu ¶4).
    panel = GlossaryPanel("Engaged")
    defs = define("Engaged")
    assert [d.rule_id for d in panel.result] == [d.rule_id for d in defs]
    assert {d.ruleset for d in defs} == {"mastery", "mythras"}
    out = panel.output.value
    for d in defs:
        assert f'<blockquote class="rl-quote rl-quote-shown">{esc(d.text)}</blockquote>' in out
        assert f'class="rl-cite" data-rule-id="{esc(d.rule_id)}"' in out
    assert panel.frame.summary == f"Engaged ({defs[0].ruleset}): 2 definitions in the rules, quoted below"
    assert out.index("rl-result-line") < out.index("rl-definition")


def test_glossary_gm_word_ruleset_filter_and_a_miss():
    panel = GlossaryPanel("HP")  # not the book's word: the synonym data maps it to Health
    assert "synonym: HP → health" in panel.output.value and panel.result[0].term == "Health"
    panel.ruleset.value = "mythras"
    panel.term.value = "Engaged"
    assert [d.ruleset for d in panel.result] == ["mythras"]
    panel.term.value = XSS
    assert panel.result is not None and not panel.result and "no definition" in panel.frame.summary
    assert "<img" not in panel.output.value
    panel.term.value = "  "
    assert panel.frame.summary == "No term yet"


# ---------------------------------------------------------------- compare

def test_compare_shows_one_cited_card_per_ruleset():
    panel = ComparePanel("flanking")
    c = panel.result
    assert c.concept == "flanking" and [cell.ruleset for cell in c.cells] == ["mastery", "mythras", "darkmaster"]
    out = panel.output.value
    for cell in c.cells:
        assert f'data-ruleset="{cell.ruleset}"' in out and esc(cell.summary) in out
        for cited in cell.cites:
            assert f'data-rule-id="{esc(cited.id)}"' in out
    assert panel.frame.summary == "Flanking and positional advantage: Mastery, Mythras, Against the Darkmaster"
    panel.concept.value = "dying"
    assert panel.result.concept == "dying" and 'data-concept="dying"' in panel.output.value


# ---------------------------------------------------------------- rulings

def test_rulings_lists_every_ruling_in_full_and_filters():
    panel = RulingsPanel()
    every = all_rulings()
    assert len(panel.shown) == len(every) and panel.frame.summary == f"{len(every)} of {len(every)} rulings"
    out = panel.output.value
    for r in every:  # none truncated: each question, default and provenance in full
        assert f'data-ruling-id="{esc(r.id)}"' in out and esc(r.question) in out and esc(r.provenance) in out
    panel.query.value = "trauma"
    ids = [r.id for r in panel.shown]
    assert ids and all("trauma" in " ".join([r.id, r.question, r.default, *r.alternatives, r.provenance,
                                              r.explanation]).lower() for r in panel.shown)
    assert "mastery.trauma-lost-part" in ids
    panel.ruleset.value = "mythras"
    assert all(r.ruleset == "mythras" for r in panel.shown)
    panel.query.value = "qqxzv"
    assert panel.shown == [] and "No ruling matches" in panel.output.value


# ---------------------------------------------------------------- odds

def test_odds_of_a_mastery_trial():
    # Tier 2 rolls a d3 (trial dice do not explode by default): faces 1, 2, 3 against DC 3 -> only 3
    # succeeds: 1/3 = 33.3%.
    panel = OddsPanel("mastery-trial")
    panel.tier.value, panel.dc.value = 2, 3
    panel.button.click()
    assert panel.result.p_success == Fraction(1, 3)
    assert panel.frame.summary == "Tier 2 vs DC 3: P(success) 33.3% (1/3)"
    assert panel.plot_button.disabled


def test_odds_of_a_mastery_exchange_and_its_plot():
    # Tier 1 (d2) against tier 1 (d2), no weapon or armour, the defender defends: both dice explode,
    # P(defense holds) = P(Y >= X) = 1/2 + 1/8 + 1/32 + ... = 2/3 (the explosion cap moves it < 1e-12).
    panel = OddsPanel("mastery-exchange")
    panel.a_tier.value, panel.a_weapon.value, panel.d_tier.value, panel.d_resistance.value = 1, "0", 1, 0
    panel.defend.value = True
    panel.run()
    assert abs(panel.result.p_defense_holds - Fraction(2, 3)) < Fraction(1, 10**9)
    assert panel.frame.summary.startswith("P(hit) 33.3%, P(defense holds) 66.7%")
    assert not panel.plotted and "rl-plot" not in panel.output.value
    panel.plot_button.click()
    assert panel.plotted and '<img class="rl-plot" alt="P(hit) 33.3%' in panel.output.value
    assert "data:image/png;base64," in panel.output.value


def test_odds_of_a_mythras_exchange_and_the_trauma_table():
    # 50% against a 50% parry: each roll Critical 5/100 ... Fumble 2/100; the attacker wins 3 Special
    # Effects only on Critical vs Fumble: 5/100 * 2/100 = 1/1000.
    panel = OddsPanel("mythras-exchange")
    panel.a_skill.value = panel.d_skill.value = 50
    panel.run()
    assert panel.result.attacker_effects[3] == Fraction(1, 1000)
    assert "attacker wins 3 Special Effects</td><td>0.1%" in panel.output.value
    # Trauma: the Close Call rows cover 33 faces of the d100 -> 33/100.
    panel.mode.value = "trauma"
    panel.run()
    assert panel.result.p_close_call == Fraction(33, 100)
    assert panel.frame.summary.startswith("P(Close Call) 33%")


def test_odds_bad_input_is_a_message_and_the_next_good_run_clears_it():
    panel = OddsPanel("mastery-trial")
    panel.tier.value = 0
    panel.run()
    assert panel.result is None and '<b class="rl-field">' in panel.output.value
    panel.tier.value, panel.dc.value = 1, 2  # tier 1 rolls a d2: faces 1, 2 against DC 2 -> 1/2
    panel.run()
    assert "rl-error" not in panel.output.value and panel.result.p_success == Fraction(1, 2)
