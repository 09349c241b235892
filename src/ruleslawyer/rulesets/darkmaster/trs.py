"""The Tactical Round Sequence of Against the Darkmaster (``darkmaster/combat/tactical-round-sequence``).

:func:`sequence_round` takes the combatants (name, CMB, caster level, Spell Casting bonus) and their
declared actions, checks the declarations (:mod:`.actions`), and returns the order of resolution
through the nine phases (supplement table ``trs-phases``), with a cited reason for every placement.
Phases with nothing to resolve are skipped.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesDataError

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind, TracedResult, check_overrides, resolve_ruling

from . import _tables, ids, rulings as _r
from .actions import (ActionKind, ActionType, Combatant, Declared, DeclarationError, Refusal, Side,
                      check_declarations)

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
        position: 1-based order within the phase; equal positions resolve simultaneously.
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
        label = f"{self.position}. {self.combatant}: {self.action}" if self.phase else f"{self.combatant}: {self.action}"
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
        declaration_order: who declares in what order (the GM's NPCs first).
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
        """Build from ``{"combatants": [...]}`` (see ``ruleslawyer sequence darkmaster --schema``)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("combatants"), list):
            raise RulesInputError("combatants", "the input must be an object with a 'combatants' list")
        for k in data:
            if k not in ("combatants", "rulings"):
                raise RulesInputError(k, "unknown field; allowed: combatants, rulings")
        return cls(tuple(Combatant.from_dict(c, f"combatants[{i}]") for i, c in enumerate(data["combatants"])))


def _phase_count(phase: Phase, n: int) -> str:
    """A phase header's value that says what it counts: ``"7 characters declare"``, ``"3 actions"``."""
    if phase is Phase.DECLARATION:
        return f"{n} character{'s' if n != 1 else ''} declare{'s' if n == 1 else ''}"
    if phase is Phase.ASSESSMENT:
        return f"{n} Assessment Roll{'s' if n != 1 else ''}"
    return f"{n} action{'s' if n != 1 else ''}"


def _length_row(text: str, rules: Rules) -> _tables.LengthRow:
    t = text.strip().lower() if isinstance(text, str) else None
    for row in _tables.lengths(rules):
        if row.name.lower() == t or row.example.lower() == t:
            return row
    # check_input has validated an action's length; effective_length() is also public
    raise RulesInputError("weapon_length", f"unknown weapon length {text!r}; allowed: "
                                           + ", ".join(f"{r.name} ({r.example})" for r in _tables.lengths(rules)))


def effective_length(weapon_length: str, positional_bonus: bool = False, dashing: bool = False,
                     overrides: Mapping[str, str] | None = None, *, rules: Rules | None = None
                     ) -> tuple[int, str, str, list[Citation | str], list[RulingUse]]:
    """The length a melee attack is ordered by.

    A Positional Bonus and a Dashing Attack each make the weapon one step longer for attack order
    (``melee-phase#3``, ``#4``): a longsword (Long) with a Positional Bonus attacks as Longest; a handaxe
    (Short) as Long.

    Args:
        weapon_length: a length (Hand, Short, Long, Longest) or a weapon the ``weapon-length`` table names.
        positional_bonus: the attacker has a Positional Bonus.
        dashing: a Dashing Attack.
        overrides: ruling overrides (``darkmaster.*``).
        rules: the rules database whose ``weapon-length`` table applies (default database).

    Returns:
        ``(rank, name, explanation, cites, rulings)``; rank is the table step (higher attacks first; above
        Longest only under ``darkmaster.length-past-longest = ahead-of-longest``).

    Raises:
        RulesInputError: ``weapon_length`` is not in the table (field ``weapon_length``).
    """
    rules = resolve_rules(rules)
    rows = _tables.lengths(rules)
    base = _length_row(weapon_length, rules)
    uses = [resolve_ruling(_r.WEAPON_LENGTHS.id, overrides)]
    cites: list[Citation | str] = [ids.MELEE, Citation(base.row.unit_id, f"{base.name} is step {base.step}")]
    steps = int(bool(positional_bonus)) + int(bool(dashing))
    why = [f"{weapon_length} is {base.name}" if base.name.lower() != weapon_length.strip().lower() else base.name]
    if positional_bonus:
        cites.append(ids.POSITIONAL)
        why.append("+1 step (Positional Bonus)")
    if dashing:
        cites.append(ids.DASHING)
        why.append("+1 step (Dashing Attack)")
    if steps > 1:
        use = resolve_ruling(_r.LENGTH_STEPS_STACK.id, overrides)
        uses.append(use)
        if use.answer == "one-step":
            steps = 1
    rank = base.step + steps
    top = rows[-1].step
    name = next((r.name for r in rows if r.step == min(rank, top)), rows[-1].name)
    if rank > top:
        use = resolve_ruling(_r.LENGTH_PAST_LONGEST.id, overrides)
        uses.append(use)
        if use.answer == "stays-longest":
            rank = top
            why.append(f"already {rows[-1].name}: stays {rows[-1].name}")
        else:
            name = f"{rows[-1].name}+{rank - top}"
            why.append(f"ahead of every {rows[-1].name} weapon")
    if steps:
        row = next((r for r in rows if r.step == min(rank, top)), rows[-1])
        cites.append(Citation(row.row.unit_id, f"{row.name} is step {row.step}"))
    return rank, name, " ".join(why) + f" → attacks as {name}", cites, uses


def _dense(keys: list[tuple]) -> list[int]:
    distinct = sorted(set(keys), reverse=True)
    return [distinct.index(k) + 1 for k in keys]


def sequence_round(combatants: Sequence[Combatant] | SequenceInput, *, rulings: Mapping[str, str] | None = None,
                   strict: bool = True, rules: Rules | None = None) -> SequenceResult:
    """Order a Round through the Tactical Round Sequence.

    Args:
        combatants: the characters with their declared actions.
        rulings: ruling overrides (``darkmaster.*``).
        strict: raise on a refused declaration (default); with False, refused actions are left out and
            listed in ``refusals``.
        rules: the rules database whose tables (``trs-phases``, ``weapon-length``, ``action-types``)
            apply (default database).

    Returns:
        A :class:`SequenceResult`.

    Raises:
        RulesInputError: bad input, naming the field (``combatants[0].actions[1].weapon_length``).
        DeclarationError: (``strict``) declarations the rules refuse, e.g. two Full Actions; the message
            names the field and cites the rule.
    """
    if isinstance(combatants, SequenceInput):
        combatants = combatants.combatants
    combatants = tuple(combatants)
    overrides = dict(rulings or {})
    check_overrides(overrides, "darkmaster")
    rules = resolve_rules(rules)
    accepted, refusals, check_steps = check_declarations(combatants, overrides, rules=rules)
    if refusals and strict:
        raise DeclarationError(refusals)
    by_name = {c.name: c for c in combatants}
    tie_use = resolve_ruling(_r.TIE_CMB.id, overrides)

    def cmb(d: Declared) -> int:
        return by_name[d.combatant].cmb + (d.penalty if tie_use.answer == "after-penalties" else 0)

    buckets: dict[Phase, list[tuple[Declared, str, list, list, tuple, str | None]]] = {p: [] for p in Phase}
    readied: list[Placement] = []
    any_time: list[Placement] = []
    lost: list[str] = []
    for d in accepted:
        a = d.action
        c = by_name[d.combatant]
        if d.lost:
            lost.append(f"{d.combatant}: {a.name}")
            continue
        if a.readied:
            readied.append(Placement(None, 0, d.combatant, a.name, "Readied Action: triggers at any time, whatever "
                                     "the Phase", d.penalty, None, (ids.READIED,)))
            continue
        if d.counts_as is ActionType.FREE:
            any_time.append(Placement(None, 0, d.combatant, a.name, "Free Action: any time during the Round",
                                      d.penalty, None, (ids.FREE, _tables.action_types(rules)["Free"].unit_id)))
            continue
        kind = ActionKind(a.kind)
        uses: list[RulingUse] = []
        cites: list = []
        length = None
        if kind is ActionKind.MOVE:
            phase, why, key = Phase.MOVE, "movement is generally simultaneous", (0,)
            cites = [ids.MOVE]
        elif kind is ActionKind.SPELL:
            if a.instant or a.prepared_rounds >= 1:
                phase = Phase.SPELL_A
                why = ("an Instant Spell" if a.instant else
                       f"prepared {a.prepared_rounds} full Round{'s' if a.prepared_rounds > 1 else ''} before "
                       f"(gains the bonus for {a.prepared_rounds} preparation Round{'s' if a.prepared_rounds > 1 else ''})")
                cites = [ids.SPELL_A]
            else:
                phase, why, cites = Phase.SPELL_B, "an unprepared Spell", [ids.SPELL_B]
            key = (c.caster_level, c.spell_casting_bonus)
            why += f"; caster level {c.caster_level}, Spell Casting bonus {c.spell_casting_bonus}"
        elif kind is ActionKind.RANGED:
            if a.reloaded_before or a.thrown_in_hand:
                phase = Phase.RANGED_A
                why = ("fully reloaded a complete Round or more before this one" if a.reloaded_before
                       else "a readied thrown weapon already in hand")
                cites = [ids.RANGED_A]
            else:
                phase, why, cites = Phase.RANGED_B, "not ready before this Round (fires in the second volley)", [ids.RANGED_B]
            key = (cmb(d),)
            why += f"; CMB {cmb(d)}"
        elif kind is ActionKind.MELEE:
            rank, length, lwhy, lcites, luses = effective_length(a.weapon_length, a.positional_bonus, a.dashing, overrides,
                                                                 rules=rules)
            phase, key = Phase.MELEE, (rank, cmb(d))
            why = f"{lwhy}; CMB {cmb(d)}"
            cites, uses = [*lcites, ids.MELEE_ORDER], luses
        else:
            phase, why, key = Phase.OTHER, "a Skill or other action", (0,)
            cites = [ids.OTHER]
        if a.multi_round:
            cites.append(ids.MULTI_ROUND)
            why = f"Multi-Round Action, Round {a.round} of {a.duration} (counts as a Full Action): " + why
        if d.counts_as is ActionType.HALF:
            cites.append(ids.HALF)
            why = "Half Action in its Phase: " + why
        buckets[phase].append((d, why, cites, uses, key, length))

    phase_rows = {p.name: p for p in _tables.phases(rules)}
    results: list[PhaseResult] = []
    skipped: list[Phase] = []
    phase_steps: list[Step] = []
    declared_order = [c.name for c in combatants if c.side is Side.NPC] + [c.name for c in combatants if c.side is not Side.NPC]
    for phase in Phase:
        prow = phase_rows.get(phase.value)
        if prow is None:
            raise RulesDataError(f"trs-phases has no row {phase.value!r}")
        placements: list[Placement] = []
        extra_uses: list[RulingUse] = []
        if phase is Phase.ASSESSMENT:
            for c in combatants:
                if c.assessment is not None:
                    placements.append(Placement(phase, 1, c.name, f"Assessment Roll ({c.assessment.value})",
                                                "a Perception roll as a Free Action to assess the situation"
                                                + ("; failed: no new actions this Round, Parry with at most half CMB"
                                                   if c.assessment.value == "failed" else ""),
                                                0, None, (ids.ASSESSMENT, ids.ASSESSMENT_ROLL)
                                                + ((ids.ASSESSMENT_FAILED,) if c.assessment.value == "failed" else ())))
        elif phase is Phase.DECLARATION:
            for n, name in enumerate(declared_order, 1):
                side = by_name[name].side
                placements.append(Placement(phase, n, name, "declares actions and targets",
                                            "the GM declares NPC actions first" if side is Side.NPC
                                            else "players declare after the GM, in any order they wish",
                                            0, None, (ids.DECLARATION,)))
        else:
            entries = buckets[phase]
            if entries:
                keys = [e[4] for e in entries]
                ordered_by = None
                if phase in (Phase.RANGED_B, Phase.SPELL_B):
                    use = resolve_ruling(_r.PHASE_B_ORDER.id, overrides)
                    extra_uses.append(use)
                    if use.answer == "simultaneous":
                        keys = [(0,)] * len(entries)
                    ordered_by = use
                elif phase is Phase.OTHER:
                    use = resolve_ruling(_r.OTHER_ACTIONS_ORDER.id, overrides)
                    extra_uses.append(use)
                    if use.answer == "declaration-order":
                        keys = [(-declared_order.index(e[0].combatant), -e[0].index) for e in entries]
                    ordered_by = use
                positions = _dense(keys)
                if phase in (Phase.RANGED_A, Phase.MELEE) or (phase is Phase.RANGED_B and ordered_by
                                                              and ordered_by.answer == "as-phase-a"):
                    extra_uses.append(tie_use)
                tied_spells = phase in (Phase.SPELL_A, Phase.SPELL_B) and len(set(keys)) < len(keys)
                if tied_spells:
                    extra_uses.append(resolve_ruling(_r.SPELL_TIE.id, overrides))
                order = sorted(range(len(entries)), key=lambda i: (positions[i], declared_order.index(entries[i][0].combatant)))
                for i in order:
                    d, why, cites, uses, key, length = entries[i]
                    same = sum(1 for p in positions if p == positions[i]) > 1
                    if same and phase not in (Phase.MOVE,):
                        why += "; simultaneous with another action here"
                    placements.append(Placement(phase, positions[i], d.combatant, d.action.name, why, d.penalty, length,
                                                tuple(c if isinstance(c, str) else c.rule_id for c in cites), tuple(uses)))
        if not placements:
            skipped.append(phase)
            continue
        results.append(PhaseResult(phase, prow.order, prow.row.unit_id, tuple(placements)))
        phase_steps.append(Step.of(StepKind.RULE, f"{prow.order}. {phase.value}",
                                   value=_phase_count(phase, len(placements)),
                                   cites=[_PHASE_CITE[phase], Citation(prow.row.unit_id, f"phase {prow.order}")],
                                   rulings=list(dict.fromkeys(extra_uses)), children=[p.step() for p in placements]))
    outside = [p.step() for p in (*readied, *any_time)]
    refused_parry = {r.field for r in refusals}
    parries = {c.name: c.parry for i, c in enumerate(combatants)
               if c.parry > 0 and f"combatants[{i}].parry" not in refused_parry}
    extra = []
    if skipped:
        extra.append(Step.of(StepKind.RULE, "Skipped: " + ", ".join(p.value for p in skipped),
                             detail="Phases with nothing to resolve are simply skipped", cites=[ids.TRS]))
    if outside:
        extra.append(Step.of(StepKind.INFO, "Outside the phase order", children=outside))
    if parries:
        use = resolve_ruling(_r.PARRY_TIMING.id, overrides)
        extra.append(Step.of(StepKind.RULING, "Parry held back", value=parries,
                             detail=", ".join(f"{n} {v}" for n, v in parries.items()) + " — applies whenever attacked",
                             rulings=[use], cites=[ids.DASHING]))
    if lost:
        extra.append(Step.of(StepKind.RULE, "Lost (interrupted Multi-Round Actions)", value=lost,
                             detail="; ".join(lost), cites=[ids.MULTI_ROUND]))
    if refusals:
        extra.append(Step.of(StepKind.ERROR, f"{len(refusals)} declaration(s) refused and left out",
                             value=[r.field for r in refusals],
                             children=[Step.of(StepKind.ERROR, r.message, value=r.field, cites=[r.rule_id],
                                               rulings=[r.ruling] if r.ruling else []) for r in refusals]))
    trace = Step.of(StepKind.RESULT, "Against the Darkmaster: Tactical Round Sequence",
                    value=[p.phase.value for p in results],
                    detail=" → ".join(p.phase.value for p in results), cites=[ids.TRS],
                    children=[Step.of(StepKind.RULE, "Declarations", cites=[ids.ACTION_TYPES, ids.DECLARATION],
                                      children=check_steps), *phase_steps, *extra])
    return SequenceResult(tuple(results), tuple(skipped), tuple(declared_order), tuple(readied), tuple(any_time),
                          parries, tuple(lost), tuple(refusals), trace)
