"""Hostile sizes: a number big enough to make an engine loop for hours is refused at once.

Every count a caller gives that an engine loops over (move actions, squares of a path) has an
upper bound and a RulesInputError naming the field beyond it, so ``--moves 999999999999999``
answers in milliseconds instead of hanging.
"""

from __future__ import annotations

import time

import pytest

from ruleslawyer.cli import main
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mastery import plan_movement
from ruleslawyer.rulesets.mastery.movement import MAX_MOVES, MAX_SQUARES

HUGE = [10**15, 10**100]


@pytest.mark.parametrize("field", ["moves", "normal_squares", "rugged_squares"])
@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize("repeated", ["half-speed-each", "compounding"])
def test_huge_counts_are_refused_at_once(field, value, repeated):
    start = time.perf_counter()
    with pytest.raises(RulesInputError) as exc:
        plan_movement(2, **{field: value}, rulings={"mastery.repeated-move": repeated})
    assert exc.value.field == field
    assert "at most" in exc.value.message
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("repeated", ["half-speed-each", "compounding"])
def test_the_largest_allowed_counts_still_answer_quickly(repeated):
    start = time.perf_counter()
    plan = plan_movement(1, small=True, moves=MAX_MOVES, normal_squares=MAX_SQUARES, rugged_squares=MAX_SQUARES,
                         rulings={"mastery.repeated-move": repeated})
    assert time.perf_counter() - start < 2
    # Agility tier 1, Small: speed 3 + 1 - 1 = 3; the path costs 100000 + 2 x 100000 = 300000 squares.
    assert plan.speed == 3 and plan.cost == 300_000
    if repeated == "half-speed-each":
        # every move after the first covers 3 + 3 // 2 = 4: 3 + 4 x 99 = 399 squares in 100 moves;
        # the path needs 1 + ceil((300000 - 3) / 4) = 1 + 74999.25 -> 1 + 75000 = 75001 moves.
        assert plan.squares == 3 + 4 * 99 and plan.moves_needed == 75_001


def test_cli_mastery_move_with_a_huge_count_is_one_error_line(capsys):
    start = time.perf_counter()
    assert main(["mastery-move", "--agility-tier", "3", "--moves", "999999999999999"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ruleslawyer: error: moves: must be at most 100") and err.count("\n") == 1
    assert time.perf_counter() - start < 2


def test_thousands_of_combatants_sequence_quickly_and_a_repeated_name_is_named_not_listed_with_all():
    from ruleslawyer.rulesets.darkmaster import SequenceInput, sequence_round
    from ruleslawyer.rulesets.mastery import sequence_from_dict
    from ruleslawyer.rulesets.mythras import InitiativeCombatant, roll_initiative

    from ruleslawyer.limits import INPUT_ITEMS

    n = INPUT_ITEMS  # as many combatants as an input may hold (README "Limits"); one more is refused below
    start = time.perf_counter()
    mastery = [{"name": f"c{i}", "side": "pcs" if i % 2 else "enemies", "declaration": {"weapon": "dagger"}}
               for i in range(n)]
    assert len(sequence_from_dict({"combatants": mastery}, seed=1).combatants) == n
    dm = [{"name": f"c{i}", "cmb": i % 100, "actions": [{"name": "Sword", "kind": "melee", "weapon_length": "Long"}]}
          for i in range(n)]
    sequence_round(SequenceInput.from_dict({"combatants": dm}))
    roll_initiative([InitiativeCombatant.from_dict({"name": f"c{i}", "initiative_modifier": i % 20}, "c")
                     for i in range(n)], seed=1)
    assert time.perf_counter() - start < 20
    # one name used twice among a thousand: the error names it, and stays one short line
    with pytest.raises(RulesInputError) as exc:
        sequence_from_dict({"combatants": [*mastery[:-1], {"name": "c7", "side": "pcs"}]})
    assert exc.value.field == "combatants" and "'c7'" in exc.value.message and len(str(exc.value)) < 200
    with pytest.raises(RulesInputError, match="combatants: must hold 1 to 1,000 items, got 1,001"):
        sequence_from_dict({"combatants": [*mastery, {"name": "extra", "side": "pcs"}]})


@pytest.mark.parametrize("args", [
    ["search", "parry", "--ruleset", "x" + "a" * 200],
    ["search", "parry", "--limit", "9" * 5000],
    ["search", "parry", "--limit", "9" * 200, "--json"],
    ["fight", "--rounds", "7" * 300, "--input", "nothing.json"],
    ["trauma", "--seed", "9" * 5000],  # more digits than int() reads
    ["trauma", "--ruling", "x" * 5000],
    ["exchange", "mastery", "--ruling", "x" * 5000],
    ["fight", "mastery", "--ruling", "x" * 5000],
])
def test_a_long_value_is_echoed_clipped(args, capsys):
    # a refused value is echoed at most ECHO_CHARS characters long, then "…" and its length
    try:
        main(args)
    except SystemExit:  # argparse's usage error exits 2
        pass
    out, err = capsys.readouterr()
    said = out + err
    assert "…" in said and len(said) < 1500, said[:300]


@pytest.mark.parametrize(("text", "value"), [("12", 12), ("+3", 3), ("-4", -4), (" 5 ", 5)])
def test_a_whole_number_option_reads_its_number(text, value):
    from ruleslawyer.limits import whole_arg

    assert whole_arg(text) == value


@pytest.mark.parametrize("text", ["abc", "1.5", "", "9" * 31, "１x"])
def test_a_whole_number_option_refuses_what_is_not_one(text):
    import argparse

    from ruleslawyer.limits import whole_arg

    with pytest.raises(argparse.ArgumentTypeError):
        whole_arg(text)


def test_an_unknown_weapon_is_echoed_clipped():
    from ruleslawyer.rulesdb import open_rules
    from ruleslawyer.rulesets.darkmaster import find_length

    with pytest.raises(RulesInputError) as exc:
        find_length("greatclub" * 500, open_rules())
    assert exc.value.field == "weapon_length"
    assert "… (4502 characters)" in exc.value.message and len(exc.value.message) < 1000
