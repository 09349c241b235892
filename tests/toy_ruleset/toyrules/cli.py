"""Toy Skirmish command: ``ruleslawyer toy-shove STRENGTH``."""

import argparse


def _shove(args) -> int:
    moved = args.strength * 2
    print(f"shoved {moved} feet [toy/combat/shoving#1]")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("toy-shove", help="Toy Skirmish: how far a shove moves the target")
    p.add_argument("strength", type=int)
    p.set_defaults(func=_shove)
