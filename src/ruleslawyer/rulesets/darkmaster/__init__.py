"""Against the Darkmaster: the Tactical Round Sequence, declared-action checks, weapons by name and open-ended d100.

Every placement cites the chapter (``darkmaster/combat/...``), a supplement table row
(``darkmaster/supplement/...``) or a registered ruling (``darkmaster.*``).
"""

from __future__ import annotations

from ruleslawyer.lazy import lazy_exports

# Names load on first use (PEP 562), so the registry, the CLI and the rules database can import
# this package's declaration (``.ruleset``) and command module without loading the engine.
_EXPORTS = {
    'rulings': 'rulings',
    'Action': 'actions',
    'ActionKind': 'actions',
    'ActionType': 'actions',
    'Assessment': 'actions',
    'Combatant': 'actions',
    'DeclarationError': 'actions',
    'Refusal': 'actions',
    'Side': 'actions',
    'check_declarations': 'actions',
    'combatant_field': 'actions',
    'DarkmasterEncounter': 'fight',
    'FIGHT_INPUT': 'fight',
    'Condition': 'fight_state',
    'Declaration': 'fight_state',
    'FightAction': 'fight_state',
    'Fighter': 'fight_state',
    'Ongoing': 'fight_state',
    'Outcome': 'fight_state',
    'OpenEndedRoll': 'open_ended',
    'roll_open_ended': 'open_ended',
    'Phase': 'trs',
    'PhaseResult': 'trs',
    'Placement': 'trs',
    'SequenceInput': 'trs',
    'SequenceResult': 'trs',
    'effective_length': 'trs',
    'sequence_round': 'trs',
    'WeaponLength': 'weapons',
    'find_length': 'weapons',
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "Action", "ActionKind", "ActionType", "Assessment", "Combatant", "Condition", "DarkmasterEncounter", "Declaration",
    "DeclarationError", "FIGHT_INPUT", "FightAction", "Fighter", "OpenEndedRoll", "Ongoing", "Outcome", "Phase",
    "PhaseResult", "Placement", "Refusal", "SequenceInput", "SequenceResult", "Side", "WeaponLength",
    "check_declarations", "combatant_field", "effective_length", "find_length", "roll_open_ended", "rulings",
    "sequence_round",
]
