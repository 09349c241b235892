"""Damage types and applying damage: armour resistance, then durability, then health.

Rules: ``mastery/combat/actions-and-reactions/defense#16`` (passive defense),
``mastery/combat/additional-combat-rules/damage-types#1-5`` and ``.../health-types#1`` (durability
wears only from mundane or material magic damage). Type classes come from the supplement's
damage-types table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Step, StepKind

from . import ids
from . import rulings as R
from .tiers import load_table

__all__ = ["DamageType", "DamagePortion", "DamageOutcome", "classify", "apply_damage"]


class DamageType(StrEnum):
    """The chapter's damage types (``.../damage-types#1`` mundane, ``#2`` magical)."""

    CUTTING = "cutting"
    CLEAVING = "cleaving"
    CRUSHING = "crushing"
    PIERCING = "piercing"
    PUNCTURING = "puncturing"
    FIRE = "fire"
    SEA = "sea"
    SKY = "sky"
    STONE = "stone"
    PRIMAL = "primal"
    PROFANE = "profane"
    SACRED = "sacred"
    VOID = "void"


def parse_type(value: object, field: str) -> DamageType:
    try:
        return DamageType(str(value).lower())
    except ValueError:
        raise RulesInputError(field, f"unknown damage type {value!r}; allowed: "
                                     f"{', '.join(t.value for t in DamageType)}") from None


def classify(damage_type: DamageType | str, rules: Rules | None = None) -> tuple[bool, bool, str]:
    """``(mundane, energy, row_id)`` for a damage type, from the supplement's damage-types table of
    ``rules`` (default database)."""
    t = parse_type(damage_type, "damage_type")
    for row in load_table(ids.DAMAGE_TYPES_TABLE, rules).rows:
        if row.cells[0].lower() == t.value:
            return row.cells[1] == "Mundane", row.cells[2] == "Energy", row.unit_id
    raise RulesInputError("damage_type", f"{t.value} is missing from {ids.DAMAGE_TYPES_TABLE}")  # pragma: no cover


@dataclass(frozen=True)
class DamagePortion:
    """One portion of a hit: an amount and its type (``.../damage-types#5``)."""

    amount: int
    type: DamageType
    through_resistance: bool = True
    """False when armour resistance was already counted (the margin over a defense roll)."""


@dataclass(frozen=True)
class DamageOutcome:
    """Where the damage went.

    Attributes:
        absorbed: taken by armour resistance; to_durability: durability lost; to_health: health
        damage dealt (including any beyond 0; see ``health_lost``); health_lost: health actually
        lost; durability, health: values after; step: the cited trace.
    """

    absorbed: int
    to_durability: int
    to_health: int
    health_lost: int
    durability: int
    health: int
    step: Step


def apply_damage(portions: Sequence[DamagePortion], *, armour_resistance: int, durability: int, health: int,
                 rulings: Mapping[str, str] | None = None, label: str = "Damage",
                 rules: Rules | None = None) -> DamageOutcome:
    """Apply a hit's portions: each meets armour resistance, the excess wears durability first, then
    health once durability is depleted (``.../defense#16``).

    Energy damage does not wear durability (``.../health-types#1``); how it meets resistance is
    ``mastery.energy-vs-armour``. Several portions share resistance per ``mastery.portion-resistance``;
    resistance on depleted armour per ``mastery.resistance-depleted``; health stops at 0
    (``mastery.health-floor``).
    """
    children: list[Step] = []
    res_left = armour_resistance
    absorbed = to_dur = to_health = 0
    portion_use = R.ruling_use(R.PORTION_RESISTANCE, rulings) if len(portions) > 1 else None
    for i, p in enumerate(portions):
        mundane, energy, row_id = classify(p.type, rules)
        sub: list[Step] = [Step.of(StepKind.RULE, f"{p.type.value.capitalize()}: "
                                   f"{'mundane' if mundane else 'magical'}, {'energy' if energy else 'material'}",
                                   cites=[row_id, ids.DAMAGE_ENERGY if energy else ids.DAMAGE_MATERIAL])]
        amount = p.amount
        wears_durability = not energy
        use_resistance = p.through_resistance
        if energy:
            e_use = R.ruling_use(R.ENERGY_VS_ARMOUR, rulings)
            sub.append(Step.of(StepKind.RULING, "Energy damage against armour", e_use.answer,
                               cites=[ids.DURABILITY], rulings=[e_use]))
            if e_use.answer == "straight-to-health":
                use_resistance = False
            elif e_use.answer == "as-material":
                wears_durability = True
        if use_resistance:
            res = armour_resistance if (portion_use is None or portion_use.answer == "each-portion") else res_left
            res_rulings = [portion_use] if portion_use is not None and i > 0 else []
            if durability - to_dur <= 0 and armour_resistance > 0:
                d_use = R.ruling_use(R.RESISTANCE_DEPLETED, rulings)
                res_rulings.append(d_use)
                if d_use.answer == "none":
                    res = 0
            took = min(amount, res)
            res_left -= took
            absorbed += took
            amount -= took
            sub.append(Step.of(StepKind.COMPARE, "Against armour resistance", took,
                               detail=f"{p.amount} damage vs resistance {res}: {took} absorbed, {amount} exceeds",
                               cites=[ids.PASSIVE_DEFENSE, ids.ARMOR_RESISTANCE], rulings=res_rulings))
        else:
            sub.append(Step.of(StepKind.INFO, "Armour resistance already counted" if p.through_resistance is False
                               else "Armour resistance does not apply", amount,
                               cites=[ids.FORMULA_DEFENSE if p.through_resistance is False else ids.DURABILITY]))
        if wears_durability and amount > 0:
            left = max(durability - to_dur, 0)
            d = min(amount, left)
            to_dur += d
            amount -= d
            sub.append(Step.of(StepKind.MODIFIER, "To durability first", d,
                               detail=f"durability {left} -> {left - d}",
                               cites=[ids.PASSIVE_DEFENSE, ids.DURABILITY]))
        elif amount > 0:
            sub.append(Step.of(StepKind.RULE, "Energy damage does not wear durability", 0, cites=[ids.DURABILITY]))
        if amount > 0:
            to_health += amount
            sub.append(Step.of(StepKind.MODIFIER, "To health", amount,
                               cites=[ids.PASSIVE_DEFENSE, ids.HEALTH, ids.WOUND]))
        children.append(Step.of(StepKind.RESULT, f"{p.amount} {p.type.value}", amount, children=sub,
                                cites=[ids.DAMAGE_PORTIONS] if len(portions) > 1 else []))
    health_lost = min(to_health, health)
    floor = []
    if to_health > health:
        floor = [R.ruling_use(R.HEALTH_FLOOR, rulings)]
    new_health = health - health_lost
    step = Step.of(StepKind.RESULT, label, to_health,
                   detail=f"absorbed {absorbed}, durability -{to_dur}, health -{health_lost} "
                          f"(health {health} -> {new_health})",
                   cites=[ids.PASSIVE_DEFENSE], rulings=floor, children=children)
    return DamageOutcome(absorbed, to_dur, to_health, health_lost, durability - to_dur, new_health, step)
