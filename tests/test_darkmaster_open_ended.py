"""Open-ended d100 (supplement table open-ended-d100)."""

from __future__ import annotations

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.errors import DiceScriptError
from ruleslawyer.rulesets.darkmaster.open_ended import roll_open_ended


@pytest.mark.parametrize("faces, total, end", [
    ([50], 50, None),
    ([96, 40], 136, "high"),             # 96 + 40
    ([97, 98, 12], 207, "high"),         # 97 + 98 (96+: again) + 12
    ([100, 5], 105, "high"),
    ([3, 45], -42, "low"),               # 3 − 45
    ([3, 97, 20], -114, "low"),          # 3 − 97 − 20 (repeat-on-96)
    ([95], 95, None), ([6], 6, None),
])
def test_open_ended(faces, total, end):
    r = roll_open_ended(Dice(script={"cmb": faces}))
    assert (r.faces, r.total, r.end) == (tuple(faces), total, end)
    assert r.trace.cited_ids()[0].startswith("darkmaster/supplement/")


def test_low_end_once_ruling():
    r = roll_open_ended(Dice(script={"cmb": [3, 97]}), rulings={"darkmaster.low-open-end": "once"})
    assert r.total == -94 and "darkmaster.low-open-end" in r.trace.ruling_ids()


def test_cap_is_reported():
    r = roll_open_ended(Dice(script={"cmb": [100] * 7}), rulings={"kit.explosion-cap": "5"})
    assert r.capped and len(r.faces) == 6 and r.total == 600


def test_script_runs_out():
    with pytest.raises(DiceScriptError):
        roll_open_ended(Dice(script={"cmb": [98]}))


def test_a_low_end_roll_of_96_or_more_cites_the_ruling_not_the_high_end_row():
    # 03, 97, 20: the 97 is subtracted; rolling again on it is the ruling's (repeat-on-96), not the high
    # end's row "96-00 ... repeat the extra roll"; under "once" nothing is rolled again and nothing says so
    from ruleslawyer.rulesets.darkmaster import _tables

    high_row = _tables.table("open_ended").rows[-1].unit_id  # 96–00
    r = roll_open_ended(Dice(script={"cmb": [3, 97, 20]}))
    first, extra, _ = r.trace.children
    assert high_row not in extra.cites and [u.ruling_id for u in extra.rulings] == ["darkmaster.low-open-end"]
    assert extra.cites[0].rule_id == first.cites[0].rule_id  # the low row
    once = roll_open_ended(Dice(script={"cmb": [3, 97]}), rulings={"darkmaster.low-open-end": "once"})
    assert high_row not in once.trace.cited_ids() and once.trace.children[1].rulings == ()
    # the high end does roll again on its own row
    assert high_row in roll_open_ended(Dice(script={"cmb": [97, 98, 12]})).trace.children[1].cited_ids()
