"""A Mythras fighter across a whole fight: who they are and where they stand (:mod:`.fight`).

:class:`Fighter` is frozen; a fight replaces it after every change. Its JSON shape (what
:func:`read_fighter` reads and :func:`write_fighter` writes back exactly) is the input's combatant
with an optional ``condition`` object for what the fight has changed so far::

    {"name": "Aldric", "side": "heroes", "combat_style": 65, "evade": 40, "endurance": 45,
     "weapon": {"name": "Broadsword", "damage": "1d8", "size": "Medium", "traits": ["cutting"]},
     "shield": {"name": "Target shield", "damage": "1d4", "size": "Large", "traits": ["shield"]},
     "str_siz": 27, "initiative_modifier": 13, "dex": 14, "armour": {"Chest": 4}, "natural_armour": 0,
     "hit_points": {"Right Leg": 5, ..., "Head": 5}, "action_points": 2, "engaged_with": ["Brute"],
     "condition": {"hit_points": {...}, "action_points_left": 0, "prone": true, "bleeding": ["Left Arm"], ...}}

Hit Points are per hit location (``the-attack-parry-exchange#10``: "Apply what's left to the
location"); how much harm makes a Minor, Serious or Major Wound is ruling ``mythras.wound-levels``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import to_jsonable

from . import _tables, damage as dmg
from .inputs import Weapon, _pairs, _weapon
from .levels import check_skill

__all__ = ["Status", "Wound", "Fighter", "wound_level", "read_fighter", "write_fighter", "COMBATANT_KEYS",
           "CONDITION_KEYS", "MAX_ACTION_POINTS"]

MAX_ACTION_POINTS = 10
"""Most Action Points a Round the input may give (a sanity bound, like the skill's, not a rule)."""

_HP_BOUND = 9999


class Status(StrEnum):
    """Whether a fighter can still act."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"


class Wound(StrEnum):
    """A location's wound (ruling ``mythras.wound-levels``)."""

    NONE = "none"
    MINOR = "Minor"
    SERIOUS = "Serious"
    MAJOR = "Major"


def wound_level(hp: int, max_hp: int) -> Wound:
    """The wound of a location at ``hp`` of its starting ``max_hp`` (ruling ``mythras.wound-levels``):
    unharmed; Minor while above 0; Serious at 0 or below; Major at ``-max_hp`` or below."""
    if hp >= max_hp:
        return Wound.NONE
    if hp > 0:
        return Wound.MINOR
    return Wound.SERIOUS if hp > -max_hp else Wound.MAJOR


@dataclass(frozen=True)
class Fighter:
    """One combatant of a Mythras fight.

    Who they are (read from the input, never changed by the fight):
        name, side (who is on whose side; default their own name), combat_style (Combat Style %),
        weapon, shield (a second parrying weapon, or None), evade and endurance (skill %, or None),
        str_siz or damage_modifier (for the Damage Modifier), initiative_modifier, dex, armour (worn
        Armor Points by location), natural_armour, traits (Combat Style traits, e.g. Daredevil),
        weapon_arm (the arm holding the weapon; the shield is in the other), action_points (AP each
        Round, ``setup#2``: 2 unless the input says otherwise), hit_points_max (Hit Points by location).

    Where they stand (carried from exchange to exchange and Round to Round):
        hit_points (by location, may go below 0), ap_left (AP left this Round; 0 between Rounds, as
        unused AP vanish), status and out_by (the rule or ruling that put them out of the fight),
        prone, disarmed (weapon knocked away), useless (limbs a Serious Wound made useless),
        bleeding (bleeding locations), impaled_by ((wielder, location) of weapons stuck in them),
        weapon_stuck_in (whom their own weapon is stuck in), engaged_with (whom they are Engaged
        with; Engagement is mutual), surprised (ambushed: the first Round only), initiative and place
        (their Initiative and place in the order, once rolled).
    """

    name: str
    combat_style: int
    weapon: Weapon
    hit_points_max: tuple[tuple[str, int], ...]
    side: str = ""
    shield: Weapon | None = None
    evade: int | None = None
    endurance: int | None = None
    str_siz: int | None = None
    damage_modifier: str | None = None
    initiative_modifier: int = 0
    dex: int = 10
    armour: tuple[tuple[str, int], ...] = ()
    natural_armour: int | tuple[tuple[str, int], ...] = 0
    traits: tuple[str, ...] = ()
    weapon_arm: str = "Right Arm"
    action_points: int = 2
    hit_points: tuple[tuple[str, int], ...] = ()
    ap_left: int = 0
    status: Status = Status.ACTIVE
    out_by: str | None = None
    prone: bool = False
    disarmed: bool = False
    useless: tuple[str, ...] = ()
    bleeding: tuple[str, ...] = ()
    impaled_by: tuple[tuple[str, str], ...] = ()
    weapon_stuck_in: str | None = None
    engaged_with: tuple[str, ...] = ()
    surprised: bool = False
    initiative: int | None = None
    place: int | None = None

    @property
    def active(self) -> bool:
        """Able to act (not incapacitated or dead)."""
        return self.status is Status.ACTIVE

    def hp(self, location: str) -> int:
        """Hit Points left at ``location``."""
        return dict(self.hit_points)[location]

    def max_hp(self, location: str) -> int:
        """Starting Hit Points of ``location``."""
        return dict(self.hit_points_max)[location]

    def wound(self, location: str) -> Wound:
        """The wound at ``location`` (ruling ``mythras.wound-levels``)."""
        return wound_level(self.hp(location), self.max_hp(location))

    def with_hp(self, location: str, hp: int) -> Fighter:
        """This fighter with ``location`` at ``hp`` Hit Points."""
        return replace(self, hit_points=tuple((loc, hp if loc == location else v) for loc, v in self.hit_points))

    @property
    def shield_arm(self) -> str:
        """The arm that is not the weapon arm."""
        return "Left Arm" if self.weapon_arm == "Right Arm" else "Right Arm"

    @property
    def weapon_in_hand(self) -> bool:
        """The weapon can attack and parry: not knocked away, not stuck in a foe, its arm not useless."""
        return not self.disarmed and self.weapon_stuck_in is None and self.weapon_arm not in self.useless

    @property
    def parrying_weapon(self) -> Weapon | None:
        """What they parry with: the shield while its arm works, else the weapon in hand, else None."""
        if self.shield is not None and self.shield_arm not in self.useless:
            return self.shield
        return self.weapon if self.weapon_in_hand else None

    def is_engaged(self) -> bool:
        """Engaged with anyone (``action-menu-essentials#4``)."""
        return bool(self.engaged_with)


COMBATANT_KEYS = ("name", "side", "combat_style", "evade", "endurance", "weapon", "shield", "str_siz",
                  "damage_modifier", "initiative_modifier", "dex", "armour", "natural_armour", "traits",
                  "weapon_arm", "action_points", "hit_points", "engaged_with", "surprised", "condition")
"""The fields of a combatant in the ``fight`` input."""

CONDITION_KEYS = ("hit_points", "action_points_left", "status", "out_by", "prone", "disarmed", "useless",
                  "bleeding", "impaled_by", "weapon_stuck_in", "initiative", "place")
"""The fields of a combatant's ``condition`` (what the fight has changed)."""


def _known(d: Mapping, keys: tuple[str, ...], where: str) -> None:
    for k in d:
        if k not in keys:
            raise RulesInputError(f"{where}.{k}", f"unknown field; allowed: {', '.join(keys)}")


def _whole(v: Any, where: str, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise RulesInputError(where, f"must be a whole number from {low} to {high}, got {v!r}")
    return v


def _flag(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise RulesInputError(where, f"must be true or false, got {v!r}")
    return v


def _names(v: Any, where: str) -> tuple[str, ...]:
    if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(x, str) and x for x in v):
        raise RulesInputError(where, f"must be a list of names, got {v!r}")
    return tuple(dict.fromkeys(v))


def _locations(v: Any, where: str, rules: Rules) -> tuple[str, ...]:
    return tuple(dict.fromkeys(dmg.check_location(x, where, rules=rules) for x in _names(v, where)))


def _hit_points(v: Any, where: str, low: int, rules: Rules) -> tuple[tuple[str, int], ...]:
    """Hit Points for every location of ``hit-location-humanoid``, in table order."""
    names = dmg.location_names(rules)
    if not isinstance(v, Mapping):
        raise RulesInputError(where, f"must give the Hit Points of every location: {', '.join(names)}")
    got = {dmg.check_location(k, where, rules=rules): _whole(x, f"{where}.{k}", low, _HP_BOUND) for k, x in v.items()}
    missing = [n for n in names if n not in got]
    if missing:
        raise RulesInputError(f"{where}.{missing[0]}", f"give the Hit Points of every location: {', '.join(names)}")
    return tuple((n, got[n]) for n in names)


def _optional_skill(d: Mapping, key: str, where: str) -> int | None:
    return None if d.get(key) is None else check_skill(d[key], f"{where}.{key}")


def _damage_modifier(d: Mapping, where: str, rules: Rules) -> tuple[int | None, str | None]:
    """STR+SIZ or a Damage Modifier given directly; one of them is needed for a hit's damage."""
    str_siz, given = d.get("str_siz"), d.get("damage_modifier")
    if str_siz is None and given is None:
        raise RulesInputError(f"{where}.str_siz", "give STR+SIZ (or damage_modifier) for the Damage Modifier")
    if str_siz is not None:
        _whole(str_siz, f"{where}.str_siz", 0, dmg.MAX_STR_SIZ)
    if given is not None:
        want = str(given).replace(" ", "").replace("−", "-")
        if not isinstance(given, str) or _tables.modifier_for_dice(want, rules) is None:
            allowed = ", ".join(dict.fromkeys(r.dice for r in _tables.damage_modifiers(rules)))
            raise RulesInputError(f"{where}.damage_modifier", f"unknown Damage Modifier {given!r}; allowed: {allowed}")
    return str_siz, given


def _weapons(d: Mapping, where: str, rules: Rules) -> tuple[Weapon, Weapon | None]:
    if "weapon" not in d:
        raise RulesInputError(f"{where}.weapon", "give the weapon {name, damage, size, traits}")
    weapon = _weapon(d["weapon"], f"{where}.weapon")
    dmg.size_row(weapon.size, f"{where}.weapon.size", rules=rules)
    dmg.parse_weapon_dice(weapon.damage, f"{where}.weapon.damage")
    shield = None if d.get("shield") is None else _weapon(d["shield"], f"{where}.shield")
    if shield is not None:
        dmg.size_row(shield.size, f"{where}.shield.size", rules=rules)
        dmg.parse_weapon_dice(shield.damage, f"{where}.shield.damage")
    return weapon, shield


def _armour(d: Mapping, where: str, rules: Rules) -> tuple[tuple, int | tuple]:
    armour = _pairs(d.get("armour", {}), f"{where}.armour")
    natural = _pairs(d.get("natural_armour", 0), f"{where}.natural_armour", allow_int=True)
    for name, pairs in (("armour", armour), ("natural_armour", () if isinstance(natural, int) else natural)):
        for loc, _ in pairs:
            dmg.check_location(loc, f"{where}.{name}", rules=rules)
    return armour, natural


def _identity(d: Mapping, where: str, rules: Rules) -> dict[str, Any]:
    """The fields of who a fighter is, checked."""
    name = d.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RulesInputError(f"{where}.name", "every combatant needs a name")
    side = d.get("side", name)
    if not isinstance(side, str) or not side.strip():
        raise RulesInputError(f"{where}.side", f"must be a name, got {side!r}")
    weapon, shield = _weapons(d, where, rules)
    str_siz, given = _damage_modifier(d, where, rules)
    armour, natural = _armour(d, where, rules)
    arm = dmg.check_location(d.get("weapon_arm", "Right Arm"), f"{where}.weapon_arm", rules=rules)
    if arm not in ("Right Arm", "Left Arm"):
        raise RulesInputError(f"{where}.weapon_arm", "the weapon arm is Right Arm or Left Arm")
    return dict(name=name, side=side, combat_style=check_skill(d.get("combat_style"), f"{where}.combat_style"),
                weapon=weapon, shield=shield, evade=_optional_skill(d, "evade", where),
                endurance=_optional_skill(d, "endurance", where), str_siz=str_siz, damage_modifier=given,
                initiative_modifier=_whole(d.get("initiative_modifier", 0), f"{where}.initiative_modifier", -99, 99),
                dex=_whole(d.get("dex", 10), f"{where}.dex", 0, 999), armour=armour, natural_armour=natural,
                traits=_names(d.get("traits", []), f"{where}.traits"), weapon_arm=arm,
                action_points=_whole(d.get("action_points", 2), f"{where}.action_points", 0, MAX_ACTION_POINTS),
                hit_points_max=_hit_points(d.get("hit_points"), f"{where}.hit_points", 1, rules),
                engaged_with=_names(d.get("engaged_with", []), f"{where}.engaged_with"),
                surprised=_flag(d.get("surprised", False), f"{where}.surprised"))


def _impaled(v: Any, where: str, rules: Rules) -> tuple[tuple[str, str], ...]:
    if isinstance(v, (str, Mapping)) or not isinstance(v, (list, tuple)):
        raise RulesInputError(where, "must be a list of {by, location}")
    out = []
    for i, x in enumerate(v):
        if not isinstance(x, Mapping) or set(x) != {"by", "location"} or not isinstance(x["by"], str):
            raise RulesInputError(f"{where}[{i}]", "must be {by: wielder's name, location: hit location}")
        out.append((x["by"], dmg.check_location(x["location"], f"{where}[{i}].location", rules=rules)))
    return tuple(out)


def _optional_int(c: Mapping, key: str, where: str, low: int, high: int) -> int | None:
    return None if c.get(key) is None else _whole(c[key], f"{where}.{key}", low, high)


def _condition(c: Any, who: dict[str, Any], where: str, rules: Rules) -> dict[str, Any]:
    """Where a fighter stands, checked (a fresh fighter when ``c`` is None)."""
    if c is None:
        return {"hit_points": who["hit_points_max"]}
    if not isinstance(c, Mapping):
        raise RulesInputError(where, "must be an object of " + ", ".join(CONDITION_KEYS))
    _known(c, CONDITION_KEYS, where)
    status = c.get("status", "active")
    if status not in [s.value for s in Status]:
        raise RulesInputError(f"{where}.status", f"must be one of {', '.join(s.value for s in Status)}, got {status!r}")
    out_by = c.get("out_by")
    if out_by is not None and not isinstance(out_by, str):
        raise RulesInputError(f"{where}.out_by", f"must be a rule or ruling id, got {out_by!r}")
    stuck = c.get("weapon_stuck_in")
    if stuck is not None and not isinstance(stuck, str):
        raise RulesInputError(f"{where}.weapon_stuck_in", f"must be a combatant's name, got {stuck!r}")
    hp = c.get("hit_points")
    return dict(hit_points=who["hit_points_max"] if hp is None else _hit_points(hp, f"{where}.hit_points",
                                                                                  -_HP_BOUND, rules),
                ap_left=_whole(c.get("action_points_left", 0), f"{where}.action_points_left", 0, MAX_ACTION_POINTS),
                status=Status(status), out_by=out_by, prone=_flag(c.get("prone", False), f"{where}.prone"),
                disarmed=_flag(c.get("disarmed", False), f"{where}.disarmed"),
                useless=_locations(c.get("useless", []), f"{where}.useless", rules),
                bleeding=_locations(c.get("bleeding", []), f"{where}.bleeding", rules),
                impaled_by=_impaled(c.get("impaled_by", []), f"{where}.impaled_by", rules),
                weapon_stuck_in=stuck, initiative=_optional_int(c, "initiative", where, -999, 999),
                place=_optional_int(c, "place", where, 1, 999))


def read_fighter(data: Any, where: str, rules: Rules) -> Fighter:
    """A :class:`Fighter` from a combatant of the ``fight`` input (or one :func:`write_fighter` wrote).

    Raises:
        RulesInputError: a missing, unknown or bad field, named (``combatants[0].hit_points.Head``).
    """
    if not isinstance(data, Mapping):
        raise RulesInputError(where, "a combatant must be an object with name, combat_style, weapon, hit_points, ...")
    _known(data, COMBATANT_KEYS, where)
    who = _identity(data, where, rules)
    return Fighter(**who, **_condition(data.get("condition"), who, f"{where}.condition", rules))


def write_fighter(f: Fighter) -> dict[str, Any]:
    """The JSON shape of ``f`` that :func:`read_fighter` reads back to an equal :class:`Fighter`."""
    out = {"name": f.name, "side": f.side, "combat_style": f.combat_style, "evade": f.evade,
           "endurance": f.endurance, "weapon": to_jsonable(f.weapon), "shield": to_jsonable(f.shield),
           "str_siz": f.str_siz, "damage_modifier": f.damage_modifier,
           "initiative_modifier": f.initiative_modifier, "dex": f.dex, "armour": dict(f.armour),
           "natural_armour": f.natural_armour if isinstance(f.natural_armour, int) else dict(f.natural_armour),
           "traits": list(f.traits), "weapon_arm": f.weapon_arm, "action_points": f.action_points,
           "hit_points": dict(f.hit_points_max), "engaged_with": list(f.engaged_with), "surprised": f.surprised}
    out["condition"] = {"hit_points": dict(f.hit_points), "action_points_left": f.ap_left,
                        "status": f.status.value, "out_by": f.out_by, "prone": f.prone, "disarmed": f.disarmed,
                        "useless": list(f.useless), "bleeding": list(f.bleeding),
                        "impaled_by": [{"by": b, "location": loc} for b, loc in f.impaled_by],
                        "weapon_stuck_in": f.weapon_stuck_in, "initiative": f.initiative, "place": f.place}
    return out
