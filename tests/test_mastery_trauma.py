"""Trauma table (from the db), finger sub-roll, trauma sheet and settings (Mastery)."""

import pytest

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mastery import TraumaSheet, finger_name, roll_trauma, trauma_follows

ROW = "mastery/combat/wounds-injuries-and-trauma/trauma-table#"


def test_rows_as_stored():
    t = roll_trauma(roll=1)
    assert t.text.startswith("Lose your left eye.") and t.tier == "Grievous" and t.recovery == "None"
    assert t.unit_id == ROW + "12" and t.range == "1"
    t = roll_trauma(roll=4)
    assert t.close_call and t.range == "3–5"
    t = roll_trauma(roll=100)
    assert t.text.startswith("Broken Back") and t.tier == "Grievous"
    t = roll_trauma(roll=65)
    assert t.text.startswith("Festering Wound") and t.recovery == "Tend daily (Healer, T3), 10 successes"
    assert ROW + "6" in t.trace.cited_ids()  # "Roll 1d100 for each Trauma"


@pytest.mark.parametrize("face,name", [(1, "left little finger"), (5, "left thumb"), (6, "right thumb"),
                                       (10, "right little finger")])
def test_finger_counted_from_left_little(face, name):
    assert finger_name(face) == name
    t = roll_trauma(roll=17, finger=face)
    assert t.finger == face and t.finger_lost == name


def test_finger_order_alternative():
    assert finger_name(6, {"mastery.finger-order": "little-to-little"}) == "right little finger"
    assert finger_name(10, {"mastery.finger-order": "little-to-little"}) == "right thumb"


def test_sheet_accumulates_conditions():
    s = TraumaSheet()
    for face in (1, 2):  # left eye, right eye -> Blinded
        s = roll_trauma(roll=face, sheet=s).sheet
    assert s.conditions == ("Blinded",)
    for face in (21, 22):  # ears -> Deafened
        s = roll_trauma(roll=face, sheet=s).sheet
    assert "Deafened" in s.conditions
    s = roll_trauma(roll=16, sheet=s).sheet
    assert "Suffocating" not in s.conditions and s.punctured_lungs == 1
    s = roll_trauma(roll=16, sheet=s).sheet
    assert "Suffocating" in s.conditions
    assert len(s.traumas) == 6


def test_all_fingers_of_a_hand_is_a_lost_hand():
    s = TraumaSheet()
    for f in (1, 2, 3, 4):
        s = roll_trauma(roll=17, finger=f, sheet=s).sheet
    assert "left hand" not in s.lost
    t = roll_trauma(roll=18, finger=5, sheet=s)
    assert "left hand" in t.sheet.lost and "lost hand" in t.effect


def test_lost_part_ruling():
    s = roll_trauma(roll=6, sheet=TraumaSheet()).sheet  # lose left hand
    t = roll_trauma(roll=17, finger=3, sheet=s)  # left middle finger: already gone with the hand
    assert t.effect == "no further effect" and t.sheet == s
    assert "mastery.trauma-lost-part" in t.trace.ruling_ids()
    # reroll: the next d100 from the trauma slot is 23 (lose your nose)
    t = roll_trauma(roll=6, sheet=s, dice=Dice(script={"trauma": [23]}),
                    rulings={"mastery.trauma-lost-part": "reroll"})
    assert t.rolls == (6, 23) and "nose" in t.sheet.lost


def test_00_reads_as_100():
    # percentile dice show "00" for 100 (ruleslawyer.dice.read_face): row 100, Broken Back
    for face in (0, "00", 100):
        t = roll_trauma(roll=face)
        assert (t.roll, t.range) == (100, "100") and t.text.startswith("Broken Back")


def test_scripted_and_seeded_rolls():
    t = roll_trauma(dice=Dice(script={"trauma": [18], "finger": [7]}))
    assert (t.roll, t.finger_lost) == (18, "right index finger")
    assert roll_trauma(seed=7).roll == roll_trauma(seed=7).roll


@pytest.mark.parametrize("kw,field", [({"roll": -1}, "roll"), ({"roll": 101}, "roll"), ({"roll": 17, "finger": 11}, "finger")])
def test_bad_rolls(kw, field):
    with pytest.raises(RulesInputError) as e:
        roll_trauma(**kw)
    assert e.value.field == field


@pytest.mark.parametrize("event,expected", [
    # (realistic, brutal, deadly)
    ("fighting-on-health-damage", ("trauma", "trauma", "trauma")),
    ("reached-zero", ("none", "trauma", "trauma")),
    ("natural-minimum-resist", ("none", "trauma", "trauma")),
    ("exploded-hit-health-damage", ("none", "none", "endurance-trial-or-trauma")),
])
def test_settings(event, expected):
    got = tuple(trauma_follows(event, s).outcome for s in ("realistic", "brutal", "deadly"))
    assert got == expected
    assert trauma_follows("exploded-hit-health-damage", "deadly").endurance_dc == 4  # Straightforward, 4


def test_setting_errors():
    with pytest.raises(RulesInputError) as e:
        trauma_follows("reached-zero", "gentle")
    assert e.value.field == "setting"
    with pytest.raises(RulesInputError) as e:
        trauma_follows("stubbed-toe")
    assert e.value.field == "event"


def test_one_ap_per_round_traumas():
    # 41 Cracked Sternum and 16 Punctured Lung: "You have 1 AP per round."
    s = roll_trauma(roll=41, sheet=TraumaSheet()).sheet
    assert s.ap_per_round == 1
    assert roll_trauma(roll=16, sheet=TraumaSheet()).sheet.ap_per_round == 1
    assert roll_trauma(roll=42, sheet=TraumaSheet()).sheet.ap_per_round == 2  # Skull Fracture: no
    assert TraumaSheet.from_dict(s.to_dict()) == s
