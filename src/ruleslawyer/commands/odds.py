"""The ``odds mastery`` and ``odds mythras`` handlers of :mod:`ruleslawyer.commands.engines`.

``ruleslawyer odds mastery --input FILE.json [--json]`` takes the same input as ``exchange mastery``
and prints the exact odds; ``ruleslawyer odds mastery --trauma`` gives the Trauma table's odds.
``ruleslawyer odds mythras --input FILE.json`` takes the ``exchange mythras`` input. Top level
imports only the standard library.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from ruleslawyer.errors import RulesInputError

from . import engines

__all__ = ["register", "ODDS_SCHEMA"]

ODDS_SCHEMA = {
    "command": "ruleslawyer odds mastery|mythras --input FILE.json [--json] [--ruling ID=ANSWER] "
               "[--tolerance P]; ruleslawyer odds mastery --trauma",
    "input": "the same JSON as `ruleslawyer exchange <ruleset> --schema` (dice and seed are ignored)",
    "extra fields": {"tolerance": "most probability mass to cut off (default 1e-12; 0 to 0.001)"},
    "output": {
        "mastery": "outcomes (hit/defended/missed/not-allowed), p_hit, p_defense_holds, p_aim, attack_totals, "
                   "defense_totals, damage, to_durability, to_health, p_zero_health, truncated_mass, trace",
        "mythras": "levels (attacker|defender), attacker_effects, defender_effects, chosen_effects "
                   "(attacker|defender, 'none' when no Effect is taken), effect_chance, p_hit, "
                   "p_parried, location, damage, damage_by_location, truncated_mass, trace",
        "trauma": "rows (unit_id, range, text, tier, probability), tiers, p_close_call, fingers",
    },
}


def _load(path: str | None) -> dict:
    data = engines.read_json(path)
    if not isinstance(data, dict):
        raise RulesInputError("input", "must be a JSON object")
    return data


def _pct(p) -> str:
    return f"{float(p) * 100:.4g}%"


#: A distribution's values less likely than this are summed into one line of the text output (``--json``
#: keeps every value).
SHOWN_AT_LEAST = Fraction(1, 10_000)


def _dist_lines(title: str, dist, limit: int = 40) -> list[str]:
    """A distribution as text: each value with its chance, at most ``limit`` of them and none below
    :data:`SHOWN_AT_LEAST` (0.01 %); the rest on one line with their total chance."""
    items = dist.items()
    shown = [(k, p) for k, p in items if p >= SHOWN_AT_LEAST][:limit]
    lines = [f"{title}:"]
    for k, p in shown:
        key = " / ".join(map(str, k)) if isinstance(k, tuple) else str(k)
        lines.append(f"  {key:>24}  {_pct(p)}")
    rest = len(items) - len(shown)
    if rest:
        kept = {k for k, _p in shown}
        left = sum((p for k, p in items if k not in kept), Fraction(0))
        lines.append(f"  ... {rest} more value{'s' if rest != 1 else ''}, {_pct(left)} in all (--json lists every one)")
    return lines


def _print(result, lines: list[str], as_json: bool) -> int:
    if as_json:
        from ruleslawyer.commands.output import print_json

        print_json(result)
        return 0
    from ruleslawyer.render import to_text

    sys.stdout.write("\n".join(lines) + "\n\n" + to_text(result.trace).rstrip("\n") + "\n")
    return 0


def _tolerance(args, data: dict | None) -> float:
    import math

    from ruleslawyer.errors import RulesInputError

    t = getattr(args, "tolerance", None)
    if t is None:
        t = (data or {}).get("tolerance", 1e-12)
    if isinstance(t, float) and not math.isfinite(t):  # --tolerance inf, or NaN/Infinity in the JSON
        raise RulesInputError("tolerance", f"must be a number from 0 to 0.001, got {t!r}")
    return t


def _rulings(args, data: dict) -> dict[str, str]:
    """The input file's ``rulings`` (taken out of ``data``) with ``--ruling`` over them."""
    from ruleslawyer.trace import merge_overrides

    return merge_overrides(data.pop("rulings", None), args.rulings)


def _mastery(args) -> int:
    if args.schema:
        from ruleslawyer.commands.output import print_json

        print_json(ODDS_SCHEMA)
        return 0
    if getattr(args, "trauma", False):
        from ruleslawyer.odds.trauma import trauma_odds

        r = trauma_odds(rulings=args.rulings, tolerance=_tolerance(args, None), rules=args.rules)
        lines = ["Trauma table odds (1d100):"]
        lines += [f"  {row.range:>6}  {row.text[:48]:<48} {row.tier:<9} {_pct(row.probability)}" for row in r.rows]
        lines += _dist_lines("Tiers", r.tiers.map(lambda t: t or "none (Close Call or Minor Scar)"))
        return _print(r, lines, args.json)
    from ruleslawyer.odds.mastery import mastery_exchange_odds

    data = _load(args.input)
    data.pop("dice", None)
    data.pop("seed", None)
    r = mastery_exchange_odds(data, rulings=_rulings(args, data), tolerance=_tolerance(args, data), rules=args.rules)
    lines = [f"P(hit) {_pct(r.p_hit)}; P(defense holds) {_pct(r.p_defense_holds)}"
             + (f"; P(Aiming Trial) {_pct(r.p_aim)}" if r.p_aim != 1 else "")
             + ("" if r.p_zero_health is None else f"; P(reaching 0 health) {_pct(r.p_zero_health)}"),
             f"Probability mass cut off: {float(r.truncated_mass):.3g}"]
    lines += _dist_lines("Outcomes", r.outcomes)
    lines += _dist_lines("Damage to durability", r.to_durability)
    lines += _dist_lines("Damage to health", r.to_health)
    return _print(r, lines, args.json)


def _mythras(args) -> int:
    if args.schema:
        from ruleslawyer.commands.output import print_json

        print_json(ODDS_SCHEMA)
        return 0
    if getattr(args, "trauma", False):
        raise RulesInputError("trauma", "--trauma is Mastery-only (the Mastery Trauma table); "
                         "use `ruleslawyer odds mastery --trauma`, or `odds mythras --input FILE.json`")
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    data = _load(args.input)
    data.pop("dice", None)
    data.pop("seed", None)
    r = mythras_exchange_odds(data, rulings=_rulings(args, data), tolerance=_tolerance(args, data), rules=args.rules)
    lines = [f"P(hit) {_pct(r.p_hit)}; P(parried) {_pct(r.p_parried)}; "
             f"mean damage {float(r.damage.mean()):.3g}",
             f"Probability mass cut off: {float(r.truncated_mass):.3g}"]
    lines += _dist_lines("Levels (attacker / defender)", r.levels)
    lines += _dist_lines("Special Effects won by the attacker", r.attacker_effects)
    lines += _dist_lines("Special Effects won by the defender", r.defender_effects)
    lines += _dist_lines("Special Effects chosen (attacker / defender)", r.chosen_effects)
    lines += _dist_lines("Hit location", r.location)
    lines += _dist_lines("Damage dealt", r.damage)
    return _print(r, lines, args.json)


def register(sub: argparse._SubParsersAction) -> None:
    engines.HANDLERS[("odds", "mastery")] = _mastery
    engines.HANDLERS[("odds", "mythras")] = _mythras
    engines.add_option("odds", "--trauma", action="store_true",
                       help="Mastery only: the odds of each Trauma table row and tier (no input needed)")
    engines.add_option("odds", "--tolerance", type=float, default=None, metavar="P",
                       help="most probability mass to cut off (default 1e-12)")
