"""Mythras levels of success, difficulty grades, skills over 100% and the differential (hand-worked)."""

from __future__ import annotations

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError, RulingError
from ruleslawyer.rulesets.mythras.levels import (DifficultyGrade, LevelOfSuccess, adjust_over_100, critical_range,
                                                 differential, graded_skill, level_of_success, roll_skill, step_grade)

C, S, F, X = LevelOfSuccess.CRITICAL, LevelOfSuccess.SUCCESS, LevelOfSuccess.FAILURE, LevelOfSuccess.FUMBLE


@pytest.mark.parametrize("skill, expected", [
    # skill 4: critical ceil(0.4) = 1 -> 01; 01–05 always succeed; fumble 99–00
    (4, {1: C, 2: S, 4: S, 5: S, 6: F, 95: F, 98: F, 99: X, 100: X}),
    # skill 6: critical ceil(0.6) = 1 -> 01 only; success 02–06
    (6, {1: C, 2: S, 6: S, 7: F, 98: F, 99: X, 100: X}),
    # skill 63: critical ceil(6.3) = 7 -> 01–07; success 08–63
    (63, {1: C, 7: C, 8: S, 63: S, 64: F, 98: F, 99: X, 100: X}),
    # skill 100: critical 01–10; 96–00 never succeed; not above 100 so 99 still fumbles
    (100, {10: C, 11: S, 95: S, 96: F, 98: F, 99: X, 100: X}),
    # skill 150: critical ceil(15) = 15; 96–99 fail; above 100% only 00 fumbles
    (150, {15: C, 16: S, 95: S, 96: F, 99: F, 100: X}),
])
def test_bands(skill, expected):
    for roll, level in expected.items():
        got, step = level_of_success(roll, skill)
        assert got is level, (skill, roll)
        assert step.cites[0].rule_id.startswith("mythras/supplement/skill-rolls#")


def test_critical_range_rounds_up():
    assert [critical_range(s) for s in (0, 1, 4, 10, 11, 63, 100, 150)] == [0, 1, 1, 1, 2, 7, 10, 15]


def test_skill_zero_still_succeeds_on_01_to_05_but_never_criticals():
    assert level_of_success(1, 0)[0] is S       # ceil(0/10) = 0: no critical range
    assert level_of_success(6, 0)[0] is F


@pytest.mark.parametrize("skill, grade, expected", [
    (63, "Very Easy", 126),   # 63 × 2
    (63, "Easy", 95),         # 63 × 1.5 = 94.5 -> 95
    (63, "Standard", 63),
    (63, "Hard", 42),         # 63 × 2/3 = 42
    (64, "Hard", 43),         # 64 × 2/3 = 42.67 -> 43
    (63, "Formidable", 32),   # 31.5 -> 32
    (63, "Herculean", 13),    # 63 / 5 = 12.6 -> 13
    (63, "Hopeless", None),   # no roll
])
def test_grades_round_up(skill, grade, expected):
    value, step = graded_skill(skill, grade)
    assert value == expected
    assert step.cites[0].rule_id.startswith("mythras/supplement/difficulty-grades#")


def test_herculean_is_a_ruling():
    value, step = graded_skill(63, DifficultyGrade.HERCULEAN, {"mythras.herculean": "1/10"})
    assert value == 7  # 6.3 -> 7
    assert step.rulings[0].ruling_id == "mythras.herculean" and step.rulings[0].answer == "1/10"
    with pytest.raises(RulingError):
        graded_skill(63, "Herculean", {"mythras.herculean": "1/3"})


def test_hopeless_makes_no_roll():
    r = roll_skill(80, grade="Hopeless", dice=Dice(script={"skill": []}))
    assert r.level is None and r.roll is None and not r.attempted


def test_step_grade_stops_at_the_ends():
    assert step_grade("Standard", 1) is DifficultyGrade.HARD
    assert step_grade("Herculean", 3) is DifficultyGrade.HOPELESS
    assert step_grade("Easy", -5) is DifficultyGrade.VERY_EASY


def test_graded_crit_range_follows_the_graded_skill():
    # 63 Hard -> 42: critical ceil(4.2) = 5, so 05 is a Critical and 06 only a Success
    r = roll_skill(63, grade="Hard", dice=Dice(script={"skill": [5, 6]}))
    assert r.effective_skill == 42 and r.level is C
    r = roll_skill(63, grade="Hard", dice=Dice(script={"skill": [6]}))
    assert r.level is S


@pytest.mark.parametrize("bad", [-5, 12.5, "60", True, 1000])
def test_bad_skill_names_the_field(bad):
    with pytest.raises(RulesInputError) as e:
        roll_skill(bad, field="attacker.skill")
    assert e.value.field == "attacker.skill"


def test_unknown_grade_lists_allowed():
    with pytest.raises(RulesInputError) as e:
        graded_skill(50, "Impossible")
    assert "Formidable" in e.value.message


def test_over_100_reduces_both_by_the_excess():
    out, step = adjust_over_100({"attack": 130, "defence": 80})
    assert out == {"attack": 100, "defence": 50}  # excess 30
    assert step.rulings[0].ruling_id == "mythras.over-100"
    out, step = adjust_over_100({"attack": 130, "defence": 80}, {"mythras.over-100": "no-adjustment"})
    assert out == {"attack": 130, "defence": 80}
    out, step = adjust_over_100({"attack": 90, "defence": 100})
    assert step is None and out == {"attack": 90, "defence": 100}
    out, _ = adjust_over_100({"attack": 160, "defence": 40})
    assert out == {"attack": 100, "defence": 0}  # never below 0


@pytest.mark.parametrize("a, d, winner, n", [
    (S, S, None, 0), (C, S, "attacker", 1), (C, F, "attacker", 2), (C, X, "attacker", 3),
    (F, C, "defender", 2), (X, S, "defender", 2), (F, F, None, 0), (X, F, "defender", 1),
])
def test_differential(a, d, winner, n):
    diff = differential(a, d)
    assert (diff.winner, diff.effects) == (winner, n)
    assert "mythras/combat/the-attack-parry-exchange#3" in diff.trace.cited_ids()
