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

from .levels import DifficultyGrade, _enum
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
        """Build the input from JSON-shaped data (see ``ruleslawyer exchange mythras --schema``).

        Raises:
            RulesInputError: a field has the wrong type or an unknown value, naming it.
        """
        if not isinstance(data, Mapping):
            raise RulesInputError("input", "the input must be a JSON object with 'attacker' and 'defender'")
        for key in data:
            if key not in ("attacker", "defender", "rulings", "dice", "seed"):
                raise RulesInputError(key, "unknown field; allowed: attacker, defender, rulings, dice, seed")
        return cls(_attacker(data.get("attacker", {})), _defender(data.get("defender", {})))


_WEAPON_KEYS = {"name", "damage", "size", "force", "traits", "ranged", "damage_modifier_applies"}


def _weapon(d: Any, field: str) -> Weapon:
    if not isinstance(d, Mapping):
        raise RulesInputError(field, f"a weapon must be an object with {', '.join(sorted(_WEAPON_KEYS))}")
    _known(d, _WEAPON_KEYS, field)
    traits = d.get("traits", ())
    if isinstance(traits, str) or not isinstance(traits, (list, tuple)):
        raise RulesInputError(f"{field}.traits", "traits must be a list")
    for trait in traits:
        if not isinstance(trait, str):
            raise RulesInputError(f"{field}.traits", f"traits must be names (strings), got {trait!r}")
    try:
        return Weapon(name=str(d.get("name", "weapon")), damage=d.get("damage", "1d6"),
                      size=d.get("size", d.get("force", "Medium")), traits=frozenset(traits),
                      ranged=d.get("ranged"), damage_modifier_applies=d.get("damage_modifier_applies"))
    except RulesInputError as exc:
        raise RulesInputError(f"{field}.{exc.field.split('.', 1)[-1]}", exc.message) from None


def _known(d: Mapping, keys: set[str], field: str) -> None:
    for k in d:
        if k not in keys:
            raise RulesInputError(f"{field}.{k}", f"unknown field; allowed: {', '.join(sorted(keys))}")


_ATTACKER_KEYS = {"name", "skill", "weapon", "difficulty", "outside_style", "outside_style_grades", "str_siz",
                  "damage_modifier", "charge", "quadruped", "range", "aimed", "into_melee", "adjacent",
                  "target_still_or_unaware", "effects", "chosen_location", "surprised", "set_against_charge",
                  "fire_mode", "rounds"}
_DEFENDER_KEYS = {"name", "skill", "defence", "weapon", "difficulty", "outside_style", "outside_style_grades",
                  "action_points", "surprised", "surprise_bonus_spent", "armour", "natural_armour", "ward", "traits",
                  "effects"}


_BOOLS = {"outside_style", "charge", "quadruped", "aimed", "target_still_or_unaware", "surprised",
          "surprise_bonus_spent", "set_against_charge"}


def _bools(d: Mapping, field: str) -> None:
    for k in _BOOLS & set(d):
        if not isinstance(d[k], bool):
            raise RulesInputError(f"{field}.{k}", f"must be true or false, got {d[k]!r}")


def _attacker(d: Any) -> Attacker:
    if not isinstance(d, Mapping):
        raise RulesInputError("attacker", "must be an object")
    _known(d, _ATTACKER_KEYS, "attacker")
    _bools(d, "attacker")
    kw = {k: v for k, v in d.items() if k not in ("weapon", "adjacent", "effects")}
    if "difficulty" in kw:
        kw["difficulty"] = _enum(DifficultyGrade, kw["difficulty"], "attacker.difficulty")
    if kw.get("into_melee") is not None:
        kw["into_melee"] = _enum(DifficultyGrade, kw["into_melee"], "attacker.into_melee")
    if kw.get("range") is not None:
        kw["range"] = _enum(RangeBand, kw["range"], "attacker.range")
    if kw.get("fire_mode") is not None:
        kw["fire_mode"] = _enum(FireMode, kw["fire_mode"], "attacker.fire_mode")
    return Attacker(weapon=_weapon(d.get("weapon", {}), "attacker.weapon"),
                    adjacent=tuple(_strs(d.get("adjacent", ()), "attacker.adjacent")),
                    effects=tuple(_strs(d.get("effects", ()), "attacker.effects")), **kw)


def _strs(v: Any, field: str) -> list[str]:
    if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise RulesInputError(field, f"must be a list of names, got {v!r}")
    return list(v)


def _defender(d: Any) -> Defender:
    if not isinstance(d, Mapping):
        raise RulesInputError("defender", "must be an object")
    _known(d, _DEFENDER_KEYS, "defender")
    _bools(d, "defender")
    kw = {k: v for k, v in d.items() if k not in ("weapon", "ward", "traits", "effects")}
    if "difficulty" in kw:
        kw["difficulty"] = _enum(DifficultyGrade, kw["difficulty"], "defender.difficulty")
    ward = d.get("ward")
    if ward is not None:
        if not isinstance(ward, Mapping):
            raise RulesInputError("defender.ward", "must be an object with locations and size")
        _known(ward, {"locations", "size"}, "defender.ward")
        ward = Ward(tuple(_strs(ward.get("locations", ()), "defender.ward.locations")), ward.get("size", "Medium"))
    weapon = d.get("weapon")
    return Defender(weapon=None if weapon is None else _weapon(weapon, "defender.weapon"), ward=ward,
                    traits=tuple(_strs(d.get("traits", ()), "defender.traits")),
                    effects=tuple(_strs(d.get("effects", ()), "defender.effects")), **kw)
