"""The Tactical Round Sequence of Against the Darkmaster (``darkmaster/combat/tactical-round-sequence``).

:func:`sequence_round` takes the combatants (name, CMB, caster level, Spell Casting bonus) and their
declared actions, checks the declarations (:mod:`.actions`), and returns the order of resolution
through the nine phases (supplement table ``trs-phases``), with a cited reason for every placement.
Phases with nothing to resolve are skipped.

The stages, each a short function returning its placements or trace steps: declarations
(:func:`~.actions.check_declarations`), placement (``_placement_stage``: one placer per action kind,
``_place_move`` ... ``_place_other``), the phases in table order (``_phase_stage``: ``_assessment_placements``,
``_declaration_placements``, and ``_ordered_placements`` / ``_order_keys`` for the ordering within a phase),
then what lies outside the phases (``_after_steps``, ``_parry_step``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesDataError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult, resolve_ruling

from . import _tables, ids, rulings as _r
from .actions import (ActionKind, ActionType, Assessment, Combatant, Declared, DeclarationError, Refusal, Side,
                      check_declarations, combatant_field)
from .schema import SEQUENCE
from .weapons import find_length

__all__ = ["Phase", "Placement", "PhaseResult", "SequenceResult", "SequenceInput", "sequence_round",
           "effective_length"]


class Phase(StrEnum):
    """The nine phases, in order (names as in the ``trs-phases`` table)."""

    ASSESSMENT = "Assessment Phase"
    DECLARATION = "Action Declaration Phase"
    MOVE = "Move Phase"
    SPELL_A = "Spell Phase A"
    RANGED_A = "Ranged Phase A"
    MELEE = "Melee Phase"
    RANGED_B = "Ranged Phase B"
    SPELL_B = "Spell Phase B"
    OTHER = "Other Actions Phase"


_PHASE_CITE = {
    Phase.ASSESSMENT: ids.ASSESSMENT, Phase.DECLARATION: ids.DECLARATION, Phase.MOVE: ids.MOVE,
    Phase.SPELL_A: ids.SPELL_A, Phase.RANGED_A: ids.RANGED_A, Phase.MELEE: ids.MELEE, Phase.RANGED_B: ids.RANGED_B,
    Phase.SPELL_B: ids.SPELL_B, Phase.OTHER: ids.OTHER,
}


@dataclass(frozen=True)
class Placement:
    """Where one action resolves and why.

    Attributes:
        phase: the phase, or None for actions outside the TRS (Readied, Free).
        position: 1-based order within the phase; equal positions resolve simultaneously; 0: not in the
            order (outside the phases, or a character who cannot declare after a failed Assessment Roll).
        combatant: the character.
        action: the action's name.
        reason: why it sits here.
        penalty: penalty to its roll this Round (-20, -30, …).
        length: the weapon length it attacks with (melee), else None.
        cites: rule ids behind the placement.
        rulings: rulings applied.
    """

    phase: Phase | None
    position: int
    combatant: str
    action: str
    reason: str
    penalty: int = 0
    length: str | None = None
    cites: tuple[str, ...] = ()
    rulings: tuple[RulingUse, ...] = ()

    def step(self) -> Step:
        label = f"{self.combatant}: {self.action}"
        label = f"{self.position}. {label}" if self.phase and self.position else label
        return Step.of(StepKind.RULE, label, detail=self.reason
                       + (f" (penalty {self.penalty})" if self.penalty else ""), cites=self.cites, rulings=self.rulings)


@dataclass(frozen=True)
class PhaseResult:
    """A phase with something to resolve: its place in the TRS, its row, and its placements in order."""

    phase: Phase
    order: int
    unit_id: str
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class SequenceResult(TracedResult):
    """The Round's order of resolution.

    Attributes:
        phases: the non-empty phases in TRS order.
        skipped: the phases with nothing to resolve.
        declaration_order: who declares in what order (the GM's NPCs first; not those who failed the
            Assessment Roll).
        readied: Readied Actions (trigger at any time, outside the TRS).
        any_time: Free Actions (at any time in the Round).
        parries: name -> CMB held back to Parry.
        lost: interrupted Multi-Round Actions, "name: action".
        refusals: refused declarations (only when ``strict=False``; otherwise they raise).
        trace: the explanation.
    """

    phases: tuple[PhaseResult, ...]
    skipped: tuple[Phase, ...]
    declaration_order: tuple[str, ...]
    readied: tuple[Placement, ...]
    any_time: tuple[Placement, ...]
    parries: dict[str, int]
    lost: tuple[str, ...]
    refusals: tuple[Refusal, ...]
    trace: Step


@dataclass(frozen=True)
class SequenceInput:
    """The combatants of one Round."""

    combatants: tuple[Combatant, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SequenceInput:
        """Build from ``{"combatants": [...]}``, read strictly by :data:`.schema.SEQUENCE` (see
        ``ruleslawyer sequence darkmaster --schema``).

        Raises:
            RulesInputError: an unknown field (with a did-you-mean), a wrong type, a value past its
                bound, naming it by the combatant's name (``combatants.Brom.actions[0].dashing``).
        """
        return cls(tuple(Combatant.from_checked(c) for c in SEQUENCE.read(data, "")["combatants"]))


def _phase_count(phase: Phase, placements: Sequence[Placement]) -> str:
    """A phase header's value that says what it counts: ``"6 characters declare; 1 cannot (failed
    Assessment Roll)"``, ``"3 actions"``."""
    n = len(placements)
    if phase is Phase.DECLARATION:
        cannot = sum(p.position == 0 for p in placements)
        n -= cannot
        return (f"{n} character{'s' if n != 1 else ''} declare{'s' if n == 1 else ''}"
                + (f"; {cannot} cannot (failed Assessment Roll)" if cannot else ""))
    if phase is Phase.ASSESSMENT:
        tracked = sum(p.action == _TRACKED for p in placements)
        parts = [f"lasting effects of {tracked} tracked"] if tracked else []
        parts += [f"{n - tracked} Assessment Roll{'s' if n - tracked != 1 else ''}"] if n - tracked else []
        return "; ".join(parts)
    return f"{n} action{'s' if n != 1 else ''}"


def effective_length(weapon_length: str, positional_bonus: bool = False, dashing: bool = False,
                     overrides: Mapping[str, str] | None = None, *, rules: Rules | None = None
                     ) -> tuple[int, str, str, list[Citation | str], list[RulingUse]]:
    """The length a melee attack is ordered by.

    Attack order is by weapon length (``melee-phase#1``); a Positional Bonus and a Dashing Attack each
    make the weapon one step longer for attack order (``melee-phase#3``, ``#4``): a longsword (Long) with
    a Positional Bonus attacks as Longest; a handaxe (Short) as Long.

    Args:
        weapon_length: a length (Hand, Short, Long, Longest) or a weapon the ``weapon-examples`` table
            names (``"staff"``: Long, the kit's reading, ruling ``darkmaster.weapon-examples``).
        positional_bonus: the attacker has a Positional Bonus.
        dashing: a Dashing Attack.
        overrides: ruling overrides (``darkmaster.*``).
        rules: the rules database whose ``weapon-length`` and ``weapon-examples`` tables apply (default
            database).

    Returns:
        ``(rank, name, explanation, cites, rulings)``; rank is the table step (higher attacks first; above
        Longest only under ``darkmaster.length-past-longest = ahead-of-longest``).

    Raises:
        RulesInputError: ``weapon_length`` is neither a length nor a melee weapon of the tables (field
            ``weapon_length``).
    """
    rules = resolve_rules(rules)
    base = find_length(weapon_length, rules, overrides)
    uses = [resolve_ruling(_r.WEAPON_LENGTHS.id, overrides), *([base.ruling] if base.ruling else [])]
    cites: list[Citation | str] = [ids.MELEE, *base.cites()]
    why = [base.explain()]
    for applies, cite, label in ((positional_bonus, ids.POSITIONAL, "Positional Bonus"),
                                 (dashing, ids.DASHING, "Dashing Attack")):
        if applies:
            cites.append(cite)
            why.append(f"+1 step ({label})")
    steps = int(bool(positional_bonus)) + int(bool(dashing))
    if steps > 1:
        uses.append(resolve_ruling(_r.LENGTH_STEPS_STACK.id, overrides))
        steps = 1 if uses[-1].answer == "one-step" else steps
    rank, name = _lengthened(base.length.step + steps, rules, overrides, why, uses)
    rows = _tables.lengths(rules)
    row = next((r for r in rows if r.step == min(rank, rows[-1].step)), rows[-1])
    if row.step != base.length.step:  # the length it attacks as, when a bonus moved it
        cites.append(Citation(row.row.unit_id, f"{row.name} is step {row.step}"))
    return rank, name, " ".join(why) + f" → attacks as {name}", cites, uses


def _lengthened(rank: int, rules: Rules, overrides: Mapping[str, str] | None, why: list[str],
                uses: list[RulingUse]) -> tuple[int, str]:
    """The rank and name of a weapon moved up to ``rank``; past the longest length the ruling
    ``darkmaster.length-past-longest`` decides (adds to ``why`` and ``uses``)."""
    rows = _tables.lengths(rules)
    top = rows[-1]
    if rank <= top.step:
        return rank, next((r.name for r in rows if r.step == rank), top.name)
    use = resolve_ruling(_r.LENGTH_PAST_LONGEST.id, overrides)
    uses.append(use)
    if use.answer == "stays-longest":
        why.append(f"already {top.name}: stays {top.name}")
        return top.step, top.name
    why.append(f"ahead of every {top.name} weapon")
    return rank, f"{top.name}+{rank - top.step}"


def _dense(keys: list[tuple]) -> list[int]:
    distinct = sorted(set(keys), reverse=True)
    return [distinct.index(k) + 1 for k in keys]


@dataclass(frozen=True)
class _Round:
    """What every stage of one Round reads (internal).

    Attributes:
        combatants: the characters, as given; by_name: name -> character.
        overrides: ruling overrides; rules: the rules handle every table is read from.
        tie_use: the ``darkmaster.tie-cmb`` ruling in force.
        declared_order: every character, the GM's NPCs first (ties in a phase follow it).
    """

    combatants: tuple[Combatant, ...]
    by_name: dict[str, Combatant]
    overrides: dict[str, str]
    rules: Rules
    tie_use: RulingUse
    declared_order: tuple[str, ...]
    tracked: tuple[str, ...] = ()

    def cmb(self, d: Declared) -> int:
        """The CMB that orders ``d`` (after this Round's penalties under ``tie-cmb = after-penalties``)."""
        return self.by_name[d.combatant].cmb + (d.penalty if self.tie_use.answer == "after-penalties" else 0)


@dataclass(frozen=True)
class _Entry:
    """An action waiting in its phase: the reason, the rules behind it and its ordering key (higher first)."""

    declared: Declared
    why: str
    cites: tuple[Citation | str, ...]
    rulings: tuple[RulingUse, ...]
    key: tuple
    length: str | None = None


@dataclass
class _Placed:
    """The placement stage's output: actions per phase, and those outside the phase order."""

    buckets: dict[Phase, list[_Entry]]
    readied: list[Placement]
    any_time: list[Placement]
    lost: list[str]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


def _place_move(rnd: _Round, d: Declared) -> tuple[Phase, _Entry]:
    """Movement resolves together in the Move Phase (``move-phase#1``)."""
    return Phase.MOVE, _Entry(d, "movement is generally simultaneous", (ids.MOVE,), (), (0,))


def _place_spell(rnd: _Round, d: Declared) -> tuple[Phase, _Entry]:
    """Instant and prepared Spells in Spell Phase A (``spell-phase-a#1``), the rest in B (``spell-phase-b#1``);
    ordered by caster level, then Spell Casting bonus."""
    a, c = d.action, rnd.by_name[d.combatant]
    if a.instant or a.prepared_rounds >= 1:
        n = a.prepared_rounds
        why = "an Instant Spell" if a.instant else (f"prepared {_plural(n, 'full Round')} before (gains the bonus "
                                                    f"for {_plural(n, 'preparation Round')})")
        phase, cites = Phase.SPELL_A, (ids.SPELL_A,)
    else:
        phase, why, cites = Phase.SPELL_B, "an unprepared Spell", (ids.SPELL_B,)
    why += f"; caster level {c.caster_level}, Spell Casting bonus {c.spell_casting_bonus}"
    return phase, _Entry(d, why, cites, (), (c.caster_level, c.spell_casting_bonus))


def _place_ranged(rnd: _Round, d: Declared) -> tuple[Phase, _Entry]:
    """Loaded-before and thrown-in-hand shots in Ranged Phase A (``ranged-phase-a#1``), the rest in B
    (``ranged-phase-b#1``); ordered by CMB."""
    a = d.action
    if a.reloaded_before or a.thrown_in_hand:
        why = ("fully reloaded a complete Round or more before this one" if a.reloaded_before
               else "a readied thrown weapon already in hand")
        phase, cites = Phase.RANGED_A, (ids.RANGED_A,)
    else:
        phase, why, cites = Phase.RANGED_B, "not ready before this Round (fires in the second volley)", (ids.RANGED_B,)
    weapon = f"{a.weapon}: " if a.weapon else ""
    return phase, _Entry(d, f"{weapon}{why}; CMB {rnd.cmb(d)}", cites, (), (rnd.cmb(d),))


def _place_melee(rnd: _Round, d: Declared) -> tuple[Phase, _Entry]:
    """The Melee Phase, ordered by effective weapon length, then CMB (``melee-phase#1``-``#4``)."""
    a = d.action
    given = a.weapon_length if a.weapon_length is not None else a.weapon
    rank, length, why, cites, uses = effective_length(given, a.positional_bonus, a.dashing, rnd.overrides,
                                                      rules=rnd.rules)
    return Phase.MELEE, _Entry(d, f"{why}; CMB {rnd.cmb(d)}", (*cites, ids.MELEE_ORDER), tuple(uses),
                               (rank, rnd.cmb(d)), length)


def _place_other(rnd: _Round, d: Declared) -> tuple[Phase, _Entry]:
    """Skills and everything else in the Other Actions Phase (``other-actions-phase#1``)."""
    return Phase.OTHER, _Entry(d, "a Skill or other action", (ids.OTHER,), (), (0,))


_PLACERS = {ActionKind.MOVE: _place_move, ActionKind.SPELL: _place_spell, ActionKind.RANGED: _place_ranged,
            ActionKind.MELEE: _place_melee, ActionKind.OTHER: _place_other}


def _placement_stage(rnd: _Round, accepted: Sequence[Declared]) -> _Placed:
    """Send every accepted action to its phase, or outside the order: lost (``multi-round-actions#1``),
    Readied (``readied-actions#1``) or a Free Action at any time (``action-types#4``)."""
    placed = _Placed({p: [] for p in Phase}, [], [], [])
    for d in accepted:
        a = d.action
        if d.lost:
            placed.lost.append(f"{d.combatant}: {a.name}")
        elif a.readied:
            placed.readied.append(Placement(None, 0, d.combatant, a.name, "Readied Action: triggers at any time, "
                                            "whatever the Phase", d.penalty, None, (ids.READIED,)))
        elif d.counts_as is ActionType.FREE:
            free_row = _tables.action_types(rnd.rules)["Free"].unit_id
            placed.any_time.append(Placement(None, 0, d.combatant, a.name, "Free Action: any time during the Round",
                                             d.penalty, None, (ids.FREE, free_row)))
        else:
            phase, entry = _PLACERS[ActionKind(a.kind)](rnd, d)
            placed.buckets[phase].append(_as_counted(entry))
    return placed


def _as_counted(e: _Entry) -> _Entry:
    """A Multi-Round Action counts as Full (``multi-round-actions#1``); a Half Action takes place in its
    Phase (``action-types#3``): say so in the reason; cite the rules behind the action's penalty."""
    a, why, cites = e.declared.action, e.why, list(e.cites)
    if a.multi_round:
        cites.append(ids.MULTI_ROUND)
        why = f"Multi-Round Action, Round {a.round} of {a.duration} (counts as a Full Action): " + why
    if e.declared.counts_as is ActionType.HALF:
        cites.append(ids.HALF)
        why = "Half Action in its Phase: " + why
    cites += e.declared.penalty_cites
    return _Entry(e.declared, why, tuple(dict.fromkeys(cites)), e.rulings, e.key, e.length)


_TRACKED = "lasting effects tracked"


def _assessment_placements(rnd: _Round) -> list[Placement]:
    """Whose lasting effects were tracked (``assessment-phase#1``; a fight's, given as ``tracked``) and who
    made an Assessment Roll this Round (``assessment-phase#1``-``#3``)."""
    out = [Placement(Phase.ASSESSMENT, 1, name, _TRACKED, "the duration of Spells and ongoing conditions",
                     0, None, (ids.ASSESSMENT,)) for name in rnd.tracked]
    for c in rnd.combatants:
        if c.assessment is None:
            continue
        failed = c.assessment is Assessment.FAILED
        out.append(Placement(Phase.ASSESSMENT, 1, c.name, f"Assessment Roll ({c.assessment.value})",
                             "a Perception roll as a Free Action to assess the situation"
                             + ("; failed: no new actions this Round, Parry with at most half CMB" if failed else ""),
                             0, None, (ids.ASSESSMENT,) + ((ids.ASSESSMENT_FAILED,) if failed else ())))
    return out


def _declaration_placements(rnd: _Round) -> list[Placement]:
    """The GM declares NPC actions first, then the players (``action-declaration-phase#1``); a character who
    failed the Assessment Roll declares nothing new (``assessment-phase#3``): listed, with no position."""
    out = []
    for name in rnd.declared_order:
        c = rnd.by_name[name]
        if c.assessment is Assessment.FAILED:
            going_on = [a.name for a in c.actions if a.continuing or (a.multi_round and a.round > 1)]
            out.append(Placement(Phase.DECLARATION, 0, name, "declares no new actions", "failed the Assessment "
                                 "Roll: may only Parry (with up to half the CMB) or continue last Round's action"
                                 + (f" ({', '.join(going_on)})" if going_on else ""), 0, None, (ids.ASSESSMENT_FAILED,)))
        else:
            out.append(Placement(Phase.DECLARATION, sum(p.position > 0 for p in out) + 1, name,
                                 "declares actions and targets", "the GM declares NPC actions first"
                                 if c.side is Side.NPC else "players declare after the GM, in any order they wish",
                                 0, None, (ids.DECLARATION,)))
    return out


def _order_keys(rnd: _Round, phase: Phase, entries: Sequence[_Entry]) -> tuple[list[tuple], list[RulingUse]]:
    """The ordering keys within ``phase`` (higher first, equal: simultaneous) and the rulings that set them:
    ``phase-b-order`` (Phase B), ``other-actions-order``, ``tie-cmb`` (CMB ties), ``spell-tie``."""
    keys, uses = [e.key for e in entries], []
    ordered_by = None
    if phase in (Phase.RANGED_B, Phase.SPELL_B):
        ordered_by = resolve_ruling(_r.PHASE_B_ORDER.id, rnd.overrides)
        if ordered_by.answer == "simultaneous":
            keys = [(0,)] * len(entries)
    elif phase is Phase.OTHER:
        ordered_by = resolve_ruling(_r.OTHER_ACTIONS_ORDER.id, rnd.overrides)
        if ordered_by.answer == "declaration-order":
            keys = [(-rnd.declared_order.index(e.declared.combatant), -e.declared.index) for e in entries]
    several = len(entries) > 1
    if ordered_by is not None and several:
        uses.append(ordered_by)
    simultaneous = ordered_by is not None and ordered_by.answer == "simultaneous"
    if several and not simultaneous and phase in (Phase.RANGED_A, Phase.RANGED_B, Phase.MELEE):
        firsts = [k[0] for k in keys]
        if phase is not Phase.MELEE or len(set(firsts)) < len(firsts):  # CMB compared: a ranged phase, equal lengths
            uses.append(rnd.tie_use)
    if phase in (Phase.SPELL_A, Phase.SPELL_B) and not simultaneous and len(set(keys)) < len(keys):
        uses.append(resolve_ruling(_r.SPELL_TIE.id, rnd.overrides))
    return keys, uses


def _ordered_placements(rnd: _Round, phase: Phase, entries: Sequence[_Entry]) -> tuple[list[Placement], list[RulingUse]]:
    """The actions of one resolving phase in order; equal positions resolve simultaneously."""
    if not entries:
        return [], []
    keys, uses = _order_keys(rnd, phase, entries)
    positions = _dense(keys)
    order = sorted(range(len(entries)),
                   key=lambda i: (positions[i], rnd.declared_order.index(entries[i].declared.combatant)))
    out = []
    for i in order:
        e = entries[i]
        why = e.why
        if phase is not Phase.MOVE and positions.count(positions[i]) > 1:
            why += "; simultaneous with another action here"
        out.append(Placement(phase, positions[i], e.declared.combatant, e.declared.action.name, why,
                             e.declared.penalty, e.length,
                             tuple(c if isinstance(c, str) else c.rule_id for c in e.cites), e.rulings))
    return out, uses


def _phase_stage(rnd: _Round, placed: _Placed) -> tuple[list[PhaseResult], list[Phase], list[Step]]:
    """Every phase in the order of the ``trs-phases`` table: its placements, or skipped when empty (``#1``)."""
    results, skipped, steps = [], [], []
    for prow in _phase_rows(rnd.rules):
        phase = Phase(prow.name)
        if phase is Phase.ASSESSMENT:
            placements, uses = _assessment_placements(rnd), []
        elif phase is Phase.DECLARATION:
            placements, uses = _declaration_placements(rnd), []
        else:
            placements, uses = _ordered_placements(rnd, phase, placed.buckets[phase])
        if not placements:
            skipped.append(phase)
            continue
        results.append(PhaseResult(phase, prow.order, prow.row.unit_id, tuple(placements)))
        steps.append(Step.of(StepKind.RULE, f"{prow.order}. {phase.value}", value=_phase_count(phase, placements),
                             cites=[_PHASE_CITE[phase], Citation(prow.row.unit_id, f"phase {prow.order}")],
                             rulings=list(dict.fromkeys(uses)), children=[p.step() for p in placements]))
    return results, skipped, steps


def _phase_rows(rules: Rules) -> list[_tables.PhaseRow]:
    """The ``trs-phases`` rows in table order, each naming one of the nine phases.

    Raises:
        RulesDataError: a phase is missing from the table, or a row names no known phase.
    """
    rows = _tables.phases(rules)
    names = [r.name for r in rows]
    for r in rows:
        if r.name not in Phase._value2member_map_:
            raise RulesDataError(f"{r.row.unit_id}: trs-phases row {r.name!r} is not one of the nine phases")
    for phase in Phase:
        if phase.value not in names:
            raise RulesDataError(f"trs-phases has no row {phase.value!r}")
    return rows


def _parries(rnd: _Round, refusals: Sequence[Refusal]) -> dict[str, int]:
    """name -> CMB held back to Parry, leaving out refused Parries."""
    refused = {r.field for r in refusals}
    return {c.name: c.parry for i, c in enumerate(rnd.combatants)
            if c.parry > 0 and f"{combatant_field(c.name, i)}.parry" not in refused}


def _parry_step(rnd: _Round, parries: Mapping[str, int]) -> Step:
    """The Parries held back: CMB kept for defence (supplement ``parry#1``), at most half of it after a failed
    Assessment Roll (``assessment-phase#3``), applied whenever attacked (ruling ``darkmaster.parry-timing``)."""
    children = []
    for name, parry in parries.items():
        c = rnd.by_name[name]
        failed = c.assessment is Assessment.FAILED
        children.append(Step.of(StepKind.RULE, f"{name}: Parry {parry} of CMB {c.cmb}",
                                detail="at most half the CMB after a failed Assessment Roll" if failed else "",
                                cites=[ids.PARRY, *([ids.ASSESSMENT_FAILED] if failed else [])]))
    return Step.of(StepKind.RULE, "Parry held back", value=dict(parries),
                   detail=", ".join(f"{n} {v}" for n, v in parries.items()) + " — applies whenever attacked",
                   cites=[ids.PARRY], rulings=[resolve_ruling(_r.PARRY_TIMING.id, rnd.overrides)], children=children)


def _after_steps(rnd: _Round, placed: _Placed, skipped: Sequence[Phase], parries: Mapping[str, int],
                 refusals: Sequence[Refusal]) -> list[Step]:
    """The steps after the phases: skipped phases (``tactical-round-sequence#1``), actions outside the phase
    order, Parries held back (:func:`_parry_step`), lost Multi-Round Actions, refused declarations."""
    out = []
    if skipped:
        out.append(Step.of(StepKind.RULE, "Skipped: " + ", ".join(p.value for p in skipped),
                           detail="Phases with nothing to resolve are simply skipped", cites=[ids.TRS]))
    outside = [p.step() for p in (*placed.readied, *placed.any_time)]
    if outside:
        out.append(Step.of(StepKind.INFO, "Outside the phase order", children=outside))
    if parries:
        out.append(_parry_step(rnd, parries))
    if placed.lost:
        out.append(Step.of(StepKind.RULE, "Lost (interrupted Multi-Round Actions)", value=list(placed.lost),
                           detail="; ".join(placed.lost), cites=[ids.MULTI_ROUND]))
    if refusals:
        out.append(Step.of(StepKind.ERROR, f"{len(refusals)} declaration(s) refused and left out",
                           value=[r.field for r in refusals],
                           children=[Step.of(StepKind.ERROR, r.message, value=r.field, cites=[r.rule_id],
                                             rulings=[r.ruling] if r.ruling else []) for r in refusals]))
    return out


def sequence_round(combatants: Sequence[Combatant] | SequenceInput, *, rulings: Mapping[str, str] | None = None,
                   strict: bool = True, rules: Rules | None = None, tracked: Sequence[str] = ()) -> SequenceResult:
    """Order a Round through the Tactical Round Sequence (``darkmaster/combat/tactical-round-sequence``).

    The stages: the declarations (:func:`~.actions.check_declarations`), the placement of each action in
    its phase (``_place_move`` ... ``_place_other``), each phase in the order of the ``trs-phases`` table
    with the ordering within it, then what lies outside the phases (Readied and Free Actions, Parries,
    lost Multi-Round Actions, refusals).

    Args:
        combatants: the characters with their declared actions.
        rulings: ruling overrides (``darkmaster.*``).
        strict: raise on a refused declaration (default); with False, refused actions are left out and
            listed in ``refusals``.
        rules: the rules database whose tables (``trs-phases``, ``weapon-length``, ``action-types``)
            apply (default database).
        tracked: names whose lasting effects the Assessment Phase tracked this Round (a fight's), listed in
            that phase.

    Returns:
        A :class:`SequenceResult`.

    Raises:
        RulesInputError: bad input, naming the field by the combatant's name
            (``combatants.Brom.actions[1].weapon_length``).
        DeclarationError: (``strict``) declarations the rules refuse, e.g. two Full Actions; the message
            names the field and cites the rule.
        RulesDataError: the ``trs-phases`` table does not name the nine phases.
    """
    if isinstance(combatants, SequenceInput):
        combatants = combatants.combatants
    combatants = tuple(combatants)
    overrides = dict(rulings or {})
    check_rulings(overrides, "darkmaster")
    rules = resolve_rules(rules)
    accepted, refusals, check_steps = check_declarations(combatants, overrides, rules=rules)
    if refusals and strict:
        raise DeclarationError(refusals)
    order = tuple(c.name for c in combatants if c.side is Side.NPC) + tuple(c.name for c in combatants
                                                                            if c.side is not Side.NPC)
    rnd = _Round(combatants, {c.name: c for c in combatants}, overrides, rules,
                 resolve_ruling(_r.TIE_CMB.id, overrides), order, tuple(tracked))
    placed = _placement_stage(rnd, accepted)
    results, skipped, phase_steps = _phase_stage(rnd, placed)
    parries = _parries(rnd, refusals)
    trace = Step.of(StepKind.RESULT, "Against the Darkmaster: Tactical Round Sequence",
                    value=[p.phase.value for p in results],
                    detail=" → ".join(p.phase.value for p in results), cites=[ids.TRS],
                    children=[Step.of(StepKind.RULE, "Declarations", cites=[ids.ACTION_TYPES, ids.DECLARATION],
                                      children=check_steps), *phase_steps,
                              *_after_steps(rnd, placed, skipped, parries, refusals)])
    declaring = tuple(n for n in order if rnd.by_name[n].assessment is not Assessment.FAILED)
    return SequenceResult(tuple(results), tuple(skipped), declaring, tuple(placed.readied), tuple(placed.any_time),
                          parries, tuple(placed.lost), tuple(refusals), trace)
