"""A whole Mythras fight across Rounds: state carried, every change cited, replayable.

:class:`MythrasEncounter` plays Rounds on the shared :class:`ruleslawyer.encounter.Encounter`. A Round
is a pipeline of named stages:

- ``action_points_stage``: everyone able to fight has their AP for the Round (``setup#2``: 2 unless
  the input says otherwise);
- ``initiative_stage``: Initiative order (:func:`.initiative.roll_initiative`, ``setup#1``), rolled
  once or each Round (ruling ``mythras.initiative-rolls``);
- ``declared_stage``: what fighters who declared nothing do (ruling ``mythras.no-declaration``);
- ``turns_stage``: Turns in Initiative order, each one Proactive action (``setup#3``), going round
  again while actions and AP are left (ruling ``mythras.turn-cycles``); attacks are exchanges
  (:func:`.exchange.resolve_exchange`) whose results change both fighters (:mod:`.aftermath`);
- ``end_stage``: bleeding locations lose Hit Points (ruling ``mythras.bleed``), unused AP vanish
  (``setup#3``), the ambush Round ends (``surprise#1``), and whether one side is left standing.

The input format: ``ruleslawyer fight mythras --schema`` (:data:`.schema.FIGHT_SCHEMA`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import Encounter, FightState, LogLine, fight_over_text
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind

from . import _tables, ids, rulings as _r
from .aftermath import BLEED, harm
from .declarations import Action, ActionKind, Declaration, check_declaration, engaged_names, parse_declaration
from .fighter import Fighter, Status, Wound, read_fighter, write_fighter
from .initiative import InitiativeCombatant, roll_initiative
from .round_context import RoundContext
from .schema import DECLARATION, FIGHT_SLOTS, FIGHTER
from .turns import take_turn

__all__ = ["MythrasEncounter"]


def action_points_stage(ctx: RoundContext) -> Step:
    """Everyone able to fight has their Action Points for the Round (``setup#2``)."""
    for f in ctx.fighters.values():
        ctx.put(replace(f, ap_left=f.action_points if f.active else 0))
    aps = {f.name: f.ap_left for f in ctx.fighters.values() if f.active}
    return ctx.note(StepKind.RULE, f"Round {ctx.number}: Action Points", "Action Points this Round: "
                    + ", ".join(f"{n} {ap}" for n, ap in aps.items()), [ids.ACTION_POINTS], value=aps)


def _roll_order(ctx: RoundContext, rulings: Sequence[RulingUse]) -> Step:
    active = [f for f in ctx.fighters.values() if f.active]
    combatants = [InitiativeCombatant(f.name, f.initiative_modifier, f.dex, max((ap for _, ap in f.armour), default=0),
                                      ctx.number == 1 and f.surprised) for f in active]
    result = roll_initiative(combatants, dice=ctx.dice, rulings=ctx.overrides, rules=ctx.rules)
    for place, entry in enumerate(result.order, start=1):
        ctx.put(replace(ctx.get(entry.name), initiative=entry.total, place=place))
    text = "Initiative: " + ", ".join(f"{e.name} {e.total}" for e in result.order) + " (highest first)"
    cites = [ids.INITIATIVE] + ([ids.SURPRISE] if any(e.surprised for e in result.order) else [])
    return ctx.note(StepKind.RESULT, "Initiative", text, cites, rulings, value=[e.name for e in result.order],
                    children=[result.trace])


def initiative_stage(ctx: RoundContext) -> tuple[list[str], Step]:
    """The Round's Initiative order (``setup#1``): rolled in the first Round, again each Round only
    under ruling ``mythras.initiative-rolls`` = each-round. Returns the active fighters in order."""
    use = ctx.ruling(_r.INITIATIVE_ROLLS)
    if ctx.number == 1 or use.answer == "each-round":
        step = _roll_order(ctx, [use] if ctx.number > 1 else [])
    else:
        order = sorted((f for f in ctx.fighters.values() if f.active), key=lambda f: (f.place or 999))
        step = ctx.note(StepKind.RULING, "Initiative: the order holds", "Initiative order holds: "
                        + ", ".join(f"{f.name} {f.initiative}" for f in order), [ids.INITIATIVE], [use],
                        value=[f.name for f in order])
    index = {n: i for i, n in enumerate(ctx.fighters)}
    active = sorted((f for f in ctx.fighters.values() if f.active), key=lambda f: (f.place or 999, index[f.name]))
    return [f.name for f in active], step


def _default(ctx: RoundContext, f: Fighter) -> Declaration:
    use = ctx.ruling(_r.NO_DECLARATION)
    if use.answer != "attack-engaged" or not f.weapon_in_hand or (ctx.number == 1 and f.surprised):
        return Declaration()
    fighters = tuple(ctx.fighters.values())
    foe = next((o for o in fighters if o.name in engaged_names(fighters, f) and o.active and o.side != f.side), None)
    return Declaration((Action(ActionKind.ATTACK, foe.name),)) if foe is not None else Declaration()


def declared_stage(ctx: RoundContext, declared: Mapping[str, Declaration]) -> tuple[dict[str, Declaration], list[Step]]:
    """Every active fighter's declaration: as declared, else ruling ``mythras.no-declaration``."""
    out, steps = {}, []
    for f in ctx.fighters.values():
        if not f.active:
            continue
        if f.name in declared:
            out[f.name] = declared[f.name]
            continue
        out[f.name] = decl = _default(ctx, f)
        what = (f"Attack on {decl.actions[0].target}" if decl.actions else "no Proactive action")
        steps.append(ctx.note(StepKind.RULING, f"{f.name} declared nothing", f"{f.name} declared nothing: "
                              f"{what}; AP kept for Reactive replies", [ids.PROACTIVE_REACTIVE],
                              [ctx.ruling(_r.NO_DECLARATION)]))
    return out, steps


def _arrives(ctx: RoundContext, name: str) -> list[Step]:
    """An ambushed fighter's Initiative arrives: no longer flat-footed (``surprise#1``)."""
    if name in ctx.arrived:
        return []
    ctx.arrived.add(name)
    if ctx.number != 1 or not ctx.get(name).surprised:
        return []
    return [ctx.note(StepKind.RULE, f"{name}'s Initiative arrives", f"{name}'s Initiative arrives: no longer "
                     "flat-footed (may defend)", [ids.SURPRISE])]


def turns_stage(ctx: RoundContext, order: Sequence[str], decls: Mapping[str, Declaration]) -> list[Step]:
    """Turns in Initiative order, one declared Proactive action each (``setup#3``), going round again
    while anyone has an action left (ruling ``mythras.turn-cycles``; once under one-turn)."""
    use = ctx.ruling(_r.TURN_CYCLES)
    next_action = {n: 0 for n in order}
    cycles = []
    while True:
        turns: list[Step] = []
        for name in order:
            if not ctx.get(name).active:
                continue
            turns += _arrives(ctx, name)
            actions = decls[name].actions
            if next_action[name] < len(actions):
                turns.append(take_turn(ctx, name, actions[next_action[name]], dict(decls)))
                next_action[name] += 1
        if not turns:
            break
        n = len(cycles) + 1
        cycles.append(Step.of(StepKind.RULE, f"Turns, cycle {n}", detail="in Initiative order",
                              cites=[ids.INITIATIVE, ids.PROACTIVE_REACTIVE], rulings=[use] if n > 1 else [],
                              children=turns))
        if use.answer == "one-turn":
            break
    return cycles


def end_stage(ctx: RoundContext) -> list[Step]:
    """The Round's end: bleeding (ruling ``mythras.bleed``), unused AP vanish (``setup#3``), the
    ambush Round is over (``surprise#1``)."""
    steps: list[Step] = []
    bleed = ctx.ruling(_r.BLEED)
    bleed_row = Citation(_tables.effects(ctx.rules)[BLEED].row.unit_id, BLEED)
    for name, f in list(ctx.fighters.items()):
        for loc in (f.bleeding if f.status is not Status.DEAD else ()):
            steps += harm(ctx, name, loc, 1, "bleeding", [ids.EFFECTS, bleed_row], [bleed])
    for name, f in list(ctx.fighters.items()):
        if f.ap_left > 0:
            ctx.put(replace(f, ap_left=0))
            steps.append(ctx.note(StepKind.RULE, f"{name}: {f.ap_left} unused AP vanish", f"{name}'s {f.ap_left} "
                                  "unused AP vanish at the Round's end", [ids.PROACTIVE_REACTIVE], value=0))
        if ctx.number == 1 and f.surprised:
            ctx.put(replace(ctx.get(name), surprised=False))
            steps.append(ctx.note(StepKind.RULE, f"{name} is no longer surprised", f"{name} is no longer "
                                  "surprised: the ambush Round is over", [ids.SURPRISE]))
    return steps


def over_stage(ctx: RoundContext) -> tuple[bool, Step | None]:
    """The fight is over once at most one side has anyone still able to fight."""
    standing = list(dict.fromkeys(f.side for f in ctx.fighters.values() if f.active))
    if len(standing) > 1:
        return False, None
    out = [f for f in ctx.fighters.values() if not f.active]
    text = fight_over_text(standing)
    ctx.lines.append(LogLine(ctx.number, text, tuple(dict.fromkeys(f.out_by for f in out if f.out_by))))
    return True, Step.of(StepKind.RESULT, "The fight is over", value=standing, detail=text)


def play(state: FightState, declarations: Mapping[str, Declaration], dice: Dice, overrides: Mapping[str, str],
         rules: Rules) -> tuple[FightState, list[Step], list[LogLine]]:
    """Play the Round after ``state``: the new state, the Round's steps and its log lines."""
    ctx = RoundContext(state.round + 1, {f.name: f for f in state.combatants}, dice, overrides, rules)
    steps = [action_points_stage(ctx)]
    order, init_step = initiative_stage(ctx)
    decls, default_steps = declared_stage(ctx, declarations)
    steps += [init_step, *default_steps, *turns_stage(ctx, order, decls), *end_stage(ctx)]
    over, over_step = over_stage(ctx)
    steps += [over_step] if over_step is not None else []
    return FightState(state.ruleset, ctx.number, tuple(ctx.fighters.values()), over), steps, ctx.lines


def _link(fighters: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
    """Check the names fighters give each other, and make Engagement mutual."""
    names = [f.name for f in fighters]
    for i, f in enumerate(fighters):
        for other in (*f.engaged_with, *(b for b, _ in f.impaled_by), *filter(None, [f.weapon_stuck_in])):
            if other not in names or other == f.name:
                raise RulesInputError(f"combatants[{i}]", f"{f.name} names {other!r}, who is not another combatant; "
                                                          f"combatants: {', '.join(names)}")
    return tuple(replace(f, engaged_with=tuple(n for n in names if n in engaged_names(fighters, f)))
                 for f in fighters)


_WOUND_MARK = {Wound.MINOR: "", Wound.SERIOUS: " Serious", Wound.MAJOR: " Major"}


class MythrasEncounter(Encounter):
    """A Mythras fight across Rounds (see the module docstring; ``ruleslawyer fight mythras``).

    Combatants are :class:`.fighter.Fighter` states; declarations are :class:`.declarations.Declaration`.
    Ruling overrides cover every exchange and Round of the fight (checked when the fight starts).
    """

    ruleset = "mythras"
    dice_slots = FIGHT_SLOTS

    @classmethod
    def start(cls, combatants: Sequence[Any], **kw) -> MythrasEncounter:
        """A new fight (see :meth:`Encounter.start`); unknown ruling overrides are refused at once.

        Raises:
            RulesInputError: a bad combatant (``combatants[i].<field>``) or ruling override (``rulings.<id>``).
        """
        check_rulings(kw.get("rulings"), "mythras")
        return super().start(combatants, **kw)

    @classmethod
    def read_combatant(cls, data: Any, field_name: str, rules) -> Fighter:
        """A :class:`.fighter.Fighter`: read strictly by :data:`.schema.FIGHTER` (fields, types, bounds),
        then by :func:`.fighter.read_fighter` (what the fields mean: locations, weapons, the rules)."""
        FIGHTER.read(data, field_name)
        return read_fighter(data, field_name, rules)

    @classmethod
    def write_combatant(cls, combatant: Fighter) -> dict:
        return write_fighter(combatant)

    @classmethod
    def link_combatants(cls, combatants: tuple[Fighter, ...], rules) -> tuple[Fighter, ...]:
        return _link(combatants)

    def check_declaration(self, state: FightState, combatant: Fighter, declaration: Any,
                          field_name: str) -> Declaration:
        if not isinstance(declaration, Declaration):  # JSON: read strictly by schema.DECLARATION first
            DECLARATION.read(declaration, field_name)
        decl = parse_declaration(declaration, field_name, self.rules)
        return check_declaration(decl, combatant, state.combatants, state.round == 0, self.rulings, field_name)

    def play_round(self, state: FightState, declarations: Mapping[str, Any], dice: Dice
                   ) -> tuple[FightState, Step, list[LogLine]]:
        new, steps, lines = play(state, declarations, dice, self.rulings, self.rules)
        return new, self.round_step(new.round, steps), lines

    @classmethod
    def schema(cls) -> dict:
        from .schema import FIGHT_SCHEMA

        return FIGHT_SCHEMA

    @classmethod
    def summary(cls, combatant: Fighter) -> str:
        """``Brute: Chest 1/6, Left Arm -2/4 Serious; prone; disarmed; bleeding Chest`` (harmed locations only)."""
        f = combatant
        hurt = [f"{loc} {hp}/{f.max_hp(loc)}{_WOUND_MARK[f.wound(loc)]}" for loc, hp in f.hit_points
                if hp < f.max_hp(loc)]
        marks = [f.status.value] if not f.active else []
        marks += [m for m, on in (("prone", f.prone), ("disarmed", f.disarmed)) if on]
        marks += [f"bleeding {', '.join(f.bleeding)}"] if f.bleeding else []
        marks += [f"impaled ({', '.join(f'{b}: {loc}' for b, loc in f.impaled_by)})"] if f.impaled_by else []
        marks += [f"weapon stuck in {f.weapon_stuck_in}"] if f.weapon_stuck_in else []
        return f"{f.name}: " + "; ".join([", ".join(hurt) or "unhurt", *marks])
