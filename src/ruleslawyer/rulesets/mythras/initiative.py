"""Mythras Initiative (``mythras/combat/setup#1``) and surprise (``mythras/combat/surprise#1``).

Initiative = 1d10 + Initiative Modifier − the highest Armor Points worn, −10 when surprised.
Highest goes first; DEX breaks ties, then a die roll (ruling ``mythras.roll-off-die``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import check_attrs, dice_script
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step, StepKind, TracedResult, resolve_ruling

from . import ids, rulings as _r
from .schema import INITIATIVE_COMBATANT, INITIATIVE_SLOTS

__all__ = ["InitiativeCombatant", "InitiativeEntry", "InitiativeResult", "roll_initiative", "SURPRISE_PENALTY",
           "SLOTS"]

SURPRISE_PENALTY = 10
"""Initiative lost by an ambushed target (``mythras/combat/surprise#1``: "–10 Initiative")."""

SLOTS = INITIATIVE_SLOTS
"""Scripted-dice slots: one d10 per combatant in input order, then roll-offs in tie order."""


@dataclass(frozen=True)
class InitiativeCombatant:
    """One combatant.

    Attributes:
        name: unique name.
        initiative_modifier: the Initiative bonus (any whole number).
        dex: DEX, breaks ties.
        armour_points: the highest Armor Points worn on any location (subtracted).
        surprised: ambushed this Round.
        roll: a d10 already rolled at the table (1..10), or None to roll.
    """

    name: str
    initiative_modifier: int = 0
    dex: int = 10
    armour_points: int = 0
    surprised: bool = False
    roll: int | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], field: str) -> InitiativeCombatant:
        """Build from JSON, read strictly by :data:`.schema.INITIATIVE_COMBATANT`; ``armour``
        (location -> AP) may replace ``armour_points`` (its highest value counts).

        Raises:
            RulesInputError: naming ``<field>.<key>``: an unknown field (did you mean ...?), text for a
                boolean (``"surprised": "false"``) or a number, a value past its bound.
        """
        c = INITIATIVE_COMBATANT.read(d, field)
        ap = max(c["armour"].values(), default=0) if "armour" in c else c.get("armour_points", 0)
        return cls(name=c["name"], initiative_modifier=c.get("initiative_modifier", 0), dex=c.get("dex", 10),
                   armour_points=ap, surprised=c.get("surprised", False), roll=c.get("roll"))


@dataclass(frozen=True)
class InitiativeEntry:
    """A combatant's place: the d10, the total, DEX, any roll-off faces, and flat-footedness."""

    name: str
    roll: int
    total: int
    dex: int
    roll_offs: tuple[int, ...]
    surprised: bool


@dataclass(frozen=True)
class InitiativeResult(TracedResult):
    """Initiative order, highest first (``order``), with the dice seed and trace."""

    order: tuple[InitiativeEntry, ...]
    seed: int | None
    trace: Step


def roll_initiative(combatants: Sequence[InitiativeCombatant], *, dice: Dice | None = None, rng=None,
                    seed: int | None = None, script: Mapping[str, Sequence[int]] | None = None,
                    rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> InitiativeResult:
    """Roll Initiative and order the combatants (``mythras/combat/setup#1``, ``surprise#1``).

    Example: modifier 13, worn armour 2 (highest), d10 = 6 -> 6 + 13 − 2 = 17; surprised -> 7.

    Args:
        combatants: who takes part, each with a unique name.
        dice: the dice; else built from ``rng`` / ``seed`` / ``script`` (slots ``initiative``,
            ``tiebreak``).
        rulings: ruling overrides, e.g. ``{"mythras.roll-off-die": "1d100"}``.
        rules: the rules database, taken like every Mythras entry point's (Initiative reads no table
            today: its numbers are the chapter's own).

    Raises:
        RulesInputError: no combatants, a repeated or empty name, or a bad number (naming the field,
            e.g. ``combatants[1].dex``).
    """
    resolve_rules(rules)
    overrides = dict(rulings or {})
    check_rulings(overrides, "mythras")
    _check(combatants)
    dice = dice or Dice(rng=rng, seed=seed, script=dice_script(script, SLOTS))
    rolled: dict[str, tuple[int, int]] = {}
    steps: dict[str, Step] = {}
    for c in combatants:
        rolled[c.name], steps[c.name] = _total(c, dice)
    order_names, roll_offs, tie_steps = _order(combatants, rolled, dice, overrides)
    by_name = {c.name: c for c in combatants}
    order = tuple(InitiativeEntry(n, rolled[n][0], rolled[n][1], by_name[n].dex, tuple(roll_offs[n]),
                                  by_name[n].surprised) for n in order_names)
    # each combatant's working, listed in the order they act (the order line repeats it)
    children = [*(steps[n] for n in order_names), *tie_steps,
                Step.of(StepKind.RESULT, "Order", value=[e.name for e in order],
                        detail=", ".join(f"{e.name} {e.total}" for e in order) + " (highest goes first)",
                        cites=[ids.INITIATIVE])]
    trace = Step.of(StepKind.RESULT, "Mythras Initiative", value=[e.name for e in order],
                    detail=" > ".join(e.name for e in order), children=children)
    return InitiativeResult(order, dice.seed, trace)


def _check(combatants: Sequence[InitiativeCombatant]) -> None:
    if not combatants:
        raise RulesInputError("combatants", "give at least one combatant")
    seen = set()
    for i, c in enumerate(combatants):
        f = f"combatants[{i}]"
        if not isinstance(c.name, str) or not c.name.strip():
            raise RulesInputError(f"{f}.name", "every combatant needs a name")
        if c.name in seen:
            raise RulesInputError(f"{f}.name", f"the name {c.name!r} is used twice")
        seen.add(c.name)
        check_attrs(c, INITIATIVE_COMBATANT, f, ("initiative_modifier", "dex", "armour_points", "surprised", "roll"))


def _total(c: InitiativeCombatant, dice: Dice) -> tuple[tuple[int, int], Step]:
    """One combatant's (d10, Initiative) and its step: 1d10 + modifier − highest AP worn (−10 surprised)."""
    face = c.roll if c.roll is not None else dice.roll(10, "initiative")
    total = face + c.initiative_modifier - c.armour_points - (SURPRISE_PENALTY if c.surprised else 0)
    children = [Step.of(StepKind.ROLL, "1d10", value=face, detail="entered" if c.roll is not None else "rolled",
                        cites=[ids.INITIATIVE]),
                Step.of(StepKind.MODIFIER, "Initiative Modifier", value=c.initiative_modifier,
                        cites=[ids.INITIATIVE]),
                Step.of(StepKind.MODIFIER, "Highest Armor Points worn", value=-c.armour_points,
                        cites=[ids.INITIATIVE])]
    if c.surprised:
        children.append(Step.of(StepKind.MODIFIER, "Surprised", value=-SURPRISE_PENALTY,
                                detail="flat-footed until this Initiative arrives: cannot defend, and no "
                                       "offensive actions this Round", cites=[ids.SURPRISE]))
    sign = "−" if c.armour_points >= 0 else "+"
    return (face, total), Step.of(StepKind.RESULT, f"{c.name}: Initiative {total}", value=total,
                                  detail=f"{face} + {c.initiative_modifier} {sign} {c.armour_points}"
                                         + (f" − {SURPRISE_PENALTY}" if c.surprised else "") + f" = {total}",
                                  children=children)


def _order(combatants: Sequence[InitiativeCombatant], rolled: dict[str, tuple[int, int]], dice: Dice,
           overrides: Mapping[str, str]) -> tuple[list[str], dict[str, list[int]], list[Step]]:
    """Highest Initiative first; DEX breaks ties, then roll-offs (ruling ``mythras.roll-off-die``).

    Returns:
        The names in order, each name's roll-off faces, and the tie steps.
    """
    by_name = {c.name: c for c in combatants}
    roll_offs: dict[str, list[int]] = {c.name: [] for c in combatants}
    use = resolve_ruling(_r.ROLL_OFF_DIE.id, overrides)
    die = parse_dice(use.answer)
    tie_steps: list[Step] = []

    def settle(names: list[str]) -> list[str]:
        """Order a group tied on total and DEX by repeated roll-offs."""
        if len(names) == 1:
            return names
        faces = {}
        for n in names:
            faces[n], _ = dice.roll_expr(die, "tiebreak")
            roll_offs[n].append(faces[n])
        tie_steps.append(Step.of(StepKind.ROLL, f"Roll-off ({use.answer}): "
                                 + ", ".join(f"{n} {faces[n]}" for n in names), value=dict(faces),
                                 detail="still tied on Initiative and DEX", cites=[ids.INITIATIVE], rulings=[use]))
        out = []
        for v in sorted(set(faces.values()), reverse=True):
            out += settle([n for n in names if faces[n] == v])
        return out

    order_names: list[str] = []
    for t in sorted({t for _, t in rolled.values()}, reverse=True):
        group = [c.name for c in combatants if rolled[c.name][1] == t]
        if len(group) == 1:
            order_names += group
            continue
        tie_steps.append(Step.of(StepKind.COMPARE, f"Tie on {t}: DEX " + ", ".join(
            f"{n} {by_name[n].dex}" for n in group), value=t, detail="DEX breaks ties", cites=[ids.INITIATIVE]))
        for dx in sorted({by_name[n].dex for n in group}, reverse=True):
            order_names += settle([n for n in group if by_name[n].dex == dx])
    return order_names, roll_offs, tie_steps
