"""Toy Skirmish rulings."""

from ruleslawyer.trace import PROVENANCE_SOURCE_SILENT, Ruling

SHOVE_TIE = Ruling(
    id="toy.shove-tie",
    ruleset="toy",
    question="Does a tied shove contest move the target?",
    default="no",
    alternatives=("yes",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The toy chapter does not say what a tie does.",
    cites=("toy/combat/shoving#1",),
)

RULINGS = (SHOVE_TIE,)
