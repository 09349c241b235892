"""Trauma odds equal, fraction for fraction, the engine's roller over every scripted d100 and d10 face.

The odds module enumerates ``roll_trauma`` itself (through ``enumerate_engine``); this oracle is a
plain loop over ``Dice(script=...)`` faces, so it checks that enumeration as well as the table
reading. It replaces the seeded Monte Carlo run in the default test run (that run stays in
tests/test_odds_trauma.py, marked slow).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.odds.core import Dist
from ruleslawyer.odds.trauma import trauma_odds
from ruleslawyer.rulesdb.handle import resolve_rules
from ruleslawyer.rulesets.mastery import ids
from ruleslawyer.rulesets.mastery.tiers import load_table
from ruleslawyer.rulesets.mastery.trauma import TraumaSheet, roll_trauma


@pytest.fixture(scope="module")
def rules():
    """The test database's handle (the root conftest.py points the default at it), passed to the
    engine and to the odds alike."""
    return resolve_rules(None)



def _every_face(sheet, rules) -> Dist:
    """(row id, tier, finger lost, effect) over every d100 face (1/100 each) and, on the finger
    rows, every d10 face (1/1000 each), rolled by the engine from scripted dice."""
    table = load_table(ids.TRAUMA_TABLE, rules)
    acc: dict = {}
    for face in range(1, 101):
        for finger in range(1, 11):
            d = Dice(script={"trauma": [face], "finger": [finger]})
            t = roll_trauma(dice=d, sheet=sheet, rulings={}, table=table, rules=rules)
            assert all(r.scripted for r in d.history) and d.used("trauma") == 1
            key = (t.unit_id, t.tier, t.finger_lost or "", t.effect)
            if d.used("finger") == 0:  # this face rolls no finger: one outcome, 1/100
                acc[key] = acc.get(key, 0) + F(1, 100)
                break
            acc[key] = acc.get(key, 0) + F(1, 1000)
    return Dist(acc)


@pytest.mark.parametrize("sheet", [None, TraumaSheet(lost=frozenset({"left eye", "left thumb"}))],
                         ids=["no-sheet", "eye-and-thumb-lost"])
def test_trauma_odds_equal_every_scripted_face(sheet, rules):
    r = trauma_odds(sheet=sheet, rules=rules)
    engine = _every_face(sheet, rules)
    assert r.truncated_mass == 0 and engine.total == 1
    assert [(row.unit_id, row.probability) for row in r.rows if row.probability] \
        == engine.map(lambda o: o[0]).items()
    assert r.tiers.items() == engine.map(lambda o: o[1]).items()
    fingers = engine.map(lambda o: o[2])
    assert r.fingers.items() == [(k, p) for k, p in fingers.items() if k]
    if sheet is not None:
        assert r.effects.items() == engine.map(lambda o: o[3]).items()
    # hand-counted: 33 Close Call faces (see test_odds_trauma) with no tier; "Lose a finger" is
    # 17-18 (2/100), then 1d10: each finger 1/500
    assert r.p_close_call == F(33, 100)
    assert fingers["left thumb"] == F(1, 500)
