"""Against the Darkmaster engine command: ``ruleslawyer sequence darkmaster``.

Registers its handler into :data:`ruleslawyer.commands.engines.HANDLERS`.
"""

from __future__ import annotations

import argparse

from ruleslawyer.commands import engines

__all__ = ["register"]


def _sequence(args: argparse.Namespace) -> int:
    from ruleslawyer.commands.output import print_json

    if args.schema:
        from ruleslawyer.rulesets.darkmaster.schema import SEQUENCE_SCHEMA

        print_json(SEQUENCE_SCHEMA)
        return 0
    from ruleslawyer.rulesets.darkmaster.trs import SequenceInput, sequence_round
    from ruleslawyer.trace import merge_overrides

    data = engines.read_object(args.input)
    inp = SequenceInput.from_dict(data)  # strict: unknown fields (did you mean ...?), types, bounds
    rulings = merge_overrides(data.get("rulings"), getattr(args, "rulings", None))
    result = sequence_round(inp, rulings=rulings, rules=args.rules)
    if args.json:
        print_json(result)
    else:
        from ruleslawyer.render import to_text

        print(to_text(result.trace))
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # noqa: ARG001 - the subcommand lives in engines
    """Register the Against the Darkmaster handler with the shared engine subcommands."""
    engines.HANDLERS[("sequence", "darkmaster")] = _sequence
