"""The Mythras Special Effects catalogue: who may take each one, and when.

The catalogue is the supplement table ``special-effects`` (Name | Side | Needs | Weapons | Rule) in
the rules database; which Effects are stackable is read from the chapter's own sentence
(``mythras/combat/special-effects#1``: "Maximise Damage (Critical; stackable)"). This module decides
eligibility; :mod:`.exchange` applies the chosen Effects that change numbers.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesDataError

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, resolve_ruling

from . import _tables, ids, rulings
from .levels import LevelOfSuccess

__all__ = [
    "WeaponTrait", "Side", "CHOOSE_LOCATION", "MAXIMISE_DAMAGE", "BYPASS_ARMOR", "IMPALE", "ENHANCE_PARRY",
    "ARISE", "CIRCUMVENT_PARRY", "WITHDRAW", "NUMERIC_EFFECTS", "EffectContext", "Eligibility", "effect_names", "stackable_effects",
    "weapons_allow", "eligible_effects", "choose_effects", "effects_count",
]

CHOOSE_LOCATION = "Choose Location"
MAXIMISE_DAMAGE = "Maximise Damage"
BYPASS_ARMOR = "Bypass Armor"
IMPALE = "Impale"
ENHANCE_PARRY = "Enhance Parry"
ARISE = "Arise"
CIRCUMVENT_PARRY = "Circumvent Parry"
WITHDRAW = "Withdraw"

def effects_count(n: int) -> str:
    """``"1 Special Effect"``, ``"2 Special Effects"``: a number of Special Effects in words of the trace."""
    return f"{n} Special Effect{'' if n == 1 else 's'}"


NUMERIC_EFFECTS: dict[str, str | None] = {
    CHOOSE_LOCATION: None,  # the chapter itself: the attacker picks the location instead of rolling
    MAXIMISE_DAMAGE: rulings.MAXIMISE_DAMAGE.id,
    BYPASS_ARMOR: rulings.BYPASS_ARMOR.id,
    IMPALE: rulings.IMPALE.id,
    ENHANCE_PARRY: rulings.ENHANCE_PARRY.id,
    CIRCUMVENT_PARRY: rulings.CIRCUMVENT_PARRY.id,
    ARISE: None,  # the chapter itself: Arise keeps an evader on their feet
}
"""Effects the engine applies to the exchange's numbers -> the ruling giving their mechanics."""


class WeaponTrait(StrEnum):
    """What a weapon is, as the ``Weapons`` column of ``special-effects`` names it."""

    CUTTING = "cutting"
    IMPALING = "impaling"
    BLUDGEONING = "bludgeoning"
    SHIELD = "shield"
    TWO_HANDED = "two-handed"
    UNARMED = "unarmed"
    FIREARM = "firearm"


class Side(StrEnum):
    """The two sides of an exchange."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


_WORD_TRAIT = {
    "cutting": WeaponTrait.CUTTING, "impaling": WeaponTrait.IMPALING, "bludgeoning": WeaponTrait.BLUDGEONING,
    "bludgeon": WeaponTrait.BLUDGEONING, "shields": WeaponTrait.SHIELD, "shield": WeaponTrait.SHIELD,
    "two-handed": WeaponTrait.TWO_HANDED, "unarmed": WeaponTrait.UNARMED, "firearms": WeaponTrait.FIREARM,
    "firearm": WeaponTrait.FIREARM,
}
_FILLER = {"weapons", "weapon", "attacks", "attack"}


def weapons_allow(text: str, traits: Iterable[WeaponTrait]) -> bool:
    """Does a weapon with ``traits`` meet a ``Weapons`` cell?

    ``"any"`` -> always; ``"two-handed cutting weapons"`` -> needs both traits;
    ``"shields and bludgeoning weapons"`` -> either one (the cell lists two kinds of weapon).

    Raises:
        LookupError: the cell names a kind of weapon the engine does not know.
    """
    text = text.strip().lower()
    if text in ("any", "", "—", "-"):
        return True
    have = set(traits)
    for alternative in re.split(r"\s+(?:and|or)\s+|,\s*", text):
        words = [w for w in alternative.split() if w not in _FILLER]
        unknown = [w for w in words if w not in _WORD_TRAIT]
        if unknown:
            raise RulesDataError(f"special-effects: cannot read the weapon kind {unknown[0]!r} in {text!r}")
        if words and all(_WORD_TRAIT[w] in have for w in words):
            return True
    return False


def effect_names(rules: Rules | None = None) -> tuple[str, ...]:
    """Every Special Effect in the catalogue of ``rules`` (default database), in table order."""
    return tuple(_tables.effects(resolve_rules(rules)))


def stackable_effects(rules: Rules | None = None) -> frozenset[str]:
    """Effects the chapter marks stackable (read from ``mythras/combat/special-effects#1`` in ``rules``)."""
    rules = resolve_rules(rules)

    def build():
        text = rules.rule(ids.EFFECTS).text
        return frozenset(m.group(1).strip() for m in re.finditer(r"([A-Z][A-Za-z ]+?) \(([^)]*)\)", text)
                         if "stackable" in m.group(2).lower())
    return _tables._memo("stackable", build, rules)


@dataclass(frozen=True)
class EffectContext:
    """What eligibility depends on.

    Attributes:
        attacker_level, defender_level: the two levels of success (the defender's Failure when not
            defending).
        attacker_traits, defender_traits: the traits of the attacking and the defending weapon.
        ranged: the attack is a ranged one.
        close_and_still: at Close range against a stationary or unaware target.
    """

    attacker_level: LevelOfSuccess
    defender_level: LevelOfSuccess
    attacker_traits: frozenset[WeaponTrait] = frozenset()
    defender_traits: frozenset[WeaponTrait] = frozenset()
    ranged: bool = False
    close_and_still: bool = False


@dataclass(frozen=True)
class Eligibility:
    """Whether ``side`` may take one Effect, why, and the catalogue row."""

    name: str
    eligible: bool
    reason: str
    unit_id: str
    ruling: RulingUse | None = None


def _own_fumble(needs: str) -> bool:
    return "own" in needs.lower() and "fumble" in needs.lower()


def _check(row: _tables.EffectRow, side: Side, ctx: EffectContext, overrides) -> Eligibility:
    needs = row.needs.strip()
    own_fumble = _own_fumble(needs)
    mine = ctx.attacker_level if side is Side.ATTACKER else ctx.defender_level
    theirs = ctx.defender_level if side is Side.ATTACKER else ctx.attacker_level
    # who may take it
    if own_fumble:
        sides = {Side.DEFENDER}  # the attacker fumbled, so only the defender can be superior
    elif row.side in ("offensive", "firearms"):
        sides = {Side.ATTACKER}
    elif row.side == "defensive":
        sides = {Side.DEFENDER}
    elif row.side == "either":
        sides = {Side.ATTACKER, Side.DEFENDER}
    else:
        raise RulesDataError(f"{row.row.unit_id}: unknown Side {row.side!r}")
    if side not in sides:
        return Eligibility(row.name, False, f"{row.side} Effect, not for the {side.value}", row.row.unit_id)
    # what the dice must show
    low = needs.lower()
    use = None
    if low in ("", "—", "-"):
        pass
    elif low == "critical":
        if mine is not LevelOfSuccess.CRITICAL:
            return Eligibility(row.name, False, f"needs a Critical, the {side.value} rolled {mine.value}",
                               row.row.unit_id)
    elif own_fumble:
        if ctx.attacker_level is not LevelOfSuccess.FUMBLE:
            return Eligibility(row.name, False, "needs the attacker's own Fumble", row.row.unit_id)
    elif "opponent" in low and "fumble" in low:
        if theirs is not LevelOfSuccess.FUMBLE:
            return Eligibility(row.name, False, "needs the opponent's Fumble", row.row.unit_id)
    else:
        raise RulesDataError(f"{row.row.unit_id}: cannot read the Needs cell {needs!r}")
    # which weapon
    if row.side == "defensive" and not own_fumble:
        weapon, whose = ctx.defender_traits, "defender's"
    elif row.side == "either":
        weapon, whose = (ctx.attacker_traits if side is Side.ATTACKER else ctx.defender_traits), "own"
    else:
        weapon, whose = ctx.attacker_traits, "attacker's"
    if not weapons_allow(row.weapons, weapon):
        return Eligibility(row.name, False, f"needs {row.weapons}; the {whose} weapon is not", row.row.unit_id)
    # Choose Location at range
    if row.name == CHOOSE_LOCATION and ctx.ranged:
        use = resolve_ruling(rulings.RANGED_CHOOSE_LOCATION.id, overrides)
        if (use.answer != "as-melee" and not ctx.close_and_still and mine is not LevelOfSuccess.CRITICAL):
            return Eligibility(row.name, False, "at range it needs a Critical unless the target is at Close "
                                                "range and still or unaware", row.row.unit_id, use)
    return Eligibility(row.name, True, "eligible", row.row.unit_id, use)


def eligible_effects(side: Side | str, ctx: EffectContext, overrides: Mapping[str, str] | None = None, *,
                     rules: Rules | None = None) -> list[Eligibility]:
    """Check every catalogue Effect (``special-effects`` in ``rules``) for ``side``; eligible and
    ineligible ones, in table order."""
    side = Side(side)
    return [_check(row, side, ctx, overrides) for row in _tables.effects(resolve_rules(rules)).values()]


def choose_effects(preferences: Sequence[str], count: int, checked: Sequence[Eligibility], field: str, *,
                   rules: Rules | None = None) -> tuple[list[str], Step]:
    """Take up to ``count`` Effects from ``preferences`` in order, skipping ineligible ones.

    Only stackable Effects (Maximise Damage, Bypass Armor) may be taken more than once.

    Args:
        preferences: Effect names in the order the player wants them (may repeat stackable ones).
        count: how many the side won (0..3, plus a surprise bonus).
        checked: the result of :func:`eligible_effects`.
        field: input name for errors (e.g. ``"attacker.effects"``).
        rules: the rules database whose chapter marks the stackable Effects (default database).

    Returns:
        The chosen names and a RULE step (cites the chapter and each chosen row).

    Raises:
        RulesInputError: a preference is not in the catalogue (naming ``field`` and the names).
    """
    by_name = {e.name.lower(): e for e in checked}
    stack = {s.lower() for s in stackable_effects(rules)}
    chosen: list[str] = []
    skipped: list[str] = []
    cites: list[Citation | str] = [ids.EX_CHOOSE_EFFECTS, ids.EFFECTS]
    uses: list[RulingUse] = []
    for i, pref in enumerate(preferences):
        if not isinstance(pref, str) or pref.strip().lower() not in by_name:
            raise RulesInputError(f"{field}[{i}]", f"unknown Special Effect {pref!r}; allowed: "
                                                   f"{', '.join(e.name for e in checked)}")
        e = by_name[pref.strip().lower()]
        if len(chosen) >= count:
            skipped.append(f"{e.name} (no Effects left)")
            continue
        if not e.eligible:
            skipped.append(f"{e.name} ({e.reason})")
            if e.ruling:
                uses.append(e.ruling)
            continue
        if e.name in chosen and e.name.lower() not in stack:
            skipped.append(f"{e.name} (not stackable)")
            continue
        chosen.append(e.name)
        cites.append(Citation(e.unit_id, e.name))
        if e.ruling:
            uses.append(e.ruling)
    detail = (f"{count} to spend; chose {', '.join(chosen) or 'none'}"
              + (f"; skipped {', '.join(skipped)}" if skipped else ""))
    return chosen, Step.of(StepKind.RULE, "Special Effects chosen", value=list(chosen), detail=detail,
                           cites=cites, rulings=list(dict.fromkeys(uses)))
