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

from ruleslawyer.errors import RulesDataError, RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Step, StepKind

from . import _tables, ids
from . import rulings as R

__all__ = ["DamageType", "DamagePortion", "DamageOutcome", "classify", "hit_amount", "apply_damage"]


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
    ``rules`` (default database).

    Raises:
        RulesInputError: unknown damage type (field ``damage_type``).
        RulesDataError: the type has no row of the table, or its row cannot be read.
    """
    t = parse_type(damage_type, "damage_type")
    found = _tables.damage_types(resolve_rules(rules)).get(t.value)
    if found is None:
        raise RulesDataError(f"{ids.DAMAGE_TYPES_TABLE} has no row for the damage type {t.value!r}")
    return found.mundane, found.energy, found.row.unit_id


@dataclass(frozen=True)
class DamagePortion:
    """One portion of a hit: an amount and its type (``.../damage-types#5``)."""

    amount: int
    type: DamageType
    through_resistance: bool = True
    """False when armour resistance was already counted (the margin over a defense roll)."""


def hit_amount(attack_total: int, defense_total: int | None, failed_defense: str = "as-passive") -> tuple[int, bool]:
    """The main portion of a hit that lands: ``(amount, through_resistance)``.

    Passive defense (``defense_total`` None): the attack roll (``mastery.hit-damage``), which then
    meets armour resistance (``.../defense#16``); an attack total below 0 deals 0
    (``mastery.negative-attack-total``). After a failed active defense, per
    ``mastery.failed-defense-damage`` (``failed_defense``): ``"as-passive"`` the same, or
    ``"attack-minus-defense"`` the margin (at least 1), which already counted armour resistance in
    the defense roll.
    """
    if defense_total is not None and failed_defense == "attack-minus-defense":
        return attack_total - defense_total, False
    return max(attack_total, 0), True


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


@dataclass
class _Armour:
    """What is left of the armour while a hit's portions meet it, in order."""

    resistance: int
    resistance_left: int
    durability: int
    absorbed: int = 0
    to_durability: int = 0


def _against_resistance(p: DamagePortion, amount: int, armour: _Armour, i: int, portion_use, rulings) -> tuple[int, Step]:
    """A portion against armour resistance (``.../defense#16``, ``#15``); ``mastery.portion-resistance``
    when a hit has several portions, ``mastery.resistance-depleted`` once durability is 0."""
    res = armour.resistance if (portion_use is None or portion_use.answer == "each-portion") else armour.resistance_left
    res_rulings = [portion_use] if portion_use is not None and i > 0 else []
    if armour.durability - armour.to_durability <= 0 and armour.resistance > 0:
        d_use = R.ruling_use(R.RESISTANCE_DEPLETED, rulings)
        res_rulings.append(d_use)
        if d_use.answer == "none":
            res = 0
    took = min(amount, res)
    armour.resistance_left -= took
    armour.absorbed += took
    return amount - took, Step.of(StepKind.COMPARE, "Against armour resistance", took,
                                  detail=f"{p.amount} damage vs resistance {res}: {took} absorbed, {amount - took} exceeds",
                                  cites=[ids.PASSIVE_DEFENSE, ids.ARMOR_RESISTANCE], rulings=res_rulings)


def _portion(p: DamagePortion, i: int, armour: _Armour, portion_use, rulings, rules: Rules) -> tuple[int, list[Step]]:
    """One portion: its type, armour resistance, durability first, then health. Returns the health
    damage and the steps."""
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
        use_resistance = use_resistance and e_use.answer != "straight-to-health"
        wears_durability = e_use.answer == "as-material"
    if use_resistance:
        amount, step = _against_resistance(p, amount, armour, i, portion_use, rulings)
        sub.append(step)
    else:
        sub.append(Step.of(StepKind.INFO, "Armour resistance already counted" if p.through_resistance is False
                           else "Armour resistance does not apply", amount,
                           cites=[ids.FORMULA_DEFENSE if p.through_resistance is False else ids.DURABILITY]))
    if wears_durability and amount > 0:
        left = max(armour.durability - armour.to_durability, 0)
        d = min(amount, left)
        armour.to_durability += d
        amount -= d
        sub.append(Step.of(StepKind.MODIFIER, "To durability first", d, detail=f"durability {left} -> {left - d}",
                           cites=[ids.PASSIVE_DEFENSE, ids.DURABILITY]))
    elif amount > 0:
        sub.append(Step.of(StepKind.RULE, "Energy damage does not wear durability", 0, cites=[ids.DURABILITY]))
    if amount > 0:
        sub.append(Step.of(StepKind.MODIFIER, "To health", amount, cites=[ids.PASSIVE_DEFENSE, ids.HEALTH, ids.WOUND]))
    return amount, sub


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
    rules = resolve_rules(rules)
    armour = _Armour(armour_resistance, armour_resistance, durability)
    portion_use = R.ruling_use(R.PORTION_RESISTANCE, rulings) if len(portions) > 1 else None
    children: list[Step] = []
    to_health = 0
    for i, p in enumerate(portions):
        amount, sub = _portion(p, i, armour, portion_use, rulings, rules)
        to_health += amount
        children.append(Step.of(StepKind.RESULT, f"Health damage from {p.amount} {p.type.value}", amount, children=sub,
                                cites=[ids.DAMAGE_PORTIONS] if len(portions) > 1 else []))
    health_lost = min(to_health, health)
    floor = [R.ruling_use(R.HEALTH_FLOOR, rulings)] if to_health > health else []
    new_health = health - health_lost
    step = Step.of(StepKind.RESULT, label, to_health,
                   detail=f"absorbed {armour.absorbed}, durability -{armour.to_durability}, health -{health_lost} "
                          f"(health {health} -> {new_health})",
                   cites=[ids.PASSIVE_DEFENSE], rulings=floor, children=children)
    return DamageOutcome(armour.absorbed, armour.to_durability, to_health, health_lost,
                         durability - armour.to_durability, new_health, step)
