"""The AP planner: a list of actions -> AP, rounds, and cited steps.

Every cost is a row of the action tables (:mod:`.actions`): the chapter's Other Actions table
(``mastery/combat/tables/other-actions``) and the supplement's action-costs table, which restates
the prices the chapter gives in its text (weapon switching and shield removal,
``.../initiative-phases#7-8``; item retrieval, ``.../interaction#2-5``; movement, attacks, Triage).
A spell costs what it says (``.../casting#1``). Every combatant has 2 AP per round
(``mastery/combat/action-points#1``). One planner function per action key (:data:`ACTION_KEYS`);
``{"action": "<row>"}`` takes any row, so a new row is planned with no code change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from . import ids
from . import rulings as R
from .actions import action_cost
from .schema import ACTION, AP

__all__ = ["AP_PER_ROUND", "APPlan", "plan_actions", "ACTION_KEYS"]

AP_PER_ROUND = 2
"""All combatants have 2 AP per round (``mastery/combat/action-points#1``)."""

_SHIELDS = {"heater": "Shield, Remove (strapped)", "kite": "Shield, Remove (strapped)", "targe": "Shield, Drop (Targe)"}
_WHERE = {"quick": ("Item, Retrieve (Quick Item)", ids.QUICK_ITEM), "body": ("Item, Retrieve (on the body)", ids.BODY_ITEM),
          "container": ("Item, Retrieve Stored", ids.CONTAINER_ITEM)}


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


def _row(name: str, rules: Rules, field: str) -> tuple[int, Citation]:
    """An action's AP and the citation of its row (Other Actions or the supplement's action costs)."""
    cost = action_cost(name, rules=rules, field=field)
    return cost.ap, Citation(cost.row.unit_id, f"{cost.name}: {cost.ap} AP")


def _plan_row(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
    """``{"action": "<row>"}`` (or ``"table"``): any row of the two action tables; lighting with a
    tinderbox may be adjusted by up to 2 AP (``.../other-actions#21``)."""
    key = "action" if "action" in action else "table"
    cost = action_cost(action[key], rules=rules, field=f"{f}.{key}")
    ap, cites = cost.ap, [cost.row.unit_id]
    adjust = action.get("adjust", 0)
    if adjust:
        if "tinderbox" not in cost.name.lower():
            raise RulesInputError(f"{f}.adjust", "only lighting with a tinderbox can be adjusted (by up to 2 AP)")
        _nonneg(abs(adjust) if isinstance(adjust, int) and not isinstance(adjust, bool) else adjust, f"{f}.adjust", 0, 2)
        ap += adjust
        cites.append(ids.TINDERBOX_ADJUST)
    detail = "; ".join(x for x in (cost.notes, f"GM adjusts by {adjust:+d}" if adjust else "") if x)
    return cost.name, ap, Step.of(StepKind.RULE, cost.name, ap, detail=detail, cites=cites)


def _items(action: Mapping[str, Any], f: str) -> list[str]:
    items = action.get("items", [])
    items = [items] if isinstance(items, str) else (items or [])
    if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
        raise RulesInputError(f"{f}.items", f"must be a list of item names, got {items!r}")
    return list(items)


def _plan_retrieve(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
    """``{"retrieve": "quick"|"body"|"container", "items": [...], "use": AP}``: getting an item into
    your hand costs by where it is (``.../interaction#2-4``); one container retrieval gets all you
    need from it; using it costs what the item requires (``#1``)."""
    where = str(action["retrieve"]).lower()
    if where not in _WHERE:
        raise RulesInputError(f"{f}.retrieve", f"unknown place {action['retrieve']!r}; allowed: quick, body, container")
    row_name, cite = _WHERE[where]
    cost, row = _row(row_name, rules, f"{f}.retrieve")
    items = _items(action, f)
    use = _nonneg(action.get("use", 0), f"{f}.use")
    what = ", ".join(items) or "item"
    children = [Step.of(StepKind.RULE, f"Retrieve {what} ({where})", cost, cites=[row, cite])]
    if where == "container" and len(items) > 1:
        children.append(Step.of(StepKind.RULE, "One retrieval gets everything you need from that container",
                                len(items), cites=[ids.CONTAINER_ITEM]))
    if use:
        children.append(Step.of(StepKind.RULE, f"Use {what}", use, detail="its use costs what the item requires",
                                cites=[ids.INTERACTION, ids.COST_INTERACTION]))
    return f"retrieve {what} from {where}" + (" and use" if use else ""), cost + use, Step.of(
        StepKind.RESULT, f"Retrieve {what} from {where}" + (" and use it" if use else ""), cost + use, children=children)


def _one_row(key: str, row_name: str, label: str, *cites: str, detail: str = ""):
    """A planner for an action key priced by one row: ``{"<key>": what}``."""
    def plan(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
        v = action[key]
        what = " -> ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
        ap, row = _row(row_name, rules, f"{f}.{key}")
        return f"{key} {what}", ap, Step.of(StepKind.RULE, label.format(what), ap, detail=detail, cites=[row, *cites])
    plan.__doc__ = f"``{{\"{key}\": ...}}``: the {row_name!r} row."
    return plan


def _plan_remove_shield(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
    """``{"remove_shield": "heater"|"kite"|"targe"}``: a strapped shield costs 1 AP to remove, a held
    targe drops freely (``.../initiative-phases#8``)."""
    s = str(action["remove_shield"]).lower()
    if s not in _SHIELDS:
        raise RulesInputError(f"{f}.remove_shield", f"unknown shield {action['remove_shield']!r}; allowed: heater, "
                                                    "kite (strapped), targe (held)")
    ap, row = _row(_SHIELDS[s], rules, f"{f}.remove_shield")
    label = f"Remove strapped {s} shield" if ap else "Drop the targe (held, not strapped): free"
    return f"remove {s}", ap, Step.of(StepKind.RULE, label, ap, cites=[ids.SHIELD_REMOVAL, row])


def _plan_cast(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
    """``{"cast": name, "ap": 1|2, "components": "quick"|"container"}``: the spell's own cost
    (``.../casting#1``); components not in a Quick Item slot are retrieved first, 2 AP from a
    container (``#5``)."""
    v = action["cast"]
    ap = _nonneg(action.get("ap", 1), f"{f}.ap", 1, 2)
    comps = action.get("components")
    children, total = [], ap
    if comps is not None:
        c = str(comps).lower()
        if c not in ("quick", "container"):
            raise RulesInputError(f"{f}.components", f"unknown place {comps!r}; allowed: quick, container")
        cost, row = _row(_WHERE[c][0], rules, f"{f}.components")
        total += cost
        children.append(Step.of(StepKind.RULE, "Retrieve material components from a container" if cost else
                                "Components in a Quick Item slot", cost,
                                cites=[row, ids.CASTING_COMPONENTS] + ([] if cost else [ids.QUICK_ITEM])))
    children.append(Step.of(StepKind.RULE, f"Cast {v}", ap, detail="the spell's cost (typically 1 or 2 AP)",
                            cites=[ids.CASTING_COST, ids.COST_CASTING]))
    return f"cast {v}", total, Step.of(StepKind.RESULT, f"Cast {v}", total, children=children)


def _times(key: str, row_name: str, label: str, *cites: str):
    """A planner for ``{"<key>": n}``: n actions priced by one row."""
    def plan(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
        n = _nonneg(action[key], f"{f}.{key}", 1)
        ap, row = _row(row_name, rules, f"{f}.{key}")
        return f"{key} x{n}", n * ap, Step.of(StepKind.RULE, f"{label} {n} time(s)", n * ap, cites=[row, *cites])
    plan.__doc__ = f"``{{\"{key}\": n}}``: n times the {row_name!r} row."
    return plan


def _plan_triage(action: Mapping[str, Any], f: str, rules: Rules) -> tuple[str, int, Step]:
    """``{"triage": true}``: stabilize an adjacent dying creature, 2 AP (``mastery/combat/death/triage#1``)."""
    ap, row = _row("Triage", rules, f"{f}.triage")
    return "triage", ap, Step.of(StepKind.RULE, "Triage an adjacent dying creature", ap, cites=[row, ids.TRIAGE])


_PLANNERS = {
    "action": _plan_row,
    "table": _plan_row,
    "retrieve": _plan_retrieve,
    "stow": _one_row("stow", "Item, Stow", "Stow {}", ids.STOW_ITEM),
    "draw": _one_row("draw", "Item, Retrieve (on the body)", "Draw {}", ids.BODY_ITEM),
    "swap": _one_row("swap", "Weapon, Swap", "Full weapon swap {} (stow old, draw new)", ids.WEAPON_SWITCHING),
    "drop": _one_row("drop", "Item, Drop", "Drop {}: free", detail="it is now on the ground"),
    "remove_shield": _plan_remove_shield,
    "cast": _plan_cast,
    "move": _times("move", "Move", "Move", ids.MOVE_COST, ids.COST_MOVE),
    "attack": _times("attack", "Attack", "Attack", ids.COST_ATTACK),
    "triage": _plan_triage,
}
"""One planner per action key: each prices its action from the action tables and returns its step."""

ACTION_KEYS = tuple(_PLANNERS)
"""The action kinds :func:`plan_actions` understands (one key per action object)."""


def _schedule(plan: list[tuple[str, int]], per_round: int, rulings) -> tuple[int, list[Step]]:
    """The rounds the actions take, in order, at ``per_round`` AP a round; AP do not carry over
    (``.../use-it-or-lose-it#1``). Triage over two rounds follows ``mastery.triage-across-rounds``:
    spread over them, or started in a fresh round (the AP left before it are lost).

    Raises:
        RulesInputError: Triage under 'one-round' at fewer AP a round than it costs (``actions[i].triage``).
    """
    spent, steps = 0, []  # AP of the rounds used so far, counting AP left unspent
    for i, (key, ap) in enumerate(plan):
        left = per_round - spent % per_round
        if key == "triage" and ap > left:
            use = R.ruling_use(R.TRIAGE_ACROSS_ROUNDS, rulings)
            if use.answer == "across-rounds":
                steps.append(Step.of(StepKind.RULING, "Triage spread over two rounds", ap,
                                     detail=f"{left} AP this round, {ap - left} next", cites=[ids.TRIAGE], rulings=[use]))
            elif ap > per_round:
                raise RulesInputError(f"actions[{i}].triage", f"Triage needs {ap} AP in one round ({use.ruling_id}="
                                                              f"{use.answer}); at {per_round} AP per round it cannot be done")
            else:
                spent += left
                steps.append(Step.of(StepKind.RULING, f"Triage waits for a fresh round: {left} AP left unspent", left,
                                     cites=[ids.TRIAGE, ids.USE_IT_OR_LOSE_IT], rulings=[use]))
        spent += ap
    return -(-spent // per_round), steps


def plan_actions(actions: Sequence[Mapping[str, Any]], *, ap_per_round: int = AP_PER_ROUND,
                 rulings: Mapping[str, str] | None = None, rules: Rules | None = None) -> APPlan:
    """Add up the AP of a list of actions and the rounds they take at 2 AP per round.

    Each action is an object with one key: ``{"action": "<row of either action table>"}`` (or
    ``{"table": ...}``; the tinderbox with ``"adjust": ±2``),
    ``{"retrieve": "quick"|"body"|"container", "items": [...], "use": AP}``, ``{"stow": name}``,
    ``{"draw": name}``, ``{"swap": [old, new]}``, ``{"drop": name}``,
    ``{"remove_shield": "heater"|"kite"|"targe"}``, ``{"cast": name, "ap": 1|2,
    "components": "quick"|"container"}``, ``{"move": n}``, ``{"attack": n}``, ``{"triage": true}``.

    The chapter's own examples: a vial of alum from a pouch (quick) and used, 1 AP; a torch and
    tinderbox from a pack, then lit with the tinderbox, 2 + 6 = 8 AP, four rounds; stowing a backsword
    and drawing a rungu, 2 AP; a full swap, 2 AP; drop and draw, 1 AP.

    ``ap_per_round`` is 2, or 1 for a character with a Trauma that says "You have 1 AP per round"
    (see :attr:`TraumaSheet.ap_per_round`). Triage that does not fit the AP left in a round follows
    ``mastery.triage-across-rounds`` (``rulings``), as :func:`~ruleslawyer.rulesets.mastery.triage` does.

    Raises:
        RulesInputError: an unknown action, row, place or shield (field ``actions[i]...``), an unknown
            field of an action (with a did-you-mean), more than :data:`~ruleslawyer.limits.INPUT_ITEMS`
            actions (all read strictly by :data:`.schema.ACTION`); ap_per_round not 1 or 2; Triage at 1
            AP per round under the 'one-round' answer.
    """
    if isinstance(ap_per_round, bool) or not isinstance(ap_per_round, int) or ap_per_round not in (1, 2):
        raise RulesInputError("ap_per_round", f"must be 2, or 1 after a Trauma that says so; got {ap_per_round!r}")
    actions = AP.fields["actions"].read(actions, "actions")  # strict: one key each, known fields, bounds
    rulings = R.check(rulings)
    rules = resolve_rules(rules)
    keys = [ACTION.tag(a, f"actions[{i}]") for i, a in enumerate(actions)]
    costs, children = [], []
    for i, (key, a) in enumerate(zip(keys, actions)):
        name, ap, step = _PLANNERS[key](a, f"actions[{i}]", rules)
        costs.append((name, ap))
        children.append(step)
    total = sum(ap for _, ap in costs)
    rounds, schedule = _schedule([(k, ap) for k, (_, ap) in zip(keys, costs)], ap_per_round, rulings)
    children += schedule
    cites = [ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT] + ([ids.TRAUMA_TABLE] if ap_per_round == 1 else [])
    children.append(Step.of(StepKind.RULE, f"{ap_per_round} AP per round: {total} AP take {rounds} round(s)",
                            detail=f"ceil({total} / {ap_per_round})" if rounds == -(-total // ap_per_round) else
                            "with the AP left unspent before Triage", cites=cites))
    trace = Step.of(StepKind.RESULT, f"{total} AP, {rounds} round(s)", children=children)
    return APPlan(total, rounds, tuple(costs), trace)
