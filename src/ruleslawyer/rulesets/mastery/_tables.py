"""The Mastery tables the engines run on, read from a rules database (never a copy in Python).

Every accessor takes the :class:`~ruleslawyer.rulesdb.handle.Rules` handle the caller resolved and
parses its table once per handle (``rules.cached``), keeping each row so a step cites the row it
used. A cell the engine cannot read raises :class:`~ruleslawyer.errors.RulesDataError` naming the
row; a name the caller asks for that no row has raises :class:`~ruleslawyer.errors.RulesInputError`
listing the rows.

Tables: the supplement's ``tier-dice``, ``named-dc``, ``damage-types`` and ``action-costs``, and the
chapter's ``other-actions`` and ``trauma`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.errors import RulesDataError, RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.tables import RuleTable, TableRow, cell

from . import ids

__all__ = ["TierDie", "NamedDC", "DamageClass", "ActionCost", "tier_dice", "named_dcs", "damage_types",
           "action_costs", "action_cost", "trauma_table"]


@dataclass(frozen=True)
class TierDie:
    """A tier and the die it rolls (``sides``), with its supplement row."""

    tier: int
    sides: int
    row: TableRow


@dataclass(frozen=True)
class NamedDC:
    """A named difficulty (Easy, Straightforward, Tricky) and its DC, with its supplement row."""

    name: str
    dc: int
    row: TableRow


@dataclass(frozen=True)
class DamageClass:
    """How a damage type sorts: mundane or magical, energy or material, with its supplement row."""

    mundane: bool
    energy: bool
    row: TableRow


@dataclass(frozen=True)
class ActionCost:
    """What an action costs in AP, with its row (the chapter's Other Actions table or the
    supplement's action-costs table): its notes (Other Actions) and what can oppose it (action
    costs; ``""`` for nothing)."""

    name: str
    ap: int
    notes: str
    opposed_by: str
    row: TableRow


def _whole(row: TableRow, col: int, what: str, prefix: str = "") -> int:
    text = row.cells[col].strip() if col < len(row.cells) else ""
    digits = text.removeprefix(prefix)
    if not digits.isdigit():
        raise RulesDataError(f"{row.unit_id}: {what} must be {prefix or ''}a whole number, got {text!r}")
    return int(digits)


def tier_dice(rules: Rules) -> dict[int, TierDie]:
    """Tier -> :class:`TierDie` from ``mastery/supplement/tables/tier-dice`` (tier 1 d2, 2 d3, 3 d4)."""
    def build() -> dict[int, TierDie]:
        rows = rules.table(ids.TIER_DICE_TABLE).rows
        return {t.tier: t for t in (TierDie(_whole(r, 0, "the tier"), _whole(r, 1, "the die", "d"), r)
                                    for r in rows)}
    return rules.cached("mastery:tier-dice", build)


def named_dcs(rules: Rules) -> dict[str, NamedDC]:
    """Lower-cased name -> :class:`NamedDC` from ``mastery/supplement/tables/named-dc``."""
    def build() -> dict[str, NamedDC]:
        rows = rules.table(ids.NAMED_DC_TABLE).rows
        return {r.cells[0].strip().lower(): NamedDC(r.cells[0].strip(), _whole(r, 1, "the DC"), r) for r in rows}
    return rules.cached("mastery:named-dc", build)


def damage_types(rules: Rules) -> dict[str, DamageClass]:
    """Lower-cased type -> :class:`DamageClass` from ``mastery/supplement/tables/damage-types``."""
    def build() -> dict[str, DamageClass]:
        out = {}
        for r in rules.table(ids.DAMAGE_TYPES_TABLE).rows:
            kind, form = (r.cells[1].strip(), r.cells[2].strip()) if len(r.cells) > 2 else ("", "")
            if kind not in ("Mundane", "Magical") or form not in ("Energy", "Material"):
                raise RulesDataError(f"{r.unit_id}: a damage type is Mundane or Magical and Energy or Material, "
                                     f"got {kind!r} and {form!r}")
            out[r.cells[0].strip().lower()] = DamageClass(kind == "Mundane", form == "Energy", r)
        return out
    return rules.cached("mastery:damage-types", build)


def action_costs(rules: Rules) -> dict[str, ActionCost]:
    """Lower-cased action -> :class:`ActionCost`: the chapter's Other Actions table
    (``mastery/combat/tables/other-actions``), then the supplement's action-costs table
    (``mastery/supplement/tables/action-costs``), which prices what the chapter prices in its text."""
    def build() -> dict[str, ActionCost]:
        out: dict[str, ActionCost] = {}
        for table_id in (ids.OTHER_ACTIONS_TABLE, ids.ACTION_COSTS_TABLE):
            table = rules.table(table_id)
            for r in table.rows:
                name = r.cells[0].strip()
                if name.lower() in out:
                    raise RulesDataError(f"{r.unit_id}: the action {name!r} is priced twice (also "
                                         f"{out[name.lower()].row.unit_id})")
                ap = cell(table, r, "AP")
                if not ap.isdigit():
                    raise RulesDataError(f"{r.unit_id}: the AP cost must be a whole number, got {ap!r}")
                notes = cell(table, r, "Notes") if "Notes" in table.columns else ""
                opposed = cell(table, r, "Opposed") if "Opposed by" in table.columns else ""
                out[name.lower()] = ActionCost(name, int(ap), notes, "" if opposed in ("", "—") else opposed, r)
        return out
    return rules.cached("mastery:action-costs", build)


def action_cost(name: str, rules: Rules, field: str = "action") -> ActionCost:
    """The :class:`ActionCost` of the action called ``name`` (case-insensitive).

    Raises:
        RulesInputError: no row has that name (field ``field``; the message lists the actions).
    """
    costs = action_costs(rules)
    found = costs.get(str(name).strip().lower())
    if found is None:
        raise RulesInputError(field, f"no action {name!r} in the Other Actions or action-costs tables; allowed: "
                                     f"{'; '.join(c.name for c in costs.values())}")
    return found


def trauma_table(rules: Rules) -> RuleTable:
    """The d100 Trauma table ``mastery/combat/tables/trauma`` as stored in ``rules``."""
    return rules.table(ids.TRAUMA_TABLE)
