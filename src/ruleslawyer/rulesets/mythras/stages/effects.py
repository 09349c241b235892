"""The differential and the Special Effects (``the-attack-parry-exchange#3-4``, ``special-effects``).

The superior side wins one Special Effect per level between the two rolls; a surprised target's
first successful attacker wins one more (``surprise#1``). Effects are chosen before damage and hit
location; those that change numbers are applied by the damage stages, the rest are recorded for the
Games Master (ruling ``mythras.effect-text``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Citation, Step, StepKind

from .. import _tables, damage as dmg, ids, rulings as _r
from ..inputs import Defence, RangeBand
from ..levels import Differential, LevelOfSuccess, differential
from ..special_effects import (CHOOSE_LOCATION, IMPALE, NUMERIC_EFFECTS, WITHDRAW, EffectContext, Side,
                               choose_effects, effects_count, eligible_effects)
from .context import ExchangeContext
from .surprise import surprise_bonus_stage

__all__ = ["Won", "differential_stage", "Chosen", "effects_stage", "recorded_effects_stage"]


@dataclass(frozen=True)
class Won:
    """Step 3: the differential and how many Special Effects each side won."""

    diff: Differential
    attacker: int
    defender: int
    step: Step
    surprise_bonus: bool = False

    @property
    def winner(self) -> str | None:
        """The side that won Special Effects, or None."""
        return self.diff.winner if (self.attacker or self.defender) else None


def differential_stage(ctx: ExchangeContext, a_level: LevelOfSuccess, d_level: LevelOfSuccess,
                       kind: Defence) -> Won:
    """Compare the levels (``#3``); add the surprise bonus Effect of the first successful attack (``surprise#1``)."""
    diff = differential(a_level, d_level, defence_note="(no defence)" if kind is Defence.NONE else "",
                        rules=ctx.rules)
    won = diff.effects
    children = [diff.trace]
    bonus, surprise = surprise_bonus_stage(ctx, a_level)
    won_a = (won if diff.winner == "attacker" else 0) + bonus
    if surprise is not None:
        children.append(surprise)
    won_d = won if diff.winner == "defender" else 0
    step = Step.of(StepKind.COMPARE, "3. Differential", value={"attacker": won_a, "defender": won_d},
                   detail=f"attacker {effects_count(won_a)}, defender {effects_count(won_d)}",
                   cites=[ids.EX_DIFFERENTIAL], children=children)
    return Won(diff, won_a, won_d, step, bool(bonus))


@dataclass(frozen=True)
class Chosen:
    """Step 4: the Effects each side could take (a side that won some) and the ones it took."""

    eligible: dict[str, tuple[str, ...]]
    attacker: tuple[str, ...]
    defender: tuple[str, ...]
    step: Step | None


def effects_stage(ctx: ExchangeContext, a_level: LevelOfSuccess, d_level: LevelOfSuccess, won: Won) -> Chosen:
    """Each winning side takes its preferred eligible Effects, before damage and location (``#4``).

    Raises:
        RulesInputError: an unknown Effect (``attacker.effects[i]``), or Choose Location taken with no
            location named (``attacker.chosen_location``).
    """
    a, d = ctx.a, ctx.d
    close_still = a.range is RangeBand.CLOSE and a.target_still_or_unaware
    ectx = EffectContext(a_level, d_level, a.weapon.traits,
                         d.weapon.traits if d.weapon is not None else frozenset(), ctx.ranged, close_still)
    eligible: dict[str, tuple[str, ...]] = {}
    chosen: dict[Side, tuple[str, ...]] = {Side.ATTACKER: (), Side.DEFENDER: ()}
    steps = []
    for side, count, prefs in ((Side.ATTACKER, won.attacker, a.effects), (Side.DEFENDER, won.defender, d.effects)):
        if count <= 0:
            continue
        checked = eligible_effects(side, ectx, ctx.overrides, rules=ctx.rules)
        ok = [e for e in checked if e.eligible]
        eligible[side.value] = tuple(e.name for e in ok)
        steps.append(Step.of(StepKind.INFO, f"{side.value.title()} may choose {count} of", value=[e.name for e in ok],
                             detail=", ".join(e.name for e in ok), cites=[ids.EFFECTS, *(e.unit_id for e in ok)],
                             rulings=[u for u in dict.fromkeys(e.ruling for e in checked) if u]))
        picked, cstep = choose_effects(prefs, count, checked, f"{side.value}.effects", rules=ctx.rules)
        chosen[side] = tuple(picked)
        steps.append(cstep)
    a_fx, d_fx = chosen[Side.ATTACKER], chosen[Side.DEFENDER]
    step = None
    if steps:
        step = Step.of(StepKind.RULE, "4. Special Effects (chosen before damage and location)",
                       value={side: list(fx) for side, fx in (("attacker", a_fx), ("defender", d_fx)) if fx},
                       cites=[ids.EX_CHOOSE_EFFECTS],
                       children=steps)
    if CHOOSE_LOCATION in a_fx and a.chosen_location is None:
        raise RulesInputError("attacker.chosen_location", "Choose Location was taken: name the location; "
                                                          f"allowed: {', '.join(dmg.location_names(ctx.rules))}")
    return Chosen(eligible, a_fx, d_fx, step)


def recorded_effects_stage(ctx: ExchangeContext, a_fx: tuple[str, ...], d_fx: tuple[str, ...]) -> Step | None:
    """The chosen Effects the engine does not apply to numbers, recorded for the Games Master."""
    rec = []
    effects = _tables.effects(ctx.rules)
    for who, fx in (("attacker", a_fx), ("defender", d_fx)):
        for name in dict.fromkeys(fx):
            if name in NUMERIC_EFFECTS and name != IMPALE:
                continue
            note = ("the weapon may stick in the wound" if name == IMPALE else
                    "its text is in the Combat reference; the Games Master applies it")
            cites = [ids.EFFECTS_TEXT_ELSEWHERE, Citation(effects[name].row.unit_id, name)]
            if name == WITHDRAW:  # the chapter: the way out of being Engaged
                note = f"{ctx.d.name} may break off and is no longer Engaged; " + note
                cites.insert(0, ids.ENGAGED)
            rec.append(Step.of(StepKind.RULING, f"{name} ({who}): recorded", detail=note, cites=cites,
                               rulings=[ctx.ruling(_r.EFFECT_TEXT)]))
    return Step.of(StepKind.INFO, "Special Effects to apply at the table", children=rec) if rec else None
