"""What one combatant declares for a round of a fight, read strictly and checked against its state.

Shape (``ruleslawyer fight mastery --schema``)::

    {"actions": [{"action": "attack", "target": "Brute"}, {"action": "defend"}],
     "weapon": "sword", "hold_to": "slow"}

Actions, each priced by its row of the action tables (:func:`.actions.action_cost`), taken in the
order given on the combatant's turn (``combat-flow#11``: only declared actions, plus movement and
reactions): ``attack`` (``target``; optional ``attack`` profile and ``situation``), ``move``
(``leave``/``approach`` names, ``through`` terrain, ``dc``, ``damage_type``, ``ends_in``), ``stand``
(from Prone), ``prone`` (fall Prone), ``cast`` (``spell``, ``ap``, ``speed`` or ``magan``,
``reaction``), ``triage`` (``target``: 2 AP, or what is left of them this round under
``mastery.triage-across-rounds``), or any other row by its name (``{"action": "Skill, Active"}``). Reactions reserve AP
for when they are triggered: ``defend``, ``counterattack``, ``reprisal``, and ``reposition``
(a movement reaction right after ``after``'s turn, with the fields of a move).

:func:`read_orders` refuses what the state forbids, naming ``declarations.<name>.<field>`` and the
rule: a dead or unconscious combatant acting, more AP than the combatant has this round, a second
declared spell, a move with a Trauma that says you cannot walk, a move or attack while Prone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import RulingUse

from . import ids
from . import rulings as R
from .actions import action_cost
from .combatant import RANGED_KINDS, Attack, State
from .damage import parse_type
from .exchange import Range, Situation
from .fighter import Fighter
from .round import Declaration, Phase, Spell, _hold, declared_phase
from .trauma_effects import effects_of

__all__ = ["FightAction", "Orders", "read_orders", "round_ap", "ACTION_ROWS", "REACTIONS", "TERRAINS"]

ACTION_ROWS = {"attack": "Attack", "move": "Move", "stand": "Prone, Stand from", "prone": "Prone, Fall",
               "defend": "Defense", "counterattack": "Counterattack", "reprisal": "Reprisal Attack",
               "reposition": "Movement Reaction"}
"""The action-table row that prices each action key (``cast`` costs what the spell says, ``casting#1``)."""
REACTIONS = ("defend", "counterattack", "reprisal", "reposition")
"""Actions that reserve AP for a reaction instead of being taken on the combatant's turn."""
TERRAINS = ("normal", "rugged", "unstable", "hazardous")
_MOVE_KEYS = {"leave", "approach", "through", "dc", "damage_type", "ends_in"}
_KEYS = {"attack": {"target", "attack", "situation"}, "move": _MOVE_KEYS, "stand": set(), "prone": set(),
         "cast": {"spell", "ap", "speed", "magan", "reaction"}, "defend": set(), "counterattack": set(),
         "reprisal": set(), "reposition": _MOVE_KEYS | {"after"}, "triage": {"target"}}
_SITUATION_KEYS = {"range", "flanking", "first_attack_of_ap", "elevation", "allies_adjacent_to_target", "cover"}


@dataclass(frozen=True)
class FightAction:
    """One declared action: its key, the object as given, its AP and the row (or rule) that prices it."""

    kind: str
    data: Mapping[str, Any]
    ap: int
    cite: str

    @property
    def reaction(self) -> bool:
        return self.kind in REACTIONS


@dataclass(frozen=True)
class Orders:
    """A combatant's declaration for one round (see the module docstring)."""

    actions: tuple[FightAction, ...] = ()
    weapon: str | None = None
    hold_to: str | None = None

    @property
    def ap(self) -> int:
        """AP of everything declared (actions and reserved reactions)."""
        return sum(a.ap for a in self.actions)

    def reserved(self, kind: str) -> int:
        """AP reserved for reactions of ``kind``."""
        return sum(a.ap for a in self.actions if a.kind == kind)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actions": [dict(a.data) for a in self.actions]}
        out.update({k: v for k, v in (("weapon", self.weapon), ("hold_to", self.hold_to)) if v is not None})
        return out


def round_ap(f: Fighter, rulings: Mapping[str, str] | None, rules: Rules) -> tuple[int, list[str], list[RulingUse]]:
    """The AP ``f`` has in a round: 2 (``action-points#1``), 1 after a Trauma that says "You have 1 AP
    per round.", less its Exhausted and Impaired tiers per ``mastery.exhausted-effect`` and
    ``mastery.impaired-effect``; never below 0. Returns ``(ap, cites, rulings)``."""
    ap, cites, uses = f.body.sheet.ap_per_round, [ids.AP_PER_ROUND], []
    cites += [e.row for e in effects_of(f.body.sheet, "one-ap", rules)]
    for tier, ruling, cite in ((f.exhausted, R.EXHAUSTED_EFFECT, ids.TRAUMA_TABLE),
                               (f.impaired, R.IMPAIRED_EFFECT, ids.IMPAIRED_PROGRESSION)):
        if tier:
            use = R.ruling_use(ruling, rulings)
            uses.append(use)
            cites.append(cite)
            if use.answer == "minus-1-ap-per-tier":
                ap -= tier
    return max(ap, 0), list(dict.fromkeys(cites)), uses


def _names(v: Any, field: str, me: Fighter, names: Sequence[str]) -> tuple[str, ...]:
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise RulesInputError(field, f"must be a list of combatant names, got {v!r}")
    for n in v:
        if n not in names or n == me.name:
            raise RulesInputError(field, f"no other combatant called {n!r}; combatants: {', '.join(names)}")
    return tuple(v)


def _target(a: Mapping, field: str, me: Fighter, state) -> None:
    name = a.get("target")
    if name is None:
        raise RulesInputError(f"{field}.target", "required: the combatant attacked")
    other = state.combatant(name, f"{field}.target") if isinstance(name, str) else None
    if other is None or name == me.name:
        raise RulesInputError(f"{field}.target", f"must name another combatant, got {name!r}")
    if other.state is State.DEAD:
        raise RulesInputError(f"{field}.target", f"{name} is dead ({ids.GOING_DOWN_TIMER})")


def _attack(a: Mapping, field: str, me: Fighter, state) -> None:
    _target(a, field, me, state)
    if "attack" in a:
        profile = Attack.from_dict(a["attack"], f"{field}.attack.")
    elif me.body.attack is None:
        raise RulesInputError(f"{field}.attack", f"{me.name} has no attack profile: give one here or on the combatant")
    else:
        profile = me.body.attack
    sit = a.get("situation", {})
    if not isinstance(sit, Mapping):
        raise RulesInputError(f"{field}.situation", "must be an object")
    bad = sorted(set(sit) - _SITUATION_KEYS)
    if bad:
        raise RulesInputError(f"{field}.situation.{bad[0]}", f"unknown field; allowed: {', '.join(sorted(_SITUATION_KEYS))} "
                                                             "(the fight sets the rest from the combatants' state)")
    try:
        band = Situation(**sit).range
    except RulesInputError as e:
        raise RulesInputError(f"{field}.{e.field}", e.message) from None
    if (profile.kind in RANGED_KINDS) == (band is Range.MELEE):
        allowed = "close, moderate or far" if profile.kind in RANGED_KINDS else "melee"
        raise RulesInputError(f"{field}.situation.range", f"a {profile.kind.value} attack is made at {allowed} range, "
                                                          f"got {band.value} ({ids.WEAPON_ATTACK}, {ids.RANGED_AIM})")


def _move(a: Mapping, field: str, me: Fighter, state, rules: Rules) -> None:
    names = [c.name for c in state.combatants]
    for key in ("leave", "approach"):
        _names(a.get(key, []), f"{field}.{key}", me, names)
    through = a.get("through", "normal")
    if through not in TERRAINS:
        raise RulesInputError(f"{field}.through", f"unknown terrain {through!r}; allowed: {', '.join(TERRAINS)}")
    dc = a.get("dc")
    if dc is not None and (isinstance(dc, bool) or not isinstance(dc, int) or dc < 1):
        raise RulesInputError(f"{field}.dc", f"must be a whole number >= 1 (the GM's DC), got {dc!r}")
    if through == "hazardous" and "damage_type" not in a:
        raise RulesInputError(f"{field}.damage_type", "required through hazardous terrain: the hazard's damage type")
    for key in ("damage_type", "ends_in"):
        if a.get(key) is not None:
            parse_type(a[key], f"{field}.{key}")
    if a["action"] == "reposition":
        after = a.get("after")
        if after not in names or after == me.name:
            raise RulesInputError(f"{field}.after", f"required: the other combatant whose turn triggers it; got {after!r}")
    lame = effects_of(me.body.sheet, "cannot-walk", rules)
    if lame:
        raise RulesInputError(field, f"{me.name} cannot walk: '{lame[0].sentence}' ({lame[0].row})")


def _triage(a: Mapping, field: str, me: Fighter, state, rulings, rules: Rules) -> int:
    """The AP a Triage takes this round: the Triage row less AP spent on it in an earlier round; with
    fewer AP this round, what is left of them under ``mastery.triage-across-rounds`` ('across-rounds')."""
    _target(a, field, me, state)
    need = action_cost("Triage", rules=rules).ap
    if me.triage_begun and me.triage_begun[0] == a["target"]:
        need -= me.triage_begun[1]
    if R.use(R.TRIAGE_ACROSS_ROUNDS, rulings) == "across-rounds":
        return max(min(need, me.body.ap), 1)
    return need


def _cast(a: Mapping, field: str) -> int:
    if not isinstance(a.get("spell"), str) or not a["spell"].strip():
        raise RulesInputError(f"{field}.spell", "required: the spell's name")
    ap = a.get("ap", 1)
    if isinstance(ap, bool) or ap not in (1, 2):
        raise RulesInputError(f"{field}.ap", f"a spell costs 1 or 2 AP ({ids.CASTING_COST}), got {ap!r}")
    if not isinstance(a.get("reaction", False), bool):
        raise RulesInputError(f"{field}.reaction", f"must be true or false, got {a['reaction']!r}")
    phase, _ = Spell(a["spell"], a.get("speed"), a.get("magan")).phase(field)
    if a.get("reaction") and phase is not Phase.FAST:
        raise RulesInputError(f"{field}.reaction", f"only Fast spells (1-3 magan) can be cast as reactions "
                                                   f"({ids.CASTING_REACTION}); this one is {phase.value}")
    return ap


def _action(a: Any, field: str, me: Fighter, state, rulings, rules: Rules) -> FightAction:
    """One action object, read and checked (its fields, targets, terrain, spell)."""
    if not isinstance(a, Mapping) or not isinstance(a.get("action"), str):
        raise RulesInputError(field, "must be an object {\"action\": ..., ...}")
    kind = a["action"]
    if kind not in _KEYS:
        cost = action_cost(kind, rules=rules, field=f"{field}.action")  # any other row of the action tables
        if len(a) > 1:
            raise RulesInputError(f"{field}.{sorted(set(a) - {'action'})[0]}", f"{cost.name} takes no other field")
        return FightAction("row", dict(a), cost.ap, cost.row.unit_id)
    bad = sorted(set(a) - _KEYS[kind] - {"action"})
    if bad:
        raise RulesInputError(f"{field}.{bad[0]}", f"unknown field of {kind}; allowed: "
                                                   f"{', '.join(sorted(_KEYS[kind])) or 'none'}")
    if kind == "attack":
        _attack(a, field, me, state)
    elif kind in ("move", "reposition"):
        _move(a, field, me, state, rules)
    if kind == "cast":
        return FightAction(kind, dict(a), _cast(a, field), ids.CASTING_COST)
    if kind == "triage":
        return FightAction(kind, dict(a), _triage(a, field, me, state, rulings, rules),
                           action_cost("Triage", rules=rules).row.unit_id)
    cost = action_cost(ACTION_ROWS[kind], rules=rules)
    return FightAction(kind, dict(a), cost.ap, cost.row.unit_id)


def _check_spells(actions: Sequence[FightAction], field: str) -> None:
    """One spell a round, except reactions (``casting#4``; chosen at the start of the round, ``casting#2``)."""
    declared = [i for i, a in enumerate(actions) if a.kind == "cast" and not a.data.get("reaction")]
    if len(declared) > 1:
        raise RulesInputError(f"{field}.actions[{declared[1]}]", "one spell a round: after the spell is cast, another "
                              f"only as a reaction (a Fast spell, \"reaction\": true) ({ids.CASTING_REACTION}, "
                              f"{ids.CASTING_CHOOSE})")


def _check_prone(me: Fighter, actions: Sequence[FightAction], field: str, rulings) -> None:
    """A Prone combatant stands before it moves or attacks, per ``mastery.prone-stand-first``."""
    prone = me.prone
    for i, a in enumerate(actions):
        if a.kind == "stand" and not prone:
            raise RulesInputError(f"{field}.actions[{i}]", f"{me.name} is not Prone: nothing to stand from")
        if a.kind in ("move", "attack") and prone and R.use(R.PRONE_STAND_FIRST, rulings) == "stand-first":
            raise RulesInputError(f"{field}.actions[{i}]", f"{me.name} is Prone: declare {{\"action\": \"stand\"}} "
                                  f"(Prone, Stand from: 1 AP, {ids.OTHER_ACTIONS_TABLE}) before moving or attacking "
                                  f"(ruling {R.PRONE_STAND_FIRST})")
        prone = (prone or a.kind == "prone") and a.kind != "stand"


def round_declaration(me: Fighter, orders: Orders) -> Declaration:
    """The round's :class:`~ruleslawyer.rulesets.mastery.round.Declaration` of these orders: the
    weapon (if an attack is declared), the spell declared at the start of the round, a hold."""
    spell = next((a.data for a in orders.actions if a.kind == "cast" and not a.data.get("reaction")), None)
    return Declaration(weapon=orders.weapon or me.weapon, attack=any(a.kind == "attack" for a in orders.actions),
                       spell=Spell(spell["spell"], spell.get("speed"), spell.get("magan")) if spell else None,
                       hold_to=orders.hold_to)


def _check_ap(me: Fighter, orders: Orders, field: str, rulings, rules: Rules) -> None:
    if orders.ap > me.body.ap:
        ap, cites, uses = round_ap(me, rulings, rules)
        why = ", ".join(cites + [u.ruling_id for u in uses])
        raise RulesInputError(f"{field}.actions", f"{orders.ap} AP declared, but {me.name} has {me.body.ap} AP this "
                                                  f"round ({why}); unspent AP do not carry over ({ids.USE_IT_OR_LOSE_IT})")


def read_orders(data: Any, me: Fighter, state, field: str, rulings: Mapping[str, str] | None,
                rules: Rules) -> Orders:
    """Read and check one combatant's declaration against the fight's state.

    Raises:
        RulesInputError: naming ``<field>.<part>`` and the rule: unknown fields or actions; a dead
            combatant declaring (``going-down#3``); an unconscious one acting (``going-down#2``); more
            AP than it has this round (``action-points#1``, the Trauma rows, the condition rulings); a
            second declared spell (``casting#4``); a move that cannot be made (``cannot walk``); a move
            or attack while Prone (``mastery.prone-stand-first``); a hold to an earlier phase (``combat-flow#9``).
    """
    if me.state is State.DEAD:
        raise RulesInputError(field, f"{me.name} is dead and declares nothing ({ids.GOING_DOWN_TIMER}, {ids.DYING_TIMER})")
    if not isinstance(data, Mapping):
        raise RulesInputError(field, "must be an object {actions, weapon, hold_to}")
    bad = sorted(set(data) - {f.name for f in fields(Orders)})
    if bad:
        raise RulesInputError(f"{field}.{bad[0]}", "unknown field; allowed: actions, weapon, hold_to")
    raw = data.get("actions", [])
    if isinstance(raw, (str, Mapping)) or not isinstance(raw, Sequence):
        raise RulesInputError(f"{field}.actions", "must be a list of action objects")
    if raw and not me.can_act:
        raise RulesInputError(f"{field}.actions", f"{me.name} is unconscious and cannot take actions "
                                                  f"({ids.GOING_DOWN_UNCONSCIOUS})")
    actions = tuple(_action(a, f"{field}.actions[{i}]", me, state, rulings, rules) for i, a in enumerate(raw))
    orders = Orders(actions, data.get("weapon"), data.get("hold_to"))
    _check_spells(actions, field)
    _check_prone(me, actions, field, rulings)
    _check_ap(me, orders, field, rulings, rules)
    decl = round_declaration(me, orders)
    natural, _ = declared_phase(decl, rulings, field)
    _hold(decl, natural, field)
    return orders
