"""Exchanges resolved per second with full trace (Mastery, Mythras), against two references in the same run:

* a peer dice roller (the ``d20`` package) rolling the dice the exchange rolls, written as dice
  expressions — the cost of "just the dice" in a popular Python roller;
* the same engine, same inputs, same seeds, with trace construction stubbed out (:func:`untraced`),
  so the ratio is what building the explanation tree costs.

Inputs are the worked examples in ``examples/mastery/exchange-*.json`` and the exchange examples in
``examples/mythras/`` with their scripted dice removed, resolved from their JSON form through the real
entry points (``mastery.exchange_from_dict``; ``mythras.ExchangeInput.from_dict`` + ``resolve_exchange``)
with a fresh seed per exchange, round-robin over the examples.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness import QUICK, Row, interleaved

ROOT = Path(__file__).resolve().parent.parent
N = 30 if QUICK else 600  # exchanges per timed run

#: Mastery example -> the dice it rolls, as d20 expressions. A tier-T die is a d(T+1) that explodes on
#: its top face (``1d4e4``); weapon and armour resistance / shield are flat additions.
MASTERY_PEER = {
    # attack STR tier 3 d4 + WEA 2; defense tier 2 d3 + armour resistance 2; Endurance trial d3
    "exchange-melee.json": ["1d4e4+2", "1d3e3+2", "1d3e3"],
    # aim: Perception tier 2 d3; attack tier 2 d3 + 1d6 weapon; defense tier 1 d2 + resistance 1 + shield 2
    "exchange-ranged.json": ["1d3e3", "1d3e3+1d6", "1d2e2+3"],
    # attack tier 2 d3 + WEA 1; Trauma d100 (+ finger d6); Endurance trial d3
    "exchange-fighting-on.json": ["1d3e3+1", "1d100", "1d6", "1d3e3"],
}
#: Mythras: the attack and defence d100 pair, weapon damage (+ Damage Modifier die), hit location d20.
MYTHRAS_PEER = {
    "broadsword-vs-dagger.json": ["1d100", "1d100", "1d8+1d4", "1d20"],
    "charge-long-spear.json": ["1d100", "1d100", "1d8+1+1d6", "1d20"],
    "evade-daredevil.json": ["1d100", "1d100", "2d6+2d6", "1d20"],
    "longbow-into-melee.json": ["1d100", "1d8+1d2", "1d20"],
    "surprise-ward.json": ["1d100", "1d8+1+1d2", "1d20"],
}


def _examples(ruleset: str, names) -> list[tuple[dict, list[str]]]:
    out = []
    for name, exprs in names.items():
        data = json.loads((ROOT / "examples" / ruleset / name).read_text(encoding="utf-8"))
        for key in ("dice", "seed", "description"):
            data.pop(key, None)
        out.append((data, exprs))
    return out


@contextmanager
def untraced() -> Iterator[list[int]]:
    """Run engines with :class:`ruleslawyer.trace.Step` construction replaced by a no-op.

    For the duration, ``Step.of(...)`` returns one prebuilt step without looking at its arguments (no
    normalising, no Citation objects, no tuples), and ``Step.__init__`` is wrapped to count any step
    still built directly. Engine code is not changed; the argument expressions an engine evaluates
    before calling ``Step.of`` (labels, f-strings) still run, so the "untraced" figure is a lower
    bound on what tracing costs. Yields a one-item list: the number of steps built directly.
    """
    from ruleslawyer.trace import Step, StepKind

    stub = Step(StepKind.INFO, "untraced")
    orig_of, orig_init = Step.__dict__["of"], Step.__init__
    built = [0]

    def counting_init(self, *args, **kwargs):
        built[0] += 1
        orig_init(self, *args, **kwargs)

    Step.of = classmethod(lambda cls, *args, **kwargs: stub)
    Step.__init__ = counting_init
    try:
        yield built
    finally:
        Step.of = orig_of
        Step.__init__ = orig_init


def _outcome(result) -> object:
    """A result's fields without any trace, JSON-shaped (to check the stub changes no outcome)."""
    from ruleslawyer.trace import to_jsonable

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "trace"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(to_jsonable({f.name: getattr(result, f.name) for f in dataclasses.fields(result)
                              if f.name != "trace"}))


def _mastery(data: dict, seed: int):
    from ruleslawyer.rulesets.mastery import exchange_from_dict

    return exchange_from_dict(data, seed=seed)


def _mythras(data: dict, seed: int):
    from ruleslawyer.rulesets.mythras import ExchangeInput, resolve_exchange

    inp = ExchangeInput.from_dict({k: v for k, v in data.items() if k != "rulings"})
    return resolve_exchange(inp, seed=seed, rulings=data.get("rulings") or {})


def _throughput(label: str, engine, cases: list[tuple[dict, list[str]]]) -> list[Row]:
    import d20

    def traced():
        for i in range(N):
            engine(cases[i % len(cases)][0], i)

    def peer():
        for i in range(N):
            for expr in cases[i % len(cases)][1]:
                d20.roll(expr).total

    # The stub must change no outcome: same seeds, same results apart from the trace.
    check = range(min(N, 60))
    with_trace = [_outcome(engine(cases[i % len(cases)][0], i)) for i in check]
    steps = sum(sum(1 for _ in engine(cases[i % len(cases)][0], i).trace.walk()) for i in check) / len(check)
    with untraced() as built:
        without = [_outcome(engine(cases[i % len(cases)][0], i)) for i in check]
        direct = built[0]
    if with_trace != without:
        raise AssertionError(f"{label}: stubbing the trace changed an outcome")

    def stubbed():
        with untraced():
            traced()

    t = interleaved({"traced": traced, "untraced": stubbed, "peer": peer})
    traced_s, untraced_s, peer_s = (t[k] / N for k in ("traced", "untraced", "peer"))
    us = 1e6
    name = f"{label} exchange, full trace ({1 / traced_s:,.0f} exchanges/s)"
    return [
        Row(name, traced_s * us, "µs", f"d20 package rolling the same dice ({1 / peer_s:,.0f}/s)", peer_s * us,
            note=f"~{steps:.0f} trace steps per exchange; d20 expressions: "
                 f"{', '.join(sorted({e for _, es in cases for e in es}))}; CPU time, in turns"),
        Row(name, traced_s * us, "µs", f"same engine, trace stubbed out ({1 / untraced_s:,.0f}/s)", untraced_s * us,
            note=f"outcomes identical with and without the stub for {len(check)} seeds; "
                 f"{direct} steps built outside Step.of while stubbed"),
    ]


def run() -> list[Row]:
    return [
        *_throughput("Mastery", _mastery, _examples("mastery", MASTERY_PEER)),
        *_throughput("Mythras", _mythras, _examples("mythras", MYTHRAS_PEER)),
    ]


if __name__ == "__main__":
    for r in run():
        print(r)
