"""Engine subcommands shared by every ruleset: ``exchange``, ``sequence``, ``initiative``, ``odds``.

Each subcommand takes a positional ``ruleset`` and dispatches to the handler a ruleset's own
command module registered at import::

    from ruleslawyer.commands import engines
    engines.HANDLERS[("exchange", "mastery")] = _exchange      # handler(args) -> exit code
    engines.add_option("exchange", "--distance", help="...")  # optional extra flag

This module knows no ruleset: the ``ruleset`` choices are read from :data:`HANDLERS` when the
command line is parsed (after every module in ``COMMAND_MODULES`` has been imported), so the order
of ``COMMAND_MODULES`` does not matter. Common options for every subcommand: ``--input FILE.json``,
``--seed S``, ``--json``, ``--schema`` and ``--ruling ID=ANSWER`` (repeatable; collected into
``args.rulings`` as a dict). Top level imports only the standard library.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesInputError

import argparse
from collections.abc import Callable, Iterator

__all__ = ["HANDLERS", "COMMANDS", "register", "add_option", "rulesets_for", "read_json", "read_object", "seed_arg",
           "ruling_arg"]

#: Subcommands and their help line.
COMMANDS: dict[str, str] = {
    "exchange": "resolve one attack/defense exchange, every step cited",
    "sequence": "resolve a round's order of action (initiative, phases, holds), every step cited",
    "initiative": "roll or order initiative for a set of combatants",
    "odds": "probabilities of an exchange or roll under a ruleset's rules",
}

#: (command, ruleset) -> handler(args) -> exit code. Filled by each engine's command module.
HANDLERS: dict[tuple[str, str], Callable[[argparse.Namespace], int]] = {}

_EXTRA: list[tuple[str, tuple[str, ...], dict]] = []
_PARSERS: dict[str, argparse.ArgumentParser] = {}


def rulesets_for(command: str) -> list[str]:
    """Sorted rulesets that registered a handler for ``command``."""
    return sorted({r for (c, r) in HANDLERS if c == command})


class _Choices:
    """A live view of the rulesets registered for one command (argparse ``choices``)."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __contains__(self, item: object) -> bool:
        return (self.command, item) in HANDLERS

    def __iter__(self) -> Iterator[str]:
        return iter(rulesets_for(self.command))


def _apply(parser: argparse.ArgumentParser, flags: tuple[str, ...], kwargs: dict) -> None:
    existing = set(parser._option_string_actions)
    if all(f in existing for f in flags):
        return  # another ruleset already added the same option
    parser.add_argument(*flags, **kwargs)


def add_option(command: str, *flags: str, **kwargs) -> None:
    """Add an extra option to one engine subcommand (for a ruleset that needs it).

    Args:
        command: one of :data:`COMMANDS`.
        *flags, **kwargs: as for ``argparse.ArgumentParser.add_argument``; an option whose flags
            already exist is skipped (first registration wins).

    Raises:
        ValueError: unknown command.
    """
    if command not in COMMANDS:
        raise RulesInputError("command", f"unknown engine command {command!r}; allowed: {', '.join(COMMANDS)}")
    _EXTRA.append((command, flags, kwargs))
    if command in _PARSERS:
        _apply(_PARSERS[command], flags, kwargs)


def read_json(path: str | None, field: str = "input", flag: str = "--input"):
    """Read a JSON file (``-`` for stdin) given on the command line, at most
    :data:`~ruleslawyer.limits.INPUT_FILE_BYTES` of it (``--input /dev/zero`` once read until memory
    ran out).

    Args:
        path: the file, ``-`` or ``None`` (not given).
        field: the input's name in error messages.
        flag: the option that names the file, for the "not given" message.

    Returns:
        The parsed JSON value (any type: callers check the shape).

    Raises:
        RulesInputError: not given, unreadable (missing, a folder, no permission), larger than the
            limit, not UTF-8, not JSON, or nested too deeply to read; the message names ``field``
            and the file.
    """
    import json

    from ruleslawyer.inputs import json_int
    from ruleslawyer.limits import clip

    if not path:
        raise RulesInputError(field, f"{flag} FILE.json is required ({flag} - reads standard input; "
                                     "see --schema for the format)")
    shown = "standard input" if path == "-" else clip(path, quote=False)
    data = _read_bounded(path, field, shown)
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Windows editors) is fine
    except UnicodeDecodeError:
        raise RulesInputError(field, f"{shown} is not UTF-8 text") from None
    try:
        return json.loads(text, parse_int=json_int)  # a 5,000-digit number is refused by its field
    except json.JSONDecodeError as exc:
        raise RulesInputError(field, f"{shown} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RulesInputError(field, f"{shown} nests lists or objects too deeply to read") from None


def _read_bounded(path: str, field: str, shown: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused past ``limits.INPUT_FILE_BYTES``."""
    import sys

    from ruleslawyer.limits import INPUT_FILE_BYTES, megabytes

    try:
        if path == "-":
            if sys.stdin is None:
                raise RulesInputError(field, "standard input is closed")
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(INPUT_FILE_BYTES + 1) if stream is not None else \
                sys.stdin.read(INPUT_FILE_BYTES + 1).encode("utf-8", "surrogateescape")
        else:
            with open(path, "rb") as f:
                data = f.read(INPUT_FILE_BYTES + 1)
    except OSError as exc:
        raise RulesInputError(field, f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > INPUT_FILE_BYTES:
        raise RulesInputError(field, f"{shown} is larger than {megabytes(INPUT_FILE_BYTES)}, the most an input "
                                     "may hold")
    return data


def read_object(path: str | None) -> dict:
    """Read the ``--input`` JSON file (``-`` for stdin), which must hold one JSON object.

    Raises:
        RulesInputError: no path, unreadable file, invalid JSON or not an object (field ``input``).
    """
    data = read_json(path)
    if not isinstance(data, dict):
        raise RulesInputError("input", "the input must be a JSON object")
    return data


def seed_arg(text: str) -> int:
    """``--seed`` as argparse reads it: a whole number within the one seed bound
    (:func:`ruleslawyer.inputs.seed`, ``limits.INPUT_SEED``); else a usage error naming the bound."""
    from ruleslawyer.limits import INPUT_SEED

    from ruleslawyer.limits import clip

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {clip(text)}") from None
    if not -INPUT_SEED <= value <= INPUT_SEED:
        raise argparse.ArgumentTypeError(f"must be a whole number from {-INPUT_SEED:,} to {INPUT_SEED:,}, "
                                         f"got a number of {len(text.lstrip('+-'))} digits")
    return value


def ruling_arg(text: str) -> tuple[str, str]:
    """``--ruling ID=ANSWER`` as argparse reads it: ``(id, answer)``, stripped; else a usage error
    echoing the text clipped (``limits.clip``)."""
    from ruleslawyer.limits import clip

    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected ID=ANSWER, got {clip(text)}")
    key, _, value = text.partition("=")
    return key.strip(), value.strip()


def _dispatch(args: argparse.Namespace) -> int:
    args.rulings = dict(args.ruling or [])
    handler = HANDLERS.get((args.command, args.ruleset))
    if handler is None:
        allowed = ", ".join(rulesets_for(args.command)) or "none registered"
        raise RulesInputError("ruleset", f"no {args.command} engine for {args.ruleset!r}; allowed: {allowed}")
    return int(handler(args) or 0)


def register(sub: argparse._SubParsersAction) -> None:
    for command, help_text in COMMANDS.items():
        p = sub.add_parser(command, help=help_text)
        p.add_argument("ruleset", choices=_Choices(command), metavar="RULESET",
                       help="ruleset whose engine to use: %(choices)s")
        p.add_argument("--input", metavar="FILE.json", help="input file (see --schema)")
        p.add_argument("--seed", type=seed_arg, help="seed the dice so the result can be repeated")
        p.add_argument("--json", action="store_true", help="print the result and trace as JSON")
        p.add_argument("--schema", action="store_true", help="print the documented input format and exit")
        p.add_argument("--ruling", action="append", type=ruling_arg, metavar="ID=ANSWER",
                       help="override a registered ruling (repeatable); see `ruleslawyer rulings`")
        p.set_defaults(func=_dispatch)
        _PARSERS[command] = p
        for cmd, flags, kwargs in _EXTRA:
            if cmd == command:
                _apply(p, flags, kwargs)
