"""The Mythras attack–parry exchange, every step cited (``mythras/combat/the-attack-parry-exchange``).

:func:`resolve_exchange` takes an :class:`ExchangeInput` (attacker, defender, their weapons and
choices) and returns an :class:`ExchangeResult` whose ``trace`` walks the chapter's seven steps:
the attack roll, the defence (Parry, Evade, or none — which counts as a Failure), the differential,
the Special Effects chosen *before* damage and location, weapon damage + Damage Modifier and the hit
location, the parry's Size reduction, and armour. Charge, ranged attacks (Force, range bands, aiming,
firing into a melee), Evade, Ward Location and surprise are part of the same call.

The exchange is a pipeline of named stages (:mod:`.stages`), each a short function returning the
values it settles and its trace steps, in this order:

- ``open_exchange``: the input, checked once against the tables;
- ``attack_grade``: situational grade, Combat Style, Charge, crowd or melee, aiming;
- ``defence_stage``: can the defender Parry or Evade (surprise, AP, bullets, missiles);
- ``ambushed_attacker_stage``: an ambushed attacker makes no attack that Round;
- ``over_100_stage``: skills above 100% in an opposed roll;
- ``attack_roll_stage``: step 1, the attack's level of success;
- ``defence_roll_stage``: step 2, the defence's level (none counts as a Failure);
- ``differential_stage``: step 3, Special Effects won (and the surprise bonus);
- ``effects_stage``: step 4, Special Effects chosen before damage and location;
- ``evade_stage``: an Evade, damage avoided, prone;
- ``stray_shot_stage``: a shot into a melee that hits a bystander;
- ``damage_stage``: steps 5–7, location, damage roll, parry Size, Ward Location, armour;
- ``spray_stage``: the further hits of a burst or full-auto spray, without Special Effects;
- ``recorded_effects_stage``: the Special Effects left for the Games Master.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.inputs import dice_script
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step, StepKind, TracedResult

from . import ids
from .inputs import Attacker, Defence, Defender, ExchangeInput, FireMode, RangeBand, RangedKind, Ward, Weapon
from .levels import LevelOfSuccess, SkillRoll
from .schema import EXCHANGE_SLOTS
from .special_effects import effects_count
from .stages.context import ExchangeContext, open_exchange
from .stages.damage import Harm, damage_stage
from .stages.effects import Chosen, Won, differential_stage, effects_stage, recorded_effects_stage
from .stages.evade import evade_stage
from .stages.firearms import Hit, spray_stage
from .stages.grades import attack_grade, defence_stage
from .stages.ranged import stray_shot_stage
from .stages.surprise import ambushed_attacker_stage
from .stages.rolls import attack_roll_stage, defence_roll_stage, over_100_stage

__all__ = [
    "RangedKind", "RangeBand", "FireMode", "Defence", "Weapon", "Ward", "Attacker", "Defender", "ExchangeInput",
    "ExchangeResult", "Hit", "resolve_exchange", "SLOTS",
]

SLOTS = EXCHANGE_SLOTS
"""Scripted-dice slots the exchange rolls from."""


@dataclass(frozen=True)
class ExchangeResult(TracedResult):
    """The outcome of one exchange.

    Attributes:
        attack: the attack's skill roll.
        defence: the defence's skill roll, or None when the defender did not (or could not) defend.
        defence_kind: parry, evade or none (as resolved).
        attack_level, defence_level: the levels compared (a defender who did not defend: Failure).
        winner: "attacker", "defender" or None.
        effects_won: how many Special Effects the winner may choose (with a surprise bonus).
        eligible: side -> Effects that side could take.
        attacker_effects, defender_effects: the Effects chosen.
        hit: the attack connected (Success or Critical, not evaded).
        location: the hit location, or None.
        damage_rolled: weapon damage + Damage Modifier (after Long range halving), or None.
        damage_after_parry: what got past the parry / ward, or None.
        armour: the Armor Points subtracted, or None.
        damage: damage to the location (0 when nothing got through).
        prone: the evader ends prone (None when nobody evaded).
        stray_target: who a stray shot into a melee hit (None otherwise; "" when nobody was named).
        surprise_bonus: this attack took the bonus Special Effect of the first successful attack against
            an ambushed defender (carry it on as ``defender.surprise_bonus_spent``).
        extra_hits: the further rounds of a burst or full-auto spray that hit, after the first (whose
            numbers are the fields above): each with its location and damage, none with Special Effects.
        seed: the dice seed (None when scripted only).
        trace: the explanation.
    """

    attack: SkillRoll
    defence: SkillRoll | None
    defence_kind: Defence
    attack_level: LevelOfSuccess | None
    defence_level: LevelOfSuccess | None
    winner: str | None
    effects_won: int
    eligible: dict[str, tuple[str, ...]]
    attacker_effects: tuple[str, ...]
    defender_effects: tuple[str, ...]
    hit: bool
    location: str | None
    damage_rolled: int | None
    damage_after_parry: int | None
    armour: int | None
    damage: int
    prone: bool | None
    stray_target: str | None
    seed: int | None
    trace: Step
    surprise_bonus: bool = False
    extra_hits: tuple[Hit, ...] = ()

    @property
    def total_damage(self) -> int:
        """Damage dealt by every hit: the first and any further rounds of a burst or spray."""
        return self.damage + sum(h.dealt for h in self.extra_hits)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe fields; the two skill rolls leave out their own trace (it is inside ``trace``)."""
        data = super().to_dict()
        for key in ("attack", "defence"):
            if isinstance(data.get(key), dict):
                data[key].pop("trace", None)
        return data


def resolve_exchange(inp: ExchangeInput, *, dice: Dice | None = None, rng=None, seed: int | None = None,
                     script: Mapping[str, Sequence[int]] | None = None, rulings: Mapping[str, str] | None = None,
                     rules: Rules | None = None) -> ExchangeResult:
    """Resolve one Mythras exchange (``mythras/combat/the-attack-parry-exchange``).

    Args:
        inp: attacker and defender.
        dice: the dice to use; else built from ``rng`` / ``seed`` / ``script`` (slots: attack, parry,
            evade, damage, damage_modifier, location, stray).
        rulings: ruling overrides, e.g. ``{"mythras.halving": "round-down"}``.
        rules: the rules database whose tables are used (default: the default database).

    Returns:
        An :class:`ExchangeResult` with the full trace.

    Raises:
        RulesInputError: bad input, naming the field (skill −5 -> ``attacker.skill``; an unknown Size
            -> ``attacker.weapon.size``; Choose Location without a location -> ``attacker.chosen_location``).
        DiceScriptError: a scripted slot ran out or holds an impossible face.
    """
    rules = resolve_rules(rules)
    overrides = dict(rulings or {})
    check_rulings(overrides, "mythras")
    ctx = open_exchange(inp, dice or Dice(rng=rng, seed=seed, script=dice_script(script, SLOTS)), overrides, rules)
    grade, grade_step = attack_grade(ctx)
    defence = defence_stage(ctx)
    ambushed = ambushed_attacker_stage(ctx)
    if ambushed is not None:
        attack = SkillRoll(ctx.a.skill, grade, None, None, None, ambushed)
        return _no_attack(ctx, attack, defence.kind, ambushed, "no offensive actions in the Round of an ambush")
    skills = over_100_stage(ctx, grade, defence)
    attack, attack_step = attack_roll_stage(ctx, grade, grade_step, skills)
    if attack.level is None:
        return _no_attack(ctx, attack, defence.kind, attack_step, "Hopeless: no roll, no exchange")
    roll, d_level, defence_step = defence_roll_stage(ctx, attack, defence, skills)
    won = differential_stage(ctx, attack.level, d_level, defence.kind)
    chosen = effects_stage(ctx, attack.level, d_level, won)
    evade = evade_stage(ctx, defence.kind, attack.level, d_level, chosen.defender)
    stray, stray_step = stray_shot_stage(ctx, attack)
    harm, extra, spray_step = None, (), None
    if attack.level.succeeded and not evade.evaded:
        harm = damage_stage(ctx, defence.kind, d_level, defence.size, chosen.attacker, chosen.defender)
        extra, spray_step = spray_stage(ctx, defence.kind, d_level, defence.size, chosen.defender)
    steps = [attack_step, defence_step, won.step, chosen.step, evade.step, stray_step, _damage_step(harm, attack),
             spray_step, recorded_effects_stage(ctx, chosen.attacker, chosen.defender)]
    trace = _trace(ctx, attack.level, d_level, won, harm, [s for s in steps if s is not None])
    return ExchangeResult(attack, roll, defence.kind, attack.level, d_level, won.winner,
                          won.attacker or won.defender, chosen.eligible, chosen.attacker, chosen.defender,
                          harm is not None, harm and harm.location, harm and harm.rolled,
                          harm and harm.protection.after_parry, harm and harm.protection.armour,
                          harm.protection.dealt if harm else 0, evade.prone, stray, ctx.dice.seed, trace,
                          won.surprise_bonus, extra)


def _no_attack(ctx: ExchangeContext, attack: SkillRoll, kind: Defence, step: Step, why: str) -> ExchangeResult:
    """The result of an attack that is not made (Hopeless, or an ambushed attacker)."""
    trace = Step.of(StepKind.RESULT, "Exchange: the attack cannot be attempted", value="no damage", detail=why,
                    children=[step])
    return ExchangeResult(attack, None, kind, None, None, None, 0, {}, (), (), False, None, None, None, None, 0, None,
                          None, ctx.dice.seed, trace)


def _damage_step(harm: Harm | None, attack: SkillRoll) -> Step | None:
    """Steps 5–7 of a hit; "no damage" for an attack that failed; nothing for an evaded one."""
    if harm is not None:
        return harm.step
    if not attack.level.succeeded:
        return Step.of(StepKind.RULE, "5. No damage: the attack did not succeed", cites=[ids.EX_DAMAGE])
    return None


def _trace(ctx: ExchangeContext, a_level: LevelOfSuccess, d_level: LevelOfSuccess, won: Won,
           harm: Harm | None, steps: list[Step]) -> Step:
    a, d = ctx.a, ctx.d
    result = f"{harm.protection.dealt} damage to the {harm.location}" if harm else "no damage"
    summary = (f"{a.name} {a_level.value} vs {d.name} {d_level.value}"
               + (f"; {won.diff.winner} wins {effects_count(won.attacker or won.defender)}"
                  if (won.attacker or won.defender) else "; no Special Effects")
               + (f"; {result}" if harm else ""))
    return Step.of(StepKind.RESULT, "Mythras exchange", value=result, detail=summary, children=steps)
