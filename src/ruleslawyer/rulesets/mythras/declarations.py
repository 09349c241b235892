"""What a Mythras fighter declares for a Round, and the declarations the fight's state forbids.

A declaration lists the Proactive actions for the fighter's Turns, in order (``setup#3``: "On your
Turn you spend one AP on a Proactive action"), and how they reply to attacks (a Reactive Parry or
Evade, ``action-menu-essentials#2``)::

    {"actions": ["Attack", {"action": "Attack", "target": "Brute", "effects": ["Trip Opponent"]}],
     "target": "Brute", "effects": ["Bleed"], "chosen_location": "Head",
     "defence": "parry", "defence_effects": ["Withdraw"]}

``target``, ``effects`` and ``chosen_location`` at the top are the defaults of every Attack or Charge.
Actions: Attack, Charge, Move (into contact with a ``target``, or away), Regain Footing, Ready Weapon
(the chapter's Proactive menu, ``action-menu-essentials#1``). :func:`check_declaration` refuses what
the state forbids, naming the field (``declarations.Brute.actions[1].target``) and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import resolve_ruling

from . import damage as dmg, ids, rulings as _r
from .fighter import Fighter
from .inputs import Defence
from .levels import _enum
from .special_effects import CHOOSE_LOCATION, effect_names

__all__ = ["ActionKind", "MENU_ROW", "Action", "Declaration", "parse_declaration", "check_declaration",
           "foes", "engaged_names", "DECLARATION_KEYS", "ACTION_KEYS"]


class ActionKind(StrEnum):
    """The Proactive actions a fight plays (``action-menu-essentials#1``)."""

    ATTACK = "Attack"
    CHARGE = "Charge"
    MOVE = "Move"
    REGAIN_FOOTING = "Regain Footing"
    READY_WEAPON = "Ready Weapon"


MENU_ROW = {ActionKind.ATTACK: "Attack", ActionKind.CHARGE: "Charge", ActionKind.MOVE: "Move",
            ActionKind.REGAIN_FOOTING: "Regain Footing", ActionKind.READY_WEAPON: "Ready/Reload Weapon"}
"""Each action's row in the supplement table ``action-menu``."""

_ALIASES = {"ready/reload weapon": ActionKind.READY_WEAPON, "ready": ActionKind.READY_WEAPON}

DECLARATION_KEYS = ("actions", "target", "effects", "chosen_location", "defence", "defence_effects")
ACTION_KEYS = ("action", "target", "effects", "chosen_location")


@dataclass(frozen=True)
class Action:
    """One Proactive action: what, at whom, and the Special Effects wanted if it wins any."""

    action: ActionKind
    target: str | None = None
    effects: tuple[str, ...] = ()
    chosen_location: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.value, "target": self.target, "effects": list(self.effects),
                "chosen_location": self.chosen_location}


@dataclass(frozen=True)
class Declaration:
    """A fighter's Round: Proactive actions in Turn order, the Reactive defence (None: a Parry when
    they have something to parry with, else an Evade when they have the skill, else none) and the
    defensive Special Effects wanted."""

    actions: tuple[Action, ...] = ()
    defence: Defence | None = None
    defence_effects: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"actions": [a.to_dict() for a in self.actions],
                "defence": None if self.defence is None else self.defence.value,
                "defence_effects": list(self.defence_effects)}


def _effects(v: Any, where: str, rules: Rules) -> tuple[str, ...]:
    names = effect_names(rules)
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise RulesInputError(where, "must be a list of Special Effects, in order of preference")
    out = []
    for i, x in enumerate(v):
        match = next((n for n in names if isinstance(x, str) and n.lower() == x.strip().lower()), None)
        if match is None:
            raise RulesInputError(f"{where}[{i}]", f"unknown Special Effect {x!r}; allowed: {', '.join(names)}")
        out.append(match)
    return tuple(out)


def _kind(v: Any, where: str) -> ActionKind:
    if isinstance(v, str) and v.strip().lower() in _ALIASES:
        return _ALIASES[v.strip().lower()]
    for k in ActionKind:
        if isinstance(v, str) and v.strip().lower() == k.value.lower():
            return k
    raise RulesInputError(where, f"unknown action {v!r}; allowed: {', '.join(k.value for k in ActionKind)}")


def _target(v: Any, where: str) -> str | None:
    if v is not None and (not isinstance(v, str) or not v):
        raise RulesInputError(where, f"must be a combatant's name, got {v!r}")
    return v


def _location(v: Any, where: str, rules: Rules) -> str | None:
    return None if v is None else dmg.check_location(v, where, rules=rules)


def _action(v: Any, where: str, defaults: Mapping[str, Any], rules: Rules) -> Action:
    if isinstance(v, str):
        v = {"action": v}
    if not isinstance(v, Mapping) or "action" not in v:
        raise RulesInputError(where, "an action is a name (\"Attack\") or {action, target, effects, "
                                     "chosen_location}")
    for k in v:
        if k not in ACTION_KEYS:
            raise RulesInputError(f"{where}.{k}", f"unknown field; allowed: {', '.join(ACTION_KEYS)}")
    kind = _kind(v["action"], f"{where}.action")
    offensive = kind in (ActionKind.ATTACK, ActionKind.CHARGE)
    target = _target(v.get("target", defaults["target"] if offensive else None), f"{where}.target")
    effects = (_effects(v["effects"], f"{where}.effects", rules) if "effects" in v else
               defaults["effects"] if offensive else ())
    location = (_location(v["chosen_location"], f"{where}.chosen_location", rules) if "chosen_location" in v else
                defaults["chosen_location"] if offensive else None)
    return Action(kind, target, effects, location)


def parse_declaration(data: Any, where: str, rules: Rules) -> Declaration:
    """A :class:`Declaration` from JSON (names only; :func:`check_declaration` checks it against the state).

    Raises:
        RulesInputError: an unknown field, action, Special Effect or location, named.
    """
    if isinstance(data, Declaration):
        return data
    if not isinstance(data, Mapping):
        raise RulesInputError(where, "a declaration is an object with " + ", ".join(DECLARATION_KEYS))
    for k in data:
        if k not in DECLARATION_KEYS:
            raise RulesInputError(f"{where}.{k}", f"unknown field; allowed: {', '.join(DECLARATION_KEYS)}")
    defaults = {"target": _target(data.get("target"), f"{where}.target"),
                "effects": _effects(data.get("effects", []), f"{where}.effects", rules),
                "chosen_location": _location(data.get("chosen_location"), f"{where}.chosen_location", rules)}
    actions = data.get("actions", [])
    if isinstance(actions, (str, Mapping)) or not isinstance(actions, (list, tuple)):
        raise RulesInputError(f"{where}.actions", "must be a list of actions, one for each Turn")
    defence = data.get("defence")
    return Declaration(tuple(_action(a, f"{where}.actions[{i}]", defaults, rules) for i, a in enumerate(actions)),
                       None if defence is None else _enum(Defence, defence, f"{where}.defence"),
                       _effects(data.get("defence_effects", []), f"{where}.defence_effects", rules))


def foes(fighters: tuple[Fighter, ...], me: Fighter) -> list[Fighter]:
    """The fighters on another side than ``me`` who can still fight, in input order."""
    return [f for f in fighters if f.side != me.side and f.active]


def engaged_names(fighters: tuple[Fighter, ...], me: Fighter) -> set[str]:
    """Whom ``me`` is Engaged with (``action-menu-essentials#4``); Engagement is mutual."""
    return set(me.engaged_with) | {f.name for f in fighters if me.name in f.engaged_with}


@dataclass
class _Plan:
    """What the fighter's own earlier actions of the Round will have changed (checked in order)."""

    prone: bool
    armed: bool
    engaged: set[str]


def _refuse(where: str, message: str) -> RulesInputError:
    return RulesInputError(where, message)


def _unarmed_reason(me: Fighter) -> str:
    if me.weapon_arm in me.useless:
        return f"{me.weapon_arm} is useless after a Serious Wound (ruling {_r.SERIOUS_WOUND.id})"
    if me.weapon_stuck_in is not None:
        return (f"the {me.weapon.name} is stuck in {me.weapon_stuck_in} (ruling {_r.IMPALED_WEAPON.id}); "
                "declare Ready Weapon first to pull it free")
    return (f"the {me.weapon.name} was knocked away (ruling {_r.DISARM_OPPONENT.id}); declare Ready Weapon "
            f"first ({ids.MENU_PROACTIVE})")


def _check_target(act: Action, fighters: tuple[Fighter, ...], me: Fighter, where: str) -> Action:
    """Name the target (the only foe when none is named) and check it can be fought."""
    names = {f.name: f for f in fighters}
    target = act.target
    if target is None:
        able = foes(fighters, me)
        if len(able) != 1:
            raise _refuse(f"{where}.target", f"name the target; foes: {', '.join(f.name for f in able) or 'none'}")
        target = able[0].name
    if target not in names:
        raise _refuse(f"{where}.target", f"no combatant called {target!r}; combatants: {', '.join(names)}")
    if target == me.name:
        raise _refuse(f"{where}.target", f"{me.name} cannot {act.action.value.lower()} themselves")
    if not names[target].active:
        raise _refuse(f"{where}.target", f"{target} is {names[target].status.value} ({names[target].out_by}) and "
                                         "out of the fight")
    return Action(act.action, target, act.effects, act.chosen_location)


def _check_offensive(act: Action, plan: _Plan, me: Fighter, first_round: bool, where: str) -> None:
    if first_round and me.surprised:
        raise _refuse(where, f"{me.name} was ambushed and takes no offensive actions in the first Round "
                             f"({ids.SURPRISE})")
    if not plan.armed:
        raise _refuse(where, f"{me.name} cannot {act.action.value.lower()}: " + _unarmed_reason(me))
    if act.action is ActionKind.ATTACK and me.weapon.ranged is None and act.target not in plan.engaged:
        raise _refuse(f"{where}.target", f"{me.name} is not Engaged with {act.target}: a melee Attack needs "
                                         f"someone in reach ({ids.ENGAGED}); Charge or Move into contact first")
    if CHOOSE_LOCATION in act.effects and act.chosen_location is None:
        raise _refuse(f"{where}.chosen_location", "Choose Location is wanted: name the location "
                                                  f"({ids.EFFECTS})")
    if act.action is ActionKind.CHARGE:
        if me.weapon.ranged is not None:
            raise _refuse(where, f"a Charge is a melee attack; the {me.weapon.name} is ranged ({ids.CHARGE})")
        if plan.prone:
            raise _refuse(where, f"{me.name} is prone and cannot Charge (ruling {_r.PRONE.id}; {ids.MOVEMENT}); "
                                 "declare Regain Footing first")


def _check_one(act: Action, plan: _Plan, me: Fighter, fighters: tuple[Fighter, ...], first_round: bool,
               where: str) -> Action:
    """One action against the state as the fighter's earlier actions leave it; updates ``plan``."""
    kind = act.action
    if kind in (ActionKind.ATTACK, ActionKind.CHARGE) or (kind is ActionKind.MOVE and act.target is not None):
        act = _check_target(act, fighters, me, where)
    if kind in (ActionKind.CHARGE, ActionKind.MOVE) and plan.engaged:
        raise _refuse(where, f"{me.name} is Engaged with {', '.join(sorted(plan.engaged))} and cannot simply walk "
                             f"away ({ids.ENGAGED}); break off first (Withdraw, Outmanoeuvre)")
    if kind in (ActionKind.ATTACK, ActionKind.CHARGE):
        _check_offensive(act, plan, me, first_round, where)
    if kind in (ActionKind.CHARGE, ActionKind.MOVE) and act.target is not None:
        plan.engaged.add(act.target)
    if kind is ActionKind.REGAIN_FOOTING:
        legs = [loc for loc in me.useless if loc.endswith("Leg")]
        if legs:
            raise _refuse(where, f"{me.name}'s {legs[0]} is useless after a Serious Wound (ruling "
                                 f"{_r.SERIOUS_WOUND.id}): no Regain Footing")
        plan.prone = False
    if kind is ActionKind.READY_WEAPON:
        if me.weapon_arm in me.useless:
            raise _refuse(where, f"{me.name} cannot Ready Weapon: " + _unarmed_reason(me))
        plan.armed = True
    return act


def _check_defence(decl: Declaration, me: Fighter, plan: _Plan, where: str) -> None:
    if decl.defence is Defence.EVADE and me.evade is None:
        raise _refuse(f"{where}.defence", f"{me.name} has no Evade skill (give the combatant's evade %)")
    if decl.defence is Defence.PARRY and me.parrying_weapon is None and not plan.armed:
        raise _refuse(f"{where}.defence", f"{me.name} has nothing to parry with: " + _unarmed_reason(me))


def check_declaration(decl: Declaration, me: Fighter, fighters: tuple[Fighter, ...], first_round: bool,
                      overrides: Mapping[str, str], where: str) -> Declaration:
    """The declaration with every target named, checked against the state at the start of the Round.

    Refused (RulesInputError naming the field and the rule): an incapacitated or dead fighter acting;
    more Proactive actions than AP a Round (``setup#2``, ``setup#3``; one under ruling
    ``mythras.turn-cycles`` = one-turn); a target that is unknown, oneself or out of the fight; an
    attack by an ambushed fighter in the first Round (``surprise#1``); a melee Attack on someone not
    Engaged (``action-menu-essentials#4``); a Charge or Move while Engaged; a Charge while prone; an
    attack with a weapon knocked away, stuck in a foe or in a useless arm; a Parry with nothing to
    parry with; an Evade without the skill.
    """
    if not me.active:
        key = next(iter(k for k in ("actions", "defence") if getattr(decl, k)), "actions")
        raise _refuse(f"{where}.{key}", f"{me.name} is {me.status.value} ({me.out_by}) and cannot act")
    cycles = resolve_ruling(_r.TURN_CYCLES.id, overrides).answer
    most = me.action_points if cycles == "cycle" else min(1, me.action_points)
    if len(decl.actions) > most:
        rule = (f"each Proactive action spends one AP ({ids.PROACTIVE_REACTIVE}) and {me.name} has "
                f"{me.action_points} AP a Round ({ids.ACTION_POINTS})" if cycles == "cycle" else
                f"one Turn a Round (ruling {_r.TURN_CYCLES.id} = one-turn)")
        raise _refuse(f"{where}.actions", f"{len(decl.actions)} Proactive actions declared, at most {most}: {rule}")
    plan = _Plan(me.prone, me.weapon_in_hand, engaged_names(fighters, me))
    actions = tuple(_check_one(a, plan, me, fighters, first_round, f"{where}.actions[{i}]")
                    for i, a in enumerate(decl.actions))
    _check_defence(decl, me, plan, where)
    return Declaration(actions, decl.defence, decl.defence_effects)
