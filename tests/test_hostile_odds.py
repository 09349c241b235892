"""Hostile input to the odds functions (``ruleslawyer.odds``), called directly from Python.

The CLI guards ``odds`` against these (commands.odds checks the tolerance and the rulings before
calling), but a notebook calls the functions themselves. Each failing case is marked xfail(strict)
until ``ruleslawyer.odds`` validates it at its own boundary.
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


@pytest.mark.xfail(strict=True, reason="odds.mastery convolves many-dice weapons without a bound: a crossbow "
                                       "weapon of 100d100 runs for minutes (exchange mastery answers at once)")
def test_many_weapon_dice_answer_quickly_or_are_refused():
    data = copy.deepcopy(MELEE)
    data["attacker"]["attack"]["weapon"] = "100d100"
    try:
        _within(10, lambda: mastery_exchange_odds(data))
    except RulesInputError as exc:
        assert exc.field.startswith("attacker.attack.weapon")


@pytest.mark.xfail(strict=True, reason="odds.mastery probes the engine with scripted dice; 1000d10000 runs the "
                                       "probe out and the error blames a scripted slot ('dice.attack ... ran out: "
                                       "it had 200 faces') the user never scripted")
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
    data = {**copy.deepcopy(MELEE), "rulings": {"mastery.explosion-cap": "5"}}
    r = mastery_exchange_odds(data, rulings={"mastery.explosion-cap": "10"})
    assert "mastery.explosion-cap" in r.trace.ruling_ids()
    answers = {u.answer for s in r.trace.walk() for u in s.rulings if u.ruling_id == "mastery.explosion-cap"}
    assert answers == {"10"}


@pytest.mark.parametrize("tolerance", [math.nan, math.inf])
def test_the_other_odds_functions_refuse_a_non_finite_tolerance(tolerance):
    from ruleslawyer.odds.mastery import startle_odds, tier_die_odds, trial_odds

    for call in (lambda: tier_die_odds(3, tolerance=tolerance), lambda: trial_odds(3, 4, tolerance=tolerance),
                 lambda: startle_odds(1, 1, tolerance=tolerance)):
        with pytest.raises(RulesInputError) as exc:
            call()
        assert exc.value.field == "tolerance"
