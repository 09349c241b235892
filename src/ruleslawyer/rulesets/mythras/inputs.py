"""The Mythras exchange's input: who attacks whom, with what, and the choices each side makes.

Inputs are frozen dataclasses, parsed once and strictly from JSON-shaped data by
:meth:`ExchangeInput.from_dict` (unknown fields, misspelt names and strings where booleans or
numbers belong are refused naming the field); ``ruleslawyer exchange mythras --schema`` documents
the same shape (:mod:`.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import check_attrs, rename

from .levels import DifficultyGrade, _enum
from .schema import ATTACKER, DEFENDER, EXCHANGE, WEAPON
from .special_effects import WeaponTrait

__all__ = ["RangedKind", "RangeBand", "FireMode", "Defence", "Weapon", "Ward", "Attacker", "Defender", "ExchangeInput"]


class RangedKind(StrEnum):
    """What kind of ranged weapon (None for a melee weapon)."""

    BOW = "bow"
    THROWN = "thrown"
    FIREARM = "firearm"


class RangeBand(StrEnum):
    """The chapter's three ranges (``mythras/combat/ranged-combat#1``)."""

    CLOSE = "Close"
    EFFECTIVE = "Effective"
    LONG = "Long"


class FireMode(StrEnum):
    """How a firearm fires (``mythras/combat/firearms-change-the-economy#1``)."""

    SINGLE = "single"
    BURST = "burst"
    FULL_AUTO = "full-auto"


class Defence(StrEnum):
    """The defender's reaction."""

    PARRY = "parry"
    EVADE = "evade"
    NONE = "none"


def _names(obj: Any, keys: tuple[str, ...], who: str) -> None:
    """Check that each of ``keys`` of a frozen dataclass is a list of names; store it as a tuple."""
    for key in keys:
        value = getattr(obj, key)
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise RulesInputError(f"{who}.{key}", f"must be a list of names, got {value!r}")
        object.__setattr__(obj, key, tuple(value))


def _pairs(value: Any, field: str, allow_int: bool = False) -> tuple[tuple[str, int], ...] | int:
    if allow_int and isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise RulesInputError(field, f"Armor Points must be 0 or more, got {value}")
        return value
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        allowed = "a whole number or " if allow_int else ""
        raise RulesInputError(field, f"must be {allowed}an object of location: Armor Points, got {value!r}")
    out = []
    for item in items:
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise RulesInputError(field, f"expected location: Armor Points pairs, got {item!r}")
        loc, ap = item
        if isinstance(ap, bool) or not isinstance(ap, int) or ap < 0:
            raise RulesInputError(f"{field}.{loc}", f"Armor Points must be a whole number from 0, got {ap!r}")
        out.append((str(loc), ap))
    return tuple(out)


@dataclass(frozen=True)
class Weapon:
    """A weapon or shield.

    Attributes:
        name: e.g. ``"Broadsword"``.
        damage: damage dice, e.g. ``"1d8"``.
        size: its Size (melee and parrying) or Force (ranged): Small … Enormous.
        traits: cutting, impaling, bludgeoning, shield, two-handed, unarmed, firearm.
        ranged: bow, thrown or firearm for a ranged weapon, else None.
        damage_modifier_applies: for a ranged weapon, whether the Damage Modifier applies
            (None: ruling ``mythras.ranged-damage-modifier``).
    """

    name: str = "weapon"
    damage: str = "1d6"
    size: str = "Medium"
    traits: frozenset[WeaponTrait] = frozenset()
    ranged: RangedKind | None = None
    damage_modifier_applies: bool | None = None

    def __post_init__(self) -> None:
        if isinstance(self.traits, str) or not isinstance(self.traits, (list, tuple, set, frozenset)):
            raise RulesInputError("weapon.traits", f"traits must be a list, got {self.traits!r}")
        traits = frozenset(_enum(WeaponTrait, t, "weapon.traits") for t in self.traits)
        ranged = None if self.ranged is None else _enum(RangedKind, self.ranged, "weapon.ranged")
        if ranged is RangedKind.FIREARM:
            traits |= {WeaponTrait.FIREARM}
        object.__setattr__(self, "traits", traits)
        object.__setattr__(self, "ranged", ranged)


@dataclass(frozen=True)
class Ward:
    """Ward Location (a passive block): the locations a shield covers and the shield's Size."""

    locations: tuple[str, ...]
    size: str = "Medium"


@dataclass(frozen=True)
class Attacker:
    """The attacking side.

    Attributes:
        name: who attacks.
        skill: Combat Style %, 0..999.
        weapon: the attacking weapon.
        difficulty: the situational grade before the conditions below.
        outside_style: the weapon is outside the attacker's Combat Styles.
        outside_style_grades: how many grades harder (None: ruling ``mythras.outside-style-grades``).
        str_siz: STR+SIZ for the Damage Modifier.
        damage_modifier: a Damage Modifier given directly (e.g. the mount's for a rider), one of the
            table's values; wins over ``str_siz``.
        charge: a Charge (Hard, Size +1 step, Damage Modifier +1 step).
        quadruped: the charger is a quadruped (Damage Modifier +2 steps).
        range: Close, Effective or Long for a ranged attack.
        aimed: aimed for a full Round: cancels one situational or range penalty grade, once (a
            Standard shot stays Standard; the crowd or melee penalty: ruling ``mythras.aim-eases``).
        into_melee: Hard or Formidable when firing into a crowd or melee.
        adjacent: who stands next to the target (for a stray shot).
        target_still_or_unaware: the target is stationary or unaware (Choose Location at range).
        effects: Special Effects wanted, in order of preference.
        chosen_location: the location named with Choose Location.
        surprised: the attacker was ambushed this Round and takes no offensive actions in it
            (``mythras/combat/surprise#1``): the attack is not made.
        fire_mode: a firearm's single shot, burst (Hard) or full-auto (Formidable) spray; None: single.
        rounds: the rounds of a burst or spray fired at this target (its share of a full-auto arc).
        set_against_charge: a spear set against a charge (only in a counter to a Charge,
            :func:`~ruleslawyer.rulesets.mythras.charge.resolve_charge`): it may take the charger's
            Damage Modifier.
    """

    name: str = "Attacker"
    skill: int = 50
    weapon: Weapon = field(default_factory=Weapon)
    difficulty: DifficultyGrade = DifficultyGrade.STANDARD
    outside_style: bool = False
    outside_style_grades: int | None = None
    str_siz: int | None = None
    damage_modifier: str | None = None
    charge: bool = False
    quadruped: bool = False
    range: RangeBand | None = None
    aimed: bool = False
    into_melee: DifficultyGrade | None = None
    adjacent: tuple[str, ...] = ()
    target_still_or_unaware: bool = False
    effects: tuple[str, ...] = ()
    chosen_location: str | None = None
    surprised: bool = False
    set_against_charge: bool = False
    fire_mode: FireMode | None = None
    rounds: int | None = None

    def __post_init__(self) -> None:
        check_attrs(self, ATTACKER, "attacker", ("outside_style", "charge", "quadruped", "aimed", "surprised",
                                                 "target_still_or_unaware", "set_against_charge",
                                                 "outside_style_grades", "str_siz", "rounds"))
        if not isinstance(self.weapon, Weapon):
            raise RulesInputError("attacker.weapon", f"must be a weapon {{name, damage, size, ...}}, got {self.weapon!r}")
        _names(self, ("adjacent", "effects"), "attacker")
        if self.fire_mode is not None:
            object.__setattr__(self, "fire_mode", _enum(FireMode, self.fire_mode, "attacker.fire_mode"))


@dataclass(frozen=True)
class Defender:
    """The defending side.

    Attributes:
        name: who defends.
        skill: the Combat Style % (Parry) or Evade %, 0..999.
        defence: parry, evade or none.
        weapon: the parrying weapon or shield (needed to Parry).
        difficulty: the situational grade of the defence roll.
        outside_style, outside_style_grades: as for the attacker.
        action_points: AP left this Round (a Parry or Evade spends 1).
        surprised: ambushed: flat-footed until their Initiative arrives (cannot defend), and the first
            successful attack against them gains a bonus Special Effect (``mythras/combat/surprise#1``).
        surprise_bonus_spent: an earlier successful attack this Round already took that bonus.
        armour: worn Armor Points by location (``{"Chest": 4}``).
        natural_armour: natural Armor Points, everywhere (an int) or by location.
        ward: a Ward Location (passive block), or None.
        traits: Combat Style traits, e.g. ``"Daredevil"`` (keeps an evader on their feet).
        effects: Special Effects wanted, in order of preference.
    """

    name: str = "Defender"
    skill: int = 50
    defence: Defence = Defence.PARRY
    weapon: Weapon | None = None
    difficulty: DifficultyGrade = DifficultyGrade.STANDARD
    outside_style: bool = False
    outside_style_grades: int | None = None
    action_points: int = 2
    surprised: bool = False
    surprise_bonus_spent: bool = False
    armour: tuple[tuple[str, int], ...] = ()
    natural_armour: int | tuple[tuple[str, int], ...] = 0
    ward: Ward | None = None
    traits: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_attrs(self, DEFENDER, "defender", ("outside_style", "surprised", "surprise_bonus_spent",
                                                 "outside_style_grades", "action_points"))
        if self.weapon is not None and not isinstance(self.weapon, Weapon):
            raise RulesInputError("defender.weapon", f"must be a weapon {{name, damage, size, ...}} or null, "
                                                     f"got {self.weapon!r}")
        if self.ward is not None and not isinstance(self.ward, Ward):
            raise RulesInputError("defender.ward", f"must be a Ward Location {{locations, size}} or null, got {self.ward!r}")
        _names(self, ("traits", "effects"), "defender")
        object.__setattr__(self, "defence", _enum(Defence, self.defence, "defender.defence"))
        object.__setattr__(self, "armour", _pairs(self.armour, "defender.armour"))
        object.__setattr__(self, "natural_armour", _pairs(self.natural_armour, "defender.natural_armour", True))


@dataclass(frozen=True)
class ExchangeInput:
    """One exchange: an attacker and a defender."""

    attacker: Attacker
    defender: Defender

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ExchangeInput:
        """Build the input from JSON-shaped data, read strictly by :data:`.schema.EXCHANGE` (see
        ``ruleslawyer exchange mythras --schema``); ``dice``, ``seed``, ``rulings`` are checked too.

        Raises:
            RulesInputError: an unknown field (with a did-you-mean), a wrong type (``"false"`` for a
                boolean, ``12.5`` for a skill), a value past its bound or an unknown dice slot, naming
                the field (``attacker.weapon.traits[0]``).
        """
        return cls.from_checked(EXCHANGE.read(data, ""))

    @classmethod
    def from_checked(cls, d: Mapping[str, Any]) -> ExchangeInput:
        """Build from data :data:`.schema.EXCHANGE` (or ``CHARGE``) has already read."""
        return cls(_attacker(d["attacker"]), _defender(d["defender"]))


_ENUMS = {"difficulty": DifficultyGrade, "into_melee": DifficultyGrade, "range": RangeBand, "fire_mode": FireMode,
          "defence": Defence}


def _side(d: Mapping[str, Any], lists: tuple[str, ...]) -> dict[str, Any]:
    """The keyword arguments of a side read by its declaration: enums as members, lists as tuples."""
    kw = {k: (_ENUMS[k](v) if k in _ENUMS and v is not None else v) for k, v in d.items()}
    kw.update({k: tuple(kw[k]) for k in lists if k in kw})
    return kw


def _weapon(d: Any, field: str) -> Weapon:
    """A weapon from JSON, read by :data:`.schema.WEAPON`; errors are named under ``field``."""
    return _build_weapon(WEAPON.read(d, field), field)


def _build_weapon(w: Mapping[str, Any], field: str) -> Weapon:
    try:
        return Weapon(name=w.get("name", "weapon"), damage=w.get("damage", "1d6"),
                      size=w.get("size", w.get("force", "Medium")), traits=frozenset(w.get("traits", ())),
                      ranged=w.get("ranged"), damage_modifier_applies=w.get("damage_modifier_applies"))
    except RulesInputError as exc:
        raise rename(exc, field, "weapon") from None


def _attacker(d: Mapping[str, Any]) -> Attacker:
    kw = _side(d, ("adjacent", "effects"))
    if "weapon" in kw:
        kw["weapon"] = _build_weapon(kw["weapon"], "attacker.weapon")
    return Attacker(**kw)


def _defender(d: Mapping[str, Any]) -> Defender:
    kw = _side(d, ("traits", "effects"))
    if kw.get("weapon") is not None:
        kw["weapon"] = _build_weapon(kw["weapon"], "defender.weapon")
    if kw.get("ward") is not None:
        kw["ward"] = Ward(tuple(kw["ward"].get("locations", ())), kw["ward"].get("size", "Medium"))
    return Defender(**kw)
