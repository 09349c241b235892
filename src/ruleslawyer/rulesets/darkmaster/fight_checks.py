"""A declaration checked against where the fight stands (``declarations.<name>.<field>``, the rule).

The Round's actions of a character are what it carries (a Multi-Round Action under way, continued;
a Readied Action still held) followed by what it declares; the Tactical Round Sequence's own checks
(:func:`~.actions.check_declarations`: one Full Action, the Parry at most the CMB, nothing new after a
failed Assessment Roll, a Multi-Round Action only with Free Actions...) run on them with the CMB the
character has in the coming Round, and their fields are named as the declaration's. The fight adds
what only state can tell: the Unconscious and the Dead declare nothing (ruling
``darkmaster.out-of-action``), an Assessment Roll that is due needs its outcome (``assessment-phase#2``),
there must be something to abandon, and every name given must be a combatant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ruleslawyer.encounter import FightState
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import at
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import resolve_ruling

from . import ids, rulings as _r
from .actions import Action, ActionKind, Combatant, DeclarationError, Refusal, check_declarations, combatant_field
from .fight_state import DYING, Declaration, FightAction, Fighter

__all__ = ["RoundAct", "round_actions", "trs_combatant", "check_against_state", "check_carried", "check_names",
           "check_out_of_hits"]


@dataclass
class RoundAct:
    """One action of a character in the Round being played (internal to a Round, mutable).

    Attributes:
        action: the declared or carried action; trs: what the Tactical Round Sequence places.
        carried: ``"ongoing"`` (a Multi-Round Action under way), ``"held"`` (a Readied Action) or None.
        status: ``"pending"``, then ``"resolved"``, ``"interrupted"``, ``"void"`` (its actor was down) or
            ``"lost"`` (a Multi-Round Action interrupted).
    """

    action: FightAction
    trs: Action
    carried: str | None = None
    status: str = "pending"

    @property
    def final(self) -> bool:
        """The last Round of its action (a single-Round action's only one)."""
        return self.trs.round >= self.action.duration


def round_actions(f: Fighter, decl: Declaration) -> list[RoundAct]:
    """``f``'s actions for the coming Round: the carried ones first (unless abandoned), then the declared."""
    acts = []
    if f.ongoing is not None and not decl.abandon:
        acts.append(RoundAct(f.ongoing.action, f.ongoing.action.trs(f.ongoing.done + 1, continuing=True), "ongoing"))
    if f.held is not None and not decl.abandon:
        acts.append(RoundAct(f.held, f.held.trs(continuing=True), "held"))
    return acts + [RoundAct(a, a.trs()) for a in decl.actions]


def trs_combatant(f: Fighter, decl: Declaration, acts: Sequence[RoundAct], next_round: bool) -> Combatant:
    """The character as the Tactical Round Sequence sees it: its CMB with the modifiers in force
    (``next_round``: those lasting into the coming Round), the Parry held back, the Assessment Roll's
    outcome and the Round's actions."""
    cmb, _ = f.effective_cmb(next_round)
    return Combatant(f.name, cmb, f.side, f.caster_level, f.spell_casting_bonus, decl.assessment, decl.parry,
                     tuple(a.trs for a in acts))


def _rename(fld: str, name: str, field: str, carried: int) -> str:
    """``combatants.<name>.actions[j]...`` as the declaration's field: ``<field>.actions[j - carried]...``;
    a carried action's field is ``<field>.abandon`` (give it up to act otherwise)."""
    pre = combatant_field(name, 0)
    rest = fld[len(pre):] if fld.startswith(pre) else ""
    m = re.match(r"\.actions\[(\d+)\](.*)", rest)
    if m:
        j = int(m.group(1)) - carried
        rest = f".actions[{j}]{m.group(2)}" if j >= 0 else ".abandon"
    return field + rest


def _trs_checks(c: Combatant, field: str, carried: int, overrides: Mapping[str, str], rules: Rules) -> None:
    """The Tactical Round Sequence's checks on ``c``, fields named as the declaration's.

    Raises:
        RulesInputError / DeclarationError: as :func:`~.actions.check_declarations`, renamed.
    """
    try:
        _, refusals, _ = check_declarations([c], overrides, rules=rules)
    except RulesInputError as e:
        raise RulesInputError(_rename(e.field, c.name, field, carried), e.message) from None
    if refusals:
        hint = " (give abandon: true to give up the action carried from last Round)" if carried else ""
        raise DeclarationError([replace(r, field=_rename(r.field, c.name, field, carried),
                                        message=r.message + (hint if r.rule_id == ids.MULTI_ROUND else ""))
                                for r in refusals])


def check_carried(f: Fighter, field: str, overrides: Mapping[str, str], rules: Rules) -> None:
    """A saved fighter's carried actions are actions the Tactical Round Sequence accepts (their weapon
    lengths, fields), named ``<field>.ongoing.action`` / ``<field>.held``."""
    for key, action in (("ongoing.action", f.ongoing.action if f.ongoing else None), ("held", f.held)):
        if action is not None:
            c = Combatant(f.name, max(f.cmb, 0), f.side, actions=(action.trs(),))
            try:
                check_declarations([c], overrides, rules=rules)
            except RulesInputError as e:
                raise RulesInputError(_rename(e.field, f.name, field, 0).replace(".actions[0]", "." + key, 1),
                                      e.message) from None


def check_names(a: FightAction, actor: str, state: FightState, af: str) -> None:
    """The target, trigger and outcome targets of action ``a`` (field ``af``) name combatants; a Readied
    Action waits for another combatant; an outcome with an effect has someone to land on.

    Raises:
        RulesInputError: naming ``<af>.target``, ``<af>.trigger`` or ``<af>.result[k].target``.
    """
    if a.target is not None:
        state.combatant(a.target, at(af, "target"))
        if a.target == actor and a.kind in (ActionKind.MELEE, ActionKind.RANGED):
            raise RulesInputError(at(af, "target"), f"must name another combatant, got {a.target!r}: "
                                                    f"{actor} cannot make a {a.kind.value} attack on itself")
    if a.trigger is not None:
        state.combatant(a.trigger, at(af, "trigger"))
        if a.trigger == actor:
            raise RulesInputError(at(af, "trigger"), "a Readied Action waits for another combatant's action")
    for k, o in enumerate(a.result):
        of = at(at(af, "result"), k) if len(a.result) > 1 else at(af, "result")
        if o.target is not None:
            state.combatant(o.target, at(of, "target"))
        elif a.target is None and (o.hits or o.conditions or o.remove or o.interrupts or o.assessment_roll):
            raise RulesInputError(at(af, "target"), f"{a.name!r} has a result: name its target (or the outcome's "
                                                    "own target)")


def check_out_of_hits(fighters: Sequence[Fighter], overrides: Mapping[str, str], field: str = "combatants") -> None:
    """No combatant stands at 0 hits or below while neither Unconscious, Dying nor Dead, unless ruling
    ``darkmaster.out-of-hits`` is ``record-only`` (under its default a character whose hits fall to 0
    falls Unconscious, so such a character would act where the fight would have put it down).

    Raises:
        RulesInputError: ``<field>[i].hits``, naming the ruling and what to give instead.
    """
    use = resolve_ruling(_r.OUT_OF_HITS.id, overrides)
    if use.answer == "record-only":
        return
    for i, f in enumerate(fighters):
        if f.hits <= 0 and not f.down and not f.has(DYING):
            raise RulesInputError(at(at(field, i), "hits"), f"{f.name} has {f.hits} hits but is neither Unconscious, "
                                  f"Dying nor Dead; under ruling {use.ruling_id} ({use.answer}) a character at 0 hits "
                                  "or below is down: give hits above 0, the condition Unconscious (or Dying, Dead), "
                                  f"or the ruling's answer record-only")


def _state_refusal(f: Fighter, decl: Declaration, field: str, overrides: Mapping[str, str]) -> Refusal | None:
    """What the state alone forbids: acting while down (ruling ``darkmaster.out-of-action``), a due
    Assessment Roll without its outcome (``assessment-phase#2``)."""
    down = f.down_next
    if down and not decl.empty:
        use = resolve_ruling(_r.OUT_OF_ACTION.id, overrides)
        key = "actions" if decl.actions else "parry" if decl.parry else next(
            k for k in ("assessment", "abandon") if getattr(decl, k))
        return Refusal(at(field, key), use.ruling_id, f"{f.name} is {down} and cannot declare actions or Parry",
                       use)
    if f.due_next and decl.assessment is None and not decl.empty:
        why = "waking from unconsciousness" if f.waking_next else "an effect demands it"
        return Refusal(at(field, "assessment"), ids.ASSESSMENT_ROLL, f"{f.name} must make the Assessment Roll this "
                       f"Round ({why}): give its outcome, passed or failed")
    return None


def check_against_state(decl: Declaration, f: Fighter, state: FightState, field: str,
                        overrides: Mapping[str, str], rules: Rules) -> Declaration:
    """``decl`` if the state allows it (see the module docstring).

    Raises:
        DeclarationError: a declaration the state or the rules forbid, naming ``<field>.<key>`` and the
            rule or ruling.
        RulesInputError: a name that is not a combatant, ``abandon`` with nothing to abandon, two actions
            of one name (a carried one counts).
    """
    for j, a in enumerate(decl.actions):
        check_names(a, f.name, state, at(at(field, "actions"), j))
    refusal = _state_refusal(f, decl, field, overrides)
    if refusal is not None:
        raise DeclarationError([refusal])
    if decl.abandon and f.ongoing is None and f.held is None:
        raise RulesInputError(at(field, "abandon"), f"nothing to abandon: {f.name} has no Multi-Round Action "
                                                    "under way and holds no Readied Action")
    acts = round_actions(f, decl)
    carried = sum(a.carried is not None for a in acts)
    for j, a in enumerate(decl.actions):
        if any(c.action.name == a.name for c in acts[:carried]):
            raise RulesInputError(at(at(at(field, "actions"), j), "name"), f"{a.name!r} is the name of the action "
                                  f"{f.name} carries from last Round; give this one another name")
    if acts or decl.parry or decl.assessment:
        _trs_checks(trs_combatant(f, decl, acts, next_round=True), field, carried, overrides, rules)
    return decl
