"""Movement: speed, repeated moves and rugged terrain (``mastery/combat/actions-and-reactions/movement``).

Speed is 3 + Agility tier, minus 1 if Small; each point is one 5-foot square per AP spent moving.
Each move action after the first in a row is increased by half (rounded down); rugged terrain costs
double.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Step, StepKind, TracedResult

from . import ids
from . import rulings as R
from .tiers import check_tier

__all__ = ["MovementPlan", "speed", "plan_movement", "MAX_MOVES", "MAX_SQUARES"]

MAX_MOVES = 100
"""Most move actions in a row :func:`plan_movement` takes (an input bound of the kit, not a rule: 50 rounds
of moving at 2 AP a round)."""

MAX_SQUARES = 100_000
"""Most squares of a path :func:`plan_movement` takes (an input bound of the kit, not a rule: about 95 miles)."""


def speed(agility_tier: int, small: bool = False) -> tuple[int, Step]:
    """``(speed in squares, step)``: 3 + Agility tier, -1 if Small (``.../movement#1``)."""
    check_tier(agility_tier, "agility_tier")
    s = 3 + agility_tier - (1 if small else 0)
    return s, Step.of(StepKind.RULE, "Speed", s, detail=f"3 + Agility tier {agility_tier}" + (" - 1 (Small)" if small else ""),
                      cites=[ids.SPEED])


@dataclass(frozen=True)
class MovementPlan(TracedResult):
    """Movement over ``moves`` move actions in a row.

    Attributes:
        speed: squares per move action; allowances: squares each move action covers (the 2nd and
        later add half the speed, rounded down); squares: their sum; feet: squares x 5.
        normal_squares, rugged_squares: a path to cover (rugged squares cost 2); cost: its cost in
        squares of movement; reachable: cost <= squares; moves_needed: fewest move actions (AP)
        for the path.
    """

    speed: int
    moves: int
    allowances: tuple[int, ...]
    squares: int
    feet: int
    normal_squares: int
    rugged_squares: int
    cost: int
    reachable: bool
    moves_needed: int
    trace: Step


def plan_movement(agility_tier: int, *, small: bool = False, moves: int = 1, normal_squares: int = 0,
                  rugged_squares: int = 0, rulings=None) -> MovementPlan:
    """How far ``moves`` move actions in a row go, and what a path of normal and rugged squares costs.

    Worked: Agility tier 2 -> speed 5; two moves in a row -> 5 + (5 + 5 // 2) = 5 + 7 = 12 squares
    (60 ft); a path of 4 normal and 3 rugged squares costs 4 + 3 x 2 = 10, so 2 moves.

    Raises:
        RulesInputError: bad tier, moves < 1 or > :data:`MAX_MOVES`, squares < 0 or > :data:`MAX_SQUARES`.
    """
    s, sstep = speed(agility_tier, small)
    for name, v, low, high in (("moves", moves, 1, MAX_MOVES), ("normal_squares", normal_squares, 0, MAX_SQUARES),
                               ("rugged_squares", rugged_squares, 0, MAX_SQUARES)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise RulesInputError(name, f"must be a whole number >= {low}, got {v!r}")
        if v > high:
            raise RulesInputError(name, f"must be at most {high} (a bound of the kit, not a rule), got {v!r}")
    use = R.ruling_use(R.REPEATED_MOVE, R.check(rulings))

    def allowance(i: int) -> int:
        if i == 0:
            return s
        if use.answer == "compounding":
            a = s
            for _ in range(i):
                a += a // 2
            return a
        return s + s // 2

    allowances = tuple(allowance(i) for i in range(moves))
    squares = sum(allowances)
    children = [sstep, Step.of(StepKind.RULE, "Each move action costs 1 AP", moves, cites=[ids.MOVE_COST, ids.COST_MOVE])]
    if moves > 1:
        children.append(Step.of(StepKind.RULING, "Moves after the first in a row: increased by half (rounded down)",
                                allowances[1], detail=" + ".join(map(str, allowances)), cites=[ids.MOVE_REPEATED],
                                rulings=[use]))
    cost = normal_squares + 2 * rugged_squares
    need = 0
    covered = 0
    while covered < cost:
        covered += allowance(need)
        need += 1
    if normal_squares or rugged_squares:
        children.append(Step.of(StepKind.RULE, "Path cost (rugged terrain costs double)", cost,
                                detail=f"{normal_squares} + {rugged_squares} x 2", cites=[ids.RUGGED, ids.RUGGED_DOUBLE]))
        children.append(Step.of(StepKind.COMPARE, f"Path needs {need} move action(s)", need, cites=[ids.MOVE_REPEATED],
                                rulings=[use] if need > 1 else []))
    trace = Step.of(StepKind.RESULT, f"{squares} squares ({squares * 5} ft) in {moves} move(s)",
                    detail=" + ".join(map(str, allowances)), cites=[ids.SPEED], children=children)
    return MovementPlan(s, moves, allowances, squares, squares * 5, normal_squares, rugged_squares, cost,
                        cost <= squares, need, trace)
