"""Actions and their AP: every cost is a table row, never a number in Python.

The chapter prices actions in its Other Actions table (``mastery/combat/tables/other-actions``) and
in its running text; the supplement's action-costs table (``mastery/supplement/tables/action-costs``)
gathers the latter, one row per action with its AP, what can oppose it, and the sentence it
restates. :func:`action_cost` reads either table by the action's name; :func:`spend_ap` spends it
from a combatant and returns the step citing the row. The exchange (attack, defense,
counterattack), Triage and the AP planner all price their actions here, so a new action is a new
row plus one stage function that resolves it (see the package docstring, "Adding a rule").
"""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind

from . import _tables
from ._tables import ActionCost
from .combatant import Combatant

__all__ = ["ActionCost", "action_cost", "spend_ap"]


def action_cost(name: str, *, rules: Rules | None = None, field: str = "action") -> ActionCost:
    """The AP of the action called ``name`` (case-insensitive), from the Other Actions table or the
    supplement's action-costs table of ``rules`` (default database).

    Returns:
        An :class:`~ruleslawyer.rulesets.mastery._tables.ActionCost`: ``name``, ``ap``, ``notes``,
        ``opposed_by`` and the ``row`` to cite.

    Raises:
        RulesInputError: no row has that name (field ``field``; the message lists the actions).
        RulesDataError: a row whose AP cell is not a whole number.
    """
    return _tables.action_cost(name, resolve_rules(rules), field)


def spend_ap(who: Combatant, action: str, rules: Rules, *, field: str, label: str = "",
             cites: tuple[str | Citation, ...] = (), children: tuple[Step, ...] = ()) -> tuple[Combatant, Step]:
    """Spend the AP of ``action`` (its row in the action tables) from ``who``.

    Args:
        who: the combatant acting; field: its input name for errors (``"attacker"``).
        label: the step's label (default ``"<name>: <action>"``); cites: chapter units cited with the
            row; children: sub-steps of the step.

    Returns:
        ``(who with the AP spent, step)``; the step's value is ``"N AP"`` and it cites the row.

    Raises:
        RulesInputError: ``who`` has fewer AP left than the action costs (field ``<field>.ap``).
    """
    cost = _tables.action_cost(action, rules)
    if who.ap < cost.ap:
        raise RulesInputError(f"{field}.ap", f"{cost.name} costs {cost.ap} AP; {who.name} has {who.ap} left")
    step = Step.of(StepKind.RULE, label or f"{who.name}: {cost.name}", f"{cost.ap} AP",
                   cites=[Citation(cost.row.unit_id, f"{cost.name}: {cost.ap} AP"), *cites], children=children)
    return who.with_(ap=who.ap - cost.ap), step
