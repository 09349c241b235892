"""The context every exchange stage reads: the input, the dice, the ruling overrides, the rules.

:func:`open_exchange` checks the whole input once (each field against the tables of the rules
database in use) and gives the frozen :class:`ExchangeContext` the stages share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.dice import Dice, DiceExpr
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Ruling, RulingUse, resolve_ruling

from .. import _tables, damage as dmg
from ..inputs import Attacker, Defender, ExchangeInput, FireMode, RangedKind
from ..levels import DifficultyGrade, _enum, check_skill

__all__ = ["ExchangeContext", "open_exchange"]


@dataclass(frozen=True)
class ExchangeContext:
    """What every stage of one exchange reads; stages never change it.

    Attributes:
        inp: the exchange input.
        dice: the dice every roll is taken from (scripted slots or a seeded generator).
        overrides: ruling overrides, ruling id -> answer (already checked).
        rules: the rules database whose tables the stages read.
        attack_base, defence_base: the situational grades given for the attack and the defence.
        attack_size: the ``weapon-size`` row of the attacking weapon's Size (Force when ranged).
        weapon_dice: the attacking weapon's damage dice.
    """

    inp: ExchangeInput
    dice: Dice
    overrides: Mapping[str, str]
    rules: Rules
    attack_base: DifficultyGrade
    defence_base: DifficultyGrade
    attack_size: _tables.SizeRow
    weapon_dice: DiceExpr

    @property
    def a(self) -> Attacker:
        """The attacker."""
        return self.inp.attacker

    @property
    def d(self) -> Defender:
        """The defender."""
        return self.inp.defender

    @property
    def ranged(self) -> bool:
        """The attack is made with a ranged weapon."""
        return self.a.weapon.ranged is not None

    def ruling(self, ruling: Ruling) -> RulingUse:
        """The answer of ``ruling`` for this exchange (the caller's override, else the default)."""
        return resolve_ruling(ruling.id, self.overrides)


def open_exchange(inp: ExchangeInput, dice: Dice, overrides: Mapping[str, str], rules: Rules) -> ExchangeContext:
    """Check the input against the rules tables and build the context.

    Raises:
        RulesInputError: a bad field, named (skill −5 -> ``attacker.skill``; an unknown Size ->
            ``attacker.weapon.size``; a range on a melee weapon -> ``attacker.range``).
    """
    a, d = inp.attacker, inp.defender
    check_skill(a.skill, "attacker.skill")
    check_skill(d.skill, "defender.skill")
    ranged = a.weapon.ranged is not None
    size = dmg.size_row(a.weapon.size, "attacker.weapon.force" if ranged else "attacker.weapon.size", rules=rules)
    weapon_dice = dmg.parse_weapon_dice(a.weapon.damage, "attacker.weapon.damage")
    a_grade = _enum(DifficultyGrade, a.difficulty, "attacker.difficulty")
    d_grade = _enum(DifficultyGrade, d.difficulty, "defender.difficulty")
    _check_attacker(a, ranged, rules)
    _check_defender(d, rules)
    return ExchangeContext(inp, dice, overrides, rules, a_grade, d_grade, size, weapon_dice)


def _check_attacker(a: Attacker, ranged: bool, rules: Rules) -> None:
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
        dmg.check_location(a.chosen_location, "attacker.chosen_location", rules=rules)
    _check_fire_mode(a)
    if a.set_against_charge:
        raise RulesInputError("attacker.set_against_charge", "a weapon set against a charge acts only as the "
                                                             "counter to a Charge: give it as 'counter'")


def _check_defender(d: Defender, rules: Rules) -> None:
    for name, pairs in (("armour", d.armour),
                        ("natural_armour", d.natural_armour if not isinstance(d.natural_armour, int) else ())):
        for loc, _ in pairs:
            dmg.check_location(loc, f"defender.{name}", rules=rules)
    if d.ward is not None:
        for loc in d.ward.locations:
            dmg.check_location(loc, "defender.ward.locations", rules=rules)
        dmg.size_row(d.ward.size, "defender.ward.size", rules=rules)
    if isinstance(d.action_points, bool) or not isinstance(d.action_points, int) or d.action_points < 0:
        raise RulesInputError("defender.action_points", f"must be a whole number from 0, got {d.action_points!r}")


def _check_fire_mode(a: Attacker) -> None:
    mode = a.fire_mode
    spray = mode in (FireMode.BURST, FireMode.FULL_AUTO)
    if mode is not None and a.weapon.ranged is not RangedKind.FIREARM:
        raise RulesInputError("attacker.fire_mode", "only a firearm (weapon.ranged: firearm) has a fire mode")
    if spray and (isinstance(a.rounds, bool) or not isinstance(a.rounds, int) or not 1 <= a.rounds <= 100):
        raise RulesInputError("attacker.rounds", f"a {mode.value} needs the rounds fired at this target, a whole "
                                                 f"number from 1 to 100, got {a.rounds!r}")
    if not spray and a.rounds is not None:
        raise RulesInputError("attacker.rounds", "rounds belong to a burst or full-auto fire_mode")
