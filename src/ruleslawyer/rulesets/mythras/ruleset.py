"""The Mythras ruleset as the registry sees it (entry point ``ruleslawyer.rulesets: mythras``).

Imports nothing of the engine: the registry reads this declaration without loading the rules.
"""

from ruleslawyer.registry import Ruleset
from ruleslawyer.shipped import DATA_DIR

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="mythras",
    title="Mythras",
    sources=DATA_DIR / "sources" / "mythras",
    synonyms=DATA_DIR / "synonyms" / "mythras.json",
    rulings="ruleslawyer.rulesets.mythras.rulings",
    commands="ruleslawyer.rulesets.mythras.cli",
    panels=(("Mythras exchange", "ruleslawyer.widgets.exchange_mythras:MythrasExchangePanel"),),
    concordance=DATA_DIR / "concordance" / "mythras.json",
    encounter="ruleslawyer.rulesets.mythras.fight:MythrasEncounter",
    order=20,
    examples=("How does a parry work?", "What Special Effects can I choose?", "How do I charge?",
              "What happens when I am surprised?"),
)
