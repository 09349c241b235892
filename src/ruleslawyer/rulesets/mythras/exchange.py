"""The Mythras attack–parry exchange, every step cited (``mythras/combat/the-attack-parry-exchange``).

:func:`resolve_exchange` takes an :class:`ExchangeInput` (attacker, defender, their weapons and
choices) and returns an :class:`ExchangeResult` whose ``trace`` walks the chapter's seven steps:
the attack roll, the defence (Parry, Evade, or none — which counts as a Failure), the differential,
the Special Effects chosen *before* damage and location, weapon damage + Damage Modifier and the hit
location, the parry's Size reduction, and armour. Charge, ranged attacks (Force, range bands, aiming,
firing into a melee), Evade, Ward Location and surprise are part of the same call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult, check_overrides, resolve_ruling

from . import _tables, damage as dmg, ids, rulings as _r
from .levels import (DifficultyGrade, LevelOfSuccess, SkillRoll, _enum, _grade_rows, adjust_over_100, check_skill,
                     differential, graded_skill, rank, roll_skill, step_grade)
from .special_effects import (ARISE, BYPASS_ARMOR, CHOOSE_LOCATION, ENHANCE_PARRY, IMPALE, MAXIMISE_DAMAGE,
                              NUMERIC_EFFECTS, EffectContext, Side, WeaponTrait, choose_effects,
                              eligible_effects)

__all__ = [
    "RangedKind", "RangeBand", "Defence", "Weapon", "Ward", "Attacker", "Defender", "ExchangeInput",
    "ExchangeResult", "resolve_exchange", "SLOTS",
]

SLOTS = ("attack", "parry", "evade", "damage", "damage_modifier", "location", "stray")
"""Scripted-dice slots the exchange rolls from."""


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
        aimed: aimed for a full Round (eases one grade, once).
        into_melee: Hard or Formidable when firing into a crowd or melee.
        adjacent: who stands next to the target (for a stray shot).
        target_still_or_unaware: the target is stationary or unaware (Choose Location at range).
        effects: Special Effects wanted, in order of preference.
        chosen_location: the location named with Choose Location.
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

    def __post_init__(self) -> None:
        if not isinstance(self.weapon, Weapon):
            raise RulesInputError("attacker.weapon", f"must be a weapon {{name, damage, size, ...}}, got {self.weapon!r}")
        _names(self, ("adjacent", "effects"), "attacker")


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
        surprised: ambushed: flat-footed until their Initiative arrives.
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
                  "target_still_or_unaware", "effects", "chosen_location"}
_DEFENDER_KEYS = {"name", "skill", "defence", "weapon", "difficulty", "outside_style", "outside_style_grades",
                  "action_points", "surprised", "armour", "natural_armour", "ward", "traits", "effects"}


_BOOLS = {"outside_style", "charge", "quadruped", "aimed", "target_still_or_unaware", "surprised"}


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


@dataclass(frozen=True)
class ExchangeResult(TracedResult):
    """The outcome of one exchange.

    Attributes:
        attack: the attack's skill roll.
        defence: the defence's skill roll, or None when the defender did not (or could not) defend.
        defence_kind: parry, evade or none (as resolved).
        attack_level, defence_level: the levels compared (a defender who did not defend: Failure).
        winner: "attacker", "defender" or None.
        effects_won: how many Special Effects the winner may choose (with a surprise bonus).
        eligible: side -> Effects that side could take.
        attacker_effects, defender_effects: the Effects chosen.
        hit: the attack connected (Success or Critical, not evaded).
        location: the hit location, or None.
        damage_rolled: weapon damage + Damage Modifier (after Long range halving), or None.
        damage_after_parry: what got past the parry / ward, or None.
        armour: the Armor Points subtracted, or None.
        damage: damage to the location (0 when nothing got through).
        prone: the evader ends prone (None when nobody evaded).
        stray_target: who a stray shot into a melee hit (None otherwise; "" when nobody was named).
        seed: the dice seed (None when scripted only).
        trace: the explanation.
    """

    attack: SkillRoll
    defence: SkillRoll | None
    defence_kind: Defence
    attack_level: LevelOfSuccess | None
    defence_level: LevelOfSuccess | None
    winner: str | None
    effects_won: int
    eligible: dict[str, tuple[str, ...]]
    attacker_effects: tuple[str, ...]
    defender_effects: tuple[str, ...]
    hit: bool
    location: str | None
    damage_rolled: int | None
    damage_after_parry: int | None
    armour: int | None
    damage: int
    prone: bool | None
    stray_target: str | None
    seed: int | None
    trace: Step

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe fields; the two skill rolls leave out their own trace (it is inside ``trace``)."""
        data = super().to_dict()
        for key in ("attack", "defence"):
            if isinstance(data.get(key), dict):
                data[key].pop("trace", None)
        return data


def _grade(who: str, base: DifficultyGrade, conds: list[tuple[str, int, str]], aimed: bool,
           overrides) -> tuple[DifficultyGrade, Step | None]:
    """Combine the base grade with conditions (name, steps harder, cite) and aiming."""
    if not conds and not aimed:
        return base, None
    children = []
    uses: list[RulingUse] = []
    grade = base
    if conds:
        use = resolve_ruling(_r.COMBINE_GRADES.id, overrides)
        uses.append(use)
        total = sum(s for _, s, _ in conds) if use.answer == "add-steps" else max(s for _, s, _ in conds)
        for name, steps, cite in conds:
            children.append(Step.of(StepKind.MODIFIER, name, value=steps,
                                    detail=f"{steps} grade{'s' if steps != 1 else ''} harder", cites=[cite]))
        grade = step_grade(base, total)
    if aimed:
        eased = step_grade(grade, -1)
        children.append(Step.of(StepKind.MODIFIER, "Aimed for a full Round", value=-1,
                                detail=f"{grade.value} eased one grade to {eased.value} (once)",
                                cites=[ids.RANGED_AIM]))
        grade = eased
    row = _grade_rows()[grade].row
    return grade, Step.of(StepKind.RULE, f"{who} grade: {grade.value}",
                          detail=f"from {base.value}", cites=[Citation(row.unit_id, f"{grade.value} row")],
                          rulings=uses, children=children)


def _steps_of(grade: DifficultyGrade) -> int:
    """How many grades harder than Standard a condition grade is (Hard 1, Formidable 2)."""
    order = list(DifficultyGrade)
    return order.index(grade) - order.index(DifficultyGrade.STANDARD)


def _outside(who, steps_given, field, overrides) -> tuple[str, int, str, list[RulingUse]]:
    if steps_given is None:
        use = resolve_ruling(_r.OUTSIDE_STYLE_GRADES.id, overrides)
        return "Weapon outside the Combat Styles", int(use.answer), ids.COMBAT_STYLE, [use]
    if isinstance(steps_given, bool) or not isinstance(steps_given, int) or not 1 <= steps_given <= 5:
        raise RulesInputError(field, f"must be a whole number of grades from 1 to 5, got {steps_given!r}")
    return "Weapon outside the Combat Styles", steps_given, ids.COMBAT_STYLE, []


def resolve_exchange(inp: ExchangeInput, *, dice: Dice | None = None, rng=None, seed: int | None = None,
                     script: Mapping[str, Sequence[int]] | None = None,
                     rulings: Mapping[str, str] | None = None) -> ExchangeResult:
    """Resolve one Mythras exchange (``mythras/combat/the-attack-parry-exchange``).

    Args:
        inp: attacker and defender.
        dice: the dice to use; else built from ``rng`` / ``seed`` / ``script`` (slots: attack, parry,
            evade, damage, damage_modifier, location, stray).
        rulings: ruling overrides, e.g. ``{"mythras.halving": "round-down"}``.

    Returns:
        An :class:`ExchangeResult` with the full trace.

    Raises:
        RulesInputError: bad input, naming the field (skill −5 -> ``attacker.skill``; an unknown Size
            -> ``attacker.weapon.size``; Choose Location without a location -> ``attacker.chosen_location``).
        DiceScriptError: a scripted slot ran out or holds an impossible face.
    """
    overrides = dict(rulings or {})
    check_overrides(overrides, "mythras")
    dice = dice or Dice(rng=rng, seed=seed, script=script)
    a, d = inp.attacker, inp.defender
    check_skill(a.skill, "attacker.skill")
    check_skill(d.skill, "defender.skill")
    a_weapon = a.weapon
    a_size = dmg.size_row(a_weapon.size, "attacker.weapon.force" if a_weapon.ranged else "attacker.weapon.size")
    weapon_dice = dmg.parse_weapon_dice(a_weapon.damage, "attacker.weapon.damage")
    a_grade0 = _enum(DifficultyGrade, a.difficulty, "attacker.difficulty")
    d_grade0 = _enum(DifficultyGrade, d.difficulty, "defender.difficulty")
    ranged = a_weapon.ranged is not None
    if ranged and a.charge:
        raise RulesInputError("attacker.charge", "a Charge is a melee attack; the weapon is ranged")
    if not ranged and (a.range is not None or a.aimed or a.into_melee is not None):
        bad = "range" if a.range is not None else "aimed" if a.aimed else "into_melee"
        raise RulesInputError(f"attacker.{bad}", "only a ranged weapon (weapon.ranged) has a range, aims or "
                                                 "fires into a melee")
    if a.into_melee is not None and a.into_melee not in (DifficultyGrade.HARD, DifficultyGrade.FORMIDABLE):
        raise RulesInputError("attacker.into_melee", "firing into a crowd or melee is Hard or Formidable, "
                                                     f"got {a.into_melee}")
    if a.chosen_location is not None:
        dmg.check_location(a.chosen_location, "attacker.chosen_location")
    for name, pairs in (("armour", d.armour),
                        ("natural_armour", d.natural_armour if not isinstance(d.natural_armour, int) else ())):
        for loc, _ in pairs:
            dmg.check_location(loc, f"defender.{name}")
    if d.ward is not None:
        for loc in d.ward.locations:
            dmg.check_location(loc, "defender.ward.locations")
        dmg.size_row(d.ward.size, "defender.ward.size")
    if isinstance(d.action_points, bool) or not isinstance(d.action_points, int) or d.action_points < 0:
        raise RulesInputError("defender.action_points", f"must be a whole number from 0, got {d.action_points!r}")
    steps: list[Step] = []

    # ---- 1. attack grade and roll ---------------------------------------------------------------
    conds: list[tuple[str, int, str]] = []
    uses: list[RulingUse] = []
    if a.outside_style:
        n, s, c, u = _outside("attacker", a.outside_style_grades, "attacker.outside_style_grades", overrides)
        conds.append((n, s, c))
        uses += u
    if a.charge:
        conds.append(("Charge: the attack is Hard", _steps_of(DifficultyGrade.HARD), ids.CHARGE))
    conds_no_melee = list(conds)
    if a.into_melee is not None:
        conds.append((f"Firing into a crowd or melee: {a.into_melee.value}", _steps_of(a.into_melee),
                      ids.RANGED_INTO_MELEE))
    a_grade, a_gstep = _grade("Attack", a_grade0, conds, a.aimed, overrides)
    if a_gstep is not None and uses:
        a_gstep = Step.of(a_gstep.kind, a_gstep.label, a_gstep.value, a_gstep.detail, a_gstep.cites,
                          (*a_gstep.rulings, *uses), a_gstep.children)

    # ---- 2. can the defender defend? -------------------------------------------------------------
    kind = d.defence
    why_not: list[Step] = []
    if kind is not Defence.NONE:
        reason = None
        if d.surprised:
            reason = Step.of(StepKind.RULE, "Surprised: cannot defend", detail="flat-footed until their "
                             "Initiative arrives", cites=[ids.SURPRISE])
        elif d.action_points < 1:
            reason = Step.of(StepKind.RULE, "No Action Points left to react", value=d.action_points,
                             detail=f"a {kind.value} spends 1 AP", cites=[ids.EX_PARRY, ids.PROACTIVE_REACTIVE])
        elif kind is Defence.PARRY and d.weapon is None:
            raise RulesInputError("defender.weapon", "a Parry needs the parrying weapon or shield")
        elif kind is Defence.PARRY and a_weapon.ranged is RangedKind.FIREARM:
            reason = Step.of(StepKind.RULE, "Bullets outrun reactive Parries", cites=[ids.FIREARMS])
        elif kind is Defence.PARRY and ranged and WeaponTrait.SHIELD not in d.weapon.traits:
            use = resolve_ruling(_r.PARRY_MISSILES.id, overrides)
            if use.answer == "shields-only":
                reason = Step.of(StepKind.RULING, "Only shields parry missiles", detail=f"{d.weapon.name} is "
                                 "not a shield", cites=[ids.RANGED], rulings=[use])
        if reason is not None:
            why_not.append(reason)
            kind = Defence.NONE
    d_conds: list[tuple[str, int, str]] = []
    d_uses: list[RulingUse] = []
    if kind is not Defence.NONE and d.outside_style:
        n, s, c, u = _outside("defender", d.outside_style_grades, "defender.outside_style_grades", overrides)
        d_conds.append((n, s, c))
        d_uses += u
    d_grade, d_gstep = _grade("Defence", d_grade0, d_conds, False, overrides)
    if d_gstep is not None and d_uses:
        d_gstep = Step.of(d_gstep.kind, d_gstep.label, d_gstep.value, d_gstep.detail, d_gstep.cites,
                          (*d_gstep.rulings, *d_uses), d_gstep.children)
    d_size = None
    if kind is Defence.PARRY:
        d_size = dmg.size_row(d.weapon.size, "defender.weapon.size")
    if kind is not Defence.NONE and d_grade is DifficultyGrade.HOPELESS:
        why_not.append(Step.of(StepKind.RULE, "Defence is Hopeless: no roll", cites=[ids.EX_NO_PARRY]))
        kind = Defence.NONE

    # ---- skills over 100% (opposed/differential) -------------------------------------------------
    a_eff, _ = graded_skill(a.skill, a_grade, overrides, "attacker.skill")
    a_after = d_after = None
    over_step = None
    if kind is not Defence.NONE and a_eff is not None:
        d_eff, _ = graded_skill(d.skill, d_grade, overrides, "defender.skill")
        adjusted, over_step = adjust_over_100({"attack": a_eff, "defence": d_eff}, overrides)
        if over_step is not None:
            a_after, d_after = adjusted["attack"], adjusted["defence"]

    attack = roll_skill(a.skill, grade=a_grade, dice=dice, slot="attack", rulings=overrides,
                        label=f"Attack ({a.name}, {a_weapon.name})", field="attacker.skill", skill_after=a_after,
                        extra=tuple(x for x in (over_step,) if x is not None))
    attack_trace = attack.trace
    steps.append(Step.of(StepKind.RULE, "1. Attack", value=attack.level.value if attack.level else None,
                         detail=f"{a.name} spends 1 AP and rolls Combat Style", cites=[ids.EX_ATTACK],
                         children=[x for x in (a_gstep, attack_trace) if x is not None]))
    if attack.level is None:
        trace = Step.of(StepKind.RESULT, "Exchange: the attack cannot be attempted", value="no damage",
                        detail="Hopeless: no roll, no exchange", children=steps)
        return ExchangeResult(attack, None, kind, None, None, None, 0, {}, (), (), False, None, None, None,
                              None, 0, None, None, dice.seed, trace)

    # ---- 2. defence roll ------------------------------------------------------------------------
    defence: SkillRoll | None = None
    if kind is Defence.NONE:
        d_level = LevelOfSuccess.FAILURE
        fail_row = _tables.levels()[LevelOfSuccess.FAILURE.value].row
        note = "did not defend" if d.defence is Defence.NONE else "could not defend"
        steps.append(Step.of(StepKind.RULE, f"2. Defence: none ({note}) — counts as a Failure",
                             value=d_level.value, detail="if you cannot or will not Parry, you count as a Failure",
                             cites=[ids.EX_NO_PARRY, Citation(fail_row.unit_id, "Failure row")], children=why_not))
    else:
        defence = roll_skill(d.skill, grade=d_grade, dice=dice, slot=kind.value, rulings=overrides,
                             label=f"{kind.value.title()} ({d.name}" + (f", {d.weapon.name})" if d.weapon and
                                                                        kind is Defence.PARRY else ")"),
                             field="defender.skill", skill_after=d_after)
        d_level = defence.level
        cite = ids.EX_PARRY if kind is Defence.PARRY else ids.EVADE
        detail = f"{d.name} spends 1 AP to {kind.value}"
        if kind is Defence.PARRY and not attack.level.succeeded:
            detail += " — parrying a miss on purpose to fish for defensive Special Effects"
            cite = [cite, ids.EX_NO_PARRY]
        menu = Citation(_tables.action_row(kind.value.title()).unit_id, f"{kind.value.title()} is Reactive")
        steps.append(Step.of(StepKind.RULE, f"2. Defence: {kind.value}", value=d_level.value, detail=detail,
                             cites=[*(cite if isinstance(cite, list) else [cite]), ids.MENU_REACTIVE, menu],
                             children=[x for x in (d_gstep, defence.trace) if x is not None]))

    # ---- 3. differential -------------------------------------------------------------------------
    a_level = attack.level
    diff = differential(a_level, d_level, defence_note="(no defence)" if kind is Defence.NONE else "")
    won = diff.effects
    diff_children = [diff.trace]
    if d.surprised and a_level.succeeded:
        won_a = (won if diff.winner == "attacker" else 0) + 1
        diff_children.append(Step.of(StepKind.MODIFIER, "Surprise: the attack gains a bonus Special Effect",
                                     value=1, cites=[ids.SURPRISE]))
    else:
        won_a = won if diff.winner == "attacker" else 0
    won_d = won if diff.winner == "defender" else 0
    steps.append(Step.of(StepKind.COMPARE, "3. Differential", value={"attacker": won_a, "defender": won_d},
                         detail=(f"attacker {won_a}, defender {won_d} Special Effect(s)"),
                         cites=[ids.EX_DIFFERENTIAL], children=diff_children))

    # ---- 4. Special Effects, before damage and location ------------------------------------------
    close_still = a.range is RangeBand.CLOSE and a.target_still_or_unaware
    ctx = EffectContext(a_level, d_level, a_weapon.traits,
                        d.weapon.traits if d.weapon is not None else frozenset(), ranged, close_still)
    eligible: dict[str, tuple[str, ...]] = {}
    chosen = {Side.ATTACKER: [], Side.DEFENDER: []}
    eff_steps = []
    for side, count, prefs in ((Side.ATTACKER, won_a, a.effects), (Side.DEFENDER, won_d, d.effects)):
        if count <= 0:
            continue
        checked = eligible_effects(side, ctx, overrides)
        ok = [e for e in checked if e.eligible]
        eligible[side.value] = tuple(e.name for e in ok)
        eff_steps.append(Step.of(StepKind.INFO, f"{side.value.title()} may choose {count} of", value=[e.name for e in ok],
                                 detail=", ".join(e.name for e in ok), cites=[ids.EFFECTS, *(e.unit_id for e in ok)],
                                 rulings=[u for u in dict.fromkeys(e.ruling for e in checked) if u]))
        picked, cstep = choose_effects(prefs, count, checked, f"{side.value}.effects")
        chosen[side] = picked
        eff_steps.append(cstep)
    a_fx, d_fx = chosen[Side.ATTACKER], chosen[Side.DEFENDER]
    if eff_steps:
        steps.append(Step.of(StepKind.RULE, "4. Special Effects (chosen before damage and location)",
                             value={"attacker": a_fx, "defender": d_fx}, cites=[ids.EX_CHOOSE_EFFECTS],
                             children=eff_steps))
    if CHOOSE_LOCATION in a_fx and a.chosen_location is None:
        raise RulesInputError("attacker.chosen_location", "Choose Location was taken: name the location; "
                                                          f"allowed: {', '.join(dmg.location_names())}")

    # ---- Evade ------------------------------------------------------------------------------------
    evaded = False
    prone = None
    if kind is Defence.EVADE:
        use = resolve_ruling(_r.EVADE_SUCCESS.id, overrides)
        if use.answer == "evade-succeeds":
            evaded = d_level.succeeded
        elif use.answer == "level-at-least-attack":
            evaded = d_level.succeeded and rank(d_level) >= rank(a_level)
        else:
            evaded = d_level.succeeded and rank(d_level) > rank(a_level)
        stays_up = ARISE in d_fx or any(t.lower() == "daredevil" for t in d.traits)
        prone = not stays_up
        steps.append(Step.of(StepKind.RULING, "Evade: " + ("no damage" if evaded else "not avoided"),
                             value=evaded, detail=("ends prone" if prone else
                                                   "stays standing (" + ("Arise" if ARISE in d_fx else "Daredevil") + ")"),
                             cites=[ids.EVADE], rulings=[use]))

    # ---- stray shot --------------------------------------------------------------------------------
    stray = None
    if a.into_melee is not None and a_level is LevelOfSuccess.FAILURE:
        g2, _ = _grade("Attack", a_grade0, conds_no_melee, a.aimed, overrides)
        eff2, _ = graded_skill(a.skill, g2, overrides, "attacker.skill")
        if eff2 is not None and attack.roll <= max(eff2, 5) and attack.roll < 96:
            if a.adjacent:
                n = len(a.adjacent)
                face = dice.roll(n, "stray") if n > 1 else 1
                stray = a.adjacent[face - 1]
                detail = f"1d{n} = {face} among {', '.join(a.adjacent)}: {stray}"
            else:
                stray = ""
                detail = "no adjacent victim named"
            steps.append(Step.of(StepKind.RULE, "Stray shot: a random adjacent victim is hit", value=stray,
                                 detail=f"{attack.roll} would succeed against {eff2}% without the melee penalty; "
                                        + detail, cites=[ids.RANGED_INTO_MELEE]))

    # ---- 5–7. damage ------------------------------------------------------------------------------
    hit = a_level.succeeded and not evaded
    location = rolled = after_parry = armour_total = None
    dealt = 0
    if hit:
        dsteps: list[Step] = []
        # location
        if CHOOSE_LOCATION in a_fx:
            location = dmg.check_location(a.chosen_location, "attacker.chosen_location")
            loc_step = Step.of(StepKind.RULE, "Hit location (Choose Location)", value=location,
                               cites=[ids.EX_DAMAGE, ids.EFFECTS])
        else:
            location, loc_step = dmg.roll_location(dice)
        # weapon dice
        n_max = a_fx.count(MAXIMISE_DAMAGE)
        max_use = resolve_ruling(_r.MAXIMISE_DAMAGE.id, overrides) if n_max else None
        if n_max:
            w_total = weapon_dice.max
            w_step = Step.of(StepKind.RULING, f"Weapon damage {weapon_dice.text} maximised", value=w_total,
                             cites=[ids.EX_DAMAGE, ids.EFFECTS], rulings=[max_use])
        else:
            w_total, faces = dice.roll_expr(weapon_dice, "damage")
            w_step = Step.of(StepKind.ROLL, f"Weapon damage {weapon_dice.text}", value=w_total,
                             detail=f"faces {list(faces)}", cites=[ids.EX_DAMAGE])
            if IMPALE in a_fx:
                imp = resolve_ruling(_r.IMPALE.id, overrides)
                if imp.answer == "roll-twice-keep-higher":
                    w2, faces2 = dice.roll_expr(weapon_dice, "damage")
                    best = max(w_total, w2)
                    w_step = Step.of(StepKind.RULING, f"Impale: weapon damage rolled twice, keep the higher",
                                     value=best, detail=f"{w_total} (faces {list(faces)}) and {w2} "
                                                        f"(faces {list(faces2)}) → {best}",
                                     cites=[ids.EX_DAMAGE, ids.EFFECTS], rulings=[imp])
                    w_total = best
        dsteps.append(w_step)
        # damage modifier
        dm_total = 0
        applies, dm_why = True, None
        if ranged:
            if a_weapon.damage_modifier_applies is not None:
                applies = a_weapon.damage_modifier_applies
                dm_why = Step.of(StepKind.RULE, "Damage Modifier " + ("applies" if applies else "does not apply")
                                 + f" ({a_weapon.name})", value=applies, cites=[ids.RANGED])
            else:
                use = resolve_ruling(_r.RANGED_DAMAGE_MODIFIER.id, overrides)
                applies = (use.answer == "always" or
                           (use.answer == "bows-and-thrown" and a_weapon.ranged is not RangedKind.FIREARM))
                dm_why = Step.of(StepKind.RULING, "Damage Modifier " + ("applies" if applies else "does not apply")
                                 + f" to a {a_weapon.ranged.value}", value=applies, cites=[ids.RANGED], rulings=[use])
            dsteps.append(dm_why)
        if applies:
            dm_row, dm_step = _damage_modifier(a, overrides)
            dsteps.append(dm_step)
            if a.charge:
                n = 2 if a.quadruped else 1
                dm_row, sstep = dmg.shift_damage_modifier(dm_row, n, "Charge" + (" (quadruped)" if a.quadruped else ""),
                                                          ids.CHARGE, "attacker.str_siz", overrides)
                dsteps.append(sstep)
            from ruleslawyer.dice import parse_dice
            dm_expr = parse_dice(dm_row.dice)
            if max_use is not None and (n_max >= 2 or max_use.answer == "weapon-and-modifier"):
                dm_total = dm_expr.max
                dsteps.append(Step.of(StepKind.RULING, f"Damage Modifier {dm_row.dice} maximised", value=dm_total,
                                      cites=[ids.EFFECTS, Citation(dm_row.row.unit_id)], rulings=[max_use]))
            elif not dm_expr.is_constant:
                dm_total, faces = dice.roll_expr(dm_expr, "damage_modifier")
                dsteps.append(Step.of(StepKind.ROLL, f"Damage Modifier {dm_row.dice}", value=dm_total,
                                      detail=f"faces {list(faces)}", cites=[ids.EX_DAMAGE, Citation(dm_row.row.unit_id)]))
        total = w_total + dm_total
        total, floor_use = dmg.floor_zero(total, overrides)
        dsteps.append(Step.of(StepKind.RESULT, "Damage rolled", value=total,
                              detail=f"{w_total} + ({dm_total})" + (" → 0" if floor_use else ""),
                              cites=[ids.EX_DAMAGE], rulings=[floor_use] if floor_use else []))
        # sizes: Charge and range
        att_size = a_size
        if a.charge:
            att_size, s = dmg.shift_size(att_size, 1, "Charge", ids.CHARGE, "attacker.weapon.size", overrides)
            dsteps.append(s)
        if a.range is RangeBand.LONG:
            half, use = dmg.halve(total, overrides)
            dsteps.append(Step.of(StepKind.MODIFIER, "Long range: damage halved", value=half,
                                  detail=f"{total} → {half}", cites=[ids.RANGED_LONG], rulings=[use]))
            total = half
            att_size, s = dmg.shift_size(att_size, -1, "Long range: Force drops one step", ids.RANGED_LONG,
                                         "attacker.weapon.force", overrides)
            dsteps.append(s)
        rolled = total
        # parry
        after = total
        parried = kind is Defence.PARRY and d_level.succeeded
        if kind is Defence.PARRY and not parried:
            dsteps.append(Step.of(StepKind.RULE, "The parry failed: it reduces nothing", value=after,
                                  cites=[ids.EX_PARRY_REDUCES]))
        elif parried:
            if ENHANCE_PARRY in d_fx and resolve_ruling(_r.ENHANCE_PARRY.id, overrides).answer == "stop-all":
                after = 0
                dsteps.append(Step.of(StepKind.RULING, "Enhance Parry: the parry stops all damage", value=0,
                                      cites=[ids.EX_PARRY_REDUCES, ids.EFFECTS],
                                      rulings=[resolve_ruling(_r.ENHANCE_PARRY.id, overrides)]))
            else:
                after, pstep = dmg.parry_stops(d_size, att_size, total, overrides,
                                               "Force vs parry Size" if ranged else "Parry Size")
                dsteps.append(Step.of(pstep.kind, pstep.label, pstep.value, pstep.detail,
                                      (ids.EX_PARRY_REDUCES, *pstep.cites), pstep.rulings))
        if not parried and d.ward is not None and location in d.ward.locations:
            use = resolve_ruling(_r.WARD_LOCATION.id, overrides)
            if use.answer == "block-as-parry":
                after, wstep = dmg.parry_stops(dmg.size_row(d.ward.size, "defender.ward.size"), att_size, after,
                                               overrides, f"Ward Location ({location})")
                dsteps.append(Step.of(StepKind.RULING, wstep.label, wstep.value, wstep.detail,
                                      (ids.MENU_FREE, Citation(_tables.action_row("Ward Location").unit_id,
                                                               "Ward Location: a passive block"), *wstep.cites),
                                      (use, *wstep.rulings)))
            else:
                dsteps.append(Step.of(StepKind.RULING, f"Ward Location ({location}) recorded", value=after,
                                      cites=[ids.MENU_FREE], rulings=[use]))
        after_parry = after
        # armour
        worn = dict(d.armour).get(location, 0)
        natural = d.natural_armour if isinstance(d.natural_armour, int) else dict(d.natural_armour).get(location, 0)
        a_children = [Step.of(StepKind.INFO, f"Worn armour at {location}", value=worn, cites=[ids.EX_ARMOUR]),
                      Step.of(StepKind.INFO, f"Natural armour at {location}", value=natural, cites=[ids.EX_ARMOUR])]
        n_bypass = a_fx.count(BYPASS_ARMOR)
        if n_bypass:
            use = resolve_ruling(_r.BYPASS_ARMOR.id, overrides)
            if use.answer == "all-armour" or n_bypass >= 2:
                ignored = "worn and natural"
                worn = natural = 0
            elif use.answer == "worn-then-natural":
                ignored, worn = "worn", 0
            else:
                ignored, natural = "natural", 0
            a_children.append(Step.of(StepKind.RULING, f"Bypass Armor ×{n_bypass}: {ignored} armour ignored",
                                      value=worn + natural, cites=[ids.EFFECTS], rulings=[use]))
        armour_total = worn + natural
        dealt, floor_use = dmg.floor_zero(after - armour_total, overrides)
        dsteps.append(Step.of(StepKind.MODIFIER, f"Armour at {location}: −{armour_total}", value=dealt,
                              detail=f"{after} − {armour_total} = {after - armour_total}" + (" → 0" if floor_use else ""),
                              cites=[ids.EX_ARMOUR], rulings=[floor_use] if floor_use else [], children=a_children))
        steps.append(Step.of(StepKind.RULE, "5–7. Damage", value=f"{dealt} to the {location}",
                             cites=[ids.EX_DAMAGE], children=[loc_step, *dsteps]))
    elif not a_level.succeeded:
        steps.append(Step.of(StepKind.RULE, "5. No damage: the attack did not succeed",
                             cites=[ids.EX_DAMAGE]))

    # ---- Effects recorded for the Games Master ----------------------------------------------------
    rec = []
    for who, fx in (("attacker", a_fx), ("defender", d_fx)):
        for name in dict.fromkeys(fx):
            if name in NUMERIC_EFFECTS and name not in (IMPALE,):
                continue
            row = _tables.effects()[name].row
            note = ("the weapon may stick in the wound" if name == IMPALE else
                    "its text is in the Combat reference; the Games Master applies it")
            rec.append(Step.of(StepKind.RULING, f"{name} ({who}): recorded", detail=note,
                               cites=[ids.EFFECTS_TEXT_ELSEWHERE, Citation(row.unit_id, name)],
                               rulings=[resolve_ruling(_r.EFFECT_TEXT.id, overrides)]))
    if rec:
        steps.append(Step.of(StepKind.INFO, "Special Effects to apply at the table", children=rec))

    summary = (f"{a.name} {a_level.value} vs {d.name} {d_level.value}"
               + (f"; {diff.winner} wins {won_a or won_d} Special Effect(s)" if (won_a or won_d) else "; no Special Effects")
               + (f"; {dealt} damage to the {location}" if hit else ""))
    trace = Step.of(StepKind.RESULT, "Mythras exchange",
                    value=f"{dealt} damage to the {location}" if hit else "no damage", detail=summary, children=steps)
    return ExchangeResult(attack, defence, kind, a_level, d_level, diff.winner if (won_a or won_d) else None,
                          won_a or won_d, eligible, tuple(a_fx), tuple(d_fx), hit, location, rolled, after_parry,
                          armour_total, dealt, prone, stray, dice.seed, trace)


def _damage_modifier(a: Attacker, overrides) -> tuple[_tables.DamageModifierRow, Step]:
    if a.damage_modifier is not None:
        want = str(a.damage_modifier).replace(" ", "").replace("−", "-")
        for row in _tables.damage_modifiers():
            if row.dice == want:
                return row, Step.of(StepKind.RULE, f"Damage Modifier {row.dice} (given)", value=row.dice,
                                    cites=[Citation(row.row.unit_id, "Damage Modifier row")])
        allowed = ", ".join(dict.fromkeys(r.dice for r in _tables.damage_modifiers()))
        raise RulesInputError("attacker.damage_modifier", f"unknown Damage Modifier {a.damage_modifier!r}; "
                                                          f"allowed: {allowed}")
    if a.str_siz is None:
        raise RulesInputError("attacker.str_siz", "give STR+SIZ (or damage_modifier) for the Damage Modifier")
    return dmg.damage_modifier_row(a.str_siz, "attacker.str_siz", overrides)
