"""One Round of an Against the Darkmaster fight, stage by stage (:data:`ROUND_STAGES`).

- :func:`assessment_stage` — the Assessment Phase (``assessment-phase#1``): every lasting effect
  counts down (Bleeding costs its hits, a Spell's effect runs on or ends, Unconscious ends and the
  character wakes, a Dying count runs out: ruling ``darkmaster.dying-ends``); then the Assessment Rolls
  (``#2``, ``#3``; ruling ``darkmaster.assessment-after-failure``).
- :func:`declaration_stage` — those still up declare (``action-declaration-phase#1``); a Multi-Round
  Action under way goes on, a Readied Action is still held; :func:`~.trs.sequence_round` orders the
  Round; each character's CMB is split between attack and Parry (supplement ``parry#1``).
- :func:`phases_stage` — the phases in order; actions with the same place resolve together, their
  outcomes landing after all of them; a Readied Action fires just before its trigger acts
  (``readied-actions#1``); an actor who went down or was interrupted does not act
  (``tactical-round-sequence#1``, ruling ``darkmaster.out-of-action``). Rolls are open-ended d100
  (ruling ``darkmaster.attack-total``); outcomes are declared (ruling ``darkmaster.declared-outcome``).
- :func:`free_stage` — Free Actions (any time in the Round, ``action-types#4``).
- :func:`end_stage` — what is carried: a Multi-Round Action's Rounds done, a Readied Action still held
  (ruling ``darkmaster.readied-untriggered``); whether one side is left standing.

Every change is logged and traced with the rule or ruling behind it (:meth:`Play.change`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import FightState, LogLine, fight_over_text, log_line
from ruleslawyer.inputs import dice_script
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Ruling, RulingUse, Step, StepKind, resolve_ruling

from . import ids, rulings as _r
from .actions import ActionKind, Assessment
from .fight_checks import RoundAct, round_actions, trs_combatant
from .fight_state import (DEAD, DYING, UNCONSCIOUS, Condition, Declaration, Fighter, Ongoing, Outcome,
                          select_outcomes)
from .open_ended import roll_open_ended
from .trs import _PHASE_CITE as PHASE_CITE, Phase, Placement, SequenceResult, sequence_round

__all__ = ["Play", "ROUND_STAGES", "DICE_SLOTS", "play", "assessment_stage", "declaration_stage", "phases_stage",
           "free_stage", "end_stage"]

DICE_SLOTS = ("attack", "spell", "skill")
"""Scripted dice slots: ``attack`` (melee and ranged rolls), ``spell`` (Spell Casting Rolls), ``skill``
(other rolled actions); each an open-ended d100, faces taken in resolution order."""

_ATTACKS = (ActionKind.MELEE, ActionKind.RANGED)


@dataclass
class Play:
    """One Round in progress (one per Round, never shared).

    Attributes:
        number: the Round; fighters: name -> state, as the Round changes it; decls: name -> declaration.
        acts: name -> this Round's actions; seq: the Round's Tactical Round Sequence; placed:
            (name, action) -> its placement; tracked: whose lasting effects the Assessment Phase tracked;
            cmb: name -> the CMB split in the Declaration Phase (a modifier gained later counts from the
            next Round); lines: the log lines so far.
    """

    number: int
    fighters: dict[str, Fighter]
    decls: Mapping[str, Declaration]
    dice: Dice
    overrides: dict[str, str]
    rules: Rules
    acts: dict[str, list[RoundAct]] = field(default_factory=dict)
    seq: SequenceResult | None = None
    placed: dict[tuple[str, str], Placement] = field(default_factory=dict)
    tracked: list[str] = field(default_factory=list)
    cmb: dict[str, int] = field(default_factory=dict)
    lines: list[LogLine] = field(default_factory=list)

    def ruling(self, r: Ruling) -> RulingUse:
        return resolve_ruling(r.id, self.overrides)

    def put(self, f: Fighter) -> None:
        self.fighters[f.name] = f

    def change(self, text: str, cites: Sequence[str] = (), uses: Sequence[RulingUse] = (), value=None,
               children: Sequence[Step] = ()) -> Step:
        """Log ``text`` with its rules and rulings, and return the same as a trace step."""
        cites = tuple(dict.fromkeys(cites))
        self.lines.append(log_line(self.number, text, *cites, *(u.ruling_id for u in uses)))
        return Step.of(StepKind.RULE if not uses else StepKind.RULING, text, value, cites=cites, rulings=uses,
                       children=children)

    def parry(self, name: str) -> int:
        """The CMB ``name`` holds back to Parry this Round."""
        return self.seq.parries.get(name, 0) if self.seq else 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# -- 1. the Assessment Phase ------------------------------------------------------------------------

def _left(rounds: int | None) -> str:
    return "" if rounds is None else "; its last Round" if rounds == 0 else f"; {_plural(rounds, 'more Round')}"


def _ends(p: Play, name: str, c: Condition) -> list[Step]:
    """A condition whose Rounds are over ends; waking calls for the Assessment Roll (``#2``); a Dying count
    that runs out: ruling ``darkmaster.dying-ends``."""
    f = p.fighters[name]
    if c.name == UNCONSCIOUS and not f.has(UNCONSCIOUS):
        p.put(replace(f, assessment_due=True))
        return [p.change(f"{name} wakes (Unconscious ends): an Assessment Roll is due",
                         (ids.ASSESSMENT, ids.ASSESSMENT_ROLL))]
    if c.name == DYING:
        use = p.ruling(_r.DYING_ENDS)
        if use.answer == "dies":
            p.put(replace(f, conditions=f.conditions + (Condition(DEAD),)))
            return [p.change(f"{name} dies: the Dying count ran out", (ids.ASSESSMENT,), (use,))]
        return [p.change(f"{name}: the Dying count ran out and ends (the GM declares what follows)",
                         (ids.ASSESSMENT,), (use,))]
    return [p.change(f"{name}: {c.name} ends", (ids.ASSESSMENT,))]


def _out_of_hits(p: Play, name: str, before: int) -> list[Step]:
    """Hits falling to 0 or below: ruling ``darkmaster.out-of-hits``."""
    f = p.fighters[name]
    if not before > 0 >= f.hits or f.down:
        return []
    use = p.ruling(_r.OUT_OF_HITS)
    if use.answer == "record-only":
        return [p.change(f"{name} has {f.hits} hits left", (), (use,))]
    p.put(replace(f, conditions=f.conditions + (Condition(UNCONSCIOUS),)))
    return [p.change(f"{name} falls Unconscious: {f.hits} hits left", (), (use,))] + _went_down(p, name)


def _durations(p: Play, name: str) -> list[Step]:
    """Every condition of ``name`` counts down (``assessment-phase#1``): one at 0 ends, any other lasts
    this Round (Bleeding costs its hits) and counts one Round off."""
    f, steps, kept, ended = p.fighters[name], [], [], []
    hits = f.hits
    if f.conditions:
        p.tracked.append(name)
    for c in f.conditions:
        if c.rounds == 0:
            ended.append(c)
            continue
        left = None if c.rounds is None else c.rounds - 1
        if c.per_round:
            steps.append(p.change(f"{name} loses {c.per_round} hits to {c.name}: {hits} -> {hits - c.per_round}"
                                  + _left(left), (ids.ASSESSMENT,), (p.ruling(_r.DECLARED_OUTCOME),)))
            hits -= c.per_round
        elif c.rounds is not None:
            steps.append(p.change(f"{name}: {c.label(rounds=False)} lasts this Round" + _left(left),
                                  (ids.ASSESSMENT,)))
        kept.append(replace(c, rounds=left))
    p.put(replace(f, conditions=tuple(kept), hits=hits))
    for c in ended:
        steps += _ends(p, name, c)
    return steps + _out_of_hits(p, name, f.hits)


def _assessment_roll(p: Play, name: str) -> list[Step]:
    """The Assessment Roll's declared outcome (``assessment-phase#2``, ``#3``); after a failure, ruling
    ``darkmaster.assessment-after-failure``."""
    f, d = p.fighters[name], p.decls.get(name)
    outcome = d.assessment if d is not None else None
    if f.down or (outcome is None and not f.assessment_due):
        return []
    if outcome is None:
        return [p.change(f"{name} makes no Assessment Roll (nothing declared): it is still due", (ids.ASSESSMENT_ROLL,))]
    if outcome is Assessment.PASSED:
        p.put(replace(f, assessment_due=False))
        return [p.change(f"{name}'s Assessment Roll (Perception, a Free Action) passed",
                         (ids.ASSESSMENT_ROLL, ids.FREE))]
    use = p.ruling(_r.ASSESSMENT_AFTER_FAILURE)
    p.put(replace(f, assessment_due=use.answer == "until-passed"))
    again = "; it rolls again next Round" if use.answer == "until-passed" else ""
    return [p.change(f"{name}'s Assessment Roll failed: no new actions this Round, a Parry of at most half the "
                     f"CMB{again}", (ids.ASSESSMENT_ROLL, ids.ASSESSMENT_FAILED), (use,))]


def assessment_stage(p: Play) -> list[Step]:
    """1. The Assessment Phase: lasting effects, then the Assessment Rolls (the Dead are left out)."""
    steps = []
    for name in list(p.fighters):
        if not p.fighters[name].dead:
            steps += _durations(p, name) + _assessment_roll(p, name)
    return [Step.of(StepKind.RESULT, "Assessment Phase: lasting effects and Assessment Rolls", len(steps),
                    cites=[ids.ASSESSMENT], children=steps or [Step.of(StepKind.INFO, "nothing to track")])]


# -- 2. declarations and the order of the Round -------------------------------------------------------

def _drop_carried(p: Play, name: str, why: str, cites: Sequence[str], uses: Sequence[RulingUse] = ()) -> list[Step]:
    """``name`` no longer carries its Multi-Round Action (lost, ``multi-round-actions#1``) or Readied Action."""
    f, steps = p.fighters[name], []
    if f.ongoing is not None:
        a = f.ongoing.action
        steps.append(p.change(f"{name}'s {a.name} is lost after {f.ongoing.done} of {_plural(a.duration, 'Round')} "
                              f"({why}): it must start over", (ids.MULTI_ROUND, *cites), uses))
    if f.held is not None:
        steps.append(p.change(f"{name} no longer holds the Readied Action {f.held.name} ({why})",
                              (ids.READIED, *cites), uses))
    p.put(replace(f, ongoing=None, held=None))
    return steps


def _sidelined(p: Play, name: str, d: Declaration) -> list[Step]:
    """A character down at the Declaration Phase: no declaration stands, nothing carried goes on
    (ruling ``darkmaster.out-of-action``)."""
    f, use = p.fighters[name], p.ruling(_r.OUT_OF_ACTION)
    steps = [] if d.empty else [p.change(f"{name} is {f.down}: its declaration does not stand", (ids.TRS,), (use,))]
    return steps + _drop_carried(p, name, f"{name} is {f.down}", (), (use,))


def _split(p: Play) -> list[Step]:
    """Each character who attacks or Parries splits the CMB: the Parry held back, the rest to the attack
    (supplement ``parry#1``); a Dashing Attack commits it all (``melee-phase#4``)."""
    steps = []
    for name, acts in p.acts.items():
        attacks = [a for a in acts if a.action.kind in _ATTACKS]
        if not attacks and not p.parry(name):
            continue
        cmb, mods = p.fighters[name].effective_cmb()
        p.cmb[name] = cmb
        how = f" ({p.fighters[name].cmb}" + "".join(f" {c.cmb:+d} {c.name}" for c in mods) + ")" if mods else ""
        dashing = any(a.trs.dashing for a in attacks)
        failed = p.decls.get(name, Declaration()).assessment is Assessment.FAILED
        text = (f"{name} splits CMB {cmb}{how}: {cmb - p.parry(name)} to attack, {p.parry(name)} to Parry" if attacks
                else f"{name} holds back {p.parry(name)} of CMB {cmb}{how} to Parry")
        text += " (a Dashing Attack: all CMB to the attack)" if dashing else ""
        text += " (at most half the CMB after a failed Assessment Roll)" if failed else ""
        steps.append(p.change(text, (ids.PARRY, *([ids.DASHING] if dashing else []),
                                     *([ids.ASSESSMENT_FAILED] if failed else [])),
                              value={"cmb": cmb, "attack": cmb - p.parry(name) if attacks else 0,
                                     "parry": p.parry(name)}))
    return steps


def declaration_stage(p: Play) -> list[Step]:
    """2. Those still up declare (``action-declaration-phase#1``): carried actions first, then the declared;
    :func:`~.trs.sequence_round` orders the Round; the CMB split (:func:`_split`)."""
    steps, combatants = [], []
    for name in list(p.fighters):
        f, d = p.fighters[name], p.decls.get(name, Declaration())
        if f.dead and d.empty and f.ongoing is None and f.held is None:
            continue
        if f.down:
            steps += _sidelined(p, name, d)
            continue
        if d.abandon:
            steps += _drop_carried(p, name, "given up", ())
        p.acts[name] = round_actions(f, d)
        if p.acts[name] or d.parry or d.assessment:
            combatants.append(trs_combatant(p.fighters[name], d, p.acts[name], next_round=False))
    if not combatants:
        return steps
    p.seq = sequence_round(combatants, rulings=p.overrides, rules=p.rules, tracked=p.tracked)
    for pl in [x for ph in p.seq.phases for x in ph.placements] + [*p.seq.readied, *p.seq.any_time]:
        p.placed.setdefault((pl.combatant, pl.action), pl)
    return steps + [p.seq.trace] + _split(p)


# -- 3. the phases ------------------------------------------------------------------------------------

def _went_down(p: Play, name: str) -> list[Step]:
    """``name`` went down mid-Round: its actions not yet resolved do not resolve, a Multi-Round Action
    not finished is lost (``tactical-round-sequence#1``, ruling ``darkmaster.out-of-action``)."""
    return _stop(p, name, f"{name} is {p.fighters[name].down}", (), (p.ruling(_r.OUT_OF_ACTION),))


def _interrupt(p: Play, name: str, src: str) -> list[Step]:
    """An effect that interrupts ``name``'s actions (declared: ``interrupts``)."""
    return _stop(p, name, f"interrupted by {src}", (), (p.ruling(_r.DECLARED_OUTCOME),))


def _stop(p: Play, name: str, why: str, cites: Sequence[str], uses: Sequence[RulingUse]) -> list[Step]:
    """Stop ``name``'s actions this Round: pending ones do not resolve; a Multi-Round Action not finished
    is lost and must start over (``multi-round-actions#1``)."""
    steps = []
    for ra in p.acts.get(name, []):
        unfinished = ra.action.duration > 1 and (ra.status == "pending" or (ra.status == "resolved" and not ra.final))
        if unfinished:
            ra.status = "lost"
            steps.append(p.change(f"{name}'s {ra.action.name} is lost ({why}): it must start over",
                                  (ids.TRS, ids.MULTI_ROUND, *cites), uses))
        elif ra.status == "pending":
            ra.status = "interrupted"
            steps.append(p.change(f"{name}'s {ra.action.name} does not resolve ({why})", (ids.TRS, *cites), uses))
    return steps


def _roll(p: Play, name: str, ra: RoundAct, penalty: int) -> tuple[int | None, str, list[Step], list[RulingUse]]:
    """The action's open-ended d100 and its total (ruling ``darkmaster.attack-total``): an attack adds the CMB
    not held back to Parry and takes off the target's Parry; a Spell adds the Spell Casting bonus; any adds
    its bonus and this Round's penalty. None when the action calls for no roll."""
    a, f = ra.action, p.fighters[name]
    if a.kind not in (*_ATTACKS, ActionKind.SPELL) and not a.bonus and all(o.at_least is None for o in a.result):
        return None, "", [], []
    parts, uses = [], []
    if a.kind in _ATTACKS:
        cmb = p.cmb.get(name, f.cmb)
        parts.append((f"CMB {cmb} − Parry {p.parry(name)}" if p.parry(name) else "CMB", cmb - p.parry(name)))
    elif a.kind is ActionKind.SPELL:
        parts.append(("Spell Casting bonus", f.spell_casting_bonus))
    parts += [(label, v) for label, v in (("bonus", a.bonus), ("this Round's penalty", penalty)) if v]
    if a.kind in _ATTACKS and a.target is not None and a.target != name:
        uses.append(p.ruling(_r.ATTACK_TOTAL))
        t_parry = p.parry(a.target) if not p.fighters[a.target].down else 0
        if uses[-1].answer == "minus-parry" and t_parry:
            parts.append((f"{a.target}'s Parry", -t_parry))
            uses.append(p.ruling(_r.PARRY_TIMING))
    slot = "attack" if a.kind in _ATTACKS else "spell" if a.kind is ActionKind.SPELL else "skill"
    roll = roll_open_ended(p.dice, slot, p.overrides, rules=p.rules)
    total = roll.total + sum(v for _, v in parts)
    ends = f" ({roll.trace.detail})" if roll.end else ""
    text = f"open-ended d100 {roll.total}{ends}" + "".join(f" {'+' if v >= 0 else '−'} {abs(v)} ({label})"
                                                     for label, v in parts) + f" = {total}"
    return total, text, [roll.trace], uses


def _resolve(p: Play, name: str, ra: RoundAct, cite: str) -> tuple[list[Step], list[tuple[str, RoundAct, Outcome]]]:
    """One action resolving (``cite``: its phase, or Readied / Free): a Multi-Round Action before its last
    Round goes on; otherwise its roll, and the declared outcomes that apply to it (returned, to land
    after the actions resolving with it)."""
    if ra.status != "pending":
        return [Step.of(StepKind.INFO, f"{name}: {ra.action.name} ({ra.status})")], []
    ra.status = "resolved"
    a = ra.action
    if not ra.final:
        return [p.change(f"{name}: {a.name}, Round {ra.trs.round} of {a.duration} (goes on next Round)",
                         (cite, ids.MULTI_ROUND))], []
    pl = p.placed.get((name, a.name))
    total, text, roll_steps, uses = _roll(p, name, ra, pl.penalty if pl else 0)
    outs = select_outcomes(a.result, total)
    multi = a.duration > 1
    what = ("" if not a.result and total is None else "no result declared" if not a.result else "below every listed total: no effect" if not outs
            else "; ".join(o.note for o in outs if o.note))
    line = (f"{name}: {a.name}{' completes' if multi else ''}" + (f" on {a.target}" if a.target else "")
            + (f" (Readied, as {a.trigger} acts)" if cite == ids.READIED else "")
            + (f": {text}" if text else "") + (f" ({what})" if what else ""))
    cites = (cite, *([ids.MULTI_ROUND] if multi else []), *([ids.PARRY] if a.kind in _ATTACKS else []))
    children = list(roll_steps) + ([Step.of(StepKind.INFO, "placed", detail=pl.reason, cites=pl.cites,
                                            rulings=pl.rulings)] if pl else [])
    return [p.change(line, cites, uses, total, children)], [(name, ra, o) for o in outs]


def _gain(p: Play, tname: str, o: Outcome, src: str, cites: tuple, uses: tuple) -> list[Step]:
    """Conditions removed, then gained; an Assessment Roll demanded (``assessment-phase#2``)."""
    steps, t = [], p.fighters[tname]
    for gone in o.remove:
        if any(c.name.lower() == gone.lower() for c in t.conditions):
            t = replace(t, conditions=tuple(c for c in t.conditions if c.name.lower() != gone.lower()))
            p.put(t)
            steps.append(p.change(f"{tname}: {gone} ends ({src})", cites, uses))
    for c in o.conditions:
        t = replace(t, conditions=t.conditions + (c,))
        p.put(t)
        steps.append(p.change(f"{tname} is now {c.label()} ({src})",
                              cites + ((ids.ASSESSMENT,) if c.rounds is not None or c.per_round else ()), uses))
    if o.assessment_roll:
        p.put(replace(t, assessment_due=True))
        steps.append(p.change(f"{tname} must make an Assessment Roll next Round ({src})",
                              cites + (ids.ASSESSMENT_ROLL,), uses))
    return steps


def _apply(p: Play, actor: str, ra: RoundAct, o: Outcome, cite: str) -> list[Step]:
    """A declared outcome lands on its target (ruling ``darkmaster.declared-outcome``): hits, conditions, an
    Assessment Roll demanded, an interruption; then hits at 0 and going down."""
    tname = o.target or ra.action.target
    src, cites, uses = f"{actor}'s {ra.action.name}", (cite,), (p.ruling(_r.DECLARED_OUTCOME),)
    t = p.fighters[tname]
    if t.dead:
        return [p.change(f"{tname} is Dead: {src} changes nothing", cites, uses)]
    was_down, steps = t.down, []
    if o.hits:
        p.put(replace(t, hits=t.hits - o.hits))
        steps.append(p.change(f"{tname} loses {o.hits} hits ({src}): {t.hits} -> {t.hits - o.hits}", cites, uses))
    steps += _gain(p, tname, o, src, cites, uses)
    if o.interrupts:
        steps += _interrupt(p, tname, src)
    downed = p.fighters[tname].down and not was_down
    return steps + (_went_down(p, tname) if downed else _out_of_hits(p, tname, t.hits))


def _fire_readied(p: Play, actors: set[str]) -> list[Step]:
    """Readied Actions whose trigger is about to act fire first, outside the phase order
    (``readied-actions#1``); their outcomes land at once."""
    steps = []
    for name, acts in p.acts.items():
        for ra in acts:
            if ra.trs.readied and ra.status == "pending" and ra.action.trigger in actors and not p.fighters[name].down:
                fired, outs = _resolve(p, name, ra, ids.READIED)
                steps.append(Step.of(StepKind.RESULT, f"{name}'s Readied Action triggers as {ra.action.trigger} acts",
                                     cites=[ids.READIED], children=fired))
                for actor, act, o in outs:
                    steps += _apply(p, actor, act, o, ids.READIED)
    return steps


def _group(p: Play, phase: Phase, group: list[Placement]) -> list[Step]:
    """Actions with one place in a phase resolve together: Readied Actions they trigger first, then each
    action, then all their outcomes (``melee-phase#2``: identical CMBs are simultaneous)."""
    acts = [(pl.combatant, next(a for a in p.acts[pl.combatant] if a.action.name == pl.action)) for pl in group]
    steps = _fire_readied(p, {name for name, ra in acts if ra.status == "pending"})
    landing = []
    for name, ra in acts:
        s, outs = _resolve(p, name, ra, PHASE_CITE[phase])
        steps += s
        landing += outs
    for actor, ra, o in landing:
        steps += _apply(p, actor, ra, o, PHASE_CITE[phase])
    return steps


def phases_stage(p: Play) -> list[Step]:
    """3-9. The phases with something to resolve, in TRS order (``tactical-round-sequence#1``)."""
    if p.seq is None:
        return []
    steps = []
    for ph in p.seq.phases:
        if ph.phase in (Phase.ASSESSMENT, Phase.DECLARATION):
            continue
        children = []
        for _, group in groupby(ph.placements, key=lambda pl: pl.position):
            children += _group(p, ph.phase, list(group))
        steps.append(Step.of(StepKind.RESULT, f"{ph.phase.value}: resolved", cites=[PHASE_CITE[ph.phase]],
                             children=children))
    return steps


def free_stage(p: Play) -> list[Step]:
    """Free Actions, taken at any time during the Round (``action-types#4``): resolved after the phases."""
    steps = []
    for pl in p.seq.any_time if p.seq else ():
        ra = next(a for a in p.acts[pl.combatant] if a.action.name == pl.action)
        s, outs = _resolve(p, pl.combatant, ra, ids.FREE)
        steps += s
        for actor, act, o in outs:
            steps += _apply(p, actor, act, o, ids.FREE)
    return [Step.of(StepKind.RESULT, "Free Actions", cites=[ids.FREE], children=steps)] if steps else []


# -- the end of the Round -------------------------------------------------------------------------------

def _carry(p: Play, name: str) -> list[Step]:
    """What ``name`` carries into the next Round: a Multi-Round Action with its Rounds done
    (``multi-round-actions#1``), a Readied Action not triggered (ruling ``darkmaster.readied-untriggered``)."""
    f, steps, ongoing, held = p.fighters[name], [], None, None
    for ra in p.acts.get(name, []):
        if ra.action.duration > 1 and ra.status == "resolved" and not ra.final:
            ongoing = Ongoing(ra.action, ra.trs.round)
        if ra.trs.readied and ra.status == "pending":
            use = p.ruling(_r.READIED_UNTRIGGERED)
            if use.answer == "held" and not f.down:
                held = ra.action
                steps.append(p.change(f"{name} still holds the Readied Action {ra.action.name} ({ra.action.trigger} "
                                      "did not act)", (ids.READIED,), (use,)))
            else:
                steps.append(p.change(f"{name}'s Readied Action {ra.action.name} lapses untriggered", (ids.READIED,),
                                      (use,)))
    p.put(replace(f, ongoing=ongoing, held=held))
    return steps


def end_stage(p: Play) -> list[Step]:
    """The Round ends and the next begins (``the-tactical-round#2``): what is carried; scripted dice left
    over are reported; the fight is over when at most one side has a character up."""
    steps = []
    for name in p.acts:
        steps += _carry(p, name)
    left = p.dice.unused()
    if left:
        steps.append(Step.of(StepKind.ERROR, "Scripted dice left over", {k: list(v) for k, v in left.items()},
                             detail="the script holds more faces than this Round rolled"))
    sides = sorted({f.side.value for f in p.fighters.values() if not f.down})
    if over(p.fighters):
        p.lines.append(log_line(p.number, fight_over_text(sides)))
    return [Step.of(StepKind.RESULT, "End of the Round", cites=[ids.ROUND], children=steps)] if steps else []


def over(fighters: Mapping[str, Fighter]) -> bool:
    """At most one side has a character neither Unconscious nor Dead."""
    return len({f.side for f in fighters.values() if not f.down}) <= 1


ROUND_STAGES = (assessment_stage, declaration_stage, phases_stage, free_stage, end_stage)
"""One Round, in order; each stage returns its trace steps."""


def play(state: FightState, declarations: Mapping[str, Declaration], dice: Dice, overrides: Mapping[str, str],
         rules: Rules) -> tuple[FightState, list[Step], list[LogLine]]:
    """Resolve the Round after ``state`` (:data:`ROUND_STAGES`).

    Returns:
        ``(state after the Round, its trace steps, its log lines)``.

    Raises:
        DiceScriptError: a scripted slot not in :data:`DICE_SLOTS` (``dice.<slot>``), one that ran out or
            holds a face a d100 cannot show.
    """
    if dice.script:
        dice_script(dice.script, DICE_SLOTS)
    p = Play(state.round + 1, {f.name: f for f in state.combatants}, declarations, dice, dict(overrides), rules)
    steps: list[Step] = []
    for stage in ROUND_STAGES:
        steps += stage(p)
    return (replace(state, combatants=tuple(p.fighters[f.name] for f in state.combatants), over=over(p.fighters)),
            steps, p.lines)
