"""Declared actions in Against the Darkmaster and the checks on what a character may declare.

Rules (``darkmaster/combat/action-types``): a melee or ranged attack or a non-instant Spell is a Full
Action (the chapter's examples, ``#2``), an Instant Spell a Half Action (``#3``); declaring one as
another type is refused, and an action given no type takes that one (else Full). One Full Action a
Round; a Half Action beside a Full one gives -20 to both; two Half Actions go free of penalty; one Free
Action, further ones count as Half; Multi-Round Actions (``Load (2)``) are consecutive Full Actions,
lost if interrupted, and combine only with Free Actions; Readied Actions trigger at any time. A Parry
is CMB held back, so at most the CMB (supplement ``parry#1``). A Dashing Attack takes -30 CMB and rules
out a Parry (``melee-phase#4``). After a failed Assessment Roll nothing new may be declared and a Parry
is limited to half the CMB (``assessment-phase#3``). The combinations list the chapter breaks off
before is the ruling ``darkmaster.action-combinations``.

Fields are named by the combatant's name: ``combatants.Brom.parry``, ``combatants.Brom.actions[0].type``
(by position only where the name itself is wrong: ``combatants[3].name``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import check_attrs
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, resolve_ruling

from . import _tables, ids, rulings as _r
from .schema import ACTION, COMBATANT, combatant_field
from .weapons import find_length

__all__ = [
    "ActionType", "ActionKind", "Side", "Assessment", "ActionSpec", "Action", "Combatant", "Refusal", "DeclarationError",
    "Declared", "FULL_HALF_PENALTY", "DASHING_PENALTY", "check_declarations", "MAX_CMB", "combatant_field",
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
class ActionSpec:
    """What a character declares of an action, whatever Round of it this is: the fields the Tactical
    Round Sequence's :class:`Action` and a fight's declared action
    (:class:`~.fight_state.FightAction`) share, kept here once.

    Attributes:
        name: e.g. ``"Longsword attack"``; a trailing ``(2)`` (``"Load (2)"``) makes it a Multi-Round Action.
        type: Full, Half or Free; None: the type the chapter gives the kind (Full; Half for an Instant Spell).
        kind: move, spell, ranged, melee or other.
        target: whom it is aimed at (shown only).
        weapon_length: melee: Hand, Short, Long, Longest, or a weapon the ``weapon-examples`` table names.
        weapon: the weapon's name (any kind, shown); a melee attack with no ``weapon_length`` takes the
            length the ``weapon-examples`` table gives it (``"staff"``: Long).
        positional_bonus: melee: attacking from higher ground or mounted, flanking, or from the rear.
        dashing: melee: a Dashing Attack.
        instant: spell: an Instant Spell.
        prepared_rounds: spell: full previous Rounds of preparation.
        reloaded_before: ranged: loaded and aimed a complete Round or more before this one.
        thrown_in_hand: ranged: a readied thrown weapon already held in hand.
        readied: held until a circumstance arises (resolves outside the TRS).
        rounds: duration of a Multi-Round Action (None: read from the name, else 1).
    """

    name: str
    type: ActionType | None = None
    kind: ActionKind = ActionKind.OTHER
    target: str | None = None
    weapon_length: str | None = None
    weapon: str | None = None
    positional_bonus: bool = False
    dashing: bool = False
    instant: bool = False
    prepared_rounds: int = 0
    reloaded_before: bool = False
    thrown_in_hand: bool = False
    readied: bool = False
    rounds: int | None = None

    @property
    def duration(self) -> int:
        """Rounds the action takes (``multi-round-actions#1``): ``rounds``, else the ``(n)`` in the name,
        else 1."""
        if self.rounds is not None:
            return self.rounds
        m = _ROUNDS_RE.search(self.name)
        return int(m.group(1)) if m else 1

    @property
    def multi_round(self) -> bool:
        return self.duration > 1

    def spec(self) -> dict[str, Any]:
        """The declared fields (those of :class:`ActionSpec`) by name."""
        return {f.name: getattr(self, f.name) for f in fields(ActionSpec)}


@dataclass(frozen=True)
class Action(ActionSpec):
    """One declared action in the Round being sequenced: its :class:`ActionSpec` fields (``name``,
    ``type``, ``kind``, ... ``rounds``, in that order) and where it stands this Round.

    Attributes:
        round: which Round of it this is (1..rounds).
        interrupted: the Multi-Round Action was interrupted (it is lost).
        continuing: carries on what the character was doing last Round.
    """

    round: int = 1
    interrupted: bool = False
    continuing: bool = False


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
        """Build from JSON, read strictly by :data:`.schema.COMBATANT` (see ``ruleslawyer sequence
        darkmaster --schema``); ``fld`` names it in errors (:func:`combatant_field`).

        Raises:
            RulesInputError: an unknown field (with a did-you-mean), a wrong type (``"false"`` for a
                boolean), a value past its bound, naming ``<fld>.<field>``.
        """
        return cls.from_checked(COMBATANT.read(d, fld))

    @classmethod
    def from_checked(cls, d: Mapping[str, Any]) -> Combatant:
        """Build from data :data:`.schema.COMBATANT` has already read."""
        actions = tuple(Action(**{**a, "type": None if a.get("type") is None else ActionType(a["type"]),
                                  "kind": ActionKind(a.get("kind", "other"))}) for a in d.get("actions", ()))
        return cls(**{**d, "side": Side(d.get("side", "player")), "actions": actions,
                      "assessment": None if d.get("assessment") is None else Assessment(d["assessment"])})


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
        penalty_cites: the rules behind ``penalty`` (``action-types#3``, ``melee-phase#4``).
    """

    combatant: str
    index: int
    action: Action
    counts_as: ActionType
    penalty: int
    lost: bool
    trace: Step
    penalty_cites: tuple[str, ...] = ()


def _int(v, fld, low=None, high=None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low) or (high is not None and v > high):
        rng = f" from {low}" if low is not None else ""
        rng += f" to {high}" if high is not None else ""
        raise RulesInputError(fld, f"must be a whole number{rng}, got {v!r}")
    return v


_FLAGS = ("positional_bonus", "dashing", "instant", "reloaded_before", "thrown_in_hand", "readied", "interrupted",
          "continuing")
_MELEE_ONLY = ("weapon_length", "positional_bonus", "dashing")


def check_input(combatants: Sequence[Combatant], rules: Rules | None = None,
                overrides: Mapping[str, str] | None = None) -> None:
    """Validate the types and ranges of every field (not the rules), naming the field.

    A melee action's ``weapon_length`` (or ``weapon``) must be a length or a weapon of the tables of
    ``rules`` (default database), under the ruling ``darkmaster.weapon-examples`` in ``overrides``.

    Raises:
        RulesInputError: e.g. ``combatants.Brom.cmb`` not a whole number, ``combatants[3].name`` repeated.
    """
    if not combatants:
        raise RulesInputError("combatants", "give at least one combatant")
    rules = resolve_rules(rules)
    names: set[str] = set()
    for i, c in enumerate(combatants):
        if not isinstance(c.name, str) or not c.name.strip():
            raise RulesInputError(f"combatants[{i}].name", "every combatant needs a name")
        if c.name in names:
            raise RulesInputError(f"combatants[{i}].name", f"the name {c.name!r} is used twice")
        names.add(c.name)
        _check_combatant(c, combatant_field(c.name, i), rules, overrides)


def _check_combatant(c: Combatant, f: str, rules: Rules, overrides: Mapping[str, str] | None) -> None:
    """One combatant's numbers and actions."""
    check_attrs(c, COMBATANT, f, ("cmb", "caster_level", "spell_casting_bonus", "parry"))
    if not isinstance(c.actions, (list, tuple)) or not all(isinstance(a, Action) for a in c.actions):
        raise RulesInputError(f"{f}.actions", f"must be a list of actions, got {c.actions!r}")
    for j, a in enumerate(c.actions):
        _check_action(a, f"{f}.actions[{j}]", rules, overrides)


def _check_action(a: Action, af: str, rules: Rules, overrides: Mapping[str, str] | None) -> None:
    """One action's fields; a melee action's weapon must have a length (:func:`.weapons.find_length`)."""
    if a.type is not None:
        _enum(ActionType, a.type, f"{af}.type")
    _enum(ActionKind, a.kind, f"{af}.kind")
    if not isinstance(a.name, str) or not a.name.strip():
        raise RulesInputError(f"{af}.name", "every action needs a name")
    if a.weapon is not None and (not isinstance(a.weapon, str) or not a.weapon.strip()):
        raise RulesInputError(f"{af}.weapon", f"the weapon's name, e.g. 'longbow' or 'staff', got {a.weapon!r}")
    check_attrs(a, ACTION, af, ("rounds", "round", "prepared_rounds", *_FLAGS))
    most = ACTION.fields["rounds"].high
    if a.rounds is None and not 1 <= a.duration <= most:
        raise RulesInputError(f"{af}.name", f"{a.name!r}: a trailing (n) makes a Multi-Round Action of n Rounds "
                                            f"(multi-round-actions#1), n from 1 to {most}; got {a.duration}")
    _int(a.round, f"{af}.round", 1, a.duration)
    melee_only = [k for k in _MELEE_ONLY if getattr(a, k)]
    if a.kind is ActionKind.MELEE:
        if a.weapon_length is None and a.weapon is None:
            lengths = ", ".join(r.name for r in _tables.lengths(rules))
            raise RulesInputError(f"{af}.weapon_length", f"a melee action needs its weapon length ({lengths}) or "
                                                         "a weapon the weapons table names (e.g. longsword)")
        given = "weapon_length" if a.weapon_length is not None else "weapon"
        find_length(getattr(a, given), rules, overrides, f"{af}.{given}")
    elif melee_only:
        raise RulesInputError(f"{af}.{melee_only[0]}", "only a melee action has a weapon length, a Positional "
                                                       "Bonus or a Dashing Attack (name any weapon with 'weapon')")


@dataclass(frozen=True)
class _KindType:
    """The type the chapter's examples give an action (``action-types#2``/``#3``), what it is, the rule."""

    type: ActionType
    what: str
    rule_id: str


def _kind_type(a: Action) -> _KindType | None:
    """The type the chapter's examples fix for ``a``: "making a melee or ranged attack, casting a
    non-instant Spell" are Full (``action-types#2``), "casting an Instant Spell" is Half (``#3``); None for
    a move (full Move Rate or a Half Movement) and other actions."""
    if a.kind == ActionKind.MELEE:
        return _KindType(ActionType.FULL, "a melee attack", ids.FULL)
    if a.kind == ActionKind.RANGED:
        return _KindType(ActionType.FULL, "a ranged attack", ids.FULL)
    if a.kind == ActionKind.SPELL:
        return (_KindType(ActionType.HALF, "an Instant Spell", ids.HALF) if a.instant
                else _KindType(ActionType.FULL, "a non-instant Spell", ids.FULL))
    return None


_TYPE_CITE = {ActionType.FULL: ids.FULL, ActionType.HALF: ids.HALF, ActionType.FREE: ids.FREE}


@dataclass
class _Sheet:
    """One character's declarations while the stages check them (internal, mutable).

    Attributes:
        c: the character; f: its input field (``combatants.Brom``); rules / overrides: as given.
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
    """A failed Assessment Roll: nothing new may be declared, only last Round's action continued
    (``assessment-phase#3``); any Assessment Roll is the Round's Free Action (``action-types#4``)."""
    c = s.c
    failed = c.assessment is Assessment.FAILED
    for j, a in enumerate(c.actions):
        if failed and not (a.continuing or (a.multi_round and a.round > 1)):
            s.refuse(f".actions[{j}]", ids.ASSESSMENT_FAILED, f"{c.name} failed the Assessment Roll and cannot "
                     f"declare new actions ({a.name!r}); only continuing last Round's action or a Parry")
        else:
            s.open.append(j)
    if c.assessment is not None:
        s.notes.append(Step.of(StepKind.RULE, "The Assessment Roll is this Round's Free Action",
                               cites=[ids.FREE, ids.ASSESSMENT, s.type_cite(ActionType.FREE)]))


def _action_type_stage(s: _Sheet) -> None:
    """The type each standing action counts as: the type the chapter's examples give its kind
    (:func:`_kind_type`; declared otherwise: refused); a Multi-Round Action counts as Full
    (``multi-round-actions#1``); one Free Action a Round, further ones count as Half (``action-types#4``)."""
    free_used = 1 if s.c.assessment is not None else 0
    for j in s.open:
        a = s.c.actions[j]
        if a.multi_round:
            s.counts[j] = ActionType.FULL
            continue
        fixed = _kind_type(a)
        t = ActionType(a.type) if a.type is not None else fixed.type if fixed else ActionType.FULL
        if fixed and t is not fixed.type:
            s.refuse(f".actions[{j}].type", fixed.rule_id, f"{a.name!r} is {fixed.what}, which the rules give as a "
                     f"{fixed.type.value} Action; declare it as {fixed.type.value}, not {t.value}")
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
    """A Parry is CMB held back: at most the CMB (supplement ``parry#1``), at most half of it after a failed
    Assessment Roll (``assessment-phase#3``, ruling ``darkmaster.half-cmb-rounding``), none beside a
    Dashing Attack (``melee-phase#4``)."""
    c = s.c
    if c.assessment is Assessment.FAILED:
        use = resolve_ruling(_r.HALF_CMB_ROUNDING.id, s.overrides)
        limit = (math.floor if use.answer == "down" else math.ceil)(max(c.cmb, 0) / 2)
        if c.parry > limit:
            s.refuse(".parry", ids.ASSESSMENT_FAILED, f"after a failed Assessment Roll {c.name} may Parry with at "
                     f"most half the CMB: {limit}, not {c.parry}", use)
        else:
            s.notes.append(Step.of(StepKind.RULE, f"Failed Assessment Roll: Parry up to {limit}", value=limit,
                                   cites=[ids.ASSESSMENT_FAILED], rulings=[use]))
    elif c.parry > max(c.cmb, 0):
        s.refuse(".parry", ids.PARRY, f"{c.name}'s Parry {c.parry} is more than the CMB {c.cmb}: a Parry is CMB "
                                      f"held back, from 0 to {max(c.cmb, 0)}")
    if c.parry > 0 and any(c.actions[j].kind is ActionKind.MELEE and c.actions[j].dashing for j in s.open):
        s.refuse(".parry", ids.DASHING, f"{c.name} makes a Dashing Attack and cannot Parry in the same Round: all "
                                        "CMB goes into the attack")


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
    pen, pen_cites = 0, []
    children = [Step.of(StepKind.RULE, f"{t.value} Action", value=t.value, cites=[s.type_cite(t), _TYPE_CITE[t]])]
    if a.multi_round:
        children.append(Step.of(StepKind.RULE, f"Multi-Round Action: Round {a.round} of {a.duration}",
                                value=a.duration, detail="an uninterrupted sequence of Full Actions",
                                cites=[ids.MULTI_ROUND]))
    if pair_penalty and t in (ActionType.FULL, ActionType.HALF):
        pen += FULL_HALF_PENALTY
        pen_cites.append(ids.HALF)
        children.append(Step.of(StepKind.MODIFIER, "Half with Full Action", value=FULL_HALF_PENALTY,
                                detail="both suffer -20 to any roll involved", cites=[ids.HALF]))
    if a.kind is ActionKind.MELEE and a.dashing:
        pen += DASHING_PENALTY
        pen_cites.append(ids.DASHING)
        children.append(Step.of(StepKind.MODIFIER, "Dashing Attack", value=DASHING_PENALTY,
                                detail="-30 CMB; no Parry this Round", cites=[ids.DASHING]))
    lost = a.multi_round and a.interrupted
    if lost:
        children.append(Step.of(StepKind.RULE, "Interrupted: the Multi-Round Action is lost", value=True,
                                detail="the character must start over", cites=[ids.MULTI_ROUND]))
    return Declared(s.c.name, j, a, t, pen, lost, Step.of(StepKind.RULE, f"{s.c.name}: {a.name}", value=pen,
                                                          detail=f"penalty {pen}" if pen else "", children=children),
                    tuple(pen_cites))


def _summary_step(s: _Sheet, accepted: Sequence[Declared], combos: RulingUse) -> Step:
    """The character's declarations step: how many were accepted, the notes and every refusal. The
    combinations (``combining-actions#1``, its ruling) are cited only where two or more actions combine."""
    combined = len(s.counts) > 1
    return Step.of(StepKind.RULE, f"{s.c.name}: declarations checked", value=f"{len(accepted)} accepted",
                   detail=f"{len(s.refusals)} refused" if s.refusals else "all allowed",
                   cites=[ids.ACTION_TYPES, *([ids.COMBINING] if combined else [])], rulings=[combos] if combined else [],
                   children=[*s.notes, *(Step.of(StepKind.ERROR, f"Refused: {r.message}", value=r.field,
                                                 cites=[r.rule_id], rulings=[r.ruling] if r.ruling else [])
                                         for r in s.refusals)])


def check_declarations(combatants: Sequence[Combatant], overrides: Mapping[str, str] | None = None, *,
                       rules: Rules | None = None) -> tuple[list[Declared], list[Refusal], list[Step]]:
    """Apply the action rules to every character's declarations (``darkmaster/combat/action-types``).

    Each character goes through the stages in turn: the Assessment Roll (``assessment-phase#3``), the
    type each action counts as (``action-types#2``-``#4``), the combinations (``combining-actions#1``,
    ``multi-round-actions#1``), the Parry (supplement ``parry#1``, ``assessment-phase#3``,
    ``melee-phase#4``) and the penalties.

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
    check_input(combatants, rules, overrides)
    combos = resolve_ruling(_r.ACTION_COMBINATIONS.id, overrides)
    accepted: list[Declared] = []
    refusals: list[Refusal] = []
    steps: list[Step] = []
    for i, c in enumerate(combatants):
        sheet = _Sheet(c, combatant_field(c.name, i), rules, overrides)
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
