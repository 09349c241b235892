"""Against the Darkmaster: the Tactical Round Sequence, declared-action checks and open-ended d100.

Every placement cites the chapter (``darkmaster/combat/...``), a supplement table row
(``darkmaster/supplement/...``) or a registered ruling (``darkmaster.*``).
"""

from __future__ import annotations

from . import rulings
from .actions import (Action, ActionKind, ActionType, Assessment, Combatant, DeclarationError, Refusal, Side,
                      check_declarations)
from .open_ended import OpenEndedRoll, roll_open_ended
from .trs import Phase, PhaseResult, Placement, SequenceInput, SequenceResult, effective_length, sequence_round

__all__ = [
    "Action", "ActionKind", "ActionType", "Assessment", "Combatant", "DeclarationError", "OpenEndedRoll", "Phase",
    "PhaseResult", "Placement", "Refusal", "SequenceInput", "SequenceResult", "Side", "check_declarations",
    "effective_length", "roll_open_ended", "rulings", "sequence_round",
]
