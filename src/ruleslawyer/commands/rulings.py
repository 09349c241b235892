"""``ruleslawyer rulings [--ruleset R] [--json]``: every registered ruling of every ruleset."""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError

import argparse

__all__ = ["register"]


def _rulings(args) -> int:
    from ruleslawyer.registry import all_rulings

    found = all_rulings(args.ruleset)
    if args.ruleset is not None and not found:
        known = sorted({r.ruleset for r in all_rulings()})
        raise RulesInputError("ruleset", f"no rulings for {args.ruleset!r}; rulesets with rulings: {', '.join(known)}")
    if args.json:
        from ruleslawyer.commands.output import print_json

        print_json([r.to_dict() for r in found])
        return 0
    for r in found:
        alts = f" (or: {', '.join(r.alternatives)})" if r.alternatives else ""
        print(f"{r.id}: {r.question}\n    default: {r.default}{alts}\n    provenance: {r.provenance}")
        if r.cites:
            print(f"    about: {', '.join(r.cites)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulings", help="list the named rulings the engines use where the rules are silent")
    p.add_argument("--ruleset", help="only this ruleset's rulings (an installed ruleset id, or kit)")
    p.add_argument("--json", action="store_true", help="print the rulings as JSON")
    p.set_defaults(func=_rulings)
