"""Citation ids of the Mythras combat chapter used by the engine (every one exists in the db).

Supplement table rows are never listed here: the engine cites the row it actually read from the table
loaded from the database (``TableRow.unit_id``), so a renumbered supplement cannot go stale. The two
"Where the chapter is silent" notes the wound steps cite are listed (a test checks their text).

The "Practical habits" items are play tips: an engine step never cites one as its rule (the rulings
that fill the gap a tip hints at cite it instead).
"""

from __future__ import annotations

_C = "mythras/combat"
_X = f"{_C}/the-attack-parry-exchange"

INITIATIVE = f"{_C}/setup#1"
ACTION_POINTS = f"{_C}/setup#2"
PROACTIVE_REACTIVE = f"{_C}/setup#3"
COMBAT_STYLE = f"{_C}/combat-styles#1"

EX_ATTACK = f"{_X}#1"
EX_PARRY = f"{_X}#2"
EX_DIFFERENTIAL = f"{_X}#3"
EX_CHOOSE_EFFECTS = f"{_X}#4"
EX_DAMAGE = f"{_X}#5"
EX_PARRY_REDUCES = f"{_X}#6"
EX_PARRY_FULL = f"{_X}#7"
EX_PARRY_HALF = f"{_X}#8"
EX_PARRY_NONE = f"{_X}#9"
EX_ARMOUR = f"{_X}#10"
EX_NO_PARRY = f"{_X}#11"
SIZE_STEPS = f"{_X}#12"

MENU_PROACTIVE = f"{_C}/action-menu-essentials#1"
MENU_REACTIVE = f"{_C}/action-menu-essentials#2"
MENU_FREE = f"{_C}/action-menu-essentials#3"
ENGAGED = f"{_C}/action-menu-essentials#4"

CHARGE = f"{_C}/charge-evade-outmanoeuvre#1"
EVADE = f"{_C}/charge-evade-outmanoeuvre#2"
OUTMANOEUVRE = f"{_C}/charge-evade-outmanoeuvre#3"

EFFECTS = f"{_C}/special-effects#1"
EFFECTS_TEXT_ELSEWHERE = f"{_C}/special-effects#2"

RANGED = f"{_C}/ranged-combat#1"
RANGED_CLOSE = f"{_C}/ranged-combat#2"
RANGED_LONG = f"{_C}/ranged-combat#3"
RANGED_AIM = f"{_C}/ranged-combat#4"
RANGED_INTO_MELEE = f"{_C}/ranged-combat#6"
FIREARMS = f"{_C}/firearms-change-the-economy#1"

SURPRISE = f"{_C}/surprise#1"
MOVEMENT = f"{_C}/movement-snapshot#1"
AP_HABIT = f"{_C}/practical-habits#1"
WARD_HABIT = f"{_C}/practical-habits#2"
SERIOUS_WOUND_HABIT = f"{_C}/practical-habits#3"

_SILENT = "mythras/supplement/where-the-chapter-is-silent"
WOUND_LEVELS_NOTE = f"{_SILENT}#9"
"""Supplement: "Wound levels (0 Hit Points and below)" (ruling ``mythras.wound-levels``)."""
WOUNDS_NOTE = f"{_SILENT}#10"
"""Supplement: "What a Serious or Major Wound does" (rulings ``mythras.serious-wound``, ``mythras.major-wound``)."""

ALL: tuple[str, ...] = tuple(v for k, v in dict(globals()).items() if k.isupper() and k != "ALL"
                             and isinstance(v, str))
"""Every id above (a test checks each exists in the database)."""
