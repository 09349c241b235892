"""Mythras damage: weapon Size and Force, the Damage Modifier, parry Size, hit location and armour.

Everything tabular is read from the supplement tables in the rules database (``weapon-size``,
``parry-size``, ``damage-modifier``, ``hit-location-humanoid``); every step cites the row used.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesDataError

import math
from collections.abc import Mapping
from fractions import Fraction

from ruleslawyer.dice import Dice, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, resolve_ruling

from . import _tables, ids, rulings

__all__ = [
    "size_row", "size_names", "shift_size", "MAX_STR_SIZ", "damage_modifier_row", "shift_damage_modifier", "halve",
    "floor_zero", "parry_stops", "location_names", "check_location", "roll_location", "parse_weapon_dice",
]


def size_names(rules: Rules | None = None) -> tuple[str, ...]:
    """The Sizes, smallest first (``weapon-size``): Small, Medium, Large, Huge, Enormous."""
    return tuple(s.name for s in _tables.sizes(resolve_rules(rules)))


def size_row(name: object, field: str, *, rules: Rules | None = None) -> _tables.SizeRow:
    """The ``weapon-size`` row of a Size name (case-insensitive), from ``rules`` (default database).

    Raises:
        RulesInputError: unknown Size, naming ``field`` and the allowed names.
    """
    rules = resolve_rules(rules)
    if isinstance(name, str):
        for s in _tables.sizes(rules):
            if s.name.lower() == name.strip().lower():
                return s
    raise RulesInputError(field, f"unknown Size {name!r}; allowed: {', '.join(size_names(rules))}")


def _past_end(what: str, field: str, overrides) -> RulingUse:
    use = resolve_ruling(rulings.STEP_PAST_END.id, overrides)
    if use.answer == "refuse":
        raise RulesInputError(field, f"{what} goes past the end of its table (ruling "
                                     f"{rulings.STEP_PAST_END.id} = refuse)")
    return use


def shift_size(size: _tables.SizeRow, steps: int, why: str, cite: str, field: str,
               overrides: Mapping[str, str] | None = None, *, rules: Rules | None = None
               ) -> tuple[_tables.SizeRow, Step]:
    """Move a Size ``steps`` along the ``weapon-size`` ladder (Charge +1, Long range Force −1).

    Past Enormous or below Small the ruling ``mythras.step-past-end`` applies.
    """
    ladder = _tables.sizes(resolve_rules(rules))
    i = ladder.index(size) + steps
    uses = []
    if not 0 <= i < len(ladder):
        uses.append(_past_end(f"{size.name} {steps:+d} step", field, overrides))
        i = min(max(i, 0), len(ladder) - 1)
    new = ladder[i]
    return new, Step.of(StepKind.MODIFIER, f"{why}: Size {size.name} → {new.name}", value=new.name,
                        detail=f"{steps:+d} step{'s' if abs(steps) != 1 else ''}"
                               + (" (stays at the end of the Size steps)" if uses else ""),
                        cites=[cite, Citation(new.row.unit_id, f"{new.name} is step {new.step}")], rulings=uses)


MAX_STR_SIZ = 999
"""Largest STR+SIZ the engine accepts (a sanity bound on input, like the skill's, not a rule)."""


def _modifier_past_table(index: int, what: str, field: str, overrides, rules: Rules
                         ) -> tuple[_tables.DamageModifierRow, RulingUse]:
    """Table index ``index`` past the last row, under ruling ``mythras.damage-modifier-ladder``."""
    use = resolve_ruling(rulings.DAMAGE_MODIFIER_LADDER.id, overrides)
    if use.answer == "refuse":
        raise RulesInputError(field, f"{what} goes past the Damage Modifier table (ruling "
                                     f"{rulings.DAMAGE_MODIFIER_LADDER.id} = refuse)")
    if use.answer == "stay-at-end":
        return _tables.damage_modifiers(rules)[-1], use
    return _tables.continued_modifier(index, rules), use


def damage_modifier_row(str_siz: object, field: str, overrides: Mapping[str, str] | None = None, *,
                        rules: Rules | None = None) -> tuple[_tables.DamageModifierRow, Step]:
    """The Damage Modifier for STR+SIZ (``damage-modifier``): 21–25 -> +0, 26–30 -> +1d2, ≤5 -> −1d8.

    Past the table's last band (111–120) the progression goes on one step per 10 points (the
    supplement's paragraph; ruling ``mythras.damage-modifier-ladder``): 125 -> +2d10+1d4.

    Raises:
        RulesInputError: STR+SIZ not a whole number from 0 to :data:`MAX_STR_SIZ` (naming ``field``).
    """
    if isinstance(str_siz, bool) or not isinstance(str_siz, int) or not 0 <= str_siz <= MAX_STR_SIZ:
        raise RulesInputError(field, f"STR+SIZ must be a whole number from 0 to {MAX_STR_SIZ}, got {str_siz!r}")
    rules = resolve_rules(rules)
    bands = _tables.damage_modifiers(rules)
    for band in bands:
        if (band.low is None or band.low <= str_siz) and (band.high is None or str_siz <= band.high):
            chosen = band
            break
    else:
        steps = -(-(str_siz - bands[-1].high) // _tables.modifier_ladder(rules).width)
        chosen, use = _modifier_past_table(len(bands) - 1 + steps, f"STR+SIZ {str_siz}", field, overrides, rules)
        last = bands[-1].band
        detail = (f"STR+SIZ {str_siz} is past the table's last band {last}; its row is kept" if chosen.row else
                  f"STR+SIZ {str_siz} is in the band {chosen.band}, {steps} step{'s' if steps > 1 else ''} past "
                  f"the table's last band {last} (the progression continues one step per 10 points)")
        return chosen, Step.of(StepKind.RULING, f"Damage Modifier {chosen.dice}", value=chosen.dice, detail=detail,
                               cites=[Citation(chosen.unit_id, "Damage Modifier band")], rulings=[use])
    return chosen, Step.of(StepKind.RULE, f"Damage Modifier {chosen.dice}", value=chosen.dice,
                           detail=f"STR+SIZ {str_siz} is in the band {chosen.band}",
                           cites=[Citation(chosen.unit_id, "Damage Modifier band")])


def shift_damage_modifier(row: _tables.DamageModifierRow, steps: int, why: str, cite: str, field: str,
                          overrides: Mapping[str, str] | None = None, *, rules: Rules | None = None
                          ) -> tuple[_tables.DamageModifierRow, Step]:
    """Move a Damage Modifier ``steps`` steps up its table (a biped Charge +1, a quadruped +2).

    Past the last row the progression goes on (ruling ``mythras.damage-modifier-ladder``); below the
    first row ruling ``mythras.step-past-end`` applies.
    """
    rules = resolve_rules(rules)
    bands = _tables.damage_modifiers(rules)
    i = _modifier_index(row, rules) + steps
    uses = []
    if i < 0:
        uses.append(_past_end(f"Damage Modifier {row.dice} {steps:+d} steps", field, overrides))
        new = bands[0]
    elif i >= len(bands):
        new, use = _modifier_past_table(i, f"Damage Modifier {row.dice} {steps:+d} steps", field, overrides, rules)
        uses.append(use)
    else:
        new = bands[i]
    return new, Step.of(StepKind.MODIFIER, f"{why}: Damage Modifier {row.dice} → {new.dice}", value=new.dice,
                        detail=f"{steps:+d} step{'s' if abs(steps) != 1 else ''}",
                        cites=[cite, Citation(new.unit_id, "Damage Modifier row")], rulings=uses)


def _modifier_index(row: _tables.DamageModifierRow, rules: Rules) -> int:
    """The step number of a Damage Modifier row (0 = the table's first), past the table included."""
    bands = _tables.damage_modifiers(rules)
    if row in bands:
        return bands.index(row)
    return len(bands) - 1 + -(-(row.high - bands[-1].high) // _tables.modifier_ladder(rules).width)


def halve(amount: int, overrides: Mapping[str, str] | None = None) -> tuple[int, RulingUse]:
    """Half of ``amount`` that still gets through, rounded by ``mythras.halving`` (7 -> 4 by default)."""
    use = resolve_ruling(rulings.HALVING.id, overrides)
    half = Fraction(amount, 2)
    return (math.ceil(half) if use.answer == "round-up" else math.floor(half)), use


def floor_zero(amount: int, overrides: Mapping[str, str] | None = None) -> tuple[int, RulingUse | None]:
    """``max(amount, 0)`` under ``mythras.damage-floor``; the ruling use only when it bit."""
    if amount >= 0:
        return amount, None
    return 0, resolve_ruling(rulings.DAMAGE_FLOOR.id, overrides)


def parry_stops(parry: _tables.SizeRow, attack: _tables.SizeRow, damage: int,
                overrides: Mapping[str, str] | None = None, label: str = "Parry Size", *,
                rules: Rules | None = None) -> tuple[int, Step]:
    """Damage left after a *successful* parry (``parry-size``).

    Parry Size ≥ attack Size stops all; one step smaller stops half (``mythras.halving``);
    two or more steps smaller stops none.

    Returns:
        ``(damage through, step)``.
    """
    smaller = attack.step - parry.step
    for row in _tables.parry_sizes(resolve_rules(rules)):
        lo, hi = row.min_steps_smaller, row.max_steps_smaller
        if (lo == 0 and smaller <= 0) or (lo > 0 and lo <= smaller and (hi is None or smaller <= hi)):
            band = row
            break
    else:  # pragma: no cover - the table covers every difference
        raise RulesDataError(f"no parry-size row covers a parry {smaller} steps smaller")
    uses = []
    if band.stopped == "all":
        through = 0
    elif band.stopped == "half":
        through, use = halve(damage, overrides)
        uses.append(use)
    else:
        through = damage
    chapter = {"all": ids.EX_PARRY_FULL, "half": ids.EX_PARRY_HALF}.get(band.stopped, ids.EX_PARRY_NONE)
    rel = "equal or larger" if smaller <= 0 else f"{smaller} step{'s' if smaller > 1 else ''} smaller"
    return through, Step.of(StepKind.MODIFIER, f"{label}: {parry.name} vs {attack.name}, stops {band.stopped}",
                            value=through, detail=f"parry is {rel}: {damage} → {through} gets through",
                            cites=[chapter, Citation(band.row.unit_id, "parry-size row")], rulings=uses)


def location_names(rules: Rules | None = None) -> tuple[str, ...]:
    """The humanoid hit locations in table order (Right Leg … Head)."""
    t = _tables.hit_locations(resolve_rules(rules))
    return tuple(_tables.cell(t, r, "Location") for r in t.rows)


def check_location(name: object, field: str, *, rules: Rules | None = None) -> str:
    """Validate a hit location name (case-insensitive) and return the table's spelling.

    Raises:
        RulesInputError: unknown location, naming ``field`` and the allowed names.
    """
    names = location_names(rules)
    if isinstance(name, str):
        for loc in names:
            if loc.lower() == name.strip().lower():
                return loc
    raise RulesInputError(field, f"unknown hit location {name!r}; allowed: {', '.join(names)}")


def roll_location(dice: Dice, *, rules: Rules | None = None) -> tuple[str, Step]:
    """Roll 1d20 on ``hit-location-humanoid`` (slot ``location``); the step cites the row landed on."""
    t = _tables.hit_locations(resolve_rules(rules))
    face = dice.roll(t.sides, "location")
    row = t.row_for(face)
    name = _tables.cell(t, row, "Location")
    span = f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}"
    return name, Step.of(StepKind.ROLL, f"Hit location: {name}", value=face,
                                 detail=f"{t.dice} = {face}, row {span}",
                                 cites=[ids.EX_DAMAGE, Citation(row.unit_id, f"row {span}")])


def parse_weapon_dice(expr: object, field: str):
    """Parse a weapon damage expression (``"1d8"``, ``"1d10+1"``), naming ``field`` on error."""
    if not isinstance(expr, str):
        raise RulesInputError(field, f"weapon damage must be dice like '1d8', got {expr!r}")
    try:
        parsed = parse_dice(expr)
    except RulesInputError as exc:
        raise RulesInputError(field, exc.message) from None
    if parsed.min < 0 or parsed.is_constant and parsed.modifier <= 0:
        raise RulesInputError(field, f"weapon damage must roll at least 0, got {expr!r}")
    return parsed
