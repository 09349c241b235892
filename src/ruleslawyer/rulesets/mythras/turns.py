"""One fighter's Turn: the Proactive action declared for it (``setup#3``, ``action-menu-essentials#1``).

An Attack or a Charge is one exchange (:func:`.exchange.resolve_exchange`) between the fighter and the
target as they stand now: the attacker spends 1 AP (``the-attack-parry-exchange#1``), the defender 1 AP
for a Parry or an Evade (``#2``, a Reactive reply), and :func:`.aftermath.apply_exchange` carries the
results into both. Move, Regain Footing and Ready Weapon change the fighter's own condition. An action
the state no longer allows when its Turn comes is skipped (ruling ``mythras.void-action``).
"""

from __future__ import annotations

from dataclasses import replace

from ruleslawyer.trace import Citation, Step, StepKind, get_ruling

from . import ids, rulings as _r
from .aftermath import apply_exchange, engage, spend_ap
from .declarations import Action, ActionKind, Declaration, MENU_ROW
from .exchange import ExchangeResult, resolve_exchange
from .fighter import Fighter
from .inputs import Attacker, Defence, Defender, ExchangeInput
from .levels import DifficultyGrade
from .round_context import RoundContext, menu_cite
from .special_effects import effects_count

__all__ = ["take_turn", "void_reason"]


def _menu(ctx: RoundContext, kind: ActionKind) -> list[Citation | str]:
    return [ids.MENU_PROACTIVE, menu_cite(MENU_ROW[kind], ctx.rules)]


def _unarmed(f: Fighter) -> tuple[str, list[str]]:
    if f.weapon_arm in f.useless:
        return f"the {f.weapon_arm} is useless", [_r.SERIOUS_WOUND.id]
    if f.weapon_stuck_in is not None:
        return f"the {f.weapon.name} is stuck in {f.weapon_stuck_in}", [_r.IMPALED_WEAPON.id]
    return f"the {f.weapon.name} was knocked away", [_r.DISARM_OPPONENT.id]


def _offensive_reason(ctx: RoundContext, f: Fighter, act: Action) -> tuple[str, list[str]] | None:
    target = ctx.get(act.target)
    if not target.active:
        return f"{target.name} is already {target.status.value}", [ids.PROACTIVE_REACTIVE]
    if not f.weapon_in_hand:
        return _unarmed(f)
    if act.action is ActionKind.ATTACK and f.weapon.ranged is None and target.name not in f.engaged_with:
        return f"{f.name} is no longer Engaged with {target.name}", [ids.ENGAGED]
    if act.action is ActionKind.CHARGE and f.engaged_with:
        return f"{f.name} is Engaged and cannot simply walk away", [ids.ENGAGED]
    if act.action is ActionKind.CHARGE and f.prone:
        return f"{f.name} is prone", [_r.PRONE.id, ids.MOVEMENT]
    return None


def void_reason(ctx: RoundContext, f: Fighter, act: Action) -> tuple[str, list[str]] | None:
    """Why ``act`` cannot be taken now (and the rules or rulings that say so), or None when it can."""
    kind = act.action
    if kind in (ActionKind.ATTACK, ActionKind.CHARGE):
        return _offensive_reason(ctx, f, act)
    if kind is ActionKind.MOVE and f.engaged_with:
        return f"{f.name} is Engaged and cannot simply walk away", [ids.ENGAGED]
    if kind is ActionKind.MOVE and act.target is not None and not ctx.get(act.target).active:
        return f"{act.target} is already {ctx.get(act.target).status.value}", [ids.PROACTIVE_REACTIVE]
    if kind is ActionKind.REGAIN_FOOTING and not f.prone:
        return f"{f.name} is already on their feet", [ids.MENU_PROACTIVE]
    if kind is ActionKind.REGAIN_FOOTING and any(loc.endswith("Leg") for loc in f.useless):
        return "a leg is useless", [_r.SERIOUS_WOUND.id]
    if kind is ActionKind.READY_WEAPON and f.weapon_in_hand:
        return f"the {f.weapon.name} is already in hand", [ids.MENU_PROACTIVE]
    if kind is ActionKind.READY_WEAPON and f.weapon_arm in f.useless:
        return f"the {f.weapon_arm} is useless", [_r.SERIOUS_WOUND.id]
    return None


def _void_turn(ctx: RoundContext, f: Fighter, act: Action, why: tuple[str, list[str]]) -> Step:
    use = ctx.ruling(_r.VOID_ACTION)
    text, refs = why
    cites = [r for r in refs if "/" in r]
    uses = [use, *(ctx.ruling(get_ruling(r)) for r in refs if "/" not in r)]
    children = [spend_ap(ctx, f.name, f"the wasted {act.action.value}", [ids.PROACTIVE_REACTIVE])] \
        if use.answer == "spend-ap" else []
    step = ctx.note(StepKind.RULING, f"{f.name}'s {act.action.value} cannot be made",
                    f"{f.name}'s {act.action.value} cannot be made: {text}; the Turn passes", cites, uses)
    return Step.of(StepKind.RESULT, f"Turn: {f.name} ({act.action.value}) — skipped", value=None,
                   children=[step, *children])


def _defence(ctx: RoundContext, d: Fighter, decl: Declaration) -> tuple[Defence, list[Step]]:
    """The defender's Reactive reply: as declared, else a Parry when they can, else an Evade, else none."""
    weapon = d.parrying_weapon
    wanted = decl.defence or (Defence.PARRY if weapon is not None else
                              Defence.EVADE if d.evade is not None else Defence.NONE)
    if wanted is Defence.PARRY and weapon is None:
        text, refs = _unarmed(d)
        uses = [ctx.ruling(get_ruling(r)) for r in refs]
        return Defence.NONE, [ctx.note(StepKind.RULING, f"{d.name} has nothing to parry with",
                                       f"{d.name} cannot Parry: {text}", [ids.EX_NO_PARRY], uses)]
    return wanted, []


def _exchange_input(ctx: RoundContext, a: Fighter, d: Fighter, act: Action, decl: Declaration,
                    kind: Defence) -> tuple[ExchangeInput, list[Step]]:
    a_grade, a_step = ctx.grade(a)
    d_grade, d_step = ctx.grade(d) if kind is not Defence.NONE else (DifficultyGrade.STANDARD, None)
    attacker = Attacker(name=a.name, skill=a.combat_style, weapon=a.weapon, difficulty=a_grade, str_siz=a.str_siz,
                        damage_modifier=a.damage_modifier, charge=act.action is ActionKind.CHARGE,
                        effects=act.effects, chosen_location=act.chosen_location)
    skill = d.evade if kind is Defence.EVADE else d.combat_style
    defender = Defender(name=d.name, skill=skill or 0, defence=kind, weapon=d.parrying_weapon, difficulty=d_grade,
                        action_points=d.ap_left, surprised=ctx.number == 1 and d.surprised and d.name not in ctx.arrived,
                        surprise_bonus_spent=d.name in ctx.bonus_spent, armour=d.armour,
                        natural_armour=d.natural_armour, traits=d.traits, effects=decl.defence_effects)
    return ExchangeInput(attacker, defender), [s for s in (a_step, d_step) if s is not None]


def _summary(a: str, d: str, r: ExchangeResult) -> str:
    if r.attack_level is None:
        return f"{a} attacks {d}: no attack is made"
    defence = r.defence_level.value if r.defence is not None else f"{r.defence_level.value} (no defence)"
    text = f"{a} attacks {d}: {r.attack_level.value} vs {defence}"
    fx = [*r.attacker_effects, *r.defender_effects]
    if r.winner:
        text += f"; {r.winner} wins {effects_count(r.effects_won)}" + (f": {', '.join(fx)}" if fx else "")
    if r.hit:
        text += (f"; {r.total_damage} damage to the {r.location}" if r.total_damage else
                 f"; the blow to the {r.location} does no harm")
    return text


def _attack_turn(ctx: RoundContext, f: Fighter, act: Action, decls: dict[str, Declaration]) -> Step:
    d = ctx.get(act.target)
    kind, children = _defence(ctx, d, decls.get(d.name, Declaration()))
    inp, grade_steps = _exchange_input(ctx, f, d, act, decls.get(d.name, Declaration()), kind)
    result = resolve_exchange(inp, dice=ctx.dice, rulings=ctx.overrides, rules=ctx.rules)
    cited = [c for ch in result.trace.children for c in ch.cites if c.rule_id.startswith("mythras/combat/")]
    children += [*grade_steps, ctx.note(StepKind.RESULT, f"Exchange: {f.name} → {d.name}", _summary(f.name, d.name, result),
                                        list(dict.fromkeys(cited)), value=result.trace.value,
                                        children=[result.trace])]
    if result.surprise_bonus:
        ctx.bonus_spent.add(d.name)
    children.append(spend_ap(ctx, f.name, act.action.value, [ids.EX_ATTACK, ids.PROACTIVE_REACTIVE]))
    if result.defence is not None:
        cite = ids.EX_PARRY if result.defence_kind is Defence.PARRY else ids.EVADE
        children.append(spend_ap(ctx, d.name, result.defence_kind.value.title(), [cite, ids.MENU_REACTIVE]))
    if act.action is ActionKind.CHARGE:
        children += engage(ctx, f.name, d.name, [ids.CHARGE, ids.MOVEMENT])
    elif f.weapon.ranged is None:
        children += engage(ctx, f.name, d.name, [])
    children += apply_exchange(ctx, f.name, d.name, result)
    return Step.of(StepKind.RESULT, f"Turn: {f.name} — {act.action.value} on {d.name}", value=result.trace.value,
                   children=children)


def _move_turn(ctx: RoundContext, f: Fighter, act: Action) -> list[Step]:
    if act.target is None:
        return [ctx.note(StepKind.RULE, f"{f.name} moves", f"{f.name} moves (unengaged)", _menu(ctx, ActionKind.MOVE))]
    return engage(ctx, f.name, act.target, [ids.MOVEMENT, *_menu(ctx, ActionKind.MOVE)])


def _footing_turn(ctx: RoundContext, f: Fighter, act: Action) -> list[Step]:
    ctx.put(replace(f, prone=False))
    return [ctx.note(StepKind.RULE, f"{f.name} regains their footing", f"{f.name} regains their footing",
                     _menu(ctx, ActionKind.REGAIN_FOOTING), value=False)]


def _ready_turn(ctx: RoundContext, f: Fighter, act: Action) -> list[Step]:
    cites = _menu(ctx, ActionKind.READY_WEAPON)
    if f.disarmed:
        ctx.put(replace(f, disarmed=False))
        return [ctx.note(StepKind.RULING, f"{f.name} readies the {f.weapon.name}", f"{f.name} takes up the "
                         f"{f.weapon.name} again", cites, [ctx.ruling(_r.DISARM_OPPONENT)])]
    victim = ctx.get(f.weapon_stuck_in)
    ctx.put(replace(f, weapon_stuck_in=None))
    ctx.put(replace(victim, impaled_by=tuple(x for x in victim.impaled_by if x[0] != f.name)))
    return [ctx.note(StepKind.RULING, f"{f.name} pulls the {f.weapon.name} free", f"{f.name} pulls the "
                     f"{f.weapon.name} free of {victim.name}", cites, [ctx.ruling(_r.IMPALED_WEAPON)])]


_OWN = {ActionKind.MOVE: _move_turn, ActionKind.REGAIN_FOOTING: _footing_turn, ActionKind.READY_WEAPON: _ready_turn}


def take_turn(ctx: RoundContext, name: str, act: Action, decls: dict[str, Declaration]) -> Step:
    """``name``'s Turn with its declared action: one AP on a Proactive action (``setup#3``)."""
    f = ctx.get(name)
    if f.ap_left < 1:
        return ctx.note(StepKind.RULE, f"Turn: {name} has no AP left", f"{name} has no AP left for the "
                        f"{act.action.value}: the Turn passes", [ids.ACTION_POINTS, ids.PROACTIVE_REACTIVE], value=0)
    why = void_reason(ctx, f, act)
    if why is not None:
        return _void_turn(ctx, f, act, why)
    if act.action in (ActionKind.ATTACK, ActionKind.CHARGE):
        return _attack_turn(ctx, f, act, decls)
    spent = spend_ap(ctx, name, act.action.value, [ids.PROACTIVE_REACTIVE, *_menu(ctx, act.action)])
    steps = _OWN[act.action](ctx, ctx.get(name), act)
    return Step.of(StepKind.RESULT, f"Turn: {name} — {act.action.value}", children=[spent, *steps])
