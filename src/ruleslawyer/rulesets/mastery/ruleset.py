"""The Mastery ruleset as the registry sees it (entry point ``ruleslawyer.rulesets: mastery``).

Imports nothing of the engine: the registry reads this declaration without loading the rules.
"""

from ruleslawyer.registry import Ruleset
from ruleslawyer.shipped import DATA_DIR

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="mastery",
    title="Mastery",
    sources=DATA_DIR / "sources" / "mastery",
    synonyms=DATA_DIR / "synonyms" / "mastery.json",
    rulings="ruleslawyer.rulesets.mastery.rulings",
    commands="ruleslawyer.rulesets.mastery.cli",
    panels=(("Trauma", "ruleslawyer.widgets.trauma:TraumaPanel"),
            ("Mastery exchange", "ruleslawyer.widgets.exchange_mastery:MasteryExchangePanel"),
            ("Mastery round", "ruleslawyer.widgets.rounds:MasteryRoundPanel")),
    concordance=DATA_DIR / "concordance" / "mastery.json",
    encounter="ruleslawyer.rulesets.mastery.fight:MasteryEncounter",
    order=10,
    examples=("What happens at 0 health?", "How much AP does a reprisal attack cost?",
              "What does a Trauma do?", "How does initiative work?"),
)
