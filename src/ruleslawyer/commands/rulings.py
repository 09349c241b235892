"""``ruleslawyer rulings [--ruleset R] [--json]``: every registered ruling of every ruleset."""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError

import argparse
import importlib

__all__ = ["register", "ENGINE_PACKAGES", "load_engines"]

#: Engine packages whose import registers their rulings (missing ones are skipped).
ENGINE_PACKAGES: tuple[str, ...] = (
    "ruleslawyer.rulesets.mastery",
    "ruleslawyer.rulesets.mythras",
    "ruleslawyer.rulesets.darkmaster",
)


def load_engines() -> list[str]:
    """Import every engine package present; return the ones imported."""
    loaded = []
    for name in ENGINE_PACKAGES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is not None and name.startswith(e.name):
                continue  # that engine is not installed
            raise
        loaded.append(name)
    return loaded


def _rulings(args) -> int:
    load_engines()
    from ruleslawyer.trace import all_rulings

    found = all_rulings(args.ruleset)
    if args.ruleset is not None and not found:
        known = sorted({r.ruleset for r in all_rulings()})
        raise RulesInputError("ruleset", f"no rulings for {args.ruleset!r}; rulesets with rulings: {', '.join(known)}")
    if args.json:
        from ruleslawyer.cli import print_json

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
    p.add_argument("--ruleset", help="only this ruleset's rulings (mastery, mythras, darkmaster, kit)")
    p.add_argument("--json", action="store_true", help="print the rulings as JSON")
    p.set_defaults(func=_rulings)
