"""Inputs of the Mastery exchange: who attacks with what, who defends with what.

All are frozen dataclasses; :meth:`Combatant.from_dict` / :meth:`Attack.from_dict` read the JSON
input format strictly through its declarations (:mod:`.schema`, ``ruleslawyer exchange mastery
--schema``) and raise RulesInputError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import check_attrs, rename

from .damage import DamageType, parse_type
from .schema import ATTACK, COMBATANT
from .trauma import TraumaSheet

__all__ = ["AttackKind", "Wielding", "State", "Attack", "MagicPortion", "Combatant", "RANGED_KINDS",
           "PROJECTILE_KINDS", "WEAPON_ATTACK_KINDS"]


class AttackKind(StrEnum):
    """How the attack is made (``mastery/combat/actions-and-reactions/attack#2``, ``#7-9``)."""

    MELEE = "melee"
    THROWN = "thrown"
    BOW = "bow"
    CROSSBOW = "crossbow"
    SLING = "sling"
    UNARMED = "unarmed"
    NATURAL = "natural"


RANGED_KINDS = frozenset({AttackKind.THROWN, AttackKind.BOW, AttackKind.CROSSBOW, AttackKind.SLING})
PROJECTILE_KINDS = frozenset({AttackKind.BOW, AttackKind.CROSSBOW, AttackKind.SLING})
WEAPON_ATTACK_KINDS = frozenset(set(AttackKind) - {AttackKind.UNARMED, AttackKind.NATURAL})


class Wielding(StrEnum):
    """What a defender holds (``mastery/combat/actions-and-reactions/defense#4-6``)."""

    MELEE = "melee"
    """A melee weapon (with or without a shield)."""
    SHIELD = "shield"
    """Only a shield (a shield counts as a weapon; not unarmed)."""
    UNARMED = "unarmed"
    """Nothing at all."""
    PROJECTILE = "projectile"
    """Only a projectile weapon or sling."""


class State(StrEnum):
    """Standing, at 0 health and fighting on, unconscious, or dead."""

    STANDING = "standing"
    FIGHTING_ON = "fighting-on"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"


def _enum(cls, value, name: str):
    try:
        return cls(str(value).lower())
    except ValueError:
        raise RulesInputError(name, f"unknown value {value!r}; allowed: {', '.join(m.value for m in cls)}") from None


@dataclass(frozen=True)
class MagicPortion:
    """A magic portion added to a hit (Imbue, an enchantment): a fixed amount of its own type."""

    amount: int
    type: DamageType

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount < 0:
            raise RulesInputError("magic.amount", f"must be a whole number >= 0, got {self.amount!r}")
        object.__setattr__(self, "type", parse_type(self.type, "magic.type"))


@dataclass(frozen=True)
class Attack:
    """An attack profile.

    Attributes:
        kind: melee, thrown, bow, crossbow, sling, unarmed or natural.
        tier: the formula's tier: STR or PHY (melee/thrown/unarmed/natural), PHY (bow), PER (crossbow).
        weapon: WEA as a whole number or dice (``"1d4"``); a crossbow's fixed weapon dice. Dice explode.
        modifiers: other modifiers to the attack roll.
        damage_type: the weapon's damage type (default cutting).
        magic: extra magic portions of the hit.
        spanned: for a crossbow, whether it is already spanned.
    """

    kind: AttackKind = AttackKind.MELEE
    tier: int = 1
    weapon: int | str = 0
    modifiers: int = 0
    damage_type: DamageType = DamageType.CUTTING
    magic: tuple[MagicPortion, ...] = ()
    spanned: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _enum(AttackKind, self.kind, "attack.kind"))
        check_attrs(self, ATTACK, "attack", ("tier", "modifiers", "spanned"))
        object.__setattr__(self, "damage_type", parse_type(self.damage_type, "attack.damage_type"))
        if isinstance(self.weapon, str):
            from ruleslawyer.dice import parse_dice

            try:
                expr = parse_dice(self.weapon)
            except RulesInputError as e:  # the expression's own error names "dice": name the field
                raise RulesInputError("attack.weapon", e.message) from None
            if any(t.sign < 0 for t in expr.dice) or expr.modifier < 0:
                raise RulesInputError("attack.weapon", f"weapon dice must be positive, got {self.weapon!r}")
        elif isinstance(self.weapon, bool) or not isinstance(self.weapon, int) or self.weapon < 0:
            raise RulesInputError("attack.weapon", f"WEA must be a whole number >= 0 or dice like '1d4', got {self.weapon!r}")
        if not isinstance(self.magic, (tuple, list)) or not all(isinstance(m, MagicPortion) for m in self.magic):
            raise RulesInputError("attack.magic", f"must be a list of magic portions {{amount, type}}, got {self.magic!r}")
        object.__setattr__(self, "magic", tuple(self.magic))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], prefix: str = "attack.") -> Attack:
        """Build from JSON, read strictly by :data:`.schema.ATTACK`; errors are named under ``prefix``
        (``attacker.attack.tier``).

        Raises:
            RulesInputError: an unknown field (with a did-you-mean), a wrong type or a value past its bound.
        """
        return cls.from_checked(ATTACK.read(data, prefix.rstrip(".")), prefix)

    @classmethod
    def from_checked(cls, a: Mapping[str, Any], prefix: str = "attack.") -> Attack:
        """Build from data :data:`.schema.ATTACK` has already read."""
        magic = tuple(MagicPortion(m["amount"], m["type"]) for m in a.get("magic", ()))
        try:
            return cls(**{**a, "magic": magic})
        except RulesInputError as e:
            raise rename(e, prefix.rstrip("."), "attack") from None


@dataclass(frozen=True)
class Combatant:
    """One side of an exchange.

    Attributes:
        name: label for the trace.
        ap: Action Points left this round (2 at the start of a round; 0..2).
        health, durability, armour_resistance: current values (>= 0).
        endurance_tier: for the dying timer and Endurance trials (1..10).
        defense_tier: tier die for defense (the wielded melee weapon's, or STR/PHY).
        shield: the shield's bonus to defense, or None when no shield is held.
        defense_modifiers: other modifiers to defense rolls.
        wielding: melee, shield, unarmed or projectile.
        perception_tier: Perception tier (Aiming Trial).
        casting: in the middle of casting a spell.
        state: standing, fighting-on, unconscious or dead (a 0-health combatant is fighting-on or unconscious).
        dying_rounds: rounds left on the dying timer (None when not dying).
        stabilized: Triage stopped the dying timer.
        sheet: trauma sheet.
        attack: the attack used for a counterattack (needed only then).
    """

    name: str = "combatant"
    ap: int = 2
    health: int = 10
    durability: int = 0
    armour_resistance: int = 0
    endurance_tier: int = 1
    defense_tier: int = 1
    shield: int | None = None
    defense_modifiers: int = 0
    wielding: Wielding = Wielding.MELEE
    perception_tier: int = 1
    casting: bool = False
    state: State = State.STANDING
    dying_rounds: int | None = None
    stabilized: bool = False
    sheet: TraumaSheet = field(default_factory=TraumaSheet)
    attack: Attack | None = None

    def __post_init__(self) -> None:
        p = f"{self.name}."
        check_attrs(self, COMBATANT, str(self.name), ("ap", "health", "durability", "armour_resistance", "endurance_tier",
                                                      "defense_tier", "perception_tier", "shield", "defense_modifiers",
                                                      "casting", "stabilized", "dying_rounds"))
        if not isinstance(self.sheet, TraumaSheet):
            raise RulesInputError(p + "sheet", f"must be a trauma sheet, got {self.sheet!r}")
        if self.attack is not None and not isinstance(self.attack, Attack):
            raise RulesInputError(p + "attack", f"must be an attack profile {{kind, tier, weapon, ...}}, got {self.attack!r}")
        object.__setattr__(self, "wielding", _enum(Wielding, self.wielding, p + "wielding"))
        object.__setattr__(self, "state", _enum(State, self.state, p + "state"))
        if self.health == 0 and self.state is State.STANDING:
            raise RulesInputError(p + "state", "a combatant at 0 health is fighting-on, unconscious or dead")
        if self.health > 0 and self.state is not State.STANDING:
            raise RulesInputError(p + "state", f"{self.state.value} needs 0 health, got health {self.health}")
        self._check_hands(p)

    def _check_hands(self, p: str) -> None:
        """``wielding`` and ``shield`` must describe the same hands (``.../defense#4-6``): a shield
        holder is not unarmed (``#5``) nor holding only a projectile weapon; a shield-only holder
        has a shield."""
        if self.shield is not None and self.wielding in (Wielding.UNARMED, Wielding.PROJECTILE):
            what = "holding nothing" if self.wielding is Wielding.UNARMED else "holding only a projectile weapon or sling"
            raise RulesInputError(p + "wielding", f"{self.wielding.value} means {what}, but a shield is given (shield "
                                                  f"{self.shield}); allowed: wielding 'shield' (only a shield) or "
                                                  "'melee' (a melee weapon, with or without a shield), or shield null")
        if self.wielding is Wielding.SHIELD and self.shield is None:
            raise RulesInputError(p + "shield", "wielding 'shield' means holding a shield: give its bonus to defense "
                                                "(a whole number >= 0)")

    def check_round_ap(self, field: str) -> None:
        """Raise if ``ap`` is more than the trauma sheet allows per round (input check)."""
        if self.ap > self.sheet.ap_per_round:
            raise RulesInputError(f"{field}.ap", f"at most {self.sheet.ap_per_round} AP per round with this trauma "
                                                 f"sheet, got {self.ap}")

    @property
    def has_shield(self) -> bool:
        return self.shield is not None or self.wielding is Wielding.SHIELD

    def with_(self, **changes) -> Combatant:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        from ruleslawyer.trace import to_jsonable

        d = {f.name: to_jsonable(getattr(self, f.name)) for f in fields(self)}
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str) -> Combatant:
        """Build from JSON, read strictly by :data:`.schema.COMBATANT`; ``name`` is its input field
        (``"attacker"``) and its default name.

        Raises:
            RulesInputError: naming ``<name>.<field>``: an unknown field (with a did-you-mean), a wrong
                type (``"false"`` for a boolean), a value past its bound, or hands and state that disagree.
        """
        return cls.from_checked(COMBATANT.read(data, name), name)

    @classmethod
    def from_checked(cls, data: Mapping[str, Any], name: str) -> Combatant:
        """Build from data :data:`.schema.COMBATANT` has already read (``name``: its input field)."""
        kw = dict(data)
        kw["name"] = kw.get("name", name)
        if "sheet" in kw:
            kw["sheet"] = TraumaSheet.from_checked(kw["sheet"])
        if kw.get("attack") is not None:
            kw["attack"] = Attack.from_checked(kw["attack"], f"{name}.attack.")
        try:
            return cls(**kw)
        except RulesInputError as e:
            raise RulesInputError(e.field.replace(f"{kw['name']}.", f"{name}.", 1), e.message) from None


