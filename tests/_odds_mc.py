"""Seeded Monte Carlo runs of the real engine entry points, to check the exact odds against.

Every test using these is marked ``slow`` (``make test-slow``; ``make test`` deselects them): the
default run checks the same agreement exactly, by enumerating every face sequence of the engine
over small configurations (tests/test_odds_exact_*.py). The sampled runs stay for the large
configurations that enumeration cannot reach (exploding d4 chains to the cap of 20, skill 70 vs 50).

Runs are split over two forked worker processes (each with its own seed), so a 200,000-sample
run of a whole exchange takes half the wall time. Summaries are whatever the ``summarise``
function (a module-level function, so it pickles) returns for one engine result.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import random
from collections import Counter
from fractions import Fraction

N = 200_000
WORKERS = 2


def _work(job):
    run, args, n, seed = job
    rng = random.Random(seed)
    c: Counter = Counter()
    for _ in range(n):
        c[run(rng, *args)] += 1
    return c


def monte_carlo(run, args=(), n: int = N, seed: int = 20261129) -> Counter:
    """Counter of ``run(rng, *args)`` over ``n`` samples (seeded, split over forked workers)."""
    per = [n // WORKERS + (1 if i < n % WORKERS else 0) for i in range(WORKERS)]
    jobs = [(run, args, k, seed * 1000 + i) for i, k in enumerate(per)]
    try:
        ctx = mp.get_context("fork")
    except ValueError:  # pragma: no cover - no fork on this platform
        return sum((_work(j) for j in jobs), Counter())
    with ctx.Pool(WORKERS) as pool:
        return sum(pool.map(_work, jobs), Counter())


def assert_agrees(exact: dict, counts: Counter, n: int, *, label: str = "", sigmas: float = 4.0,
                  key=lambda k: k) -> None:
    """Every outcome's sampled frequency is within ``sigmas`` standard errors of its exact
    probability, and nothing the exact odds call impossible was sampled.

    Args:
        exact: outcome -> exact probability (Fraction or float).
        counts: outcome -> samples (from :func:`monte_carlo`).
        key: maps a sampled outcome to the exact distribution's outcome.
    """
    sampled: Counter = Counter()
    for k, c in counts.items():
        sampled[key(k)] += c
    assert sum(sampled.values()) == n
    for k, c in sampled.items():
        p = float(exact.get(k, 0))
        assert p > 0, f"{label}: outcome {k!r} sampled {c} times but the exact odds give it 0"
    for k, p in exact.items():
        p = float(p)
        c = sampled.get(k, 0)
        se = math.sqrt(max(p * (1 - p), 1e-300) / n)
        # a floor of one sample's worth keeps 4 SE meaningful for outcomes rarer than 1/n
        assert abs(c / n - p) <= sigmas * se + 1.0 / n, (
            f"{label}: outcome {k!r}: exact {p:.6g}, sampled {c}/{n} = {c / n:.6g} "
            f"({(c / n - p) / se if se else float('inf'):+.1f} SE)")


def as_exact(dist) -> dict:
    """A Dist as {outcome: Fraction}."""
    return dict(dist.items())


_ = Fraction


# ---- runners: one sample of a real engine entry point -> a hashable summary ------------------------


def run_tier_die(rng, tier, edges, rulings):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mastery.tiers import roll_tier_die

    return roll_tier_die(Dice(rng=rng), tier, "t", label="t", explode=True, edges=list(edges),
                         rulings=rulings).total


def run_aiming(rng, tier, dc, rulings):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mastery.tiers import roll_trial

    r = roll_trial(Dice(rng=rng), tier, dc, "aim", label="Aiming Trial", cites=[], natural_rules=True,
                   rulings=rulings)
    return (r.success, r.always)


def run_startle(rng, agility, perception, dc, rulings):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mastery.round import startle

    return startle(Dice(rng=rng), agility_tier=agility, perception_tier=perception, dc=dc, rulings=rulings).condition


def run_trauma(rng, rulings):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mastery.trauma import roll_trauma

    t = roll_trauma(dice=Dice(rng=rng), rulings=rulings)
    return (t.unit_id, t.tier, t.finger_lost or "")


def run_mastery_exchange(rng, data):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mastery.exchange import resolve_exchange

    a, d, sit = _cached_parse(data)
    r = resolve_exchange(a, d, sit, dice=Dice(rng=rng), rulings=data.get("rulings") or {})
    reached = d.health > 0 and r.defender.health == 0
    return (r.outcome, r.damage, r.to_durability, r.to_health, reached, r.attack_total, r.defense_total)


_PARSED: dict = {}


def _cached_parse(data):
    import json

    key = json.dumps(data, sort_keys=True)
    if key not in _PARSED:
        from ruleslawyer.odds.mastery import _parse

        _PARSED[key] = _parse(data)
    return _PARSED[key]


def run_mythras_exchange(rng, data):
    from ruleslawyer.dice import Dice
    from ruleslawyer.rulesets.mythras.exchange import ExchangeInput, resolve_exchange

    key = repr(sorted(data.items(), key=str))
    inp = _PARSED.get(key)
    if inp is None:
        inp = _PARSED[key] = ExchangeInput.from_dict({k: v for k, v in data.items() if k != "rulings"})
    r = resolve_exchange(inp, dice=Dice(rng=rng), rulings=data.get("rulings") or {})
    won_a = r.effects_won if r.winner == "attacker" else 0
    won_d = r.effects_won if r.winner == "defender" else 0
    return (r.attack_level.value, r.defence_level.value, won_a, won_d, r.location if r.hit else "—", r.damage)
