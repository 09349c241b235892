"""Exact odds vs a 100,000-sample Monte Carlo of the real engine, timed in the same run."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from harness import Row, median_time

ROOT = Path(__file__).resolve().parent.parent
MC_SAMPLES = 100_000


def _mc_seconds(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run() -> list[Row]:
    from ruleslawyer.dice import Dice
    from ruleslawyer.odds.mastery import _parse, mastery_exchange_odds
    from ruleslawyer.odds.mythras import mythras_exchange_odds
    from ruleslawyer.rulesets.mastery.exchange import resolve_exchange as mastery_exchange
    from ruleslawyer.rulesets.mythras.exchange import ExchangeInput
    from ruleslawyer.rulesets.mythras.exchange import resolve_exchange as mythras_exchange

    m_data = json.loads((ROOT / "examples/mastery/exchange-melee.json").read_text(encoding="utf-8"))
    for k in ("dice", "seed", "description"):
        m_data.pop(k, None)
    m_data["situation"]["counterattack"] = False  # the odds cover the exchange itself
    y_data = json.loads((ROOT / "examples/mythras/broadsword-vs-dagger.json").read_text(encoding="utf-8"))
    for k in ("dice", "seed", "description"):
        y_data.pop(k, None)

    cold_m = _mc_seconds(lambda: mastery_exchange_odds(m_data))
    exact_m = median_time(lambda: mastery_exchange_odds(m_data))
    a, d, sit = _parse(m_data)
    rng = random.Random(1)
    mc_m = _mc_seconds(lambda: [mastery_exchange(a, d, sit, dice=Dice(rng=rng)) for _ in range(MC_SAMPLES)])

    cold_y = _mc_seconds(lambda: mythras_exchange_odds(y_data))
    exact_y = median_time(lambda: mythras_exchange_odds(y_data))
    inp = ExchangeInput.from_dict({k: v for k, v in y_data.items() if k != "rulings"})
    rng = random.Random(2)
    mc_y = _mc_seconds(lambda: [mythras_exchange(inp, dice=Dice(rng=rng), rulings=y_data.get("rulings") or {})
                                for _ in range(MC_SAMPLES)])
    return [
        Row("exact odds, one Mastery matchup (examples/mastery/exchange-melee.json)", exact_m * 1e3, "ms",
            f"{MC_SAMPLES:,}-sample Monte Carlo of resolve_exchange", mc_m * 1e3, goal="<= 20 ms",
            note=f"exact to 1e-12 (mass cut off reported); first call in a fresh process {cold_m * 1e3:.0f} ms "
                 "(loads the db tables); the Monte Carlo is one run, one process"),
        Row("exact odds, one full Mythras exchange (examples/mythras/broadsword-vs-dagger.json)", exact_y * 1e3,
            "ms", f"{MC_SAMPLES:,}-sample Monte Carlo of resolve_exchange", mc_y * 1e3, goal="<= 100 ms",
            note=f"levels, Special Effects per side, damage per hit location, exact; first call in a fresh "
                 f"process {cold_y * 1e3:.0f} ms; the Monte Carlo is one run, one process"),
    ]
