"""Tests for ruleslawyer.dice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruleslawyer.dice import (
    DEFAULT_EXPLOSION_CAP,
    Dice,
    DiceExpr,
    DiceTerm,
    DieRoll,
    ExplodingRoll,
    d100_label,
    explosion_cap,
    parse_dice,
)
from ruleslawyer.errors import DiceScriptError, RulesInputError, RulingError
from ruleslawyer.trace import RulingUse

# --------------------------------------------------------------------------- exploding


def test_scripted_explosion_4_4_1_on_a_d4_totals_9():
    dice = Dice(script={"attack": [4, 4, 1]})
    got = dice.exploding(4, "attack")
    assert got == ExplodingRoll(sides=4, faces=(4, 4, 1), total=9, exploded=True, capped=False,
                                cap=DEFAULT_EXPLOSION_CAP)
    assert dice.used("attack") == 3
    assert dice.unused() == {}


def test_no_explosion_below_the_maximum():
    got = Dice(script={"a": [3]}).exploding(6, "a")
    assert (got.faces, got.total, got.exploded, got.capped) == ((3,), 3, False, False)


def test_d2_past_the_cap_reports_capped_and_stops():
    dice = Dice(script={"trial": [2] * 25})
    got = dice.exploding(2, "trial")
    # the first die plus 20 extra dice, every one a 2
    assert got.faces == (2,) * 21
    assert got.total == 42
    assert got.exploded and got.capped and got.cap == 20
    assert dice.used("trial") == 21
    assert dice.unused() == {"trial": (2, 2, 2, 2)}


def test_d1_always_hits_the_cap_and_never_hangs():
    got = Dice(seed=3).exploding(1, "x", cap=5)
    assert got.faces == (1,) * 6 and got.total == 6 and got.capped


def test_cap_reached_on_a_non_maximum_face_is_not_capped():
    got = Dice(script={"a": [6, 6, 3]}).exploding(6, "a", cap=2)
    assert got.faces == (6, 6, 3) and got.total == 15 and not got.capped


def test_small_cap_stops_early():
    dice = Dice(script={"a": [6, 6, 6, 6, 2]})
    got = dice.exploding(6, "a", cap=3)
    assert got.faces == (6, 6, 6, 6) and got.total == 24 and got.capped
    assert dice.unused() == {"a": (2,)}


def test_cap_zero_rolls_one_die():
    got = Dice(script={"a": [6]}).exploding(6, "a", cap=0)
    assert got.faces == (6,) and not got.exploded and got.capped


@pytest.mark.parametrize("cap", [-1, 1.5, True])
def test_bad_cap(cap):
    with pytest.raises(RulesInputError):
        Dice(seed=1).exploding(6, "a", cap=cap)


def test_explosion_cap_ruling():
    assert explosion_cap() == (20, RulingUse("kit.explosion-cap", "20"))
    assert explosion_cap({"kit.explosion-cap": "50"}) == (50, RulingUse("kit.explosion-cap", "50"))
    with pytest.raises(RulingError, match="'20'"):
        explosion_cap({"kit.explosion-cap": "7"})


# --------------------------------------------------------------------------- rng and seeds


def test_seeded_dice_reproduce_the_same_faces():
    a = Dice(seed=12345)
    b = Dice(seed=12345)
    faces_a = [a.roll(20, "x") for _ in range(30)]
    faces_b = [b.roll(20, "x") for _ in range(30)]
    assert faces_a == faces_b
    ref = random.Random(12345)
    assert faces_a == [ref.randint(1, 20) for _ in range(30)]
    assert a.seed == 12345


def test_unseeded_dice_record_a_seed_that_reproduces_them():
    a = Dice()
    assert isinstance(a.seed, int) and 0 <= a.seed < 2**32
    faces = [a.roll(100, "x") for _ in range(20)]
    again = Dice(seed=a.seed)
    assert [again.roll(100, "x") for _ in range(20)] == faces


def test_rng_is_used_and_seed_unknown():
    dice = Dice(rng=random.Random(7))
    ref = random.Random(7)
    assert [dice.roll(6, "x") for _ in range(10)] == [ref.randint(1, 6) for _ in range(10)]
    assert dice.seed is None


def test_global_random_is_never_touched():
    random.seed(99)
    state = random.getstate()
    Dice().roll(6, "x")
    Dice(seed=1).exploding(2, "y")
    Dice(script={"z": [1]}).roll_expr("1d4+1d6", "w")
    assert random.getstate() == state


def test_rng_and_seed_together_is_an_error():
    with pytest.raises(RulesInputError, match="not both"):
        Dice(rng=random.Random(1), seed=1)
    with pytest.raises(RulesInputError):
        Dice(seed="12")  # type: ignore[arg-type]
    with pytest.raises(RulesInputError):
        Dice(rng=12)  # type: ignore[arg-type]


def test_unscripted_slots_roll_from_the_rng_beside_scripted_ones():
    dice = Dice(seed=5, script={"attack": [3]})
    ref = random.Random(5)
    assert dice.roll(6, "damage") == ref.randint(1, 6)
    assert dice.roll(6, "attack") == 3
    assert dice.roll(6, "damage") == ref.randint(1, 6)
    assert dice.is_scripted("attack") and not dice.is_scripted("damage")
    assert [r.scripted for r in dice.history] == [False, True, False]
    assert dice.history[1] == DieRoll("attack", 6, 3, True)


# --------------------------------------------------------------------------- scripts


def test_script_exhaustion_names_the_slot_and_its_size():
    dice = Dice(script={"attack": [3]})
    assert dice.roll(6, "attack") == 3
    with pytest.raises(DiceScriptError) as exc:
        dice.roll(6, "attack")
    assert exc.value.field == "dice.attack"
    msg = str(exc.value)
    assert "'attack'" in msg and "1 face" in msg and "d6" in msg
    assert isinstance(exc.value, RulesInputError) and isinstance(exc.value, ValueError)


def test_empty_script_slot_runs_out_at_once():
    with pytest.raises(DiceScriptError, match="had 0 faces"):
        Dice(script={"a": []}).roll(4, "a")


def test_exploding_past_the_script_raises():
    with pytest.raises(DiceScriptError, match="ran out"):
        Dice(script={"attack": [4, 4]}).exploding(4, "attack")


@pytest.mark.parametrize("face", [0, 7, -1])
def test_impossible_face_names_slot_face_and_die(face):
    dice = Dice(script={"dmg": [face]})
    with pytest.raises(DiceScriptError) as exc:
        dice.roll(6, "dmg")
    msg = str(exc.value)
    assert exc.value.field == "dice.dmg"
    assert "'dmg'" in msg and str(face) in msg and "d6" in msg
    assert dice.used("dmg") == 0


@pytest.mark.parametrize("faces", [["4"], [1.0], [True], "44", None])
def test_script_faces_must_be_integers(faces):
    with pytest.raises(DiceScriptError) as exc:
        Dice(script={"a": faces})
    assert exc.value.field == "dice.a"


def test_used_and_unused_report_consumption():
    dice = Dice(script={"a": [1, 2, 3], "b": [5]})
    assert dice.used("a") == 0 and dice.used("nope") == 0
    dice.roll(6, "a")
    assert dice.used("a") == 1
    assert dice.unused() == {"a": (2, 3), "b": (5,)}
    dice.roll(6, "b")
    assert dice.unused() == {"a": (2, 3)}


@pytest.mark.parametrize("sides", [0, -4, True, 2.5])
def test_sides_below_one_is_rules_input_error(sides):
    with pytest.raises(RulesInputError) as exc:
        Dice(seed=1).roll(sides, "x")
    assert exc.value.field == "dice"


def test_d100_and_its_label():
    dice = Dice(script={"skill": [100, 7, 42]})
    assert [dice.d100("skill") for _ in range(3)] == [100, 7, 42]
    assert [d100_label(f) for f in (100, 7, 42, 1)] == ["00", "07", "42", "01"]
    with pytest.raises(RulesInputError):
        d100_label(0)
    rolls = Dice(seed=2)
    assert all(1 <= rolls.d100("x") <= 100 for _ in range(500))


# --------------------------------------------------------------------------- expressions


def test_roll_expr_scripted_values():
    assert Dice(script={"dmg": [3, 5]}).roll_expr("1d8+1d6", "dmg") == (8, (3, 5))
    assert Dice(script={"dmg": [7]}).roll_expr("1d10+2", "dmg") == (9, (7,))
    assert Dice(script={"dm": [3]}).roll_expr("-1d4", "dm") == (-3, (3,))
    assert Dice().roll_expr("+0", "dm") == (0, ())
    assert Dice(script={"x": [6, 6]}).roll_expr(parse_dice("2d6"), "x") == (12, (6, 6))


def test_roll_expr_2d10_plus_1d2():
    assert Dice(script={"dm": [10, 4, 2]}).roll_expr("2d10+1d2", "dm") == (16, (10, 4, 2))


def test_roll_expr_checks_each_die_against_its_own_size():
    with pytest.raises(DiceScriptError, match="d6"):
        Dice(script={"dmg": [8, 7]}).roll_expr("1d8+1d6", "dmg")


def test_roll_expr_stays_in_range():
    dice = Dice(seed=11)
    expr = parse_dice("1d8+1d6-2")
    for _ in range(300):
        total, faces = dice.roll_expr(expr, "x")
        assert expr.min <= total <= expr.max
        assert total == faces[0] + faces[1] - 2


@pytest.mark.parametrize(
    ("text", "lo", "hi", "faces", "count"),
    [
        ("d100", 1, 100, 100, 1),
        ("1d20", 1, 20, 20, 1),
        ("2d6", 2, 12, None, 2),
        ("1d8+1d6", 2, 14, None, 2),
        ("1d10+2", 3, 12, None, 1),
        ("-1d4", -4, -1, None, 1),
        ("+0", 0, 0, None, 0),
        ("+1d4", 1, 4, 4, 1),
        ("1d6-1", 0, 5, None, 1),
        ("\u22121d8", -8, -1, None, 1),  # typographic minus, as printed in tables
        (" 2D10 + 1d2 ", 3, 22, None, 3),
        ("d%", 1, 100, 100, 1),
        ("3", 3, 3, None, 0),
    ],
)
def test_parse_dice_ranges(text, lo, hi, faces, count):
    expr = parse_dice(text)
    assert (expr.min, expr.max, expr.faces_count, expr.dice_count) == (lo, hi, faces, count)
    assert expr.outcomes() == range(lo, hi + 1)


def test_parse_dice_structure():
    assert parse_dice("1d8+1d6") == DiceExpr("1d8+1d6", (DiceTerm(1, 1, 8), DiceTerm(1, 1, 6)), 0)
    assert parse_dice("-1d4") == DiceExpr("-1d4", (DiceTerm(-1, 1, 4),), 0)
    assert parse_dice("1d10+2").modifier == 2
    assert parse_dice("+0").is_constant and parse_dice("+0").dice == ()
    assert str(parse_dice(" 1d8 + 1d6 ")) == "1d8+1d6"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "d", "1d", "0d6", "1d0", "2d6+", "1d6 2", "x", "1d6++1", "--1d4", "1.5d6",
     "d-6", "2d6*2", "1001d6", "1d10001", "+"],
)
def test_parse_dice_rejects_bad_expressions(text):
    with pytest.raises(RulesInputError) as exc:
        parse_dice(text)
    assert exc.value.field == "dice"


def test_parse_dice_rejects_non_strings():
    with pytest.raises(RulesInputError):
        parse_dice(6)  # type: ignore[arg-type]
    with pytest.raises(RulesInputError):
        Dice(seed=1).roll_expr("2x6", "a")


# --------------------------------------------------------------------------- properties

terms = st.tuples(st.sampled_from("+-"), st.integers(1, 4), st.sampled_from([1, 2, 3, 4, 6, 8, 10, 12, 20, 100]))


@given(st.lists(terms, min_size=1, max_size=3), st.integers(-5, 5), st.integers(0, 2**32 - 1))
def test_any_simple_expression_parses_and_rolls_within_its_range(parts, constant, seed):
    text = "".join(f"{sign}{count}d{sides}" for sign, count, sides in parts) + f"{constant:+d}"
    expr = parse_dice(text)
    assert expr.dice_count == sum(count for _, count, _ in parts)
    total, faces = Dice(seed=seed).roll_expr(expr, "x")
    assert expr.min <= total <= expr.max
    assert len(faces) == expr.dice_count


@given(st.integers(1, 12), st.integers(0, 30), st.integers(0, 2**32 - 1))
def test_exploding_shape_holds_for_any_seed(sides, cap, seed):
    got = Dice(seed=seed).exploding(sides, "x", cap=cap)
    assert got.total == sum(got.faces)
    assert 1 <= len(got.faces) <= cap + 1
    assert all(f == sides for f in got.faces[:-1])
    assert got.capped == (got.faces[-1] == sides and len(got.faces) == cap + 1)
