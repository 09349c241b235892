"""A fight log a GM reads alone: its key rolls, one wording for exchanges and for the end, compact
engagement bookkeeping. Hand-worked on the shipped example fights."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ruleslawyer.commands.fight import encounter_class
from ruleslawyer.encounter import fight_over_text
from ruleslawyer.rulesets.mastery.fight_play import aftermath_trials

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _play(ruleset: str, name: str):
    data = json.loads((EXAMPLES / ruleset / name).read_text())
    fight = encounter_class(ruleset).from_input(data)
    results = []
    for r in data["rounds"]:
        if fight.state.over:
            break
        for who, decl in r.get("declare", {}).items():
            fight.declare(who, decl)
        results.append(fight.resolve_round(r.get("dice")))
    return fight, results


def _texts(fight, number=None):
    return [line.text for line in fight.log if number is None or line.round == number]


def test_the_fighting_on_endurance_trial_is_in_the_mastery_log():
    fight, _ = _play("mastery", "fight-duel.json")
    log = _texts(fight, 3)
    # Brute at 1 health takes 2: 0 health, Endurance trial d3 = 2 against DC 2 (the damage) succeeds; then
    # fighting on, 2 more health damage is a Trauma (16 Punctured Lung) and a trial d3 = 3 against DC 2.
    at = log.index("Brute suffers a Trauma: 16: Punctured Lung")
    assert log[at + 1:at + 3] == ["Brute has 1 AP per round from the next round",
                                  "Brute's Endurance trial against the health damage taken (2): rolled 3 against "
                                  "DC 2 — success"]
    at = log.index("Brute reaches 0 health: an Injury; the dying timer begins (2 rounds)")
    assert log[at + 1:at + 3] == ["Brute's Endurance trial against 2: rolled 2 against DC 2 — success",
                                  "Brute fights on at 0 health"]
    cites = {line.text: line.cites for line in fight.log}
    assert cites["Brute's Endurance trial against the health damage taken (2): rolled 3 against DC 2 — success"][0] \
        == "mastery/combat/death/fighting-on#3"


@pytest.mark.parametrize("example", ["fight-duel.json", "fight-skirmish.json"])
def test_every_endurance_trial_after_health_damage_is_logged(example):
    fight, results = _play("mastery", example)
    trials = [t for r in results for t in aftermath_trials(r.trace)]
    logged = [t for t in _texts(fight) if "'s Endurance trial" in t]
    assert trials and len(logged) == len(trials)
    for step, text in zip(trials, logged):
        assert text.endswith(f"{step.label}: {step.detail} — {step.value}")


def test_exchange_lines_read_attack_vs_defense_then_the_outcome():
    fight, _ = _play("mastery", "fight-duel.json")
    log = _texts(fight)
    assert "Brute attacks Aldric: attack 4 vs defense 2: hit for 4 (absorbed 1, durability 2, health 1)" in log
    assert "Brute attacks Aldric: attack 3 vs defense 3: defended" in log
    assert "Brute attacks Aldric: attack 3 vs defense 5: defended" in log
    for text in log:
        assert "vs attack" not in text and not re.search(r"defended \(", text), text
        if re.search(r"defense \d", text):
            assert re.search(r": attack \d+ vs defense \d+: (hit for \d+|defended)", text), text


@pytest.mark.parametrize("ruleset, example, side", [("mastery", "fight-duel.json", "pcs"),
                                                    ("mythras", "fight-duel.json", "heroes"),
                                                    ("darkmaster", "fight-skirmish.json", "player")])
def test_one_end_line_names_the_winning_side(ruleset, example, side):
    fight, _ = _play(ruleset, example)
    assert fight.state.over
    assert fight.log[-1].text == f"The fight is over, won by {side}: the only side still able to fight"
    assert fight_over_text([]) == "The fight is over, won by nobody: no side is still able to fight"


def test_a_mutual_engagement_is_one_line():
    fight, _ = _play("mastery", "fight-duel.json")
    log = _texts(fight, 1)
    assert "Aldric and Brute are Engaged with each other until the start of each one's next turn" in log
    assert "Aldric is Engaged with Brute until the start of its next turn" not in log
    for number in range(1, fight.state.round + 1):
        pairs = [m.groups() if m else None for m in map(re.compile(r"(\w+) is Engaged with (\w+) until").match,
                                                        _texts(fight, number))]
        for a, b in zip(pairs, pairs[1:]):
            assert a is None or b is None or a != b[::-1], (number, a)
