"""Declared actions in Against the Darkmaster and the checks on what a character may declare.

Rules (``darkmaster/combat/action-types``): a melee or ranged attack or a non-instant Spell is a Full
Action (the chapter's examples, ``#2``; declaring one as Half or Free is refused); one Full Action a
Round; a Half Action beside a Full one
gives -20 to both; two Half Actions go free of penalty; one Free Action, further ones count as Half;
Multi-Round Actions (``Load (2)``) are consecutive Full Actions, lost if interrupted, and combine only
with Free Actions; Readied Actions trigger at any time. A Dashing Attack takes -30 CMB and rules out a
Parry (``melee-phase#4``). After a failed Assessment Roll nothing new may be declared and a Parry is
limited to half the CMB (``assessment-phase#3``). The combinations list the chapter breaks off before
is the ruling ``darkmaster.action-combinations``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, resolve_ruling

from . import _tables, ids, rulings as _r

__all__ = [
    "ActionType", "ActionKind", "Side", "Assessment", "Action", "Combatant", "Refusal", "DeclarationError",
    "Declared", "FULL_HALF_PENALTY", "DASHING_PENALTY", "check_declarations", "MAX_CMB",
]

FULL_HALF_PENALTY = -20
"""Penalty to every roll of a Half and a Full Action taken together (``action-types#3``)."""
DASHING_PENALTY = -30
"""The Dashing Attack's CMB penalty (``melee-phase#4``)."""
MAX_CMB = 999
"""Sanity bound on a CMB (input check, not a rule)."""


class ActionType(StrEnum):
    """Full, Half or Free (``darkmaster/combat/action-types``)."""

    FULL = "Full"
    HALF = "Half"
    FREE = "Free"


class ActionKind(StrEnum):
    """What an action does; it decides the TRS phase."""

    MOVE = "move"
    SPELL = "spell"
    RANGED = "ranged"
    MELEE = "melee"
    OTHER = "other"


class Side(StrEnum):
    """Who controls the character: the GM's NPCs declare first."""

    NPC = "npc"
    PLAYER = "player"


class Assessment(StrEnum):
    """Result of this Round's Assessment Roll, if the character made one."""

    PASSED = "passed"
    FAILED = "failed"


def _enum(cls, value, fld: str):
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        for m in cls:
            if value.strip().lower() in (m.value.lower(), m.name.lower()):
                return m
    raise RulesInputError(fld, f"unknown {cls.__name__} {value!r}; allowed: {', '.join(m.value for m in cls)}")


_ROUNDS_RE = re.compile(r"\((\d+)\)\s*$")


@dataclass(frozen=True)
class Action:
    """One declared action.

    Attributes:
        name: e.g. ``"Longsword attack"``; a trailing ``(2)`` (``"Load (2)"``) makes it a Multi-Round Action.
        type: Full, Half or Free.
        kind: move, spell, ranged, melee or other.
        target: whom it is aimed at (shown only).
        weapon_length: melee: Hand, Short, Long, Longest (or a weapon the table names as an example).
        positional_bonus: melee: attacking from higher ground or mounted, flanking, or from the rear.
        dashing: melee: a Dashing Attack.
        instant: spell: an Instant Spell.
        prepared_rounds: spell: full previous Rounds of preparation.
        reloaded_before: ranged: loaded and aimed a complete Round or more before this one.
        thrown_in_hand: ranged: a readied thrown weapon already held in hand.
        readied: held until a circumstance arises (resolves outside the TRS).
        rounds: duration of a Multi-Round Action (None: read from the name, else 1).
        round: which Round of it this is (1..rounds).
        interrupted: the Multi-Round Action was interrupted (it is lost).
        continuing: carries on what the character was doing last Round.
    """

    name: str
    type: ActionType = ActionType.FULL
    kind: ActionKind = ActionKind.OTHER
    target: str | None = None
    weapon_length: str | None = None
    positional_bonus: bool = False
    dashing: bool = False
    instant: bool = False
    prepared_rounds: int = 0
    reloaded_before: bool = False
    thrown_in_hand: bool = False
    readied: bool = False
    rounds: int | None = None
    round: int = 1
    interrupted: bool = False
    continuing: bool = False

    @property
    def duration(self) -> int:
        """Rounds the action takes: ``rounds``, else the ``(n)`` in the name, else 1."""
        if self.rounds is not None:
            return self.rounds
        m = _ROUNDS_RE.search(self.name)
        return int(m.group(1)) if m else 1

    @property
    def multi_round(self) -> bool:
        return self.duration > 1


_ACTION_KEYS = {f for f in Action.__dataclass_fields__}


@dataclass(frozen=True)
class Combatant:
    """A character in the Round.

    Attributes:
        name: unique name.
        cmb: combat bonus of the skill in use.
        side: npc (the GM's) or player.
        caster_level: for ordering Spells.
        spell_casting_bonus: Spell Casting Roll bonus, breaks caster-level ties.
        assessment: passed / failed if an Assessment Roll was made this Round (a Free Action).
        parry: CMB held back to Parry (0: none).
        actions: declared actions.
    """

    name: str
    cmb: int = 0
    side: Side = Side.PLAYER
    caster_level: int = 0
    spell_casting_bonus: int = 0
    assessment: Assessment | None = None
    parry: int = 0
    actions: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        if self.assessment is not None:
            object.__setattr__(self, "assessment", _enum(Assessment, self.assessment, "assessment"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], fld: str) -> Combatant:
        """Build from JSON (see ``ruleslawyer sequence darkmaster --schema``)."""
        if not isinstance(d, Mapping):
            raise RulesInputError(fld, "a combatant must be an object")
        keys = {"name", "cmb", "side", "caster_level", "spell_casting_bonus", "assessment", "parry", "actions"}
        for k in d:
            if k not in keys:
                raise RulesInputError(f"{fld}.{k}", f"unknown field; allowed: {', '.join(sorted(keys))}")
        acts = d.get("actions", [])
        if not isinstance(acts, list):
            raise RulesInputError(f"{fld}.actions", "must be a list of actions")
        actions = []
        for j, a in enumerate(acts):
            af = f"{fld}.actions[{j}]"
            if not isinstance(a, Mapping):
                raise RulesInputError(af, "an action must be an object")
            for k in a:
                if k not in _ACTION_KEYS:
                    raise RulesInputError(f"{af}.{k}", f"unknown field; allowed: {', '.join(sorted(_ACTION_KEYS))}")
            kw = dict(a)
            kw["type"] = _enum(ActionType, kw.get("type", "Full"), f"{af}.type")
            kw["kind"] = _enum(ActionKind, kw.get("kind", "other"), f"{af}.kind")
            if "name" not in kw:
                raise RulesInputError(f"{af}.name", "every action needs a name")
            actions.append(Action(**kw))
        return cls(name=d.get("name", ""), cmb=d.get("cmb", 0), side=_enum(Side, d.get("side", "player"), f"{fld}.side"),
                   caster_level=d.get("caster_level", 0), spell_casting_bonus=d.get("spell_casting_bonus", 0),
                   assessment=None if d.get("assessment") is None else _enum(Assessment, d["assessment"], f"{fld}.assessment"),
                   parry=d.get("parry", 0), actions=tuple(actions))


@dataclass(frozen=True)
class Refusal:
    """A declaration the rules do not allow: the input field, the rule (and ruling) and why."""

    field: str
    rule_id: str
    message: str
    ruling: RulingUse | None = None

    def __str__(self) -> str:
        return f"{self.field}: {self.message} [{self.rule_id}]"


class DeclarationError(RulesInputError):
    """Declared actions the rules refuse; ``refusals`` lists every one (the field is the first's)."""

    def __init__(self, refusals: Sequence[Refusal]) -> None:
        self.refusals = tuple(refusals)
        first = self.refusals[0]
        rest = "; ".join(str(r) for r in self.refusals[1:])
        super().__init__(first.field, f"{first.message} [{first.rule_id}]" + (f"; also {rest}" if rest else ""))

    def __reduce__(self):
        return (self.__class__, (self.refusals,))


@dataclass(frozen=True)
class Declared:
    """One accepted action with what the rules did to it.

    Attributes:
        combatant: the character's name.
        index: the action's position in their list.
        action: the action.
        counts_as: the type it counts as (a second Free Action counts as Half; a Multi-Round Action as Full).
        penalty: CMB/roll penalty this Round (-20 Half + Full, -30 Dashing Attack, summed).
        lost: an interrupted Multi-Round Action (does not resolve).
        trace: why.
    """

    combatant: str
    index: int
    action: Action
    counts_as: ActionType
    penalty: int
    lost: bool
    trace: Step


def _int(v, fld, low=None, high=None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low) or (high is not None and v > high):
        rng = f" from {low}" if low is not None else ""
        rng += f" to {high}" if high is not None else ""
        raise RulesInputError(fld, f"must be a whole number{rng}, got {v!r}")
    return v


def check_input(combatants: Sequence[Combatant], rules: Rules | None = None) -> None:
    """Validate the types and ranges of every field (not the rules), naming the field.

    Weapon lengths are read from the ``weapon-length`` table of ``rules`` (default database).

    Raises:
        RulesInputError: e.g. ``combatants[0].cmb`` not a whole number, a repeated name.
    """
    if not combatants:
        raise RulesInputError("combatants", "give at least one combatant")
    names = set()
    rows = _tables.lengths(rules)
    lengths = {l.name.lower() for l in rows} | {l.example.lower() for l in rows}
    for i, c in enumerate(combatants):
        f = f"combatants[{i}]"
        if not isinstance(c.name, str) or not c.name.strip():
            raise RulesInputError(f"{f}.name", "every combatant needs a name")
        if c.name in names:
            raise RulesInputError(f"{f}.name", f"the name {c.name!r} is used twice")
        names.add(c.name)
        _int(c.cmb, f"{f}.cmb", -MAX_CMB, MAX_CMB)
        _int(c.caster_level, f"{f}.caster_level", 0)
        _int(c.spell_casting_bonus, f"{f}.spell_casting_bonus", -MAX_CMB, MAX_CMB)
        _int(c.parry, f"{f}.parry", 0)
        if not isinstance(c.actions, (list, tuple)) or not all(isinstance(a, Action) for a in c.actions):
            raise RulesInputError(f"{f}.actions", f"must be a list of actions, got {c.actions!r}")
        for j, a in enumerate(c.actions):
            af = f"{f}.actions[{j}]"
            _enum(ActionType, a.type, f"{af}.type")
            _enum(ActionKind, a.kind, f"{af}.kind")
            if not isinstance(a.name, str) or not a.name.strip():
                raise RulesInputError(f"{af}.name", "every action needs a name")
            if a.rounds is not None:
                _int(a.rounds, f"{af}.rounds", 1)
            _int(a.round, f"{af}.round", 1, a.duration)
            _int(a.prepared_rounds, f"{af}.prepared_rounds", 0)
            for k in ("positional_bonus", "dashing", "instant", "reloaded_before", "thrown_in_hand", "readied",
                      "interrupted", "continuing"):
                if not isinstance(getattr(a, k), bool):
                    raise RulesInputError(f"{af}.{k}", f"must be true or false, got {getattr(a, k)!r}")
            if not isinstance(a.name, str) or not a.name.strip():
                raise RulesInputError(f"{af}.name", "every action needs a name")
            melee_only = [k for k in ("weapon_length", "positional_bonus", "dashing") if getattr(a, k)]
            if a.kind is ActionKind.MELEE:
                if a.weapon_length is None:
                    raise RulesInputError(f"{af}.weapon_length", "a melee action needs its weapon length; allowed: "
                                          + ", ".join(l.name for l in rows))
                if not isinstance(a.weapon_length, str) or a.weapon_length.strip().lower() not in lengths:
                    raise RulesInputError(f"{af}.weapon_length", f"unknown weapon length {a.weapon_length!r}; allowed: "
                                          + ", ".join(l.name for l in rows))
            elif melee_only:
                raise RulesInputError(f"{af}.{melee_only[0]}", "only a melee action has a weapon length, a "
                                                               "Positional Bonus or a Dashing Attack")


def _full_action_kind(a: Action) -> str | None:
    """What makes ``a`` a Full Action by the chapter's examples (``action-types#2``: "making a melee or
    ranged attack, casting a non-instant Spell"), or None. An Instant Spell is a Half Action
    (``action-types#3``); a move may be full Move Rate (Full) or a Half Movement (Half)."""
    if a.kind == ActionKind.MELEE:
        return "a melee attack"
    if a.kind == ActionKind.RANGED:
        return "a ranged attack"
    if a.kind == ActionKind.SPELL and not a.instant:
        return "a non-instant Spell"
    return None


def _type_row(t: ActionType, rules: Rules) -> str:
    return _tables.action_types(rules)[t.value].unit_id


def check_declarations(combatants: Sequence[Combatant], overrides: Mapping[str, str] | None = None, *,
                       rules: Rules | None = None) -> tuple[list[Declared], list[Refusal], list[Step]]:
    """Apply the action rules to every character's declarations.

    Args:
        combatants: the characters and their declared actions.
        overrides: ruling overrides (``darkmaster.*``).
        rules: the rules database whose tables apply (default database).

    Returns:
        ``(accepted, refusals, steps)``: the accepted actions with penalties, every refusal (field,
        rule, message), and one trace step per character.
    """
    rules = resolve_rules(rules)
    check_input(combatants, rules)
    combos = resolve_ruling(_r.ACTION_COMBINATIONS.id, overrides)
    accepted: list[Declared] = []
    refusals: list[Refusal] = []
    steps: list[Step] = []
    for i, c in enumerate(combatants):
        f = f"combatants[{i}]"
        mine: list[Refusal] = []
        notes: list[Step] = []
        failed = c.assessment is Assessment.FAILED
        # a failed Assessment Roll: nothing new, Parry at most half the CMB
        ok_idx = []
        for j, a in enumerate(c.actions):
            if failed and not (a.continuing or (a.multi_round and a.round > 1)):
                mine.append(Refusal(f"{f}.actions[{j}]", ids.ASSESSMENT_FAILED,
                                    f"{c.name} failed the Assessment Roll and cannot declare new actions "
                                    f"({a.name!r}); only continuing last Round's action or a Parry"))
            else:
                ok_idx.append(j)
        if failed:
            use = resolve_ruling(_r.HALF_CMB_ROUNDING.id, overrides)
            limit = (math.floor if use.answer == "down" else math.ceil)(max(c.cmb, 0) / 2)
            if c.parry > limit:
                mine.append(Refusal(f"{f}.parry", ids.ASSESSMENT_FAILED, f"after a failed Assessment Roll "
                                    f"{c.name} may Parry with at most half the CMB: {limit}, not {c.parry}", use))
            else:
                notes.append(Step.of(StepKind.RULE, f"Failed Assessment Roll: Parry up to {limit}", value=limit,
                                     cites=[ids.ASSESSMENT_FAILED], rulings=[use]))
        # Free Actions: the first is free, the rest count as Half
        free_used = 0
        if c.assessment is not None:
            free_used = 1
            notes.append(Step.of(StepKind.RULE, "The Assessment Roll is this Round's Free Action",
                                 cites=[ids.FREE, ids.ASSESSMENT, Citation(_type_row(ActionType.FREE, rules), "Free row")]))
        counts: dict[int, ActionType] = {}
        for j in ok_idx:
            a = c.actions[j]
            t = ActionType(a.type)
            if a.multi_round:
                counts[j] = ActionType.FULL
                continue
            full_kind = _full_action_kind(a)
            if full_kind and t is not ActionType.FULL:
                mine.append(Refusal(f"{f}.actions[{j}].type", ids.FULL,
                                    f"{a.name!r} is {full_kind}, which the rules give as a Full Action; declare it "
                                    f"as Full, not {t.value}"))
                continue
            if t is ActionType.FREE:
                if free_used >= 1:
                    counts[j] = ActionType.HALF
                    notes.append(Step.of(StepKind.RULE, f"{a.name!r} counts as a Half Action", value="Half",
                                         detail="only one Free Action per Round",
                                         cites=[ids.FREE, Citation(_type_row(ActionType.FREE, rules), "Free row")]))
                else:
                    counts[j] = ActionType.FREE
                free_used += 1
            else:
                counts[j] = t
        fulls = [j for j, t in counts.items() if t is ActionType.FULL]
        halves = [j for j, t in counts.items() if t is ActionType.HALF]
        multi = [j for j in counts if c.actions[j].multi_round]
        if multi:
            for j in sorted(fulls + halves):
                if j != multi[0]:
                    mine.append(Refusal(f"{f}.actions[{j}]", ids.MULTI_ROUND,
                                        f"{c.actions[multi[0]].name!r} is a Multi-Round Action and combines only "
                                        f"with Free Actions, not with {c.actions[j].name!r}"))
        else:
            for j in fulls[1:]:
                mine.append(Refusal(f"{f}.actions[{j}]", ids.FULL, f"{c.name} already has a Full Action "
                                    f"({c.actions[fulls[0]].name!r}); a character performs a single Full Action "
                                    "per Round"))
            limit_halves = 1 if fulls else 2
            if combos.answer == "full-half-or-two-halves" and len(halves) > limit_halves:
                for j in halves[limit_halves:]:
                    mine.append(Refusal(f"{f}.actions[{j}]", ids.COMBINING,
                                        f"{c.name} may take one Full Action, a Full and a Half Action, or two Half "
                                        f"Actions (plus one Free); {a_names(c, fulls[:1] + halves)} is too many",
                                        combos))
        # Dashing Attack: no Parry
        for j in ok_idx:
            a = c.actions[j]
            if a.kind is ActionKind.MELEE and a.dashing and c.parry > 0:
                mine.append(Refusal(f"{f}.parry", ids.DASHING, f"{c.name} makes a Dashing Attack and cannot Parry "
                                                               "in the same Round: all CMB goes into the attack"))
        refused = {r.field.removesuffix(".type") for r in mine}
        full_half = bool(fulls) and bool(halves) and not multi
        kept = [j for j in ok_idx if f"{f}.actions[{j}]" not in refused]
        pair_penalty = full_half and any(j in kept for j in fulls) and any(j in kept for j in halves)
        for j in kept:
            a = c.actions[j]
            t = counts[j]
            pen = 0
            children = [Step.of(StepKind.RULE, f"{t.value} Action", value=t.value,
                                cites=[Citation(_type_row(t, rules), f"{t.value} row"),
                                       {ActionType.FULL: ids.FULL, ActionType.HALF: ids.HALF,
                                        ActionType.FREE: ids.FREE}[t]])]
            if a.multi_round:
                children.append(Step.of(StepKind.RULE, f"Multi-Round Action: Round {a.round} of {a.duration}",
                                        value=a.duration, detail="an uninterrupted sequence of Full Actions",
                                        cites=[ids.MULTI_ROUND]))
            if pair_penalty and t in (ActionType.FULL, ActionType.HALF):
                pen += FULL_HALF_PENALTY
                children.append(Step.of(StepKind.MODIFIER, "Half with Full Action", value=FULL_HALF_PENALTY,
                                        detail="both suffer -20 to any roll involved", cites=[ids.HALF]))
            if a.kind is ActionKind.MELEE and a.dashing:
                pen += DASHING_PENALTY
                children.append(Step.of(StepKind.MODIFIER, "Dashing Attack", value=DASHING_PENALTY,
                                        detail="-30 CMB; no Parry this Round", cites=[ids.DASHING]))
            lost = a.multi_round and a.interrupted
            if lost:
                children.append(Step.of(StepKind.RULE, "Interrupted: the Multi-Round Action is lost", value=True,
                                        detail="the character must start over", cites=[ids.MULTI_ROUND]))
            accepted.append(Declared(c.name, j, a, t, pen, lost,
                                     Step.of(StepKind.RULE, f"{c.name}: {a.name}", value=pen, detail=f"penalty {pen}"
                                             if pen else "", children=children)))
        if not pair_penalty and len(halves) == 2 and not fulls:
            notes.append(Step.of(StepKind.RULE, "Two Half Actions: no penalty", value=0, cites=[ids.HALF]))
        refusals += mine
        steps.append(Step.of(StepKind.RULE, f"{c.name}: declarations checked", value=f"{len(kept)} accepted",
                             detail=(f"{len(mine)} refused" if mine else "all allowed"),
                             cites=[ids.ACTION_TYPES, ids.COMBINING], rulings=[combos],
                             children=[*notes, *(Step.of(StepKind.ERROR, f"Refused: {r.message}", value=r.field,
                                                         cites=[r.rule_id], rulings=[r.ruling] if r.ruling else [])
                                                 for r in mine)]))
    return accepted, refusals, steps


def a_names(c: Combatant, idx: Sequence[int]) -> str:
    """The names of ``c``'s actions at ``idx``, quoted and joined."""
    return " + ".join(repr(c.actions[j].name) for j in sorted(idx))
