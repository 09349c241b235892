"""The actions of a fight's turn, one function per declared action key, each returning its steps.

:func:`take` runs one declared action (``attack``, ``move``, ``stand``, ``prone``, ``cast``, or any
other row of the action tables) for a combatant on its turn, after checking it can still be taken
(AP left beyond those kept for reactions, standing, not Prone); :func:`exchange` resolves an attack,
reprisal or counterattack with :func:`~ruleslawyer.rulesets.mastery.exchange.resolve_exchange` and
writes both combatants back; :func:`move` also serves the movement reaction (``reposition``).
"""

from __future__ import annotations

from dataclasses import replace

from ruleslawyer.trace import Step, StepKind

from . import ids
from . import rulings as R
from .actions import spend_ap
from .combatant import RANGED_KINDS, Attack, State
from .death import triage
from .exchange import ExchangeResult, Situation, resolve_exchange
from .fight_play import Play, aftermath_trials
from .fighter import Fighter
from .movement import speed
from .orders import FightAction
from .tiers import named_dc, roll_trial
from .trauma_effects import act_trial, effects_of, penalty, stacked

__all__ = ["take", "exchange", "move", "HANDLERS"]


def _blocked(p: Play, name: str, a: FightAction) -> tuple[str, list[str], list]:
    """Why a declared action cannot be taken now ("" if it can), with the cites and rulings that say so."""
    f = p.fighters[name]
    if not f.can_act:
        return f"{name} cannot take actions", [ids.GOING_DOWN_UNCONSCIOUS], []
    if a.kind in ("move", "attack") and f.prone:
        use = R.ruling_use(R.PRONE_STAND_FIRST, p.rulings)
        if use.answer == "stand-first":
            return f"{name} is Prone", [ids.OTHER_ACTIONS_TABLE], [use]
    if p.free_ap(name) < a.ap:
        return f"{name} has no AP left for it", [ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT], []
    return "", [], []


def take(p: Play, name: str, a: FightAction) -> list[Step]:
    """Take one declared action on ``name``'s turn, or say why it cannot be taken (its AP unspent)."""
    p.todo[name] -= a.ap
    why, cites, uses = _blocked(p, name, a)
    if why:
        p.log(f"{name}'s {a.kind} is not taken: {why}", *cites, *(u.ruling_id for u in uses))
        return [Step.of(StepKind.RULE, f"{name}: {a.kind} not taken", why, cites=cites, rulings=uses)]
    return HANDLERS[a.kind](p, name, a)


def _spend(p: Play, name: str, row: str, label: str, *cites: str) -> Step:
    f = p.fighters[name]
    body, step = spend_ap(f.body, row, p.rules, field=name, label=label, cites=cites)
    p.fighters[name] = replace(f, body=body)
    return step


# -- attacks ---------------------------------------------------------------------------------------

def _outcome(r: ExchangeResult) -> tuple[str, list[str]]:
    """A log phrase for an exchange's outcome and the rules behind it: a defended attack reads
    ``"attack 4 vs defense 2: hit for 4 (...)"`` or ``"attack 3 vs defense 3: defended"``."""
    rolls = f"attack {r.attack_total} vs defense {r.defense_total}: " if r.defended else ""
    if r.outcome == "hit":
        how = ids.ATTACK_ALWAYS_HITS if r.aim_total is not None else ids.MELEE_HITS
        return (f"{rolls}hit for {r.damage} (absorbed {r.absorbed}, durability {r.to_durability}, health "
                f"{r.to_health})", [how, ids.PASSIVE_DEFENSE] + ([ids.DEFENSE_TIE] if r.defended else []))
    return {"defended": (f"{rolls}defended", [ids.DEFENSE_TIE]),
            "missed": ("missed: the Aiming Trial failed", [ids.AIMING_TRIAL]),
            "not-allowed": ("not allowed: a hostile creature within 5 feet", [ids.HOSTILE_WITHIN_5FT]),
            "no-effect": ("the AP is spent with no effect (a Trauma's Endurance trial failed)", [ids.TRAUMA_TABLE]),
            }[r.outcome]


def _engagements(r: ExchangeResult, a: str, d: str) -> list[tuple[str, str]]:
    """Who is Engaged with whom after an exchange: the attacker with its target; a combatant that took
    durability or health damage with its attacker (``.../additional-combat-rules#3``)."""
    out = [(a, d)] if r.outcome != "not-allowed" else []
    if r.to_durability or r.to_health:
        out.append((d, a))
    return out + (_engagements(r.counter, d, a) if r.counter is not None else [])


def _engage(p: Play, pairs: list[tuple[str, str]]) -> None:
    """Record new engagements, one log line per change: a pair Engaged both ways is one line."""
    new: list[tuple[str, str]] = []
    for x, y in pairs:
        f = p.fighters[x]
        if y not in f.engaged_with and f.state is not State.DEAD:
            p.fighters[x] = replace(f, engaged_with=f.engaged_with + (y,))
            new.append((x, y))
    for x, y in new:
        if (y, x) in new and new.index((y, x)) < new.index((x, y)):
            continue
        if (y, x) in new:
            p.log(f"{x} and {y} are Engaged with each other until the start of each one's next turn", ids.ENGAGED)
        else:
            p.log(f"{x} is Engaged with {y} until the start of its next turn", ids.ENGAGED)


def _reactions(p: Play, a_name: str, d_name: str) -> tuple[bool, bool, bool, list]:
    """Whether the defender defends and counterattacks, and the attacker defends the counterattack."""
    defend, r1 = p.may_react(d_name, "defend")
    counter, r2 = p.may_react(d_name, "counterattack", paying=1 if defend else 0)
    counter_defend, r3 = p.may_react(a_name, "defend", paying=1)
    return defend, counter and p.fighters[d_name].body.attack is not None, counter_defend, r1 + r2 + r3


def exchange(p: Play, a_name: str, d_name: str, attack: Attack, situation: dict, label: str, cites: list,
             kind: str = "") -> list[Step]:
    """Resolve one attack of ``a_name`` on ``d_name`` as an exchange and write both back: the
    reactions they make (``mastery.fight-spare-ap``), a projectile attack with a hostile within 5 feet
    (``mastery.fight-reach``), the Traumas on their sheets where they bite; ``kind`` names the
    attacker's reaction it is (``reprisal``), if any."""
    A, D = p.fighters[a_name], p.fighters[d_name]
    defend, counter, counter_defend, uses = _reactions(p, a_name, d_name)
    hostile = any(o.can_act and p.enemies(o, A) and A.reaches(o.name) for o in p.fighters.values())
    sit = Situation(**situation, defend=defend, counterattack=counter, counter_defend=counter_defend,
                    hostile_within_5ft=hostile, fight_on=D.fight_on, setting=p.setting, sheet_effects=True,
                    precipitation=p.precipitation)
    r = resolve_exchange(A.body, D.body, sit, attack=attack, dice=p.dice, rulings=p.rulings, rules=p.rules,
                         mid_round=True)
    if kind:
        p.used_reaction(a_name, kind)
    if r.counter is not None:
        p.used_reaction(d_name, "counterattack")
    if D.body.ap - r.defender.ap - (1 if r.counter is not None else 0) > 0:
        p.used_reaction(d_name, "defend")
    if A.body.ap - r.attacker.ap - (0 if r.outcome == "not-allowed" else 1) > 0:
        p.used_reaction(a_name, "defend")
    text, why = _outcome(r)
    p.log(f"{label}: {text}", *cites, *why)
    if r.counter is not None:
        c_text, c_why = _outcome(r.counter)
        p.log(f"{d_name} counterattacks {a_name}: {c_text}", ids.COUNTERATTACK, *c_why)
    counter = r.counter.trace if r.counter is not None else None
    p.settle(replace(p.fighters[a_name], body=r.attacker), trials=aftermath_trials(counter) if counter else ())
    p.settle(replace(p.fighters[d_name], body=r.defender), trials=aftermath_trials(r.trace, skip=counter))
    _engage(p, _engagements(r, a_name, d_name))
    return [Step.of(StepKind.RESULT, label, r.outcome, cites=cites, rulings=uses, children=[r.trace])]


def attack(p: Play, name: str, a: FightAction) -> list[Step]:
    """A declared attack on its target (``.../attack#1``, 1 AP ``.../action-costs#3``): a melee attack
    needs the target within reach (``mastery.fight-reach``); a dead target is not attacked."""
    me, target = p.fighters[name], p.fighters[a.data["target"]]
    profile = Attack.from_dict(a.data["attack"]) if "attack" in a.data else me.body.attack
    if target.state is State.DEAD:
        p.log(f"{name}'s attack is not taken: {target.name} is dead", ids.GOING_DOWN_TIMER)
        return [Step.of(StepKind.RULE, f"{name}: no attack, {target.name} is dead", cites=[ids.GOING_DOWN_TIMER])]
    if profile.kind not in RANGED_KINDS and not me.reaches(target.name):
        use = R.ruling_use(R.FIGHT_REACH, p.rulings)
        p.log(f"{name}'s attack is not taken: {target.name} is not within reach", use.ruling_id)
        return [Step.of(StepKind.RULING, f"{name}: {target.name} is not within melee reach", rulings=[use])]
    return exchange(p, name, target.name, profile, dict(a.data.get("situation", {})),
                    f"{name} attacks {target.name}", [ids.ATTACK, ids.COST_ATTACK])


# -- moving ------------------------------------------------------------------------------------------

def _speed(p: Play, f: Fighter) -> tuple[int, Step, list]:
    """Speed in squares (``.../movement#1``), halved or reduced by Traumas (their rows; several per
    ``mastery.trauma-effects-stack``)."""
    s, step = speed(f.agility_tier)
    cites, uses = [], []
    halved, h_uses = stacked(effects_of(f.body.sheet, "movement-halved", p.rules), p.rulings)
    reduced, r_uses = stacked(effects_of(f.body.sheet, "movement-reduced", p.rules), p.rulings)
    for e in halved:
        use = R.ruling_use(R.HALVED_MOVEMENT, p.rulings)
        s = s // 2 if use.answer == "round-down" else -(-s // 2)
        cites, uses = cites + list(e.cites), uses + [use]
    for e in reduced:
        s, cites = max(s - e.amount, 0), cites + list(e.cites)
    uses += [u for u in h_uses + r_uses if u not in uses]
    if cites:
        step = Step.of(StepKind.RULE, "Speed after Traumas", s, cites=cites, rulings=uses, children=[step])
    return s, step, cites + [u.ruling_id for u in uses]


def _fall_prone(p: Play, name: str, why: str, cites, uses=()) -> Step:
    f = p.fighters[name]
    p.fighters[name] = replace(f, prone=True)
    p.log(f"{name} falls Prone: {why}", *cites, *(u.ruling_id for u in uses))
    return Step.of(StepKind.RESULT, f"{name} falls Prone", why, cites=cites, rulings=uses)


def _balance_trial(p: Play, name: str, tier: int, dc: int, slot: str, label: str, cites, leg: bool) -> tuple[bool, Step]:
    """A trial whose failure means falling Prone, with the Traumas' balance (and leg) penalties per
    ``mastery.balance-trials``."""
    f = p.fighters[name]
    use = R.ruling_use(R.BALANCE_TRIALS, p.rulings)
    mod, children = 0, []
    for kind in ("balance-penalty",) + (("leg-penalty",) if leg else ()):
        if use.answer == "fall-prone-trials":
            m, step = penalty(f.body.sheet, kind, f"Traumas: {kind.replace('-', ' ')}", rulings=p.rulings,
                              rules=p.rules, extra_rulings=[use])
            mod, children = mod + m, children + ([step] if step else [])
    trial = roll_trial(p.dice, tier, dc, slot, label=label, cites=cites, rulings=p.rulings, modifier=mod,
                       field=f"{name}.{slot}_tier", rules=p.rules)
    return trial.success, Step.of(StepKind.RESULT, label, "success" if trial.success else "failure",
                                  children=children + [trial.trace])


def _repeated_move(p: Play, name: str) -> list[Step]:
    """Moving more than once in a round with a broken leg (fall Prone), a lost foot or a Limp (a
    Physique trial or fall Prone): their rows, on the moves ``mastery.repeated-move-trial`` says."""
    f, n = p.fighters[name], p.moves[name]
    use = R.ruling_use(R.REPEATED_MOVE_TRIAL, p.rulings)
    effects = effects_of(f.body.sheet, "repeated-move-prone", p.rules) + \
        effects_of(f.body.sheet, "repeated-move-trial", p.rules)
    if n < 2 or f.prone or not effects or (n > 2 and use.answer == "once-per-round"):
        return []
    steps = []
    for e in effects:
        if p.fighters[name].prone:
            break
        if e.kind == "repeated-move-prone":
            steps.append(_fall_prone(p, name, f"moved more than once in a round ({e.trauma})", e.cites, [use]))
            continue
        ok, step = _balance_trial(p, name, f.physique_tier, e.amount, "physique",
                                  f"{name}: Physique trial for moving more than once ({e.trauma})", e.cites, leg=True)
        steps.append(step)
        if not ok:
            steps.append(_fall_prone(p, name, f"failed the Physique trial ({e.trauma})", e.cites, [use]))
    return [Step.of(StepKind.RULING, f"{name} moved {n} times this round", n, rulings=[use], children=steps)]


def _unstable(p: Play, name: str, a: FightAction) -> list[Step]:
    """Unstable terrain: an Agility trial, "as determined by the GM" (``dc``, else ``mastery.unstable-dc``),
    or fall Prone (``.../terrain#4``)."""
    dc, uses = a.data.get("dc"), []
    if dc is None:
        use = R.ruling_use(R.UNSTABLE_DC, p.rulings)
        dc, uses = named_dc(use.answer, p.rules)[0], [use]
    ok, step = _balance_trial(p, name, p.fighters[name].agility_tier, dc, "agility",
                              f"{name}: Agility trial in Unstable terrain (DC {dc})", [ids.UNSTABLE_TRIAL], leg=False)
    steps = [Step.of(StepKind.RULE, "Unstable terrain", dc, cites=[ids.UNSTABLE, ids.UNSTABLE_TRIAL], rulings=uses,
                     children=[step])]
    if not ok:
        steps.append(_fall_prone(p, name, "failed the Agility trial in Unstable terrain", [ids.UNSTABLE_TRIAL]))
    return steps


def _leave(p: Play, name: str, other: str) -> tuple[list[Step], bool]:
    """Leaving ``other``'s reach: its reprisal attack if it keeps AP for one and has a melee attack
    (``.../triggered-reactions-all-cost-1-ap#2``, ``.../movement#6``); ``(steps, the mover still leaves)``."""
    me, o = p.fighters[name], p.fighters[other]
    if not me.reaches(other):
        return [Step.of(StepKind.INFO, f"{name} is not within {other}'s reach")], True
    steps: list[Step] = []
    ok, uses = p.may_react(other, "reprisal")
    if ok and p.enemies(o, me) and o.body.attack is not None and o.body.attack.kind not in RANGED_KINDS:
        steps += exchange(p, other, name, o.body.attack, {}, f"{other}'s reprisal attack on {name} as it leaves",
                          [ids.REPRISAL], kind="reprisal")
        if not p.fighters[name].can_act:
            use = R.ruling_use(R.REPRISAL_STOPS_MOVE, p.rulings)
            if use.answer == "down-stays":
                p.log(f"{name} goes down within {other}'s reach and stays there", use.ruling_id)
                return steps + [Step.of(StepKind.RULING, f"{name} stays within {other}'s reach", rulings=[use])], False
    elif uses:
        steps.append(Step.of(StepKind.RULING, f"{other} makes no reprisal attack", rulings=uses, cites=[ids.REPRISAL]))
    return steps + [_set_reach(p, name, other, False)], True


def _set_reach(p: Play, a: str, b: str, near: bool) -> Step:
    """``a`` comes within or leaves ``b``'s reach, both ways (``mastery.fight-reach``)."""
    for x, y in ((a, b), (b, a)):
        f = p.fighters[x]
        now = (set(f.within_reach or ()) - {y}) | ({y} if near else set())
        p.fighters[x] = replace(f, within_reach=tuple(n for n in p.fighters if n in now))  # in the fight's order
    use = R.ruling_use(R.FIGHT_REACH, p.rulings)
    text = f"{a} {'comes within' if near else 'leaves'} {b}'s reach"
    p.log(text, ids.MOVE_REPOSITION, use.ruling_id)
    return Step.of(StepKind.RULING, text, cites=[ids.MOVE_REPOSITION], rulings=[use])


def _ground(p: Play, name: str, a: FightAction) -> list[Step]:
    """The terrain moved through (rugged, unstable, hazardous: ``.../terrain#1-6``) and where the move
    ends: in a hazard (``ends_in``: entering it hurts) or out of the one it stood in."""
    through, steps = a.data.get("through", "normal"), []
    if through == "rugged":
        steps.append(Step.of(StepKind.RULE, "Rugged terrain: moving through it costs double movement",
                             cites=[ids.RUGGED, ids.RUGGED_DOUBLE]))
    elif through == "unstable":
        steps += _unstable(p, name, a)
    elif through == "hazardous":
        steps += p.hazard_damage(name, a.data["damage_type"], "moving through hazardous terrain",
                                 [ids.HAZARDOUS, ids.HAZARD_DAMAGE])
    ends_in, f = a.data.get("ends_in"), p.fighters[name]
    if ends_in is not None and f.hazard != ends_in and f.state is not State.DEAD:
        steps += p.hazard_damage(name, ends_in, f"entering {ends_in} terrain", [ids.HAZARDOUS, ids.HAZARD_DAMAGE])
        p.fighters[name] = replace(p.fighters[name], hazard=ends_in)
        p.hazard_hit.add(name)
    elif ends_in is None and f.hazard is not None:
        p.fighters[name] = replace(f, hazard=None)
        p.log(f"{name} leaves the {f.hazard} terrain", ids.HAZARD_DAMAGE)
    return steps


def move(p: Play, name: str, a: FightAction) -> list[Step]:
    """A move (1 AP, ``.../movement#2``) or a movement reaction (``reposition``, 1 AP of its reserve,
    ``.../triggered-reactions-all-cost-1-ap#3``): leaving reach (reprisal attacks), the terrain, coming
    within reach, and what moving more than once does with a Trauma."""
    reaction = a.kind == "reposition"
    if reaction:
        p.used_reaction(name, "reposition")
        step = _spend(p, name, "Movement Reaction", f"{name} repositions (a reaction)", ids.MOVEMENT_REACTION,
                      ids.MOVE_REPOSITION)
    else:
        step = _spend(p, name, "Move", f"{name} moves", ids.MOVE_COST, ids.COST_MOVE)
    p.moves[name] += 1
    squares, s_step, s_cites = _speed(p, p.fighters[name])
    p.log(f"{name} {'repositions' if reaction else 'moves'} (up to {squares} squares)",
          ids.MOVEMENT_REACTION if reaction else ids.MOVE_COST, ids.SPEED, *s_cites)
    steps, leaves = [step, s_step], True
    for other in a.data.get("leave", []):
        more, leaves = _leave(p, name, other)
        steps += more
        if not leaves:
            return steps
    for other in a.data.get("approach", []):
        if not p.fighters[name].reaches(other):
            steps.append(_set_reach(p, name, other, True))
    steps += _ground(p, name, a)
    return steps + _repeated_move(p, name)


# -- the rest ---------------------------------------------------------------------------------------

def stand(p: Play, name: str, a: FightAction) -> list[Step]:
    """Stand from Prone (the Other Actions row, 1 AP)."""
    step = _spend(p, name, "Prone, Stand from", f"{name} stands from Prone")
    p.fighters[name] = replace(p.fighters[name], prone=False)
    p.log(f"{name} stands from Prone", a.cite)
    return [step]


def fall_prone(p: Play, name: str, a: FightAction) -> list[Step]:
    """Fall Prone on purpose (the Other Actions row, 1 AP)."""
    step = _spend(p, name, "Prone, Fall", f"{name} drops Prone")
    return [step, _fall_prone(p, name, "by choice", [a.cite])]


def cast(p: Play, name: str, a: FightAction) -> list[Step]:
    """Cast the declared spell when it resolves: its AP are spent then (``.../casting#1``, ``#3``), not
    if it was lost before (defending, health damage); a Trauma's Endurance trial may leave the AP spent
    with no effect. A reaction spell (Fast only) after it (``#4``). Its effect is Magic Mastery's."""
    f, spell = p.fighters[name], a.data["spell"]
    reaction = bool(a.data.get("reaction"))
    if not reaction and not f.body.casting:
        p.log(f"{name}'s spell {spell} was lost before it resolved: no AP spent", ids.CASTING_INTERRUPTED)
        return [Step.of(StepKind.RULE, f"{name}: {spell} lost before it resolved", cites=[ids.CASTING_INTERRUPTED])]
    ok, steps = act_trial(f.body, "cast a spell", dice=p.dice, precipitation=p.precipitation, rulings=p.rulings,
                          rules=p.rules)
    p.fighters[name] = replace(f, body=f.body.with_(ap=f.body.ap - a.ap, casting=False if not reaction else f.body.casting))
    cites = [ids.CASTING_COST, ids.COST_CASTING] + ([ids.CASTING_REACTION] if reaction else [])
    p.log(f"{name} casts {spell} ({a.ap} AP)" + ("" if ok else ": the AP is spent with no effect") +
          ("; its effect is Magic Mastery's" if ok else ""), *cites)
    return [Step.of(StepKind.RULE, f"{name} casts {spell}", f"{a.ap} AP", cites=cites, children=steps)]


def triage_action(p: Play, name: str, a: FightAction) -> list[Step]:
    """Triage of an adjacent dying creature (:func:`~.death.triage`, ``mastery/combat/death/triage#1``):
    within reach counts as adjacent (``mastery.fight-reach``); a Triage begun with too few AP goes on
    next round (``mastery.triage-across-rounds``; the medic carries ``triage_begun``)."""
    me, patient = p.fighters[name], p.fighters[a.data["target"]]
    before = me.triage_begun[1] if me.triage_begun and me.triage_begun[0] == patient.name else 0
    t = triage(patient.body, medic_ap=min(a.ap, me.body.ap), adjacent=me.reaches(patient.name),
               ap_spent_before=before, rulings=p.rulings, rules=p.rules)
    begun = (patient.name, before + t.ap_spent) if t.ap_to_go else None
    p.fighters[name] = replace(me, body=me.body.with_(ap=me.body.ap - t.ap_spent), triage_begun=begun)
    reach = R.ruling_use(R.FIGHT_REACH, p.rulings)
    p.log(f"{name}: {t.trace.label}", *t.trace.cited_ids(), *t.trace.ruling_ids(), reach.ruling_id)
    p.settle(replace(p.fighters[patient.name], body=t.patient))
    return [Step.of(StepKind.RESULT, f"{name} tends {patient.name}", t.stabilized, rulings=[reach], children=[t.trace])]


def row(p: Play, name: str, a: FightAction) -> list[Step]:
    """Any other action of the action tables, priced by its row."""
    step = _spend(p, name, a.data["action"], f"{name}: {a.data['action']}")
    p.log(f"{name}: {a.data['action']}", a.cite)
    return [step]


HANDLERS = {"attack": attack, "move": move, "reposition": move, "stand": stand, "prone": fall_prone, "cast": cast,
            "triage": triage_action, "row": row}
"""One function per action key: each takes the action and returns its steps."""
