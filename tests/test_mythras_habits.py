"""The chapter's "Practical habits" are play tips, never the rule a Mythras engine step applies.

A step that settles something the chapter is silent on (wound levels, what a Serious or Major Wound
does, Bleed from Round to Round, a Turn with no AP left) names the registered ruling it applies and
the rule or supplement note behind it; a tip may only follow as "the chapter mentions it".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ruleslawyer.rulesdb.lookup import get_rule
from ruleslawyer.rulesets.mythras import MythrasEncounter, ids

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mythras" / "fight-duel.json"
ENGINE = ROOT / "src" / "ruleslawyer" / "rulesets" / "mythras"
HABIT = "mythras/combat/practical-habits#"
MENTION = "the chapter mentions it"


def _play(rulings=None):
    data = json.loads(EXAMPLE.read_text())
    fight = MythrasEncounter.from_input(data, rulings=rulings)
    results = []
    for r in data["rounds"]:
        if fight.state.over:
            break
        for name, decl in r.get("declare", {}).items():
            fight.declare(name, decl)
        results.append(fight.resolve_round(r.get("dice")))
    return fight, results


def _lines(fight):
    return {line.text: line.cites for line in fight.log}


RULING_SETS = [None, {"mythras.serious-wound": "incapacitated"}, {"mythras.serious-wound": "limb-only"},
               {"mythras.serious-wound": "record-only"}, {"mythras.major-wound": "trunk-kills"},
               {"mythras.major-wound": "record-only"}, {"mythras.bleed": "record-only"}]


@pytest.mark.parametrize("rulings", RULING_SETS)
def test_no_step_cites_a_practical_habit_as_its_rule(rulings):
    fight, results = _play(rulings)
    checked = 0
    for result in results:
        for step in result.trace.walk():
            cites = [c.rule_id for c in step.cites]
            if not any(c.startswith(HABIT) for c in cites):
                continue
            checked += 1
            assert not cites[0].startswith(HABIT), (step.label, cites)
            assert step.rulings or any(not c.startswith(HABIT) for c in cites), step.label
            assert all(c.note == MENTION for c in step.cites if c.rule_id.startswith(HABIT)), step.label
    for line in fight.log:
        if any(c.startswith(HABIT) for c in line.cites):
            assert not line.cites[0].startswith(HABIT), line.text


def test_engine_modules_use_the_habits_only_in_rulings():
    """Statically: only ids.py (the names) and rulings.py (a ruling's background) mention a habit id."""
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name in {"ids.py", "rulings.py"}:
            continue
        if re.search(r"_HABIT\b|practical-habits", path.read_text()):
            offenders.append(path.name)
    assert offenders == []


def test_the_duel_cites_rulings_and_notes_for_wounds_bleed_and_spent_ap():
    lines = _lines(_play()[0])
    # Round 3: the Chest bleeds 1 -> 0, a Serious Wound; Endurance 45 against 50% succeeds.
    assert lines["Brute rolls Endurance after the Serious Wound: 45 against 50% — Success; fights on"] == (
        "mythras/supplement/where-the-chapter-is-silent#10", "mythras.serious-wound")
    assert lines["Brute has a Serious Wound to the Chest (0 of 7 HP)"] == (
        "mythras/supplement/where-the-chapter-is-silent#9", "mythras/combat/the-attack-parry-exchange#10",
        "mythras.wound-levels")
    assert lines["Brute's Chest loses 1 HP (bleeding): 1 → 0"] == (
        "mythras/combat/special-effects#1", "mythras/supplement/special-effects#6", "mythras.bleed")
    assert lines["Aldric has no AP left for the Attack: the Turn passes"] == (
        "mythras/combat/setup#2", "mythras/combat/setup#3")
    assert lines["Brute is incapacitated: a Major Wound to the Left Arm"][0] == (
        "mythras/supplement/where-the-chapter-is-silent#10")


def test_the_supplement_notes_cited_are_the_wound_notes():
    """A renumbered supplement would make ids.WOUND_LEVELS_NOTE / WOUNDS_NOTE point elsewhere."""
    assert get_rule(ids.WOUND_LEVELS_NOTE).text.startswith("Wound levels (0 Hit Points and below).")
    assert get_rule(ids.WOUNDS_NOTE).text.startswith("What a Serious or Major Wound does.")
    assert get_rule("mythras/supplement/special-effects#6").text.startswith("Bleed")
