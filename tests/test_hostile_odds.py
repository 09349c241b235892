"""Hostile input to the odds functions (``ruleslawyer.odds``), called directly from Python.

The CLI guards ``odds`` against these (commands.odds checks the tolerance and the rulings before
calling), but a notebook calls the functions themselves; ``ruleslawyer.odds`` validates each case
at its own boundary.
"""

from __future__ import annotations

import copy
import json
import math
import signal
from pathlib import Path

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.odds.mastery import mastery_exchange_odds
from ruleslawyer.odds.mythras import mythras_exchange_odds
from ruleslawyer.odds.trauma import trauma_odds

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> dict:
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    data.pop("dice", None)
    return data


MELEE = _example("mastery/exchange-melee.json")
SWORD = _example("mythras/broadsword-vs-dagger.json")


@pytest.mark.parametrize("odds", [mastery_exchange_odds, mythras_exchange_odds])
@pytest.mark.parametrize("rulings", ["x", 5, ["a"]])
def test_rulings_that_are_not_an_object_name_the_field(odds, rulings):
    data = copy.deepcopy(MELEE if odds is mastery_exchange_odds else SWORD)
    with pytest.raises(RulesInputError) as exc:
        odds(data, rulings=rulings)
    assert exc.value.field == "rulings"
    with pytest.raises(RulesInputError) as exc:
        odds({**data, "rulings": rulings})
    assert exc.value.field == "rulings"


@pytest.mark.parametrize("tolerance", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("which", ["mastery", "mythras", "trauma"])
def test_a_non_finite_tolerance_names_the_field(which, tolerance):
    call = {"mastery": lambda: mastery_exchange_odds(copy.deepcopy(MELEE), tolerance=tolerance),
            "mythras": lambda: mythras_exchange_odds(copy.deepcopy(SWORD), tolerance=tolerance),
            "trauma": lambda: trauma_odds(tolerance=tolerance)}[which]
    with pytest.raises(RulesInputError) as exc:
        call()
    assert exc.value.field == "tolerance"


class _Slow(Exception):
    pass


def _within(seconds: int, fn):
    def alarm(*_):
        raise _Slow(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        return fn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_many_weapon_dice_answer_quickly_or_are_refused():
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = "100d100"
    try:
        _within(10, lambda: mastery_exchange_odds(data))
    except RulesInputError as exc:
        assert exc.field.startswith("attacker.attack.weapon")


def test_a_huge_weapon_expression_is_blamed_on_the_weapon_not_on_scripted_dice():
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = "1000d10000"
    try:
        _within(10, lambda: mastery_exchange_odds(data))
    except RulesInputError as exc:
        assert exc.field.startswith("attacker.attack.weapon"), str(exc)


@pytest.mark.parametrize("odds", [mastery_exchange_odds, mythras_exchange_odds])
@pytest.mark.parametrize("rulings", ["", [], 0])
def test_empty_rulings_that_are_not_an_object_are_refused_too(odds, rulings):
    data = copy.deepcopy(MELEE if odds is mastery_exchange_odds else SWORD)
    with pytest.raises(RulesInputError) as exc:
        odds({**data, "rulings": rulings})
    assert exc.value.field == "rulings"


def test_rulings_objects_still_merge_the_call_over_the_input():
    # the input asks for cap 5, the call for cap 10: the call wins (the trace shows the cap used)
    data = {**copy.deepcopy(MELEE), "rulings": {"kit.explosion-cap": "5"}}
    r = mastery_exchange_odds(data, rulings={"kit.explosion-cap": "10"})
    assert "kit.explosion-cap" in r.trace.ruling_ids()
    answers = {u.answer for s in r.trace.walk() for u in s.rulings if u.ruling_id == "kit.explosion-cap"}
    assert answers == {"10"}


@pytest.mark.parametrize("tolerance", [math.nan, math.inf])
def test_the_other_odds_functions_refuse_a_non_finite_tolerance(tolerance):
    from ruleslawyer.odds.mastery import startle_odds, tier_die_odds, trial_odds

    for call in (lambda: tier_die_odds(3, tolerance=tolerance), lambda: trial_odds(3, 4, tolerance=tolerance),
                 lambda: startle_odds(1, 1, tolerance=tolerance)):
        with pytest.raises(RulesInputError) as exc:
            call()
        assert exc.value.field == "tolerance"


def test_exploding_support_counts_the_totals_exploding_builds():
    from fractions import Fraction

    from ruleslawyer.odds.core import exploding, exploding_support

    for sides in (1, 2, 4, 10, 100):
        for cap in (0, 3, 20):
            for tol in (Fraction(0), Fraction(1, 10**12), Fraction(1, 1000)):
                assert exploding_support(sides, cap, tol) == len(exploding(sides, cap, tol)[0])
    # d4, cap 20, tolerance 1e-12: 4**-20 < 1e-12 < 4**-19, so chains of 20 maxima are cut off:
    # depth 19 -> 20 levels x 3 non-maximum faces = 60 totals (no capped total)
    assert exploding_support(4, 20, Fraction(1, 10**12)) == 60


@pytest.mark.parametrize("weapon", ["5d100", "2d10000", "100d100"])
def test_weapon_dice_past_the_bound_are_refused_at_once_naming_the_weapon(weapon):
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = weapon
    with pytest.raises(RulesInputError) as exc:
        _within(2, lambda: mastery_exchange_odds(data))
    assert exc.value.field == "attacker.attack.weapon"
    assert weapon in str(exc.value) and "5,000,000" in str(exc.value)


def test_weapon_dice_within_the_bound_are_answered():
    # 4d100 is inside the bound against a tier 3 attack (the module documents it)
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = "4d100"
    r = _within(10, lambda: mastery_exchange_odds(data))
    # the lowest attack total: the tier 3 d4 on 1 + four d100s on 1 = 5 (the example adds no other
    # modifier to the attack)
    assert min(r.attack_totals.outcomes()) == 5
    assert r.p_hit > 0


def test_many_one_sided_weapon_dice_do_not_run_the_probe_out():
    # a d1 explodes on every roll up to the cap (kit.explosion-cap, 20): each d1 is 21 faces,
    # 21 in total; 10d1 rolls 210 faces (more than the probe used to script) and always adds 210
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = "10d1"
    r = mastery_exchange_odds(data)
    # lowest attack total: the tier 3 d4 on 1 + 210 = 211 (no other modifier in the example)
    assert min(r.attack_totals.outcomes()) == 1 + 210
