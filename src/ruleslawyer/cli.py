"""The ``ruleslawyer`` command line: everything the panels do, with ``--json`` output.

Each subcommand lives in a module exposing ``register(subparsers)``: the kit's own in
:mod:`ruleslawyer.commands`, each ruleset's in its folder (found through the registry); a module's top level imports only the standard library so that a cold
``ruleslawyer search`` stays fast. Errors print one line (``ruleslawyer: error: ...``) and exit 1;
usage errors exit 2. An unexpected exception (a bug) prints one ``internal error`` line too and
exits 1; ``RULESLAWYER_DEBUG=1`` shows its traceback.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Sequence

from ruleslawyer.commands.output import OUTPUT as _OUTPUT, print_json, start_output, write_stdout
from ruleslawyer.errors import RulesError, SourcesError

__all__ = ["main", "build_parser", "command_modules", "print_json", "write_stdout", "COMMAND_MODULES",
           "SOLE_MODULE"]

#: Modules of ruleslawyer.commands, in the order their subcommands appear in --help.
#: The kit's own command modules (each ``ruleslawyer.commands.<name>``); every installed ruleset adds
#: its own module (:attr:`ruleslawyer.registry.Ruleset.commands`) after these.
COMMAND_MODULES: tuple[str, ...] = (
    "db",
    "lookup",
    "engines",
    "rulings",
    "odds",
    "app",
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
                               for name in ("build", "search", "show", "toc", "tables", "table", "roll")}

_GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--house-rules")


def build_parser(modules: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with the subcommands of ``modules`` (dotted module names; default: every
    command module, :func:`command_modules`). Built once per set of modules in a process (about 9 ms
    for the full parser) and shared: parsing leaves it as it was."""
    return _parser(tuple(command_modules() if modules is None else modules))


@functools.lru_cache(maxsize=16)
def _parser(modules: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ruleslawyer",
        description="Search the combat rules of Mastery, Mythras and Against the Darkmaster, roll on "
                    "their tables and resolve exchanges with every step cited.")
    _global_options(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in modules:
        importlib.import_module(name).register(sub)
    for command in sub.choices.values():  # `ruleslawyer search parry --db X` as well as `--db X search parry`
        _global_options(command, argparse.SUPPRESS)
    return parser


def _global_options(parser: argparse.ArgumentParser, default) -> None:
    """``--db`` and ``--house-rules``: on the main parser (default None), and again on each command's
    parser with no default of its own (``argparse.SUPPRESS``), so one given after the command name
    counts and one given before it is kept."""
    parser.add_argument("--db", default=default,
                        help="rules database path (default: $RULESLAWYER_DB or ~/.cache/ruleslawyer/rules.db)")
    parser.add_argument("--house-rules", metavar="DIR", default=default,
                        help="folder of house-rules Markdown to build in (default: $RULESLAWYER_HOUSE_RULES)")


def _command_name(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is neither an option nor its value)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word.startswith("--") and len(word) > 2 and any(o.startswith(word) for o in _GLOBAL_OPTIONS_WITH_VALUE):
            skip = True  # `--db X`, or an abbreviation argparse takes for it (`--d X`, `--house X`)
        elif not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``ruleslawyer`` command line; the exit status (0 fine, 1 an error, 2 a usage error).

    Under ``--json`` standard output is exactly one JSON document, the result or the error. Output
    that cannot be written (a full disk, standard output closed) is one error line and exit 1; a
    reader that closed the pipe early is exit 0. Never a traceback.
    """
    if sys.stdout is None:  # started with standard output closed
        return _output_failed("standard output is closed")
    argv = list(sys.argv[1:] if argv is None else argv)
    name = _command_name(argv)
    parser = build_parser((SOLE_MODULE[name],) if name in SOLE_MODULE else None)
    start_output()
    args = _parse(parser, argv)
    import warnings

    warnings.showwarning = _show_warning
    errors = _tolerant_stdout()
    try:
        return _run(args)
    finally:
        _tolerant_stdout(errors)


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)``; under ``--json`` a usage error (exit 2) is a JSON error document
    on standard output too, as argparse's message says on standard error."""
    import contextlib

    said = _Tee(sys.stderr)
    try:
        with contextlib.redirect_stderr(said):
            return parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code == 2 and "--json" in argv:
            message = "".join(said.text).strip().splitlines()[-1:] or ["invalid command line"]
            _json_error("UsageError", message[0].split(": error: ", 1)[-1], None, False)
        raise


class _Tee:
    """A text stream that writes through to ``stream`` (if any) and keeps what was written."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.text: list[str] = []

    def write(self, text: str) -> int:
        self.text.append(text)
        return self.stream.write(text) if self.stream is not None else len(text)

    def flush(self) -> None:
        if self.stream is not None:
            self.stream.flush()


def _run(args) -> int:
    try:
        from ruleslawyer.rulesdb.handle import open_rules

        args.rules = open_rules(args.db, args.house_rules)
        if getattr(args, "ruleset_filter", False):  # --ruleset, else $RULESLAWYER_RULESET, checked once here
            from ruleslawyer.commands.db import chosen_ruleset

            args.ruleset = chosen_ruleset(args.rules, args.ruleset)
        status = int(args.func(args) or 0)
        sys.stdout.flush()
        return status
    except BrokenPipeError:  # the reader has all it wanted (``| head``)
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    except RulesError as exc:
        return _report(args, exc, internal=False)
    except Exception as exc:  # a bug in the kit: still one line, never a traceback
        if _output_error(exc):
            return _output_failed(exc.strerror or str(exc))
        database = _database_error(args, exc)
        if database is not None:
            return _report(args, database, internal=False)
        if _debug():
            raise
        return _report(args, exc, internal=True)


def _tolerant_stdout(errors: str | None = "backslashreplace") -> str | None:
    """Set standard output's error handler (text that is not valid Unicode is escaped, not an
    exception); return the one it had. ``None``: leave it."""
    old = getattr(sys.stdout, "errors", None)
    if errors is not None and hasattr(sys.stdout, "reconfigure"):
        try:
            sys.stdout.reconfigure(errors=errors)
        except (OSError, ValueError):
            pass
    return old


def _output_error(exc: Exception) -> bool:
    """Whether ``exc`` is standard output refusing what was written (a full disk, an I/O error): an
    OSError naming no file with such an errno, or standard output still failing to flush. (Reading
    a file fails naming it, and the commands turn that into input errors first.)"""
    import errno

    if not isinstance(exc, OSError):
        return False
    if exc.filename is None and exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF):
        return True
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush of what could not
    be written succeeds silently (instead of printing "Exception ignored ...")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _output_failed(reason: str) -> int:
    _stderr(f"ruleslawyer: error: cannot write the output: {reason}")
    if sys.stdout is not None:
        _silence_stdout()
    return 1


def _stderr(line: str) -> None:
    """Print one line on standard error (nowhere if it is closed: ``print(file=None)`` would pick
    standard output, into the JSON)."""
    if sys.stderr is not None:
        print(line, file=sys.stderr)


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
    _stderr(f"ruleslawyer: error: {message}")
    if getattr(args, "json", False):  # a --json caller gets the error as JSON on stdout too
        _json_error(exc.__class__.__name__, message, getattr(exc, "field", None), internal)
    return 1


def _json_error(kind: str, message: str, field: str | None, internal: bool) -> None:
    """The error document on standard output, unless a JSON result was already written there."""
    if _OUTPUT["json"]:
        return
    try:
        print_json({"error": {"type": kind, "message": message, "field": field, "internal": internal}})
    except (OSError, ValueError):
        pass  # standard output is broken too: the error line on stderr stands


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as ``ruleslawyer: warning: ...`` lines on stderr (no Python source line); a notice
    (:class:`~ruleslawyer.rulesdb.db.RulesDatabaseNotice`: the database is being rebuilt) as
    ``ruleslawyer: ...``."""
    from ruleslawyer.rulesdb.db import RulesDatabaseNotice

    prefix = "ruleslawyer: " if issubclass(category, RulesDatabaseNotice) else "ruleslawyer: warning: "
    for n, text in enumerate(str(message).strip().splitlines()):
        _stderr(f"{prefix}{text}" if n == 0 else f"  {text}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
