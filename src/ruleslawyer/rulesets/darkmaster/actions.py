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


_FLAGS = ("positional_bonus", "dashing", "instant", "reloaded_before", "thrown_in_hand", "readied", "interrupted",
          "continuing")
_MELEE_ONLY = ("weapon_length", "positional_bonus", "dashing")


def check_input(combatants: Sequence[Combatant], rules: Rules | None = None) -> None:
    """Validate the types and ranges of every field (not the rules), naming the field.

    Weapon lengths are read from the ``weapon-length`` table of ``rules`` (default database).

    Raises:
        RulesInputError: e.g. ``combatants[0].cmb`` not a whole number, a repeated name.
    """
    if not combatants:
        raise RulesInputError("combatants", "give at least one combatant")
    rows = _tables.lengths(resolve_rules(rules))
    names: set[str] = set()
    for i, c in enumerate(combatants):
        _check_combatant(c, f"combatants[{i}]", names, rows)


def _check_combatant(c: Combatant, f: str, names: set[str], rows: Sequence[_tables.LengthRow]) -> None:
    """One combatant's fields (``names``: the names seen so far, updated)."""
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
        _check_action(a, f"{f}.actions[{j}]", rows)


def _check_action(a: Action, af: str, rows: Sequence[_tables.LengthRow]) -> None:
    """One action's fields; a melee action's length must be in the ``weapon-length`` table (``rows``)."""
    _enum(ActionType, a.type, f"{af}.type")
    _enum(ActionKind, a.kind, f"{af}.kind")
    if not isinstance(a.name, str) or not a.name.strip():
        raise RulesInputError(f"{af}.name", "every action needs a name")
    if a.rounds is not None:
        _int(a.rounds, f"{af}.rounds", 1)
    _int(a.round, f"{af}.round", 1, a.duration)
    _int(a.prepared_rounds, f"{af}.prepared_rounds", 0)
    for k in _FLAGS:
        if not isinstance(getattr(a, k), bool):
            raise RulesInputError(f"{af}.{k}", f"must be true or false, got {getattr(a, k)!r}")
    melee_only = [k for k in _MELEE_ONLY if getattr(a, k)]
    if a.kind is ActionKind.MELEE:
        allowed = "; allowed: " + ", ".join(l.name for l in rows)
        known = {l.name.lower() for l in rows} | {l.example.lower() for l in rows}
        if a.weapon_length is None:
            raise RulesInputError(f"{af}.weapon_length", "a melee action needs its weapon length" + allowed)
        if not isinstance(a.weapon_length, str) or a.weapon_length.strip().lower() not in known:
            raise RulesInputError(f"{af}.weapon_length", f"unknown weapon length {a.weapon_length!r}" + allowed)
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


_TYPE_CITE = {ActionType.FULL: ids.FULL, ActionType.HALF: ids.HALF, ActionType.FREE: ids.FREE}


@dataclass
class _Sheet:
    """One character's declarations while the stages check them (internal, mutable).

    Attributes:
        c: the character; f: its input field prefix; rules / overrides: as given to the check.
        open: indexes of actions still standing (not refused by the Assessment stage).
        counts: index -> the type the action counts as.
        refusals / notes: what the stages refused and the trace steps they explain it with.
    """

    c: Combatant
    f: str
    rules: Rules
    overrides: Mapping[str, str] | None
    open: list[int] = field(default_factory=list)
    counts: dict[int, ActionType] = field(default_factory=dict)
    refusals: list[Refusal] = field(default_factory=list)
    notes: list[Step] = field(default_factory=list)

    def refuse(self, suffix: str, rule_id: str, message: str, ruling: RulingUse | None = None) -> None:
        self.refusals.append(Refusal(f"{self.f}{suffix}", rule_id, message, ruling))

    def of_type(self, t: ActionType) -> list[int]:
        return [j for j, u in self.counts.items() if u is t]

    @property
    def multi(self) -> list[int]:
        return [j for j in self.counts if self.c.actions[j].multi_round]

    def type_cite(self, t: ActionType) -> Citation:
        return Citation(_type_row(t, self.rules), f"{t.value} row")


def _type_row(t: ActionType, rules: Rules) -> str:
    return _tables.action_types(rules)[t.value].unit_id


def _assessment_stage(s: _Sheet) -> None:
    """A failed Assessment Roll: nothing new may be declared, a Parry is at most half the CMB
    (``assessment-phase#3``); any Assessment Roll is the Round's Free Action (``action-types#4``)."""
    c = s.c
    failed = c.assessment is Assessment.FAILED
    for j, a in enumerate(c.actions):
        if failed and not (a.continuing or (a.multi_round and a.round > 1)):
            s.refuse(f".actions[{j}]", ids.ASSESSMENT_FAILED, f"{c.name} failed the Assessment Roll and cannot "
                     f"declare new actions ({a.name!r}); only continuing last Round's action or a Parry")
        else:
            s.open.append(j)
    if failed:
        use = resolve_ruling(_r.HALF_CMB_ROUNDING.id, s.overrides)
        limit = (math.floor if use.answer == "down" else math.ceil)(max(c.cmb, 0) / 2)
        if c.parry > limit:
            s.refuse(".parry", ids.ASSESSMENT_FAILED, f"after a failed Assessment Roll {c.name} may Parry with at "
                     f"most half the CMB: {limit}, not {c.parry}", use)
        else:
            s.notes.append(Step.of(StepKind.RULE, f"Failed Assessment Roll: Parry up to {limit}", value=limit,
                                   cites=[ids.ASSESSMENT_FAILED], rulings=[use]))
    if c.assessment is not None:
        s.notes.append(Step.of(StepKind.RULE, "The Assessment Roll is this Round's Free Action",
                               cites=[ids.FREE, ids.ASSESSMENT, s.type_cite(ActionType.FREE)]))


def _action_type_stage(s: _Sheet) -> None:
    """The type each standing action counts as: attacks and non-instant Spells must be Full
    (``action-types#2``); a Multi-Round Action counts as Full (``multi-round-actions#1``); one Free Action
    a Round, further ones count as Half (``action-types#4``)."""
    free_used = 1 if s.c.assessment is not None else 0
    for j in s.open:
        a = s.c.actions[j]
        t = ActionType(a.type)
        if a.multi_round:
            s.counts[j] = ActionType.FULL
            continue
        full_kind = _full_action_kind(a)
        if full_kind and t is not ActionType.FULL:
            s.refuse(f".actions[{j}].type", ids.FULL, f"{a.name!r} is {full_kind}, which the rules give as a Full "
                     f"Action; declare it as Full, not {t.value}")
            continue
        if t is ActionType.FREE:
            free_used += 1
            if free_used > 1:
                t = ActionType.HALF
                s.notes.append(Step.of(StepKind.RULE, f"{a.name!r} counts as a Half Action", value="Half",
                                       detail="only one Free Action per Round",
                                       cites=[ids.FREE, s.type_cite(ActionType.FREE)]))
        s.counts[j] = t


def _combination_stage(s: _Sheet, combos: RulingUse) -> None:
    """One Full Action a Round (``action-types#2``); a Multi-Round Action only with Free Actions
    (``multi-round-actions#1``); the combinations the chapter breaks off before (ruling
    ``darkmaster.action-combinations``, ``combining-actions#1``)."""
    c, fulls, halves, multi = s.c, s.of_type(ActionType.FULL), s.of_type(ActionType.HALF), s.multi
    if multi:
        for j in sorted(fulls + halves):
            if j != multi[0]:
                s.refuse(f".actions[{j}]", ids.MULTI_ROUND, f"{c.actions[multi[0]].name!r} is a Multi-Round Action "
                         f"and combines only with Free Actions, not with {c.actions[j].name!r}")
        return
    for j in fulls[1:]:
        s.refuse(f".actions[{j}]", ids.FULL, f"{c.name} already has a Full Action ({c.actions[fulls[0]].name!r}); "
                 "a character performs a single Full Action per Round")
    limit_halves = 1 if fulls else 2
    if combos.answer == "full-half-or-two-halves" and len(halves) > limit_halves:
        for j in halves[limit_halves:]:
            s.refuse(f".actions[{j}]", ids.COMBINING, f"{c.name} may take one Full Action, a Full and a Half "
                     f"Action, or two Half Actions (plus one Free); {a_names(c, fulls[:1] + halves)} is too many",
                     combos)


def _parry_stage(s: _Sheet) -> None:
    """A Dashing Attack rules out a Parry in the same Round (``melee-phase#4``)."""
    for j in s.open:
        a = s.c.actions[j]
        if a.kind is ActionKind.MELEE and a.dashing and s.c.parry > 0:
            s.refuse(".parry", ids.DASHING, f"{s.c.name} makes a Dashing Attack and cannot Parry in the same "
                                            "Round: all CMB goes into the attack")


def _penalty_stage(s: _Sheet) -> list[Declared]:
    """The accepted actions with this Round's penalties: -20 to both of a Half and a Full Action
    (``action-types#3``), -30 for a Dashing Attack (``melee-phase#4``); an interrupted Multi-Round Action
    is lost (``multi-round-actions#1``)."""
    fulls, halves = s.of_type(ActionType.FULL), s.of_type(ActionType.HALF)
    refused = {r.field.removesuffix(".type") for r in s.refusals}
    kept = [j for j in s.open if f"{s.f}.actions[{j}]" not in refused]
    pair_penalty = (bool(fulls) and bool(halves) and not s.multi and any(j in kept for j in fulls)
                    and any(j in kept for j in halves))
    accepted = [_declared(s, j, pair_penalty) for j in kept]
    if not pair_penalty and len(halves) == 2 and not fulls:
        s.notes.append(Step.of(StepKind.RULE, "Two Half Actions: no penalty", value=0, cites=[ids.HALF]))
    return accepted


def _declared(s: _Sheet, j: int, pair_penalty: bool) -> Declared:
    """Action ``j`` of the sheet, accepted: its type, penalties and whether it is lost, with the steps."""
    a, t = s.c.actions[j], s.counts[j]
    pen = 0
    children = [Step.of(StepKind.RULE, f"{t.value} Action", value=t.value, cites=[s.type_cite(t), _TYPE_CITE[t]])]
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
    return Declared(s.c.name, j, a, t, pen, lost, Step.of(StepKind.RULE, f"{s.c.name}: {a.name}", value=pen,
                                                          detail=f"penalty {pen}" if pen else "", children=children))


def _summary_step(s: _Sheet, accepted: Sequence[Declared], combos: RulingUse) -> Step:
    """The character's declarations step: how many were accepted, the notes and every refusal."""
    return Step.of(StepKind.RULE, f"{s.c.name}: declarations checked", value=f"{len(accepted)} accepted",
                   detail=f"{len(s.refusals)} refused" if s.refusals else "all allowed",
                   cites=[ids.ACTION_TYPES, ids.COMBINING], rulings=[combos],
                   children=[*s.notes, *(Step.of(StepKind.ERROR, f"Refused: {r.message}", value=r.field,
                                                 cites=[r.rule_id], rulings=[r.ruling] if r.ruling else [])
                                         for r in s.refusals)])


def check_declarations(combatants: Sequence[Combatant], overrides: Mapping[str, str] | None = None, *,
                       rules: Rules | None = None) -> tuple[list[Declared], list[Refusal], list[Step]]:
    """Apply the action rules to every character's declarations (``darkmaster/combat/action-types``).

    Each character goes through the stages in turn: the Assessment Roll (``assessment-phase#3``), the
    type each action counts as (``action-types#2``-``#4``), the combinations (``combining-actions#1``,
    ``multi-round-actions#1``), the Parry (``melee-phase#4``) and the penalties.

    Args:
        combatants: the characters and their declared actions.
        overrides: ruling overrides (``darkmaster.*``).
        rules: the rules database whose tables apply (default database).

    Returns:
        ``(accepted, refusals, steps)``: the accepted actions with penalties, every refusal (field,
        rule, message), and one trace step per character.

    Raises:
        RulesInputError: a field of the wrong type or out of range (:func:`check_input`).
    """
    rules = resolve_rules(rules)
    check_input(combatants, rules)
    combos = resolve_ruling(_r.ACTION_COMBINATIONS.id, overrides)
    accepted: list[Declared] = []
    refusals: list[Refusal] = []
    steps: list[Step] = []
    for i, c in enumerate(combatants):
        sheet = _Sheet(c, f"combatants[{i}]", rules, overrides)
        _assessment_stage(sheet)
        _action_type_stage(sheet)
        _combination_stage(sheet, combos)
        _parry_stage(sheet)
        mine = _penalty_stage(sheet)
        accepted += mine
        refusals += sheet.refusals
        steps.append(_summary_step(sheet, mine, combos))
    return accepted, refusals, steps


def a_names(c: Combatant, idx: Sequence[int]) -> str:
    """The names of ``c``'s actions at ``idx``, quoted and joined."""
    return " + ".join(repr(c.actions[j].name) for j in sorted(idx))
