"""Tier dice, exploding rolls, edges (Dominance / Impotence / Inferiority) and trials against a DC.

Tier dice come from the supplement's tier-dice table (tier 1 d2, 2 d3, 3 d4, read off the chapter's
Endurance example, ``mastery/combat/additional-combat-rules/health-types#3``); tiers above 3 follow
the ruling ``mastery.tier-die-above-3``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ruleslawyer.dice import Dice, explosion_cap
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from . import _tables, ids
from . import rulings as R

__all__ = ["MAX_TIER", "Edge", "TierRoll", "TrialResult", "tier_die", "roll_tier_die", "roll_trial",
           "check_tier", "load_table", "reset_table_cache", "named_dc"]

MAX_TIER = 10
"""Highest tier the engine accepts (input validation; tiers above 3 need the tier-die ruling)."""

def load_table(table_id: str, rules: Rules | None = None):
    """The db table ``table_id`` of ``rules`` (default database), loaded once per handle."""
    return resolve_rules(rules).table(table_id)


def reset_table_cache(rules: Rules | None = None) -> None:
    """Forget the cached tables of ``rules`` (default database), e.g. after rebuilding it."""
    resolve_rules(rules).reset()


def check_tier(tier: object, field: str, *, allow_zero: bool = False) -> int:
    """Validate a tier (whole number 1..MAX_TIER, or 0 when ``allow_zero``)."""
    low = 0 if allow_zero else 1
    if isinstance(tier, bool) or not isinstance(tier, int) or not low <= tier <= MAX_TIER:
        raise RulesInputError(field, f"tier must be a whole number from {low} to {MAX_TIER}, got {tier!r}")
    return tier


class Edge(StrEnum):
    """A roll's edge from the chapter: Dominance (elevation), Impotence (elevation), Inferiority
    (unarmed defense vs a weapon attack)."""

    DOMINANCE = "dominance"
    IMPOTENCE = "impotence"
    INFERIORITY = "inferiority"


_EDGE_RULING = {Edge.DOMINANCE: R.DOMINANCE, Edge.IMPOTENCE: R.IMPOTENCE, Edge.INFERIORITY: R.INFERIORITY}


def tier_die(tier: int, rulings: Mapping[str, str] | None = None, field: str = "tier", *,
             rules: Rules | None = None) -> tuple[int, Step]:
    """The die a tier rolls.

    Args:
        tier: 1..MAX_TIER.
        rulings: overrides (``mastery.tier-die-above-3``).
        field: input name for errors.
        rules: the rules database (default database).

    Returns:
        ``(sides, step)``: tier 1 -> 2, 2 -> 3, 3 -> 4, the step citing that tier's row of the
        supplement table ``mastery/supplement/tables/tier-dice`` (each row links to the chapter's
        health-types#3, the table's provenance); above 3 per ruling (default d(tier+1)), citing the
        table.

    Raises:
        RulesInputError: tier out of range, or above 3 under the 'refuse' answer.
        RulesDataError: a tier-dice row the engine cannot read.
    """
    check_tier(tier, field)
    dice = _tables.tier_dice(resolve_rules(rules))
    if tier in dice:
        sides = dice[tier].sides
        return sides, Step.of(StepKind.RULE, f"Tier {tier} die", f"d{sides}",
                              cites=[Citation(dice[tier].row.unit_id, f"tier {tier} row")])
    use = R.ruling_use(R.TIER_DIE_ABOVE_3, rulings)
    if use.answer == "refuse":
        raise RulesInputError(field, f"tier {tier} has no die in the chapter (tiers 1-3 only) under "
                                     f"ruling {R.TIER_DIE_ABOVE_3}='refuse'")
    top = max(dice)
    sides = dice[top].sides + (tier - top)
    return sides, Step.of(StepKind.RULING, f"Tier {tier} die", f"d{sides}",
                          detail=f"the chapter's dice stop at tier {top} (d{dice[top].sides}); the progression continues",
                          cites=[Citation(ids.TIER_DICE_TABLE, f"tiers 1–{top} only")], rulings=[use])


@dataclass(frozen=True)
class TierRoll:
    """One tier-die roll (after any edge): kept faces, total, whether it exploded or hit the cap."""

    tier: int
    sides: int
    faces: tuple[int, ...]
    total: int
    exploded: bool
    capped: bool
    natural: int
    step: Step


def _one(dice: Dice, sides: int, slot: str, explode: bool, rulings) -> tuple[tuple[int, ...], bool, bool, list]:
    """One die's faces: exploding per die up to the kit's cap (``kit.explosion-cap``), or one face."""
    if explode:
        cap, use = explosion_cap(rulings)
        r = dice.exploding(sides, slot, cap=cap)
        return r.faces, r.exploded, r.capped, [use] if r.capped else []
    return (dice.roll(sides, slot),), False, False, []


def _net_edge(edges: Sequence[Edge], edge_cites, rulings) -> tuple[Edge | None, list[Step]]:
    """The one edge left after combining (``mastery.edge-combining``), and the step saying so."""
    edges = list(dict.fromkeys(Edge(e) for e in edges))
    good = Edge.DOMINANCE in edges
    bad = [e for e in (Edge.INFERIORITY, Edge.IMPOTENCE) if e in edges]
    net = None if (good and bad) else (Edge.DOMINANCE if good else (bad[0] if bad else None))
    if not ((good and bad) or len(bad) > 1):
        return net, []
    combine = R.ruling_use(R.EDGE_COMBINING, rulings)
    return net, [Step.of(StepKind.RULING, "Edges combine", net.value if net else "cancelled",
                         detail=", ".join(e.value for e in edges), cites=list(edge_cites), rulings=[combine])]


def _apply_edge(net: Edge, roll: tuple, dice: Dice, sides: int, slot: str, explode: bool, edge_cites,
                rulings) -> tuple[tuple, int, Step]:
    """Apply one edge per its ruling: roll twice and keep one, +2/-2, or nothing. ``roll`` is
    ``(faces, exploded, capped)``; returns the kept roll, the flat bonus and the step."""
    use = R.ruling_use(_EDGE_RULING[net], rulings)
    name = net.value.capitalize()
    if use.answer.startswith("roll-twice"):
        faces2, exploded2, capped2, cap_uses2 = _one(dice, sides, slot, explode, rulings)
        higher = use.answer.endswith("higher")
        faces = roll[0]
        first = sum(faces) >= sum(faces2) if higher else sum(faces) <= sum(faces2)
        step = Step.of(StepKind.RULING, f"{name}: roll twice, keep the {'higher' if higher else 'lower'}",
                       sum(faces if first else faces2),
                       detail=f"{'+'.join(map(str, faces))} = {sum(faces)} and {'+'.join(map(str, faces2))} = "
                              f"{sum(faces2)}", cites=list(edge_cites), rulings=[use] + cap_uses2)
        return (roll if first else (faces2, exploded2, capped2)), 0, step
    if use.answer in ("plus-2", "minus-2"):
        bonus = 2 if use.answer == "plus-2" else -2
        return roll, bonus, Step.of(StepKind.RULING, name, f"{bonus:+d}", cites=list(edge_cites), rulings=[use])
    return roll, 0, Step.of(StepKind.RULING, f"{name}: no effect on the dice", cites=list(edge_cites),
                            rulings=[use])


def roll_tier_die(dice: Dice, tier: int, slot: str, *, label: str, explode: bool,
                  explode_cites: Sequence[str | Citation] = (), explode_rulings: Sequence = (),
                  edges: Sequence[Edge] = (), edge_cites: Sequence[str | Citation] = (),
                  rulings: Mapping[str, str] | None = None, field: str = "tier",
                  rules: Rules | None = None) -> TierRoll:
    """Roll a tier die (exploding per die when ``explode``), applying at most one net edge.

    Edges combine per ``mastery.edge-combining`` (Dominance cancels one drawback; drawbacks do not
    stack) and act per ``mastery.dominance`` / ``mastery.impotence`` / ``mastery.inferiority``:
    roll twice keep higher/lower (both rolls from ``slot``), +2/-2, or nothing. An exploding die
    stops at the kit's cap (``kit.explosion-cap``), reported in the step.

    Returns:
        A :class:`TierRoll`; its step is a ROLL step with sub-steps for the die, explosions and edge.
    """
    sides, die_step = tier_die(tier, rulings, field, rules=rules)
    faces, exploded, capped, cap_uses = _one(dice, sides, slot, explode, rulings)
    children = [die_step, Step.of(StepKind.RULE, "Dice explode on a max roll" if explode else "Die does not explode",
                                  detail=" + ".join(map(str, faces)) + (" (explosion cap reached)" if capped else ""),
                                  cites=list(explode_cites), rulings=list(explode_rulings) + cap_uses)]
    bonus = 0
    net, combine_steps = _net_edge(edges, edge_cites, rulings) if edges else (None, [])
    children += combine_steps
    if net is not None:
        (faces, exploded, capped), bonus, edge_step = _apply_edge(net, (faces, exploded, capped), dice, sides, slot,
                                                                  explode, edge_cites, rulings)
        children.append(edge_step)
    total = sum(faces) + bonus
    step = Step.of(StepKind.ROLL, label, total,
                   detail=f"d{sides}: {' + '.join(map(str, faces))}" + (f" {bonus:+d}" if bonus else ""),
                   children=children)
    return TierRoll(tier, sides, tuple(faces), total, exploded, capped, faces[0], step)


@dataclass(frozen=True)
class TrialResult(TracedResult):
    """A trial: tier die vs DC.

    Attributes:
        tier, dc: as given; total: the die total plus modifiers; natural: first face rolled;
        sides: die size; success; always: "hit"/"miss" when a natural max/1 decided it, else "";
        trace: the trial step.
    """

    tier: int
    dc: int
    total: int
    natural: int
    sides: int
    success: bool
    always: str
    trace: Step


def roll_trial(dice: Dice, tier: int, dc: int, slot: str, *, label: str, cites: Sequence[str | Citation],
               rulings: Mapping[str, str] | None = None, modifier: int = 0,
               natural_rules: bool = False, natural_cites: Sequence[str | Citation] = (),
               edges: Sequence[Edge] = (), edge_cites: Sequence[str | Citation] = (),
               field: str = "tier", rules: Rules | None = None) -> TrialResult:
    """Roll a trial: the tier die (+ ``modifier``) against ``dc``.

    Trial dice explode per ``mastery.trial-dice-explode``; a total equal to the DC succeeds per
    ``mastery.trial-tie``. With ``natural_rules`` (the Aiming Trial) a 1 always fails and a max face
    always succeeds (``natural_cites``).
    """
    explode_use = R.ruling_use(R.TRIAL_DICE_EXPLODE, rulings)
    roll = roll_tier_die(dice, tier, slot, label=f"{label}: tier {tier} die", explode=explode_use.answer == "yes",
                         explode_rulings=[explode_use], edges=edges, edge_cites=edge_cites,
                         rulings=rulings, field=field, rules=rules)
    total = roll.total + modifier
    children = [roll.step]
    if modifier:
        children.append(Step.of(StepKind.MODIFIER, "Modifiers", f"{modifier:+d}"))
    always = ""
    if natural_rules and roll.natural == 1:
        success, always = False, "miss"
        children.append(Step.of(StepKind.RULE, "A roll of 1 always misses", roll.natural, cites=list(natural_cites)))
    elif natural_rules and roll.natural == roll.sides:
        success, always = True, "hit"
        children.append(Step.of(StepKind.RULE, "A max roll on the tier die always hits", roll.natural,
                                cites=list(natural_cites)))
    else:
        if total == dc:
            tie = R.ruling_use(R.TRIAL_TIE, rulings)
            success = tie.answer == "success"
            children.append(Step.of(StepKind.RULING, "Roll equals the DC", "success" if success else "failure",
                                    rulings=[tie]))
        else:
            success = total > dc
    if not always:
        children.append(Step.of(StepKind.COMPARE, f"{total} vs DC {dc}", "success" if success else "failure",
                                cites=list(cites)))
    step = Step.of(StepKind.RESULT, label, "success" if success else "failure",
                   detail=f"rolled {total} against DC {dc}" + (f" (natural {roll.natural}: always a {always})"
                                                                if always else ""),
                   cites=list(cites), children=children)
    return TrialResult(tier, dc, total, roll.natural, roll.sides, success, always, step)


def named_dc(name: str, rules: Rules | None = None) -> tuple[int, str]:
    """A named difficulty's DC and its supplement row id (Easy 2, Straightforward 4, Tricky 6).

    Raises:
        RulesInputError: unknown name (lists the known ones).
    """
    dcs = _tables.named_dcs(resolve_rules(rules))
    found = dcs.get(str(name).lower())
    if found is None:
        raise RulesInputError("dc", f"unknown difficulty {name!r}; allowed: {', '.join(d.name for d in dcs.values())}")
    return found.dc, found.row.unit_id
