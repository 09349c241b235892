"""The AP planner: a list of actions -> AP, rounds, and cited steps.

Costs come from the chapter: the Other Actions table (``mastery/combat/tables/other-actions``,
loaded from the db), weapon switching and shield removal (``.../initiative-phases#7-8``), item
retrieval from a quick slot, the body or a container (``.../interaction#2-5``), casting
(``.../casting#1``, ``#5``), movement, attacks and Triage. Every combatant has 2 AP per round
(``mastery/combat/action-points#1``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from . import ids
from .tiers import load_table

__all__ = ["AP_PER_ROUND", "APPlan", "plan_actions", "ACTION_KEYS"]

AP_PER_ROUND = 2
"""All combatants have 2 AP per round (``mastery/combat/action-points#1``)."""

ACTION_KEYS = ("table", "retrieve", "stow", "draw", "swap", "drop", "remove_shield", "cast", "move", "attack",
               "triage")
"""The action kinds :func:`plan_actions` understands (one key per action object)."""

_SHIELDS = {"heater": 1, "kite": 1, "targe": 0}
_WHERE = {"quick": (0, ids.QUICK_ITEM), "body": (1, ids.BODY_ITEM), "container": (2, ids.CONTAINER_ITEM)}


@dataclass(frozen=True)
class APPlan(TracedResult):
    """Total AP, the rounds it takes at 2 AP per round, and each action's cost."""

    ap: int
    rounds: int
    costs: tuple[tuple[str, int], ...]
    trace: Step


def _nonneg(v: Any, field: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
        rng = f"from {low} to {high}" if high is not None else f">= {low}"
        raise RulesInputError(field, f"must be a whole number {rng}, got {v!r}")
    return v


def _table_row(name: str, field: str, rules: Rules):
    table = load_table(ids.OTHER_ACTIONS_TABLE, rules)
    for row in table.rows:
        if row.cells[0].lower() == str(name).lower().strip():
            return row
    raise RulesInputError(field, f"no such row of the Other Actions table: {name!r}; allowed: "
                                 f"{'; '.join(r.cells[0] for r in table.rows)}")


def _one(action: Mapping[str, Any], i: int, rules: Rules) -> tuple[str, int, Step]:
    f = f"actions[{i}]"
    if not isinstance(action, Mapping):
        raise RulesInputError(f, "must be an object with one of: " + ", ".join(ACTION_KEYS))
    keys = [k for k in action if k in ACTION_KEYS]
    if len(keys) != 1:
        raise RulesInputError(f, f"needs exactly one of {', '.join(ACTION_KEYS)}, got {sorted(action)}")
    kind = keys[0]
    v = action[kind]
    if kind == "table":
        row = _table_row(v, f"{f}.table", rules)
        ap = int(row.cells[1])
        cites: list[str | Citation] = [row.unit_id]
        adjust = action.get("adjust", 0)
        if adjust:
            if "tinderbox" not in row.cells[0].lower():
                raise RulesInputError(f"{f}.adjust", "only lighting with a tinderbox can be adjusted (by up to 2 AP)")
            _nonneg(abs(adjust) if isinstance(adjust, int) and not isinstance(adjust, bool) else adjust,
                    f"{f}.adjust", 0, 2)
            ap += adjust
            cites.append(ids.TINDERBOX_ADJUST)
        return row.cells[0], ap, Step.of(StepKind.RULE, row.cells[0], ap, detail=row.cells[2] +
                                         (f"; GM adjusts by {adjust:+d}" if adjust else ""), cites=cites)
    if kind == "retrieve":
        where = str(v).lower()
        if where not in _WHERE:
            raise RulesInputError(f"{f}.retrieve", f"unknown place {v!r}; allowed: quick, body, container")
        cost, cite = _WHERE[where]
        items = action.get("items", [])
        if isinstance(items, str):
            items = [items]
        if items is None:
            items = []
        if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
            raise RulesInputError(f"{f}.items", f"must be a list of item names, got {items!r}")
        use = _nonneg(action.get("use", 0), f"{f}.use")
        what = ", ".join(items) or "item"
        children = [Step.of(StepKind.RULE, f"Retrieve {what} ({where})", cost, cites=[cite] + (
            [_table_row("Item, Retrieve Stored", f, rules).unit_id]
            if where == "container" else []))]
        if where == "container" and len(items) > 1:
            children.append(Step.of(StepKind.RULE, "One retrieval gets everything you need from that container",
                                    len(items), cites=[ids.CONTAINER_ITEM]))
        if use:
            children.append(Step.of(StepKind.RULE, f"Use {what}", use, detail="its use costs what the item requires",
                                    cites=[ids.INTERACTION, ids.COST_INTERACTION]))
        return f"retrieve {what} from {where}" + (" and use" if use else ""), cost + use, Step.of(
            StepKind.RESULT, f"Retrieve {what} from {where}" + (" and use it" if use else ""), cost + use,
            children=children)
    if kind == "stow":
        return f"stow {v}", 1, Step.of(StepKind.RULE, f"Stow {v}", 1, cites=[ids.WEAPON_SWITCHING, ids.STOW_ITEM])
    if kind == "draw":
        return f"draw {v}", 1, Step.of(StepKind.RULE, f"Draw {v}", 1, cites=[ids.WEAPON_SWITCHING, ids.BODY_ITEM])
    if kind == "swap":
        what = " -> ".join(v) if isinstance(v, (list, tuple)) else str(v)
        return f"swap {what}", 2, Step.of(StepKind.RULE, f"Full weapon swap {what} (stow old, draw new)", 2,
                                          cites=[ids.WEAPON_SWITCHING])
    if kind == "drop":
        return f"drop {v}", 0, Step.of(StepKind.RULE, f"Drop {v}: free", 0, detail="it is now on the ground",
                                       cites=[ids.WEAPON_SWITCHING, _table_row("Item, Drop", f, rules).unit_id])
    if kind == "remove_shield":
        s = str(v).lower()
        if s not in _SHIELDS:
            raise RulesInputError(f"{f}.remove_shield", f"unknown shield {v!r}; allowed: heater, kite (strapped), targe (held)")
        ap = _SHIELDS[s]
        cites = [ids.SHIELD_REMOVAL] + ([_table_row("Shield, Remove (strapped)", f, rules).unit_id] if ap else [])
        label = f"Remove strapped {s} shield" if ap else "Drop the targe (held, not strapped): free"
        return f"remove {s}", ap, Step.of(StepKind.RULE, label, ap, cites=cites)
    if kind == "cast":
        ap = _nonneg(action.get("ap", 1), f"{f}.ap", 1, 2)
        comps = action.get("components")
        children = []
        total = ap
        if comps is not None:
            c = str(comps).lower()
            if c not in ("quick", "container"):
                raise RulesInputError(f"{f}.components", f"unknown place {comps!r}; allowed: quick, container")
            if c == "container":
                total += 2
                children.append(Step.of(StepKind.RULE, "Retrieve material components from a container", 2,
                                        cites=[ids.CASTING_COMPONENTS]))
            else:
                children.append(Step.of(StepKind.RULE, "Components in a Quick Item slot", 0, cites=[ids.CASTING_COMPONENTS,
                                                                                               ids.QUICK_ITEM]))
        children.append(Step.of(StepKind.RULE, f"Cast {v}", ap, detail="the spell's cost (typically 1 or 2 AP)",
                                cites=[ids.CASTING_COST, ids.COST_CASTING]))
        return f"cast {v}", total, Step.of(StepKind.RESULT, f"Cast {v}", total, children=children)
    if kind == "move":
        n = _nonneg(v, f"{f}.move", 1)
        return f"move x{n}", n, Step.of(StepKind.RULE, f"Move {n} time(s)", n, cites=[ids.MOVE_COST, ids.COST_MOVE])
    if kind == "attack":
        n = _nonneg(v, f"{f}.attack", 1)
        return f"attack x{n}", n, Step.of(StepKind.RULE, f"Attack {n} time(s)", n, cites=[ids.COST_ATTACK])
    # triage
    return "triage", 2, Step.of(StepKind.RULE, "Triage an adjacent dying creature", 2, cites=[ids.TRIAGE])


def plan_actions(actions: Sequence[Mapping[str, Any]], *, ap_per_round: int = AP_PER_ROUND,
                 rules: Rules | None = None) -> APPlan:
    """Add up the AP of a list of actions and the rounds they take at 2 AP per round.

    Each action is an object with one key: ``{"table": "<Other Actions row>", "adjust": ±2}``,
    ``{"retrieve": "quick"|"body"|"container", "items": [...], "use": AP}``, ``{"stow": name}``,
    ``{"draw": name}``, ``{"swap": [old, new]}``, ``{"drop": name}``,
    ``{"remove_shield": "heater"|"kite"|"targe"}``, ``{"cast": name, "ap": 1|2,
    "components": "quick"|"container"}``, ``{"move": n}``, ``{"attack": n}``, ``{"triage": true}``.

    The chapter's own examples: a vial of alum from a pouch (quick) and used, 1 AP; a torch and
    tinderbox from a pack, then lit with the tinderbox, 2 + 6 = 8 AP, four rounds; stowing a backsword
    and drawing a rungu, 2 AP; a full swap, 2 AP; drop and draw, 1 AP.

    ``ap_per_round`` is 2, or 1 for a character with a Trauma that says "You have 1 AP per round"
    (see :attr:`TraumaSheet.ap_per_round`).

    Raises:
        RulesInputError: an unknown action, row, place or shield (field ``actions[i]...``);
            ap_per_round not 1 or 2.
    """
    if isinstance(ap_per_round, bool) or not isinstance(ap_per_round, int) or ap_per_round not in (1, 2):
        raise RulesInputError("ap_per_round", f"must be 2, or 1 after a Trauma that says so; got {ap_per_round!r}")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or not actions:
        raise RulesInputError("actions", "must be a non-empty list of action objects")
    rules = resolve_rules(rules)
    costs = []
    children = []
    for i, a in enumerate(actions):
        name, ap, step = _one(a, i, rules)
        costs.append((name, ap))
        children.append(step)
    total = sum(ap for _, ap in costs)
    rounds = -(-total // ap_per_round)
    cites = [ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT] + ([ids.TRAUMA_TABLE] if ap_per_round == 1 else [])
    children.append(Step.of(StepKind.RULE, f"{ap_per_round} AP per round: {total} AP take {rounds} round(s)",
                            detail=f"ceil({total} / {ap_per_round})", cites=cites))
    trace = Step.of(StepKind.RESULT, f"{total} AP, {rounds} round(s)", children=children)
    return APPlan(total, rounds, tuple(costs), trace)
