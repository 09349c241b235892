"""Every bound the kit puts on what it reads, in one place (README "Limits" lists them too).

Hostile or broken input must cost neither memory, time nor a wrong answer: a file, an expression or a
message past one of these bounds is refused at once with an error naming the field (or file) and the
bound. Standard library only: the command line imports this on every run.

:data:`LIMITS` maps each bound's name to ``(value, what it bounds)``; the module constants are the
same numbers for code to import.
"""

from __future__ import annotations

__all__ = ["LIMITS", "INPUT_FILE_BYTES", "SOURCE_FILE_BYTES", "ECHO_CHARS", "DICE_COUNT", "DIE_SIDES",
           "DICE_MODIFIER", "TEMP_FILE_AGE_S", "NOTICE_SOURCE_BYTES", "INPUT_ITEMS", "INPUT_NAME_CHARS",
           "INPUT_TEXT_CHARS", "INPUT_NUMBER", "INPUT_NUMBER_DIGITS", "INPUT_SEED", "clip", "megabytes",
           "whole_arg"]

#: Largest ``--input FILE.json`` (or standard input) the engine commands read, in bytes.
INPUT_FILE_BYTES = 1_000_000

#: Largest Markdown source (a house-rules file) the build reads, in bytes.
SOURCE_FILE_BYTES = 10_000_000

#: Longest value (as its ``repr``) an error or warning message echoes; longer ones are cut with ``…``.
ECHO_CHARS = 80

#: Most dice one dice expression rolls, over all its terms (``1000d6``).
DICE_COUNT = 1000

#: Most faces a die may have (``d10000``).
DIE_SIDES = 10_000

#: Largest size of a dice expression's whole-number modifier (``1d4+10000``, ``1d4-10000``).
DICE_MODIFIER = 10_000

#: A build's temporary file (``.rules.db.tmp-PID`` beside the database) left by a killed build is
#: removed by the next build once its process is gone, or once it is older than this, in seconds.
TEMP_FILE_AGE_S = 3600

#: Sources larger than this in all (bytes) take more than a moment to parse, so a rebuild a query
#: starts says so before parsing; smaller ones say so when the database is being written.
NOTICE_SOURCE_BYTES = 500_000

#: Most items of any list (or entries of any object) in an engine input: actions, combatants, traits,
#: the faces of one dice slot. ``mastery-ap`` with 166,666 actions once took 16 s and 480 MB.
INPUT_ITEMS = 1000

#: Longest name in an engine input (a combatant, weapon, location, Special Effect, a ruling answer).
INPUT_NAME_CHARS = 100

#: Longest free text in an engine input (a ``description``, a hold trigger's condition).
INPUT_TEXT_CHARS = 10_000

#: Largest size of a whole number in an engine input whose field sets no tighter bound.
INPUT_NUMBER = 1_000_000

#: A JSON number with more digits than this is not converted (Python refuses 4,300 or more): the
#: field it is in refuses it as out of bounds.
INPUT_NUMBER_DIGITS = 30

#: Largest size of an input's dice ``seed``.
INPUT_SEED = 10**18

LIMITS: dict[str, tuple[int, str]] = {
    "input_file_bytes": (INPUT_FILE_BYTES, "bytes of an --input FILE.json (or standard input)"),
    "source_file_bytes": (SOURCE_FILE_BYTES, "bytes of one house-rules (or sources) Markdown file"),
    "echo_chars": (ECHO_CHARS, "characters of a value echoed in an error or warning"),
    "dice_count": (DICE_COUNT, "dice rolled by one dice expression, all terms together"),
    "die_sides": (DIE_SIDES, "faces of one die"),
    "dice_modifier": (DICE_MODIFIER, "size of a dice expression's whole-number modifier"),
    "temp_file_age_s": (TEMP_FILE_AGE_S, "seconds before a killed build's temporary file is removed "
                                         "even if its process id is in use again"),
    "notice_source_bytes": (NOTICE_SOURCE_BYTES, "bytes of sources past which a rebuild says so "
                                                 "before parsing them"),
    "input_items": (INPUT_ITEMS, "items of one list (or entries of one object) in an engine input"),
    "input_name_chars": (INPUT_NAME_CHARS, "characters of a name in an engine input"),
    "input_text_chars": (INPUT_TEXT_CHARS, "characters of free text in an engine input"),
    "input_number": (INPUT_NUMBER, "size of a whole number in an engine input, where the field sets no "
                                   "tighter bound"),
    "input_number_digits": (INPUT_NUMBER_DIGITS, "digits of a JSON number converted at all (longer ones are "
                                                 "refused by their field)"),
    "input_seed": (INPUT_SEED, "size of an input's dice seed"),
}


def clip(value: object, limit: int = ECHO_CHARS, *, quote: bool = True) -> str:
    """``repr(value)`` (with ``quote=False``, ``str(value)``), cut to ``limit`` characters.

    Messages echo what they refuse; a value of a million characters would make a million-character
    message, so anything longer than the limit ends in ``…`` and says how long it was.
    """
    text = repr(value) if quote else str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def whole_arg(text: str) -> int:
    """A whole-number option as the command line reads it (argparse's ``type``): the number, else a
    usage error echoing the text :func:`clip`-ped ("--limit 99…9" of 5,000 digits is no 5 KB message).

    Raises:
        argparse.ArgumentTypeError: not a whole number (of at most ``INPUT_NUMBER_DIGITS`` digits).
    """
    import argparse

    digits = text.strip().lstrip("+-")
    if not digits.isdecimal() or len(digits) > INPUT_NUMBER_DIGITS:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {clip(text)}")
    return int(text)


def megabytes(n: int) -> str:
    """``n`` bytes for a message: ``1 MB``, ``10 MB`` (decimal megabytes), else the bytes."""
    return f"{n // 1_000_000} MB" if n % 1_000_000 == 0 else f"{n} bytes"
