"""The fight panel, headless: examples played round by round, cards, cited log, refusals that lose
nothing, undo, replay under another ruling, the Markdown handout, every fight ruleset."""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass

import pytest

from ruleslawyer.encounter import Encounter
from ruleslawyer.errors import RulesInputError
from ruleslawyer.registry import all_rulings
from ruleslawyer.rulesdb import all_ids
from ruleslawyer.widgets import FightPanel
from ruleslawyer.widgets.app import panel_specs
from ruleslawyer.widgets.base import resolve_rule
from ruleslawyer.widgets.fight import card_html, example_fights, fight_rulesets

CITATION = re.compile(r'<details class="rl-citation"><summary><a class="rl-cite" data-rule-id="([^"]*)"[^>]*>[^<]*</a>'
                      r'</summary><blockquote class="rl-quote">([^<]*)</blockquote></details>')
RULING = re.compile(r'<span class="rl-ruling" data-ruling-id="([^"]*)" data-answer="([^"]*)"')
PUNCTURED_LUNG = "mastery/combat/wounds-injuries-and-trauma/trauma-table#21"


def health(panel) -> dict[str, tuple[int, int]]:
    """Combatant -> (health now, bar maximum) read from the cards."""
    cards = re.findall(r'data-combatant="([^"]*)" data-status="[^"]*">.*?data-health="(-?\d+)" data-max="(\d+)"',
                       panel.cards.value)
    return {name: (int(now), int(top)) for name, now, top in cards}


def card(panel, name: str) -> str:
    start = panel.cards.value.index(f'data-combatant="{name}"')
    end = panel.cards.value.find('<div class="rl-cell rl-fighter"', start)
    return panel.cards.value[start:end if end > 0 else None]


def lines(panel, rnd: int) -> list[str]:
    return [x.text for x in panel.fight.log if x.round == rnd]


def test_the_mastery_duel_round_by_round_with_its_lasting_effects():
    # examples/mastery/fight-duel.json, scripted dice. Health by hand: round 1 Aldric 2+2 = 4 on the
    # passive Brute: 4-1 = 3, durability 1 takes 1, health 7 -> 5; Brute 2+2 = 4 vs defense 1+1 = 2:
    # 3 after armour, durability 2 takes 2, 10 -> 9; then 1+2 = 3: 3-1 = 2, 9 -> 7. Round 2: Aldric
    # 1+2 = 3 twice: 5 -> 3 -> 1; Brute 3: 7 -> 5. Round 3: Brute 1 -> 0 (dying timer 2 rounds at
    # Endurance tier 2), a Trauma d100 16 = Punctured Lung ("You have 1 AP per round"); Aldric 5 -> 3 -> 1.
    panel = FightPanel()
    assert panel.example.value.endswith("fight-duel.json") and panel.dice.seed.value == 7
    assert json.loads(panel.declare["Brute"].value) == {"actions": [{"action": "attack", "target": "Aldric"},
                                                                   {"action": "attack", "target": "Aldric"}]}
    assert panel.dice.script.value == "side: 2; attack: 2 2 1; defense: 1"
    expected = {1: {"Aldric": 7, "Brute": 5}, 2: {"Aldric": 5, "Brute": 1}, 3: {"Aldric": 1, "Brute": 0}}
    for rnd, want in expected.items():
        panel.resolve_button.click()
        assert panel.frame.error is None, panel.output.value
        assert {k: v[0] for k, v in health(panel).items()} == want
    assert health(panel) == {"Aldric": (1, 10), "Brute": (0, 7)}
    assert "Brute suffers a Trauma: 16: Punctured Lung" in lines(panel, 3)
    brute = card(panel, "Brute")
    assert 'data-ap="1"' in brute  # the Trauma leaves 1 AP for round 4 (mastery.one-ap-trauma-timing: next-round)
    assert "Traumas: 16: Punctured Lung" in brute and "dying: 2 rounds" in brute
    assert 'data-field="sheet.ap_per_round"><td>sheet.ap_per_round</td><td>2</td><td>1</td>' in brute
    assert panel.resolve_button.description == "Resolve round 4"
    panel.resolve_button.click()  # round 4: one attack (1 AP), d3 1 + 2 = 3 vs defense 2 + 1 = 3: equal defends; timer 2 -> 1
    assert [t for t in lines(panel, 4) if t.startswith("Brute attacks")] == ["Brute attacks Aldric: attack 3 vs defense 3: defended"]
    assert "Brute's dying timer: 1 round left" in lines(panel, 4)
    panel.resolve_button.click()  # round 5: the timer runs out
    assert "Brute dies: the dying timer ran out" in lines(panel, 5)
    assert panel.fight.state.over and panel.resolve_button.disabled
    assert panel.frame.summary == "Round 5: Aldric: 1 health, 0 durability, 2 AP; Brute: dead. The fight is over."
    assert 'data-status="dead"' in card(panel, "Brute")


def test_every_log_line_opens_its_rule_and_marks_its_rulings():
    panel = FightPanel()
    for _ in range(3):
        panel.resolve_button.click()
    cited = [c for line in panel.fight.log for c in line.cites]
    rulings = {r.id for r in all_rulings()}
    quotes = CITATION.findall(panel.log_view.value)
    badges = RULING.findall(panel.log_view.value)
    assert len(quotes) + len(badges) == len(cited)  # every citation of every line, none dropped
    assert [i for i, _ in quotes] == [c for c in cited if c not in rulings]
    known = all_ids()
    for rule_id, quoted in quotes:
        assert rule_id in known
        assert html.unescape(quoted) == resolve_rule(rule_id).text  # verbatim
    assert ("mastery.one-ap-trauma-timing", "next-round") in badges  # the answer in play
    assert f'data-rule-id="{PUNCTURED_LUNG}"' in panel.output.value  # the round's own lines, on top


def test_a_refused_declaration_names_the_field_and_loses_nothing():
    panel = FightPanel()
    panel.resolve_button.click()
    before = (panel.fight.state, panel.fight.log, panel.cards.value, panel.log_view.value)
    good_brute = panel.declare["Brute"].value
    panel.declare["Aldric"].value = '{"actions": [{"action": "attack", "target": "Nobody"}]}'
    panel.resolve_button.click()
    error = panel.output.value
    assert 'class="rl-error"' in error and '<b class="rl-field">declarations.Aldric' in error
    assert "Nobody" in html.unescape(error) and "Traceback" not in error
    assert (panel.fight.state, panel.fight.log, panel.cards.value, panel.log_view.value) == before
    assert panel.fight.pending == {}  # Brute's good declaration was not half-made either
    assert panel.declare["Brute"].value == good_brute and "Nobody" in panel.declare["Aldric"].value
    panel.declare["Aldric"].value = '{"actions": [{"action": "attack", "target": "Brute"'
    panel.resolve_button.click()
    assert '<b class="rl-field">declarations.Aldric</b>: is not valid JSON' in panel.output.value
    panel.declare["Aldric"].value = '{"actions": [{"action": "attack", "target": "Brute"}, ' \
                                    '{"action": "attack", "target": "Brute"}]}'
    panel.resolve_button.click()
    assert panel.frame.error is None and panel.fight.state.round == 2
    assert health(panel)["Brute"][0] == 1  # as in the example: nothing of the refusals leaked in


def test_undo_restores_state_log_declarations_and_dice():
    panel = FightPanel()
    for _ in range(3):
        panel.resolve_button.click()
    log3 = panel.fight.log
    panel.undo_button.click()
    assert panel.fight.state.round == 2 and panel.fight.log == log3[:len(panel.fight.log)]
    assert not [x for x in panel.fight.log if x.round == 3]
    assert health(panel) == {"Aldric": (5, 10), "Brute": (1, 7)}
    assert panel.dice.script.value == "side: 3; attack: 1 1 1 1; endurance: 2 3; trauma: 16"
    assert json.loads(panel.declare["Aldric"].value)["actions"][1] == {"action": "attack", "target": "Brute"}
    panel.resolve_button.click()
    assert panel.fight.log == log3  # the same round again, exactly
    for _ in range(3):
        panel.undo_button.click()
    assert panel.fight.state.round == 0 and panel.undo_button.disabled
    panel.undo()
    assert '<b class="rl-field">undo</b>' in panel.output.value


def test_an_emptied_box_declares_nothing_even_after_undo():
    # After Undo the round's declarations are pending again; emptying Brute's box takes his back: he
    # declares nothing, so his 2 AP defend (mastery.fight-spare-ap): Aldric's 2+2 = 4 against the
    # Brute's defense d2 1 + armour resistance 1 = 2 still hits: 4-1 = 3, durability 1, health 7 -> 5,
    # and the Brute attacks no one.
    panel = FightPanel()
    panel.resolve_button.click()
    panel.undo_button.click()
    assert set(panel.fight.pending) == {"Aldric", "Brute"}
    panel.declare["Brute"].value = "  "
    panel.resolve_button.click()
    assert lines(panel, 1)[0] == "Aldric attacks Brute: attack 4 vs defense 2: hit for 4 (absorbed 1, durability 1, " \
                                 "health 2)"
    assert not [t for t in lines(panel, 1) if t.startswith("Brute attacks")]
    assert health(panel)["Brute"][0] == 5 and health(panel)["Aldric"][0] == 10


def test_a_ruling_changed_plays_the_rounds_again_and_stops_where_the_fight_ends():
    # mastery.dying-timer-tick = this-round: the timer counts the round the Brute reaches 0 (round 3),
    # so it runs out in round 4; the example's round 5 is then refused, its declarations back in the boxes.
    panel = FightPanel()
    for _ in range(5):
        panel.resolve_button.click()
    panel.frame.rulings.dropdowns["mastery.dying-timer-tick"].value = "this-round"
    assert panel.fight.rulings == {"mastery.dying-timer-tick": "this-round"}
    assert "Brute dies: the dying timer ran out" in lines(panel, 4) and panel.fight.state.round == 4
    assert '<b class="rl-field">round</b>: playing round 5 again: the fight is over after round 4' \
           in panel.output.value
    assert json.loads(panel.declare["Brute"].value) == {"actions": [{"action": "attack", "target": "Aldric"}]}
    assert panel.dice.script.value == "side: 1; attack: 1; defense: 3 1"
    assert 'data-status="dead"' in card(panel, "Brute")  # the cards follow the replay


def test_replay_repeats_and_new_dice_draw_a_fresh_seed(monkeypatch):
    panel = FightPanel("mythras")  # round 1 scripted, rounds 2-3 from the seed
    for _ in range(3):
        panel.resolve_button.click()
    log = panel.fight.log
    panel.dice.replay_button.click()
    assert panel.fight.log == log and panel.fight.seed == 3
    monkeypatch.setattr("ruleslawyer.widgets.base.new_seed", lambda: 424242)
    panel.dice.mode.value = "Seeded dice"
    panel.roll_button.click()
    assert panel.dice.seed.value == 424242 and panel.fight.seed == 424242 and panel.fight.state.round == 3
    assert [x for x in panel.fight.log if x.round == 1] == [x for x in log if x.round == 1]  # round 1 scripted


def test_the_mythras_duel_carries_bleed_into_later_rounds():
    # Round 1: attack 05 vs Combat Style 60% is a Critical, parry 80 vs 50% a Failure: 2 Special
    # Effects (Trip Opponent, Bleed); 1d8 3 + Damage Modifier 1 = 4 to the Chest (d20 10), 7 -> 3.
    # Bleed (mythras.bleed = 1-hp-per-round) then takes 1 HP at each Round's end: 3 -> 2, 2 -> 1 in
    # round 2, 1 -> 0 in round 3: a Serious Wound. Hit Points in all: 5+5+6+7+4+4+5 = 36, the Chest's
    # 7 gone: 29.
    panel = FightPanel("mythras")
    assert panel.dice.script.value.startswith("initiative: 8 3; attack: 5 40")
    for _ in range(3):
        panel.resolve_button.click()
    assert "Brute's Chest loses 1 HP (bleeding): 3 → 2" in lines(panel, 1)
    assert "Brute's Chest loses 1 HP (bleeding): 2 → 1" in lines(panel, 2)
    assert "Brute's Chest loses 1 HP (bleeding): 1 → 0" in lines(panel, 3)
    assert "Brute has a Serious Wound to the Chest (0 of 7 HP)" in lines(panel, 3)
    assert health(panel) == {"Aldric": (36, 36), "Brute": (29, 36)}
    brute = card(panel, "Brute")
    assert "Brute: Chest 0/7 Serious; bleeding Chest" in brute and "2 AP per Round" in brute
    assert 'data-field="condition.hit_points.Chest"><td>condition.hit_points.Chest</td><td>7</td><td>0</td>' in brute
    assert ("mythras.bleed", "1-hp-per-round") in RULING.findall(panel.log_view.value)


def test_the_darkmaster_skirmish_counts_its_conditions_down():
    # examples/darkmaster/fight-skirmish.json. Round 1: Aldric d100 70 + (CMB 60 - Parry 20) - Grak's
    # Parry 22 = 88, the row "at least 60": 4 hits (30 -> 26) and Bleeding 2/round for 2 Rounds; Mira's
    # Blessing: CMB +20 for 1 Round. Round 2: Bleeding 26 -> 24 in the Assessment Phase; Aldric's CMB
    # 60 + 20 = 80: 45 + (80 - 30) - 15 = 80, "at least 70": 6 hits, 24 -> 18. Round 3: Bleeding
    # 18 -> 16 (its last Round); 80 + (60 - 20) - 10 = 110, "at least 100": 12 hits, 16 -> 4, Dying for
    # 2 Rounds and Unconscious.
    panel = FightPanel("darkmaster")
    panel.resolve_button.click()
    assert '<span class="rl-condition">Blessing CMB +20 (1 Round)</span>' in card(panel, "Aldric")
    assert '<span class="rl-condition">Bleeding 2/round (2 Rounds)</span>' in card(panel, "Grak")
    panel.resolve_button.click()
    assert "Aldric splits CMB 80 (60 +20 Blessing): 50 to attack, 30 to Parry" in lines(panel, 2)
    assert "Grak loses 2 hits to Bleeding: 26 -> 24; 1 more Round" in lines(panel, 2)
    panel.resolve_button.click()
    assert health(panel)["Grak"] == (4, 30)
    grak = card(panel, "Grak")
    for chip in ("Bleeding 2/round (0 Rounds)", "Dying (2 Rounds)", "Unconscious"):
        assert f'<span class="rl-condition">{chip}</span>' in grak
    assert "Blessing" not in card(panel, "Aldric")  # ended in round 3's Assessment Phase


def test_the_handout_quotes_every_cited_rule_once_and_lists_the_rulings():
    panel = FightPanel()
    for _ in range(3):
        panel.resolve_button.click()
    panel.export_button.click()
    text = panel.handout.value
    assert text.startswith("# Fight: Mastery: fight-duel\n")
    assert "- Brute suffers a Trauma: 16: Punctured Lung [mastery/combat/wounds-injuries-and-trauma/traumas#1, " \
           f"{PUNCTURED_LUNG}]" in text
    rulings = {r.id for r in all_rulings()}
    for rule_id in {c for line in panel.fight.log for c in line.cites} - rulings:
        rule = resolve_rule(rule_id)
        assert text.count(f"(`{rule_id}`)") == 1
        assert "\n".join(f"> {t}" if t else ">" for t in rule.text.split("\n")) in text
    assert "- `mastery.one-ap-trauma-timing` = **next-round**: When a Trauma" in text
    link = re.search(r'href="data:text/markdown;charset=utf-8;base64,([^"]+)"', panel.download.value)
    assert base64.b64decode(link.group(1)).decode("utf-8") == text
    panel.resolve_button.click()  # the handout on show follows the fight
    assert "## Round 4" in panel.handout.value


def test_bad_inputs_are_messages_naming_the_field():
    panel = FightPanel(input={"combatants": [{"name": "A", "side": "pcs"}], "bogus": 1})
    assert '<b class="rl-field">input.bogus</b>' in panel.output.value
    panel = FightPanel(input={"combatants": [{"name": "A", "side": "heroes", "health": 5}]})
    assert '<b class="rl-field">combatants[0].side</b>' in panel.output.value
    panel = FightPanel()
    fight = panel.fight
    panel.input_toggle.value = True
    panel.input_text.value = '{"combatants": ['
    panel.start_button.click()
    assert '<b class="rl-field">input</b>: is not valid JSON' in panel.output.value
    assert panel.fight is fight  # the fight on show stays
    with pytest.raises(RulesInputError, match="ruleset"):
        FightPanel("no-such-ruleset")


def test_a_typed_input_starts_a_fight_of_its_own():
    data = json.loads(example_fights("mastery")[0].read_text(encoding="utf-8"))
    data["seed"], data["rounds"] = 11, data["rounds"][:1]
    panel = FightPanel()
    panel.input_text.value = json.dumps(data)
    panel.start_button.click()
    assert panel.fight.seed == 11 and panel.dice.seed.value == 11 and panel.fight.state.round == 0
    panel.resolve_button.click()
    assert health(panel) == {"Aldric": (7, 10), "Brute": (5, 7)}  # round 1 scripted as in the example
    assert all(box.value == "" for box in panel.declare.values())  # no more rounds in the input


def test_a_saved_fight_loads_and_goes_on_to_the_same_log():
    # A fight saved after round 2 (Encounter.to_dict) with the example's rounds 3-5 to play on: its
    # boxes hold round 3, and round 3 played from the save gives exactly the unbroken fight's log.
    whole = FightPanel()
    for _ in range(2):
        whole.resolve_button.click()
    data = json.loads(example_fights("mastery")[0].read_text(encoding="utf-8"))
    panel = FightPanel(input={"fight": whole.fight.to_dict(), "rounds": data["rounds"][2:]})
    assert panel.fight.state.round == 2 and panel.resolve_button.description == "Resolve round 3"
    assert panel.dice.script.value == "side: 3; attack: 1 1 1 1; endurance: 2 3; trauma: 16"
    panel.resolve_button.click()
    whole.resolve_button.click()
    assert panel.fight.log == whole.fight.log
    assert '<b class="rl-field">input.fight</b>' in FightPanel(input={"fight": [1]}).output.value


@pytest.mark.parametrize("ruleset", [rid for _, rid in fight_rulesets()])
def test_every_fight_ruleset_plays_its_examples(ruleset):
    # Generic over Encounter: whatever ruleset has a fight engine (Darkmaster too, once it lands).
    known, rulings = all_ids(), {r.id for r in all_rulings()}
    panel = FightPanel(ruleset)
    examples = example_fights(ruleset)
    if not examples:
        assert panel.fight is None and panel.frame.summary == "No fight loaded" and panel.input_toggle.value
        return
    for path in examples:
        panel.example.value = str(path)
        rounds = json.loads(path.read_text(encoding="utf-8")).get("rounds", [])
        for _ in rounds:
            if not panel.fight.state.over:
                panel.resolve_button.click()
                assert panel.frame.error is None, (path.name, panel.output.value)
        assert panel.cards.value.count('class="rl-cell rl-fighter"') == len(panel.fight.state.combatants)
        cites = {c for line in panel.fight.log for c in line.cites}
        assert cites and cites <= known | rulings, sorted(cites - known - rulings)


def test_switching_ruleset_loads_its_first_example_once(monkeypatch):
    panel = FightPanel()
    calls = []
    original = panel.load_input
    monkeypatch.setattr(panel, "load_input", lambda data: (calls.append(1), original(data)))
    panel.ruleset.value = "mythras"
    assert len(calls) == 1 and panel.fight.ruleset == "mythras"
    assert panel.example.value.endswith("mythras/fight-duel.json")


@dataclass(frozen=True)
class _Condition:
    name: str
    rounds: int | None = None
    per_round: int = 0

    def label(self) -> str:
        return f"{self.name} {self.per_round}/round ({self.rounds} Rounds)"


@dataclass(frozen=True)
class _Fighter:
    name: str
    hits: int
    conditions: tuple = ()


class _Encounter(Encounter):
    ruleset = "toy"

    @classmethod
    def write_combatant(cls, c):
        return {"name": c.name, "side": "npc", "hits": c.hits, "conditions": [x.name for x in c.conditions]}

    @classmethod
    def summary(cls, c):
        return f"{c.name}: {c.hits} hits"


def test_a_card_reads_any_rulesets_shape():
    # A ruleset counting "hits" and carrying condition objects (as Darkmaster does): 12 of 20 hits is
    # 60 % of the bar; the condition shows by its label; what changed is listed.
    orc = _Fighter("Orc", 12, (_Condition("Bleeding", 2, 1),))
    shown = card_html(_Encounter, orc, {"name": "Orc", "side": "npc", "hits": 20, "conditions": []})
    assert 'data-health="12" data-max="20"' in shown and "width:60%" in shown and "12</b> / 20 hits" in shown
    assert '<span class="rl-condition">Bleeding 1/round (2 Rounds)</span>' in shown
    assert '<td>hits</td><td>20</td><td>12</td>' in shown and '<td>conditions</td><td>none</td><td>Bleeding</td>' in shown
    assert 'class="rl-summary">Orc: 12 hits<' in shown
    assert "<script" not in card_html(_Encounter, _Fighter("<script>x</script>", 1))  # escaped


def test_the_app_has_a_fight_tab_and_the_panel_displays_without_a_kernel():
    titles = [t for t, *_ in panel_specs()]
    assert titles.index("Fight") == titles.index("Compare") - 1
    panel = FightPanel()
    panel.resolve_button.click()
    data = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    page = data["text/html"]
    assert 'class="rl-panel rl-static' in page and 'data-combatant="Brute"' in page and "Fight log: 1 round, 9 lines" in page
    assert data["text/plain"].startswith("Fight: a whole fight, round by round: Round 1: Aldric: 7 health")
    assert len(page) < 100_000


def test_the_panel_reads_the_rules_handle_it_is_given(tmp_path, shipped_db):
    from ruleslawyer.rulesdb.handle import open_rules

    rules = open_rules(shipped_db(tmp_path / "own.db"))
    panel = FightPanel(rules=rules)
    panel.resolve_button.click()
    assert panel.rules is rules and panel.fight.rules is rules
    assert f'data-rule-id="{PUNCTURED_LUNG}"' not in panel.log_view.value  # round 1: no Trauma yet
    assert 'data-rule-id="mastery/combat/actions-and-reactions/attack#1"' in panel.log_view.value
