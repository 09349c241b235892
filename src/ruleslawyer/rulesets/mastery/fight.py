"""A whole Mastery fight: rounds one after another, each combatant's state carried, every change cited.

:class:`MasteryEncounter` is the Mastery :class:`~ruleslawyer.encounter.Encounter`. A round
(:data:`ROUND_STAGES`) follows the chapter's combat flow (``mastery/combat/combat-flow``): the spells
declared at its start are being cast (``.../casting#3``); :func:`~.round.sequence_round` gives the
Startle trials (round 1), the phases and the 1d6 side roll; each combatant then takes its turn in
its phase (Engaged ends at its start; its declared actions in order, :mod:`.fight_actions`; a hazard
or suffocation at its end), movement reactions follow the turn they answer; and the round ends with
the dying timer, Impaired stepping down and each combatant's AP for the next round.

Example::

    from ruleslawyer.rulesets.mastery import MasteryEncounter
    fight = MasteryEncounter.start([
        {"name": "Aldric", "side": "pcs", "weapon": "sword", "health": 8,
         "attack": {"kind": "melee", "tier": 2, "weapon": 2}},
        {"name": "Brute", "side": "enemies", "weapon": "maul", "health": 6,
         "attack": {"kind": "melee", "tier": 3, "weapon": 3}}], seed=7)
    fight.declare("Aldric", {"actions": [{"action": "attack", "target": "Brute"}, {"action": "defend"}]})
    r = fight.resolve_round()
    [line.text for line in r.lines], fight.state.combatant("Brute").body.health
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import Encounter, FightState, LogLine, fight_over_text
from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Step, StepKind

from . import ids
from . import rulings as R
from .combatant import State
from .death import advance_dying
from .fight_actions import move, take
from .fight_play import Play, over, rounds
from .fighter import IMPAIRED_NAMES, Fighter
from .orders import Orders, read_orders, round_ap, round_declaration
from .round import RoundCombatant, sequence_round
from .schema import FIGHT_OPTIONS, FIGHT_SCHEMA, FIGHT_SLOTS, ORDERS
from .trauma import TraumaSetting
from .trauma_effects import effects_of

__all__ = ["MasteryEncounter", "ROUND_STAGES", "FIGHT_SCHEMA"]

_STARTLE_CITE = {1: ids.STARTLE_DAZED, 2: ids.STARTLE_STUNNED, 3: ids.STARTLE_PARALYZED}


# -- the round, stage by stage -------------------------------------------------------------------

def casting_begins(p: Play) -> list[Step]:
    """A spell declared at the start of the round is being cast until it resolves (``.../casting#2-3``)."""
    steps = []
    for name, o in p.orders.items():
        if any(a.kind == "cast" and not a.data.get("reaction") for a in o.actions) and p.fighters[name].can_act:
            f = p.fighters[name]
            p.fighters[name] = replace(f, body=f.body.with_(casting=True))
            steps.append(Step.of(StepKind.RULE, f"{name} is casting from the start of the round",
                                 cites=[ids.CASTING_CHOOSE, ids.CASTING_INTERRUPTED]))
    return steps


def _startled(p: Play, result) -> list[Step]:
    """A failed Startle trial's Impaired tier (``startle-and-ambush/results#1-3``), in this round's AP
    per ``mastery.impaired-effect``."""
    steps = []
    for s in result.startle:
        f = replace(p.fighters[s.name], unaware=False)
        if s.tier_this_round:
            f = replace(f, impaired=s.tier_this_round)
            p.log(f"{s.name} fails the Startle trial: Impaired {s.tier_this_round} "
                  f"({IMPAIRED_NAMES[s.tier_this_round]})", _STARTLE_CITE[s.impaired_tier], ids.IMPAIRED_PROGRESSION)
            use = R.ruling_use(R.IMPAIRED_EFFECT, p.rulings)
            if use.answer == "minus-1-ap-per-tier":
                f = f.with_(ap=max(f.body.ap - s.tier_this_round, 0))
                p.log(f"{s.name} has {f.body.ap} AP this round", use.ruling_id)
            steps.append(Step.of(StepKind.RULING, f"{s.name}: Impaired {s.tier_this_round}", f"{f.body.ap} AP",
                                 cites=[_STARTLE_CITE[s.impaired_tier]], rulings=[use]))
        p.fighters[s.name] = f
    return steps


def sequence(p: Play) -> list[Step]:
    """Startle (round 1), declarations, the side roll and the phases (:func:`~.round.sequence_round`,
    ``combat-flow#1-6``); the dead are not in it. Returns the trace; sets ``p.order``."""
    live = [f for f in p.fighters.values() if f.state is not State.DEAD]
    combatants = [RoundCombatant(f.name, f.side, round_declaration(f, p.orders[f.name]),
                                 unaware=f.unaware and p.number == 1, agility_tier=f.agility_tier,
                                 perception_tier=f.body.perception_tier) for f in live]
    result = sequence_round(combatants, round_number=p.number, dice=p.dice, rulings=p.rulings, rules=p.rules)
    p.order = [(slot["phase"], name) for slot in result.order for name in slot["combatants"]]
    return [result.trace] + _startled(p, result)


def _turn_start(p: Play, name: str) -> list[Step]:
    """Engaged lasts "until the beginning of your next turn" (``.../additional-combat-rules#3``)."""
    f = p.fighters[name]
    if not f.engaged_with:
        return []
    p.fighters[name] = replace(f, engaged_with=())
    p.log(f"{name} is no longer Engaged with {', '.join(f.engaged_with)} (the start of its turn)", ids.ENGAGED)
    return [Step.of(StepKind.RULE, f"{name}: Engaged ends", cites=[ids.ENGAGED])]


def _turn_end(p: Play, name: str) -> list[Step]:
    """Ending a turn in a hazard (``.../terrain#6``, ``mastery.hazard-triggers``); suffocating advances
    Exhausted by 1 tier (the Punctured Lung row)."""
    steps, f = [], p.fighters[name]
    if f.hazard and f.state is not State.DEAD:
        use = R.ruling_use(R.HAZARD_TRIGGERS, p.rulings)
        if name not in p.hazard_hit or use.answer == "each-trigger":
            steps += p.hazard_damage(name, f.hazard, f"ending its turn in {f.hazard} terrain", [ids.HAZARD_DAMAGE],
                                     [use] if name in p.hazard_hit else [])
    p.hazard_hit.discard(name)
    for e in effects_of(p.fighters[name].body.sheet, "suffocating", p.rules)[:1]:  # one condition, both lungs
        f = p.fighters[name]
        p.fighters[name] = replace(f, exhausted=f.exhausted + 1)
        p.log(f"{name} is suffocating: Exhausted {f.exhausted} -> {f.exhausted + 1}", e.row)
        steps.append(Step.of(StepKind.RULE, f"{name}: Exhausted +1", f.exhausted + 1, cites=list(e.cites)))
    return steps


def turn(p: Play, name: str, phase: str) -> list[Step]:
    """One combatant's turn in its phase: Engaged ends, its declared actions in order (only those,
    ``combat-flow#11``), the end of the turn. A combatant that cannot take actions has a turn per
    ``mastery.turn-while-down``."""
    f, uses = p.fighters[name], []
    if f.state is State.DEAD:
        return []
    if not f.can_act:
        use = R.ruling_use(R.TURN_WHILE_DOWN, p.rulings)
        if use.answer == "no-turn":
            return [Step.of(StepKind.RULING, f"{name} is {f.state.value}: no turn", rulings=[use])]
        uses.append(use)
    steps = _turn_start(p, name)
    for a in p.orders[name].actions:
        if not a.reaction:
            steps += take(p, name, a)
    steps += _turn_end(p, name)
    return [Step.of(StepKind.RESULT, f"{name}'s turn ({phase})", p.fighters[name].state.value,
                    cites=[ids.FLOW_ONLY_DECLARED], rulings=uses, children=steps)]


def _repositions(p: Play, after: str, done: set) -> list[Step]:
    """Movement reactions declared to follow ``after``'s turn (``.../triggered-reactions-all-cost-1-ap#3``)."""
    steps = []
    for name, o in p.orders.items():
        for i, a in enumerate(o.actions):
            if a.kind == "reposition" and a.data["after"] == after and (name, i) not in done:
                done.add((name, i))
                if p.fighters[name].can_act and p.fighters[name].body.ap >= a.ap:
                    steps += [Step.of(StepKind.RESULT, f"{name} repositions after {after}'s turn",
                                      cites=[ids.MOVEMENT_REACTION], children=move(p, name, a))]
    return steps


def turns(p: Play) -> list[Step]:
    """Fast, Moderate, Slow, the winning side first (``combat-flow#13-15``): each combatant's turn."""
    steps, done = [], set()
    for phase, name in p.order:
        steps += turn(p, name, phase)
        steps += _repositions(p, name, done)
    return steps


def _dying(p: Play, f: Fighter) -> tuple[Fighter, list[Step]]:
    """The dying timer runs one round (:func:`~.death.advance_dying`), from the round after the one
    of reaching 0 health or from that round, per ``mastery.dying-timer-tick``."""
    if f.body.dying_rounds is None or f.body.stabilized or f.state is State.DEAD:
        return f, []
    use = R.ruling_use(R.DYING_TIMER_TICK, p.rulings)
    if use.answer == "later-rounds" and f.dying_since is not None and f.dying_since >= p.number:
        return f, [Step.of(StepKind.RULING, f"{f.name}: the dying timer starts counting next round",
                           f.body.dying_rounds, cites=[ids.DYING_TIMER], rulings=[use])]
    d = advance_dying(f.body, 1)
    p.log(f"{f.name} dies: the dying timer ran out" if d.died else
          f"{f.name}'s dying timer: {rounds(d.rounds_left)} left", *d.trace.cited_ids(), use.ruling_id)
    return replace(f, body=d.target), [Step.of(StepKind.RULING, f"{f.name}: the dying timer runs", d.rounds_left,
                                               rulings=[use], children=[d.trace])]


def _next_round_ap(p: Play, f: Fighter) -> tuple[Fighter, list[Step]]:
    """Impaired steps down a tier (``startle-and-ambush/results#4``; ends below 1, ``mastery.impaired-below-1``);
    then the AP of the next round (:func:`.orders.round_ap`); unspent AP are lost (``use-it-or-lose-it#1``)."""
    steps = []
    if f.impaired:
        f = replace(f, impaired=f.impaired - 1)
        below = [] if f.impaired else [R.ruling_use(R.IMPAIRED_BELOW_1, p.rulings)]
        p.log(f"{f.name}'s Impaired steps down to {f.impaired} ({IMPAIRED_NAMES[f.impaired]}) for round {p.number + 1}"
              if f.impaired else f"{f.name} is no longer Impaired from round {p.number + 1}",
              ids.IMPAIRED_PROGRESSION, ids.FLOW_NEXT_ROUND,
              *(u.ruling_id for u in below))
        steps.append(Step.of(StepKind.RULE, f"{f.name}: Impaired steps down", f.impaired,
                             cites=[ids.IMPAIRED_PROGRESSION, ids.FLOW_NEXT_ROUND], rulings=below))
    ap, cites, uses = round_ap(f, p.rulings, p.rules)
    if ap != 2:
        p.log(f"{f.name} has {ap} AP in round {p.number + 1}", *cites, *(u.ruling_id for u in uses))
    steps.append(Step.of(StepKind.RULE, f"{f.name}: AP in round {p.number + 1}", ap, cites=cites, rulings=uses))
    return f.with_(ap=ap, casting=False), steps


def _round_end(p: Play, f: Fighter) -> tuple[Fighter, list[Step]]:
    f, steps = _dying(p, f)
    if f.state is not State.DEAD:
        f, more = _next_round_ap(p, f)
        steps += more
    elif f.engaged_with or f.body.casting:
        f = replace(f, engaged_with=(), body=f.body.with_(casting=False))
    if not f.can_act and f.engaged_with and R.use(R.TURN_WHILE_DOWN, p.rulings) == "no-turn":
        f = replace(f, engaged_with=())
        steps.append(Step.of(StepKind.RULING, f"{f.name}: Engaged ends with the round", cites=[ids.ENGAGED],
                             rulings=[R.ruling_use(R.TURN_WHILE_DOWN, p.rulings)]))
    return f, steps


def round_ends(p: Play) -> list[Step]:
    """Step 7: the dying timer; the next round begins, conditions reduced and AP renewed
    (``combat-flow#16``); the fight is over when one side is left standing."""
    steps = []
    for name in list(p.fighters):
        p.fighters[name], more = _round_end(p, p.fighters[name])
        steps += more
    if over(p.fighters):
        p.log(fight_over_text(sorted({f.side.value for f in p.fighters.values() if f.can_act})))
    return [Step.of(StepKind.RESULT, "7. The next round begins: conditions reduced, AP renewed",
                    cites=[ids.FLOW_NEXT_ROUND, ids.USE_IT_OR_LOSE_IT], children=steps)]


ROUND_STAGES = (casting_begins, sequence, turns, round_ends)
"""One round of a fight, in order; each stage returns its trace steps."""


# -- the encounter ---------------------------------------------------------------------------------

class MasteryEncounter(Encounter):
    """A whole Mastery fight (see the module docstring; the framework is :class:`~ruleslawyer.encounter.Encounter`).

    Options (``options``): ``trauma_setting`` (realistic, brutal, deadly; ``.../trauma-table#1``) and
    ``precipitation`` (rain, sleet, hail or snow: Painful Scar's trial).
    """

    ruleset = "mastery"
    dice_slots = FIGHT_SLOTS

    @classmethod
    def read_options(cls, data: Mapping[str, Any] | None) -> dict:
        """``{"trauma_setting": "realistic"|"brutal"|"deadly", "precipitation": bool}`` (both optional).

        Raises:
            RulesInputError: an unknown option or value (``options.<name>``).
        """
        d = FIGHT_OPTIONS.read({} if data is None else data, "options")
        return {"trauma_setting": d.get("trauma_setting", "realistic"), "precipitation": d.get("precipitation", False)}

    @classmethod
    def read_combatant(cls, data: Any, field_name: str, rules) -> Fighter:
        """A :class:`~.fighter.Fighter` from its flat JSON shape (see ``--schema``)."""
        return Fighter.from_dict(data, field_name)

    @classmethod
    def write_combatant(cls, combatant: Fighter) -> dict:
        return combatant.to_dict()

    @classmethod
    def link_combatants(cls, combatants: tuple[Fighter, ...], rules) -> tuple[Fighter, ...]:
        """Who is within whose reach, both ways (``mastery.fight-reach``; default: every creature of the
        other side); names in ``within_reach`` and ``engaged_with`` must be other combatants."""
        names = [f.name for f in combatants]
        reach = {f.name: set(f.within_reach if f.within_reach is not None else
                             (o.name for o in combatants if o.side != f.side)) for f in combatants}
        for i, f in enumerate(combatants):
            for key, listed in (("within_reach", reach[f.name]), ("engaged_with", f.engaged_with)):
                for n in listed:
                    if n not in names or n == f.name:
                        raise RulesInputError(f"combatants[{i}].{key}", f"no other combatant called {n!r}; "
                                                                        f"combatants: {', '.join(names)}")
            for n in reach[f.name]:
                reach[n].add(f.name)
        return tuple(replace(f, within_reach=tuple(n for n in names if n in reach[f.name])) for f in combatants)

    def check_declaration(self, state: FightState, combatant: Fighter, declaration: Any, field_name: str) -> Orders:
        """The declaration read strictly by :data:`.schema.ORDERS` (fields, types, bounds), then checked
        against the state (:func:`.orders.read_orders`: who may act, AP, targets, the rules)."""
        ORDERS.read(declaration, field_name)
        return read_orders(declaration, combatant, state, field_name, R.check(self.rulings), self.rules)

    def play_round(self, state: FightState, declarations: Mapping[str, Any], dice: Dice
                   ) -> tuple[FightState, Step, list[LogLine]]:
        """Resolve one round (:data:`ROUND_STAGES`) from ``state`` with these declarations (a combatant
        who declared nothing takes no action; its AP defend per ``mastery.fight-spare-ap``)."""
        p = Play(state.round + 1, {f.name: f for f in state.combatants},
                 {f.name: declarations.get(f.name) or Orders() for f in state.combatants}, dice,
                 R.check(self.rulings), self.rules, TraumaSetting(self.options["trauma_setting"]),
                 self.options["precipitation"])
        for stage in ROUND_STAGES:
            p.steps += stage(p)
        new = replace(state, combatants=tuple(p.fighters[f.name] for f in state.combatants), over=over(p.fighters))
        return new, self.round_step(p.number, p.steps), p.lines

    @classmethod
    def schema(cls) -> dict:
        return FIGHT_SCHEMA

    @classmethod
    def summary(cls, combatant: Fighter) -> str:
        """``Brute: 3 health, 2 durability, 1 AP, fighting-on (dying: 2 rounds), Prone``."""
        b = combatant.body
        if b.state is State.DEAD:
            return f"{combatant.name}: dead"
        parts = [f"{b.health} health", f"{b.durability} durability", f"{b.ap} AP"]
        if b.state is not State.STANDING:
            parts.append(b.state.value + (f" (dying: {rounds(b.dying_rounds)})" if b.dying_rounds is not None
                                          and not b.stabilized else ""))
        return f"{combatant.name}: " + ", ".join(parts + list(combatant.conditions))
