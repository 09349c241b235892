"""A ruling of another ruleset is named as such by every engine, fight and odds function (one shared
check, :func:`ruleslawyer.registry.check_rulings`), whatever engines the process imported; every
ruleset odds function takes ``rulings=``; nothing calls the unchecked ``check_overrides`` directly."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer.errors import RulesInputError, RulingError
from ruleslawyer.registry import all_rulings, check_rulings

SRC = Path(__file__).parents[1] / "src" / "ruleslawyer"
RULESETS = ("mastery", "mythras", "darkmaster")
ONE = {r: next(x for x in all_rulings(r)) for r in RULESETS}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("other", RULESETS)
def test_another_rulesets_ruling_names_the_ruleset_it_belongs_to(ruleset, other):
    if ruleset == other:
        assert check_rulings({ONE[other].id: ONE[other].default}, ruleset) == {ONE[other].id: ONE[other].default}
        return
    with pytest.raises(RulingError) as e:
        check_rulings({ONE[other].id: ONE[other].default}, ruleset, "fight.rulings")
    assert e.value.field == f"fight.rulings.{ONE[other].id}"
    assert e.value.message == f"ruling belongs to {other!r}, not {ruleset!r}"


def test_unknown_ids_and_answers_and_non_objects_are_named():
    with pytest.raises(RulingError) as e:
        check_rulings({"mythras.nope": "x"}, "mythras")
    assert e.value.field == "rulings.mythras.nope" and "unknown ruling 'mythras.nope'" in e.value.message
    with pytest.raises(RulingError) as e:
        check_rulings({"mythras.halving": "never"}, "mythras")
    assert e.value.field == "rulings.mythras.halving" and "is not allowed" in e.value.message
    for bad in (["x"], "x", 5):
        with pytest.raises(RulingError) as e:
            check_rulings(bad, "mastery", "input.rulings")
        assert e.value.field == "input.rulings" and e.value.message.startswith("must be an object")
    assert check_rulings(None, "mastery") == {} and check_rulings({"kit.explosion-cap": "10"}, "darkmaster")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fresh_process_fight_names_another_rulesets_ruling(ruleset, tmp_path):
    """The wrong message came when the other ruleset's engine was not imported: a cold command line."""
    other = next(r for r in RULESETS if r != ruleset)
    example = next((Path(__file__).parents[1] / "examples" / ruleset).glob("fight-*.json"))
    p = subprocess.run([sys.executable, "-m", "ruleslawyer.cli", "fight", ruleset, "--input", str(example),
                        "--ruling", f"{ONE[other].id}={ONE[other].default}"], capture_output=True, text=True)
    assert p.returncode == 1
    assert f"rulings.{ONE[other].id}: ruling belongs to {other!r}, not {ruleset!r}" in p.stderr


ODDS = [
    ("mastery", "ruleslawyer.odds.mastery", "tier_die_odds", (2,), {}),
    ("mastery", "ruleslawyer.odds.mastery", "trial_odds", (2, 3), {}),
    ("mastery", "ruleslawyer.odds.mastery", "aiming_trial_odds", (2,), {}),
    ("mastery", "ruleslawyer.odds.mastery", "startle_odds", (2, 2), {}),
    ("mastery", "ruleslawyer.odds.mastery", "mastery_exchange_odds", (),
     {"attacker": None, "data": {"attacker": {"name": "A", "perception_tier": 2,
                                              "attack": {"kind": "melee", "tier": 2, "weapon": "1d4"}},
                                 "defender": {"name": "B", "defense_tier": 2, "health": 10}}}),
    ("mythras", "ruleslawyer.odds.mythras", "level_odds", (50,), {}),
    ("mastery", "ruleslawyer.odds.trauma", "trauma_odds", (), {}),
]


@pytest.mark.parametrize("ruleset, module, name, args, kw", ODDS)
@pytest.mark.parametrize("other", RULESETS)
def test_every_odds_function_takes_rulings_and_names_another_rulesets(ruleset, module, name, args, kw, other):
    import importlib

    fn = getattr(importlib.import_module(module), name)
    kw = {k: v for k, v in kw.items() if v is not None}
    if other == ruleset:
        return
    with pytest.raises(RulesInputError) as e:
        fn(*args, **kw, rulings={ONE[other].id: ONE[other].default})
    assert f"ruling belongs to {other!r}, not {ruleset!r}" in str(e.value)
    with pytest.raises(RulesInputError) as e:
        fn(*args, **kw, rulings=["x"])
    assert e.value.field == "rulings"


def test_level_odds_with_rulings_gives_the_same_levels():
    from ruleslawyer.odds.mythras import level_odds

    d = level_odds(63, rulings={"kit.explosion-cap": "10"})
    assert {k: str(v) for k, v in d.items()} == {"Critical": "7/100", "Success": "14/25", "Failure": "7/20",
                                                 "Fumble": "1/50"}


def test_no_engine_calls_the_unshared_check_directly():
    """Every rulings check goes through registry.check_rulings (which loads every ruleset's rulings)."""
    offenders = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                 if p.name not in ("trace.py", "registry.py") and re.search(r"\bcheck_overrides\(", p.read_text())]
    assert offenders == []
