"""The Against the Darkmaster ruleset as the registry sees it (entry point ``ruleslawyer.rulesets: darkmaster``).

Imports nothing of the engine: the registry reads this declaration without loading the rules.
"""

from ruleslawyer.registry import Ruleset
from ruleslawyer.shipped import DATA_DIR

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="darkmaster",
    title="Against the Darkmaster",
    sources=DATA_DIR / "sources" / "darkmaster",
    synonyms=DATA_DIR / "synonyms" / "darkmaster.json",
    rulings="ruleslawyer.rulesets.darkmaster.rulings",
    commands="ruleslawyer.rulesets.darkmaster.cli",
    panels=(("Darkmaster round", "ruleslawyer.widgets.rounds:DarkmasterRoundPanel"),),
    concordance=DATA_DIR / "concordance" / "darkmaster.json",
    encounter="ruleslawyer.rulesets.darkmaster.fight:DarkmasterEncounter",
    order=30,
    examples=("What happens in the Assessment Phase?", "Can I combine actions?",
              "What is a Multi-Round Action?", "How do I parry?"),
)
