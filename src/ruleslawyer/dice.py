"""Dice for the rules engines: seeded or scripted, never the global ``random``.

An engine call receives one :class:`Dice` and takes every die face from it.
Each roll names a *slot* (``"attack"``, ``"damage"``, ``"location"``): a worked
example scripts a slot's faces ("the attacker rolled 4, 4, 1") with
``Dice(script={"attack": [4, 4, 1]})`` and every other slot rolls from a
:class:`random.Random`.  Without an ``rng`` or ``seed`` a fresh seed is drawn
from the operating system and kept in :attr:`Dice.seed`, so any result can be
reported ("seed 12345") and reproduced.

Exploding dice explode per die on their maximum with an explicit cap
(:data:`DEFAULT_EXPLOSION_CAP`, a kit default registered as the ruling
``kit.explosion-cap``); reaching the cap is reported, never a hang.

:func:`parse_dice` reads the small dice expressions used by tables and weapons
(``d100``, ``1d20``, ``2d6``, ``1d8+1d6``, ``1d10+2``, ``-1d4``, ``+0``).

This module is pure: no database, pandas or widget imports.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import DiceScriptError, RulesInputError
from .inputs import seed as check_seed
from .limits import DICE_COUNT, DICE_MODIFIER, DIE_SIDES, clip
from .trace import PROVENANCE_KIT_DEFAULT, Ruling, RulingUse, register, resolve_ruling

__all__ = [
    "DEFAULT_EXPLOSION_CAP",
    "ZERO_FACE_DICE",
    "read_face",
    "EXPLOSION_CAP_RULING",
    "MAX_DICE_COUNT",
    "MAX_DICE_MODIFIER",
    "MAX_DIE_SIDES",
    "Dice",
    "DieRoll",
    "ExplodingRoll",
    "DiceTerm",
    "DiceExpr",
    "parse_dice",
    "d100_label",
    "explosion_cap",
]

DEFAULT_EXPLOSION_CAP = 20
"""Kit default: at most 20 extra dice per exploding die.

No ruleset in the kit sets a limit; a cap keeps a run of maximum faces (certain
on a d1, likely enough on a d2) from looping forever.  Twenty extra dice is far
beyond anything a real table sees on a d4 or larger (a d4 reaches it with odds
of 1 in 4**20).  See the ruling ``kit.explosion-cap``.
"""

EXPLOSION_CAP_RULING = register(
    Ruling(
        id="kit.explosion-cap",
        ruleset="kit",
        question="How many extra dice may one exploding die add before rolling stops?",
        default=str(DEFAULT_EXPLOSION_CAP),
        alternatives=("5", "10", "50", "100"),
        provenance=PROVENANCE_KIT_DEFAULT,
        explanation=(
            "The rulesets set no limit on exploding dice. The kit stops after this many extra "
            "dice so a run of maximum faces cannot loop forever, and reports when it stopped."
        ),
    )
)
"""The registered ruling behind :data:`DEFAULT_EXPLOSION_CAP`."""

MAX_DICE_COUNT = DICE_COUNT
"""Most dice :func:`parse_dice` accepts in one expression, all terms together (``1000d6``)."""

MAX_DIE_SIDES = DIE_SIDES
"""Largest die size :func:`parse_dice` and :meth:`Dice.roll` accept."""

MAX_DICE_MODIFIER = DICE_MODIFIER
"""Largest size of the whole-number modifier :func:`parse_dice` accepts (``1d4+10000``); a
``1d4+99999999999999999999`` once dealt 10^20 damage."""


def explosion_cap(overrides: Mapping[str, str] | None = None) -> tuple[int, RulingUse]:
    """Resolve the ``kit.explosion-cap`` ruling to a number.

    Args:
        overrides: Caller's ruling overrides (ruling id -> answer), or ``None``.

    Returns:
        ``(cap, ruling_use)``; cap is a count of extra dice.

    Raises:
        RulingError: If the override is not an allowed answer.
    """
    use = resolve_ruling(EXPLOSION_CAP_RULING.id, overrides)
    return int(use.answer), use


def d100_label(face: int) -> str:
    """Format a d100 face the way it is read at the table: ``7 -> "07"``, ``100 -> "00"``.

    Args:
        face: 1..100.

    Raises:
        RulesInputError: If ``face`` is outside 1..100 (field ``"dice"``).
    """
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 100:
        raise RulesInputError("dice", f"a d100 face must be an integer from 1 to 100, got {face!r}")
    return "00" if face == 100 else f"{face:02d}"


#: Dice read with a zero face: a d10 shows "0" for 10, percentile dice show "00" for 100.
ZERO_FACE_DICE = (10, 100)


def read_face(value: object, sides: int, field: str = "roll") -> int:
    """A die face as a player reads it off the die: ``"00"`` (or ``"0"``) on a d100 is 100, ``"0"``
    on a d10 is 10; otherwise a whole number from 1 to ``sides`` (text like ``"07"`` or an int).

    Args:
        value: the face typed or given (int or text).
        sides: faces of the die (d100: 100).
        field: input field named by the error.

    Raises:
        RulesInputError: not a face of that die (the message gives the range and the zero reading).
    """
    zero = sides in ZERO_FACE_DICE
    allowed = f"a d{sides} face: a whole number from 1 to {sides}" + (
        f' ("{"0" * len(str(sides - 1))}" reads as {sides})' if zero else "")
    if isinstance(value, bool):
        raise RulesInputError(field, f"must be {allowed}, got {value!r}")
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str):
        if not text.isdigit() or len(text) > 6:
            raise RulesInputError(field, f"must be {allowed}, got {value!r}")
        face = int(text)
    elif isinstance(text, int):
        face = text
    else:
        raise RulesInputError(field, f"must be {allowed}, got {value!r}")
    if face == 0 and zero:
        return sides
    if not 1 <= face <= sides:
        raise RulesInputError(field, f"must be {allowed}, got {value!r}")
    return face


def _check_sides(sides: object) -> int:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= MAX_DIE_SIDES:
        raise RulesInputError(
            "dice", f"a die must have a whole number of sides from 1 to {MAX_DIE_SIDES}, got {sides!r}"
        )
    return sides


@dataclass(frozen=True)
class DieRoll:
    """One face taken from a :class:`Dice`, as kept in :attr:`Dice.history`.

    Attributes:
        slot: The slot name the engine rolled under.
        sides: The die size.
        face: The face, 1..sides.
        scripted: True if the face came from the script, False if from the rng.
    """

    slot: str
    sides: int
    face: int
    scripted: bool


@dataclass(frozen=True)
class ExplodingRoll:
    """An exploding die: rolled again and added on each maximum face, up to a cap.

    Attributes:
        sides: The die size.
        faces: Every face rolled, first die first (length 1..cap+1).
        total: Sum of ``faces``.
        exploded: True if at least one extra die was rolled.
        capped: True if the last face was a maximum but the cap stopped another
            die (with ``cap=0`` this can be true while ``exploded`` is false).
        cap: The cap in force, in extra dice.
    """

    sides: int
    faces: tuple[int, ...]
    total: int
    exploded: bool
    capped: bool
    cap: int


class Dice:
    """The one source of die faces for an engine call.

    Args:
        rng: A :class:`random.Random` to roll unscripted slots from. Its seed is
            unknown to the kit, so :attr:`seed` is ``None``.
        script: Slot name -> faces to hand out, in order, for that slot. A slot
            in the script never falls back to the rng: running out is an error.
        seed: Seed for a fresh :class:`random.Random`. Giving both ``rng``
            and ``seed`` is an error.

    With neither ``rng`` nor ``seed``, a seed is drawn from
    :class:`random.SystemRandom` (0 <= seed < 2**32) and kept in :attr:`seed`.

    Attributes:
        seed: The seed of the internal rng, or ``None`` when ``rng`` was given.
        history: Every face handed out, as :class:`DieRoll` records, in order.

    Raises:
        RulesInputError: If both ``rng`` and ``seed`` are given, or ``rng`` /
            ``seed`` have the wrong type (field ``"dice"``).
        DiceScriptError: If a script slot is not a sequence of integers
            (field ``"dice.<slot>"``).
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        script: Mapping[str, Sequence[int]] | None = None,
        seed: int | None = None,
    ) -> None:
        if rng is not None and seed is not None:
            raise RulesInputError("dice", "give either rng= or seed=, not both")
        if rng is not None and not isinstance(rng, random.Random):
            raise RulesInputError("dice", f"rng must be a random.Random, got {type(rng).__name__}")
        if seed is not None:
            seed = check_seed(seed, "seed")
        if rng is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**32)
            rng = random.Random(seed)
        self._rng: random.Random = rng
        self.seed: int | None = seed
        self._script: dict[str, tuple[int, ...]] = {}
        if script is not None and not isinstance(script, Mapping):
            raise DiceScriptError("dice", f"a dice script must be an object of slot -> list of faces, got {script!r}")
        for slot, faces in (script or {}).items():
            if not isinstance(slot, str) or not slot:
                raise DiceScriptError("dice", f"script slot names must be non-empty strings, got {slot!r}")
            if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
                if isinstance(faces, int) and not isinstance(faces, bool):
                    faces = (faces,)
                else:
                    raise DiceScriptError(f"dice.{slot}", f"scripted faces must be a list of integers, got {faces!r}")
            for face in faces:
                if isinstance(face, bool) or not isinstance(face, int):
                    raise DiceScriptError(f"dice.{slot}", f"scripted faces must be integers, got {face!r}")
            self._script[slot] = tuple(faces)
        self._pos: dict[str, int] = {slot: 0 for slot in self._script}
        self.history: list[DieRoll] = []

    def __repr__(self) -> str:
        parts = []
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        if self._script:
            parts.append(f"script={ {k: list(v) for k, v in self._script.items()} }")
        return f"Dice({', '.join(parts)})"

    @property
    def script(self) -> dict[str, tuple[int, ...]]:
        """A copy of the script: slot -> all its faces (used or not)."""
        return dict(self._script)

    def is_scripted(self, slot: str) -> bool:
        """Return True if ``slot`` takes its faces from the script."""
        return slot in self._script

    def roll(self, sides: int, slot: str) -> int:
        """Roll one die.

        Args:
            sides: Die size, 1..:data:`MAX_DIE_SIDES`.
            slot: Slot name; if scripted, the slot's next face is used.

        Returns:
            A face, 1..sides.

        Raises:
            RulesInputError: If ``sides`` is not a whole number from 1 up (field ``"dice"``).
            DiceScriptError: If the scripted slot has no faces left, or its next
                face cannot show on this die (field ``"dice.<slot>"``).
        """
        _check_sides(sides)
        if not isinstance(slot, str) or not slot:
            raise RulesInputError("dice", f"a roll needs a non-empty slot name, got {slot!r}")
        if slot in self._script:
            faces = self._script[slot]
            pos = self._pos[slot]
            if pos >= len(faces):
                raise DiceScriptError(
                    f"dice.{slot}",
                    f"scripted slot {slot!r} ran out: it had {len(faces)} "
                    f"face{'s' if len(faces) != 1 else ''} {list(faces)} and roll {pos + 1} "
                    f"needs another d{sides}",
                )
            face = faces[pos]
            if not 1 <= face <= sides:
                raise DiceScriptError(
                    f"dice.{slot}",
                    f"scripted face {face} in slot {slot!r} (roll {pos + 1}) is impossible on a "
                    f"d{sides}; allowed 1 to {sides}",
                )
            self._pos[slot] = pos + 1
            self.history.append(DieRoll(slot, sides, face, True))
            return face
        face = self._rng.randint(1, sides)
        self.history.append(DieRoll(slot, sides, face, False))
        return face

    def d100(self, slot: str) -> int:
        """Roll percentile dice: 1..100, where 100 is read "00" (see :func:`d100_label`).

        Raises:
            DiceScriptError: As for :meth:`roll`.
        """
        return self.roll(100, slot)

    def exploding(self, sides: int, slot: str, cap: int = DEFAULT_EXPLOSION_CAP) -> ExplodingRoll:
        """Roll one exploding die: on its maximum face roll again and add, again on a maximum.

        All faces come from the same slot, so ``script={"attack": [4, 4, 1]}``
        on a d4 gives faces ``(4, 4, 1)``, total 9. Rolling stops after ``cap``
        extra dice; a d1 (every face a maximum) therefore always reports
        ``capped=True``.

        Args:
            sides: Die size, 1..:data:`MAX_DIE_SIDES`.
            slot: Slot name.
            cap: Most extra dice to roll, >= 0 (default :data:`DEFAULT_EXPLOSION_CAP`).

        Returns:
            An :class:`ExplodingRoll`.

        Raises:
            RulesInputError: If ``sides`` or ``cap`` is invalid (field ``"dice"``).
            DiceScriptError: As for :meth:`roll`.
        """
        _check_sides(sides)
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
            raise RulesInputError("dice", f"an explosion cap must be a whole number of extra dice >= 0, got {cap!r}")
        faces = [self.roll(sides, slot)]
        while faces[-1] == sides and len(faces) - 1 < cap:
            faces.append(self.roll(sides, slot))
        capped = faces[-1] == sides and len(faces) - 1 >= cap
        return ExplodingRoll(
            sides=sides,
            faces=tuple(faces),
            total=sum(faces),
            exploded=len(faces) > 1,
            capped=capped,
            cap=cap,
        )

    def roll_expr(self, expr: str | DiceExpr, slot: str) -> tuple[int, tuple[int, ...]]:
        """Roll a dice expression such as ``"1d8+1d6"`` or ``"-1d4"``.

        Every die comes from ``slot``, in the order the expression lists them.

        Args:
            expr: Expression text (see :func:`parse_dice`) or a parsed :class:`DiceExpr`.
            slot: Slot name.

        Returns:
            ``(total, faces)``: the signed total including constants, and the
            raw faces (each 1..sides, unsigned) in roll order. ``"+0"`` gives ``(0, ())``.

        Raises:
            RulesInputError: If the expression is malformed (field ``"dice"``).
            DiceScriptError: As for :meth:`roll`.
        """
        parsed = expr if isinstance(expr, DiceExpr) else parse_dice(expr)
        total = parsed.modifier
        faces: list[int] = []
        for term in parsed.dice:
            for _ in range(term.count):
                face = self.roll(term.sides, slot)
                faces.append(face)
                total += term.sign * face
        return total, tuple(faces)

    def used(self, slot: str) -> int:
        """Return how many scripted faces of ``slot`` have been consumed (0 if not scripted)."""
        return self._pos.get(slot, 0)

    def unused(self) -> dict[str, tuple[int, ...]]:
        """Return scripted faces not yet consumed, slot -> remaining faces (only non-empty slots).

        An engine can turn a non-empty result into a warning step: leftover
        faces usually mean the script does not match the situation.
        """
        return {
            slot: faces[self._pos[slot]:]
            for slot, faces in self._script.items()
            if self._pos[slot] < len(faces)
        }


# --------------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class DiceTerm:
    """One ``NdS`` group of a dice expression.

    Attributes:
        sign: +1 or -1.
        count: Number of dice, >= 1.
        sides: Die size, >= 1.
    """

    sign: int
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{'-' if self.sign < 0 else '+'}{self.count}d{self.sides}"


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: signed groups of dice plus a constant.

    Attributes:
        text: The expression as written, whitespace removed, minus signs normalised.
        dice: The dice groups in written order.
        modifier: Sum of the constant terms (``"1d10+2"`` -> 2).
    """

    text: str
    dice: tuple[DiceTerm, ...]
    modifier: int

    def __str__(self) -> str:
        return self.text

    @property
    def min(self) -> int:
        """Lowest possible total."""
        return self.modifier + sum(
            t.count if t.sign > 0 else -t.count * t.sides for t in self.dice
        )

    @property
    def max(self) -> int:
        """Highest possible total."""
        return self.modifier + sum(
            t.count * t.sides if t.sign > 0 else -t.count for t in self.dice
        )

    @property
    def dice_count(self) -> int:
        """Total number of dice rolled (``"1d8+1d6"`` -> 2, ``"+0"`` -> 0)."""
        return sum(t.count for t in self.dice)

    @property
    def faces_count(self) -> int | None:
        """Faces of the single die this expression rolls, else ``None``.

        ``"d100"`` and ``"1d20"`` -> 100 and 20 (a table on them has that many
        outcomes). ``None`` for anything else (several dice, a constant, a
        negative die), where the outcomes are not the faces of one die.
        """
        if len(self.dice) == 1 and self.dice[0].count == 1 and self.dice[0].sign > 0 and self.modifier == 0:
            return self.dice[0].sides
        return None

    @property
    def is_constant(self) -> bool:
        """True if no dice are rolled (``"+0"``, ``"3"``)."""
        return not self.dice

    def outcomes(self) -> range:
        """Every possible total, ``range(min, max + 1)``.

        Sums of dice reach every integer between their extremes, so this is
        exactly the set a rollable table's rows must cover.
        """
        return range(self.min, self.max + 1)


_TERM_RE = re.compile(r"([+-])?(?:(\d*)d(\d+|%)|(\d+))")
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-", "\uff0b": "+"})


@functools.lru_cache(maxsize=512)
def _parse(text: str) -> DiceExpr:
    norm = re.sub(r"\s*([+-])\s*", r"\1", text.translate(_MINUS_SIGNS).strip().lower())
    if re.search(r"\s", norm):
        raise RulesInputError(
            "dice", f"cannot read dice expression {clip(text)}: terms must be joined by '+' or '-'"
        )
    if not norm:
        raise RulesInputError("dice", f"empty dice expression {clip(text)}; expected e.g. 'd100', '2d6', '1d10+2'")
    dice: list[DiceTerm] = []
    modifier = 0
    pos = 0
    while pos < len(norm):
        m = _TERM_RE.match(norm, pos)
        if m is None or (pos > 0 and m.group(1) is None):
            raise RulesInputError(
                "dice",
                f"cannot read dice expression {clip(text)} at {clip(norm[pos:])}; expected terms like "
                "'d100', '2d6', '1d8+1d6', '1d10+2', '-1d4' or '+0'",
            )
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            modifier += sign * _bounded(m.group(4), "modifier", -MAX_DICE_MODIFIER, MAX_DICE_MODIFIER, text)
        else:
            count = _bounded(m.group(2), "dice count", 1, MAX_DICE_COUNT, text) if m.group(2) else 1
            sides = 100 if m.group(3) == "%" else _bounded(m.group(3), "die size", 1, MAX_DIE_SIDES, text)
            if count < 1 or sides < 1:
                what, value, bound = ("dice count", count, MAX_DICE_COUNT) if count < 1 else \
                    ("die size", sides, MAX_DIE_SIDES)
                raise RulesInputError("dice", f"{what} in {clip(text)} must be from 1 to {bound}, got {value}")
            dice.append(DiceTerm(sign, count, sides))
        pos = m.end()
    total = sum(d.count for d in dice)
    if total > MAX_DICE_COUNT:
        raise RulesInputError("dice", f"{clip(text)} rolls {total} dice; at most {MAX_DICE_COUNT} in all")
    if abs(modifier) > MAX_DICE_MODIFIER:
        raise RulesInputError("dice", f"the modifier of {clip(text)} must be from -{MAX_DICE_MODIFIER} to "
                                      f"{MAX_DICE_MODIFIER}, got {modifier}")
    return DiceExpr(text=norm, dice=tuple(dice), modifier=modifier)


def _bounded(digits: str, what: str, low: int, bound: int, text: str) -> int:
    """``int(digits)``, refused past ``bound`` (saying "from ``low`` to ``bound``") before a
    many-digit string is converted."""
    value = int(digits) if len(digits) <= 9 else bound + 1
    if value > bound:
        shown = value if len(digits) <= 9 else f"a number of {len(digits)} digits"
        raise RulesInputError("dice", f"{what} in {clip(text)} must be from {low} to {bound}, got {shown}")
    return value


def parse_dice(expr: str) -> DiceExpr:
    """Parse a simple dice expression.

    Grammar: an optional sign, then terms joined by ``+`` or ``-``; a term is
    ``NdS`` (N defaults to 1; ``d%`` means d100) or a whole number. Case,
    spaces and typographic minus signs (``−``, ``–``) are accepted.

    Examples:
        ``"d100"``, ``"1d20"``, ``"2d6"``, ``"1d8+1d6"``, ``"1d10+2"``,
        ``"-1d4"``, ``"+0"``, ``"2d10+1d2"``.

    Args:
        expr: The expression text.

    Returns:
        A :class:`DiceExpr`.

    Raises:
        RulesInputError: If the text is empty or malformed, a count or size is 0
            or too large, it rolls more than :data:`MAX_DICE_COUNT` dice in all,
            or its modifier is past ±:data:`MAX_DICE_MODIFIER` (field ``"dice"``;
            the message gives the bound).
    """
    if not isinstance(expr, str):
        raise RulesInputError("dice", f"a dice expression must be a string, got {expr!r}")
    return _parse(expr)
