"""AP planner (the chapter's own examples), movement and starting health (Mastery)."""

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesets.mastery import plan_actions, plan_movement, starting_health

IA = "mastery/combat/actions-and-reactions/interaction#"


def test_vial_of_alum_is_1_ap():
    # quick item: free to retrieve, 1 AP to use
    p = plan_actions([{"retrieve": "quick", "items": ["vial of alum"], "use": 1}])
    assert (p.ap, p.rounds) == (1, 1) and IA + "2" in p.trace.cited_ids()


def test_torch_from_pack_is_8_ap_four_rounds():
    # one container retrieval for torch and tinderbox (2) + light with tinderbox (6) = 8 AP; 8 / 2 = 4 rounds
    p = plan_actions([{"retrieve": "container", "items": ["torch", "tinderbox"]},
                      {"table": "Torch / Lamp, Light (tinderbox)"}])
    assert (p.ap, p.rounds) == (8, 4)
    assert "mastery/combat/actions-and-reactions/other-actions#17" in p.trace.cited_ids()
    # the GM may adjust the tinderbox by 2 AP
    assert plan_actions([{"table": "Torch / Lamp, Light (tinderbox)", "adjust": -2}]).ap == 4


def test_weapon_switching_examples():
    assert plan_actions([{"stow": "backsword"}, {"draw": "rungu"}]).ap == 2
    assert plan_actions([{"swap": ["backsword", "rungu"]}]).ap == 2
    assert plan_actions([{"drop": "backsword"}, {"draw": "rungu"}]).ap == 1


def test_other_actions_shields_casting_triage():
    assert plan_actions([{"table": "Item, Drop"}]).ap == 0
    assert plan_actions([{"table": "prone, stand from"}]).ap == 1
    assert plan_actions([{"remove_shield": "kite"}]).ap == 1
    assert plan_actions([{"remove_shield": "targe"}]).ap == 0
    # a 2-AP spell with components in a container: 2 + 2 = 4 AP, 2 rounds
    p = plan_actions([{"cast": "Ward", "ap": 2, "components": "container"}])
    assert (p.ap, p.rounds) == (4, 2)
    p = plan_actions([{"move": 1}, {"attack": 1}, {"triage": True}])
    assert (p.ap, p.rounds) == (4, 2)


@pytest.mark.parametrize("actions,field", [
    ([{"table": "Juggle"}], "actions[0].table"),
    ([{"retrieve": "sleeve"}], "actions[0].retrieve"),
    ([{"remove_shield": "buckler"}], "actions[0].remove_shield"),
    ([{"stow": "a", "draw": "b"}], "actions[0]"),
    ([], "actions"),
])
def test_planner_errors(actions, field):
    with pytest.raises(RulesInputError) as e:
        plan_actions(actions)
    assert e.value.field == field


def test_movement():
    # speed 3 + Agility tier 2 = 5; Small: 4
    assert plan_movement(2).squares == 5 and plan_movement(2, small=True).speed == 4
    # two moves in a row: 5 + (5 + 5 // 2 = 7) = 12 squares, 60 ft
    m = plan_movement(2, moves=2)
    assert m.allowances == (5, 7) and (m.squares, m.feet) == (12, 60)
    # Agility 3: speed 6, second move 6 + 3 = 9
    assert plan_movement(3, moves=2).allowances == (6, 9)
    # 4 normal + 3 rugged squares cost 4 + 6 = 10 > 5: 2 moves needed
    m = plan_movement(2, normal_squares=4, rugged_squares=3)
    assert (m.cost, m.reachable, m.moves_needed) == (10, False, 2)
    assert "mastery/combat/actions-and-reactions/movement/terrain#2" in m.trace.cited_ids()
    with pytest.raises(RulesInputError) as e:
        plan_movement(0)
    assert e.value.field == "agility_tier"


def test_starting_health():
    # Endurance tier 3: 1d2 + 1d3 + 1d4 -> 2 + 1 + 4 = 7, + class 3 = 10
    h = starting_health(3, class_health=3, script={"health": [2, 1, 4]})
    assert h.dice == "1d2 + 1d3 + 1d4" and h.rolls == (2, 1, 4) and h.total == 10
    assert starting_health(1, script={"health": [2]}).total == 2  # no explosion by default
    assert starting_health(1, script={"health": [2, 1]}, rulings={"mastery.health-dice-explode": "yes"}).total == 3
    with pytest.raises(RulesInputError):
        starting_health(0)


def test_one_ap_per_round_doubles_the_rounds():
    # the torch: 8 AP at 1 AP per round (Punctured Lung) = 8 rounds
    p = plan_actions([{"retrieve": "container", "items": ["torch", "tinderbox"]},
                      {"table": "Torch / Lamp, Light (tinderbox)"}], ap_per_round=1)
    assert (p.ap, p.rounds) == (8, 8)
    with pytest.raises(RulesInputError) as e:
        plan_actions([{"move": 1}], ap_per_round=3)
    assert e.value.field == "ap_per_round"


def test_repeated_move_ruling():
    # speed 5: default 5, 7, 7; compounding 5, 7 (5 + 2), 10 (7 + 3)
    assert plan_movement(2, moves=3).allowances == (5, 7, 7)
    m = plan_movement(2, moves=3, rulings={"mastery.repeated-move": "compounding"})
    assert m.allowances == (5, 7, 10) and m.squares == 22
