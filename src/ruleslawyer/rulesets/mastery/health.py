"""Starting health: one tier die per Endurance tier from 1 up to the current tier, plus class health
(``mastery/combat/additional-combat-rules/health-types#2-4``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Step, StepKind, TracedResult

from . import ids
from . import rulings as R
from .tiers import check_tier, roll_tier_die

__all__ = ["StartingHealth", "starting_health"]


@dataclass(frozen=True)
class StartingHealth(TracedResult):
    """Health rolled: the dice (``"1d2 + 1d3 + 1d4"``), each tier's roll, class health and total."""

    endurance_tier: int
    dice: str
    rolls: tuple[int, ...]
    class_health: int
    total: int
    trace: Step


def starting_health(endurance_tier: int, *, class_health: int = 0, dice: Dice | None = None,
                    seed: int | None = None, script: Mapping | None = None,
                    rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> StartingHealth:
    """Roll health for a character at ``endurance_tier`` (slot ``health``): tier 3 -> 1d2 + 1d3 + 1d4.

    Raises:
        RulesInputError: bad tier; class_health < 0.
    """
    rulings = R.check(rulings)
    rules = resolve_rules(rules)
    check_tier(endurance_tier, "endurance_tier")
    if isinstance(class_health, bool) or not isinstance(class_health, int) or class_health < 0:
        raise RulesInputError("class_health", f"must be a whole number >= 0, got {class_health!r}")
    dice = dice or Dice(seed=seed, script=script)
    use = R.ruling_use(R.HEALTH_DICE_EXPLODE, rulings)
    rolls, steps, sides = [], [], []
    for t in range(1, endurance_tier + 1):
        r = roll_tier_die(dice, t, "health", label=f"Endurance tier {t} die", explode=use.answer == "yes",
                          explode_rulings=[use], rulings=rulings, field="endurance_tier", rules=rules)
        rolls.append(r.total)
        sides.append(f"1d{r.sides}")
        steps.append(r.step)
    if class_health:
        steps.append(Step.of(StepKind.MODIFIER, "Class health", f"+{class_health}", cites=[ids.HEALTH_CLASS]))
    total = sum(rolls) + class_health
    expr = " + ".join(sides)
    trace = Step.of(StepKind.RESULT, f"Health {total}", detail=f"{expr} = {' + '.join(map(str, rolls))}",
                    cites=[ids.HEALTH, ids.HEALTH_ENDURANCE], children=steps)
    return StartingHealth(endurance_tier, expr, tuple(rolls), class_health, total, trace)
