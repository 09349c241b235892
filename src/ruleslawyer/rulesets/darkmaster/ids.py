"""Citation ids of the Against the Darkmaster combat chapter used by the engine.

Supplement table rows are cited from the rows loaded from the database, never listed here; the one
supplement paragraph the engine cites (``PARRY``) is.
"""

from __future__ import annotations

_C = "darkmaster/combat"
_T = f"{_C}/tactical-round-sequence"
_A = f"{_C}/action-types"

ROUND = f"{_C}/the-tactical-round#2"
TRS = f"{_T}#1"
ASSESSMENT = f"{_T}/assessment-phase#1"
ASSESSMENT_ROLL = f"{_T}/assessment-phase#2"
ASSESSMENT_FAILED = f"{_T}/assessment-phase#3"
DECLARATION = f"{_T}/action-declaration-phase#1"
MOVE = f"{_T}/move-phase#1"
SPELL_A = f"{_T}/spell-phase-a#1"
RANGED_A = f"{_T}/ranged-phase-a#1"
MELEE = f"{_T}/melee-phase#1"
MELEE_ORDER = f"{_T}/melee-phase#2"
POSITIONAL = f"{_T}/melee-phase#3"
DASHING = f"{_T}/melee-phase#4"
RANGED_B = f"{_T}/ranged-phase-b#1"
SPELL_B = f"{_T}/spell-phase-b#1"
OTHER = f"{_T}/other-actions-phase#1"

ACTION_TYPES = f"{_A}#1"
FULL = f"{_A}#2"
HALF = f"{_A}#3"
FREE = f"{_A}#4"
COMBINING = f"{_A}/combining-actions#1"
READIED = f"{_A}/readied-actions#1"
MULTI_ROUND = f"{_A}/multi-round-actions#1"

PARRY = "darkmaster/supplement/parry#1"
"""Supplement: a Parry is CMB held back, so at most the CMB (restates ``ASSESSMENT_FAILED`` and ``DASHING``)."""

ALL: tuple[str, ...] = tuple(v for k, v in dict(globals()).items() if k.isupper() and k != "ALL"
                             and isinstance(v, str))
"""Every id above (a test checks each exists in the database)."""
