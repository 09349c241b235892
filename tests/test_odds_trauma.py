"""Trauma table odds: counted by hand from the table, and checked against the engine's roller."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from _odds_mc import N, assert_agrees, monte_carlo, run_trauma
from ruleslawyer.odds.trauma import trauma_odds
from ruleslawyer.rulesets.mastery.trauma import TraumaSheet


def test_rows_and_tiers_hand_counted():
    r = trauma_odds()
    assert len(r.rows) == 48 and sum(row.probability for row in r.rows) == 1
    # Close Call rows: 3-5, 8-10, 13-15, 19-20, 24-25, 29-30, 34-35, 39-40, 44-45, 52-53, 60-61,
    # 67-70, 77-80 = 3+3+3+2+2+2+2+2+2+2+2+4+4 = 33 faces
    assert r.p_close_call == F(33, 100)
    # Grievous: 1, 2, 6, 7, 11, 12, 17-18, 21, 22, 23, 38, 81-82, 83-85, 100 = 18 faces
    assert r.tiers["Grievous"] == F(18, 100)
    # Severe: 16, 27, 28, 31, 32, 41, 42-43, 62-64, 65-66, 74-76 = 16 faces
    assert r.tiers["Severe"] == F(16, 100)
    # Minor: 26, 33, 36-37, 46-47, 48-49, 50, 51, 54-56, 57-59, 71-73 = 19 faces
    assert r.tiers["Minor"] == F(19, 100)
    # no tier: the 33 Close Call faces and Minor Scar 86-99 (14 faces)
    assert r.tiers[""] == F(47, 100)
    # a finger: rows 17-18 (2/100) then 1d10: 1/500 each
    assert r.fingers["left thumb"] == F(1, 500) and len(r.fingers) == 10
    minor_scar = next(row for row in r.rows if row.range == "86–99")
    assert minor_scar.probability == F(14, 100) and minor_scar.unit_id.endswith("trauma-table#58")
    assert r.truncated_mass == 0


def test_a_lost_part_rerolled():
    # left eye already lost and the reroll answer: face 1 rolls again, so each other face is 1/99
    sheet = TraumaSheet(lost=frozenset({"left eye"}))
    r = trauma_odds(sheet=sheet, rulings={"mastery.trauma-lost-part": "reroll"})
    assert abs(r.p_close_call - F(33, 99)) <= r.truncated_mass + F(1, 10**12)
    assert r.rows[0].probability == 0
    assert 0 < r.truncated_mass <= F(1, 10**12)
    # without the reroll, the face still lands on the row, with no further effect
    r2 = trauma_odds(sheet=sheet)
    assert r2.effects["no further effect"] == F(1, 100)


def test_trace_cites_real_ids():
    from ruleslawyer.rulesdb import all_ids

    known = set(all_ids())
    for cid in trauma_odds().trace.cited_ids():
        assert cid in known, cid


@pytest.mark.slow
def test_agrees_with_engine():
    r = trauma_odds()
    exact = {}
    for row in r.rows:
        if row.text.startswith("Lose a finger"):
            for finger, p in r.fingers.items():
                exact[(row.unit_id, row.tier, finger)] = p
        else:
            exact[(row.unit_id, row.tier, "")] = row.probability
    counts = monte_carlo(run_trauma, ({},))
    assert_agrees(exact, counts, N, label="trauma row")
