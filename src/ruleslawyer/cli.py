"""The ``ruleslawyer`` command line: everything the panels do, with ``--json`` output.

Each subcommand lives in a module exposing ``register(subparsers)``: the kit's own in
:mod:`ruleslawyer.commands`, each ruleset's in its folder (found through the registry); a module's top level imports only the standard library so that a cold
``ruleslawyer search`` stays fast. Errors print one line (``ruleslawyer: error: ...``) and exit 1;
usage errors exit 2. An unexpected exception (a bug) prints one ``internal error`` line too and
exits 1; ``RULESLAWYER_DEBUG=1`` shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ruleslawyer.errors import RulesError, SourcesError

__all__ = ["main", "build_parser", "command_modules", "print_json", "COMMAND_MODULES", "SOLE_MODULE"]

#: Modules of ruleslawyer.commands, in the order their subcommands appear in --help.
#: The kit's own command modules (each ``ruleslawyer.commands.<name>``); every installed ruleset adds
#: its own module (:attr:`ruleslawyer.registry.Ruleset.commands`) after these.
COMMAND_MODULES: tuple[str, ...] = (
    "db",
    "lookup",
    "engines",
    "rulings",
    "odds",
    "fight",
)


def command_modules() -> tuple[str, ...]:
    """Dotted names of every command module: the kit's, then each installed ruleset's."""
    from ruleslawyer.registry import rulesets

    return (tuple(f"ruleslawyer.commands.{name}" for name in COMMAND_MODULES)
            + tuple(r.commands for r in rulesets() if r.commands))


#: Subcommands that one module defines entirely, with no other module adding to them: for these,
#: :func:`main` builds the parser from that module alone. argparse spends a few milliseconds per
#: subparser (help formatters, gettext look-ups), so a cold ``ruleslawyer search`` skips the other
#: twenty-odd. Every other command, and ``--help``, gets the full parser.
SOLE_MODULE: dict[str, str] = {name: "ruleslawyer.commands.db"
                               for name in ("build", "search", "show", "tables", "table", "roll")}

_GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--house-rules")


def print_json(obj) -> None:
    """Print ``obj`` (a dict/list, or anything with ``to_dict()``) as indented JSON."""
    import json

    if hasattr(obj, "to_dict"):
        obj = obj.to_dict()
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")


def build_parser(modules: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with the subcommands of ``modules`` (dotted module names; default: every
    command module, :func:`command_modules`)."""
    parser = argparse.ArgumentParser(
        prog="ruleslawyer",
        description="Search the combat rules of Mastery, Mythras and Against the Darkmaster, roll on "
                    "their tables and resolve exchanges with every step cited.")
    parser.add_argument("--db", help="rules database path (default: $RULESLAWYER_DB or ~/.cache/ruleslawyer/rules.db)")
    parser.add_argument("--house-rules", metavar="DIR",
                        help="folder of house-rules Markdown to build in (default: $RULESLAWYER_HOUSE_RULES)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in command_modules() if modules is None else modules:
        importlib.import_module(name).register(sub)
    return parser


def _command_name(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is neither an option nor its value)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    name = _command_name(argv)
    parser = build_parser((SOLE_MODULE[name],) if name in SOLE_MODULE else None)
    args = parser.parse_args(argv)
    import warnings

    warnings.showwarning = _show_warning
    try:
        from ruleslawyer.rulesdb.handle import open_rules

        args.rules = open_rules(args.db, args.house_rules)
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except RulesError as exc:
        return _report(args, exc, internal=False)
    except Exception as exc:  # a bug in the kit: still one line, never a traceback
        database = _database_error(args, exc)
        if database is not None:
            return _report(args, database, internal=False)
        if _debug():
            raise
        return _report(args, exc, internal=True)


def _database_error(args, exc: Exception):
    """An SQLite error that escaped the rules handle, as the DatabaseError naming the file; else None."""
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is None or not isinstance(exc, sqlite3.Error) \
            or isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError)):
        return None
    from ruleslawyer.errors import DatabaseError

    path = getattr(getattr(args, "rules", None), "path", "?")
    return DatabaseError(f"the rules database {path} cannot be read ({' '.join(str(exc).split())})")


def _debug() -> bool:
    import os

    return bool(os.environ.get("RULESLAWYER_DEBUG"))


def _report(args, exc: BaseException, *, internal: bool) -> int:
    """Print ``exc`` as one ``ruleslawyer: error:`` line (and as JSON under ``--json``); exit status 1.

    Errors of the kit's tree (:class:`~ruleslawyer.errors.RulesError`) are the user's to fix and are
    shown as they are; anything else is a bug, shown as an internal error with a hint to report it.
    """
    message = str(exc).strip() or exc.__class__.__name__
    if not isinstance(exc, SourcesError):  # a build error lists one file:line per line
        message = " ".join(message.split())
    if internal:
        detail = " ".join(f"{exc.__class__.__name__}: {exc}".split())
        message = (f"internal error ({detail}); please report it with the command that caused it "
                   "(RULESLAWYER_DEBUG=1 shows the traceback)")
    print(f"ruleslawyer: error: {message}", file=sys.stderr)
    if getattr(args, "json", False):  # a --json caller gets the error as JSON on stdout too
        print_json({"error": {"type": exc.__class__.__name__, "message": message,
                              "field": getattr(exc, "field", None), "internal": internal}})
    return 1


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as ``ruleslawyer: warning: ...`` lines on stderr (no Python source line); a notice
    (:class:`~ruleslawyer.rulesdb.db.RulesDatabaseNotice`: the database is being rebuilt) as
    ``ruleslawyer: ...``."""
    from ruleslawyer.rulesdb.db import RulesDatabaseNotice

    prefix = "ruleslawyer: " if issubclass(category, RulesDatabaseNotice) else "ruleslawyer: warning: "
    for n, text in enumerate(str(message).strip().splitlines()):
        print(f"{prefix}{text}" if n == 0 else f"  {text}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
