"""The Toy Skirmish declaration: everything ruleslawyer needs to find the ruleset."""

from pathlib import Path

from ruleslawyer.registry import Ruleset

HERE = Path(__file__).resolve().parent

RULESET = Ruleset(
    id="toy",
    title="Toy Skirmish",
    sources=HERE / "sources",
    synonyms=HERE / "synonyms.json",
    rulings="toyrules.rulings",
    commands="toyrules.cli",
    panels=(("Toy shove", "toyrules.panels:ShovePanel"),),
    concordance=HERE / "concordance" / "toy.json",
    order=40,
)
