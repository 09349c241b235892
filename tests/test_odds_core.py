"""The odds core: exact distributions, exploding dice to a cap with the mass cut off reported."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.odds.core import DEFAULT_TOLERANCE, Dist, dice_expr, die, enumerate_engine, exploding


def test_exploding_d4_hand_worked():
    d, info = exploding(4, 20)
    # 5 = 4 then 1: 1/4 * 1/4 = 1/16; a 4 always rolls again, so a total of 4 is impossible
    assert d[5] == F(1, 16)
    assert d[4] == 0 and d[8] == 0
    assert d[1] == d[2] == d[3] == F(1, 4)
    # 9 = 4, 4, 1: (1/4)**3
    assert d[9] == F(1, 64)
    # chains of 20 maxima (4**-20 ~ 9.1e-13 <= 1e-12) are cut off, and the cut is reported exactly
    assert info.truncated_mass == F(1, 4**20) == d.truncated_mass
    assert d.truncated_mass <= DEFAULT_TOLERANCE


def test_exploding_d2_follows_the_engine_cap_exactly():
    # a d2 reaches the kit's cap of 20 extra dice with 2**-21 ~ 4.8e-7: the cap, not the tolerance, stops it
    d, info = exploding(2, 20)
    assert d.truncated_mass == 0
    assert info.capped_mass == F(1, 2**21)
    # the capped chain keeps its total: 21 twos
    assert d[42] == F(1, 2**21)
    # cap 2: faces (2, 2, 2) stop at 6 with 1/8; (2, 2, 1) = 5 with 1/8; (2, 1) = 3 with 1/4; 1 with 1/2
    d2, _ = exploding(2, 2)
    assert d2.items() == [(1, F(1, 2)), (3, F(1, 4)), (5, F(1, 8)), (6, F(1, 8))]


def test_exploding_d1_always_reaches_the_cap():
    d, info = exploding(1, 3)
    assert d.items() == [(4, F(1))] and info.capped_mass == 1


def test_exploding_matches_the_dice_module_on_every_short_script():
    # every face sequence of an exploding d3 with cap 2, rolled by ruleslawyer.dice itself
    dist = enumerate_engine(lambda dice: dice.exploding(3, "x", cap=2).total, tolerance=F(0))
    exact, _ = exploding(3, 2)
    assert dist.items() == exact.items()


def test_best_of_two_hand_worked():
    d = die(3)
    # max of two d3: P(1) = 1/9, P(2) = 3/9, P(3) = 5/9
    assert d.best_of_two("higher").items() == [(1, F(1, 9)), (2, F(3, 9)), (3, F(5, 9))]
    assert d.best_of_two("lower").items() == [(1, F(5, 9)), (2, F(3, 9)), (3, F(1, 9))]


def test_p_ge_ties_count():
    # P(d2 >= d2) = P(equal) + P(greater) = 1/2 + 1/4 = 3/4
    assert die(2).p_ge(die(2)) == F(3, 4)


def test_sums_merge_and_scaling():
    two_d6 = die(6) + die(6)
    assert two_d6[7] == F(6, 36) and two_d6.total == 1
    e = dice_expr(parse_dice("1d8+1d6+1"))
    assert e[2 + 1] == F(1, 48) and e.mean() == F(9, 2) + F(7, 2) + 1
    half = die(2).scaled(F(1, 2))
    assert half.truncated_mass == F(1, 2)
    both = Dist.merge(half, Dist({"x": F(1, 2)}))
    assert both.total == 1 and both["x"] == F(1, 2) and both[1] == F(1, 4)


def test_conditional_and_map():
    d = die(6).map(lambda x: x % 2)
    assert d.items() == [(0, F(1, 2)), (1, F(1, 2))]
    assert die(6).conditional(lambda x: x > 4).items() == [(5, F(1, 2)), (6, F(1, 2))]


def test_enumerate_engine_reports_pruned_mass():
    # an unbounded loop on a d2 (roll until 1): pruned paths leave their mass out, reported exactly
    def run(dice: Dice):
        n = 1
        while dice.roll(2, "x") == 2:
            n += 1
        return n

    dist = enumerate_engine(run, tolerance=F(1, 10**6))
    assert dist[1] == F(1, 2) and dist[2] == F(1, 4)
    assert 0 < dist.truncated_mass <= F(1, 10**6)
    assert dist.truncated_mass == 1 - dist.total


def test_to_dict_is_json_ready():
    d = exploding(4, 1)[0].to_dict()
    assert d["outcomes"]["5"] == 1 / 16 and d["truncated_mass"] == 0.0


def test_bad_input_names_the_field():
    with pytest.raises(RulesInputError) as e:
        exploding(0, 3)
    assert e.value.field == "dice"
    with pytest.raises(RulesInputError):
        exploding(4, -1)


def test_odds_modules_import_light():
    import subprocess
    import sys

    code = ("import sys; import ruleslawyer.odds, ruleslawyer.odds.mastery, ruleslawyer.odds.mythras, "
            "ruleslawyer.odds.trauma, ruleslawyer.odds.plots, ruleslawyer.commands.odds; "
            "print(sorted(m for m in ('sqlite3', 'pandas', 'ipywidgets', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
