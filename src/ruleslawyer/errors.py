"""The kit's one error tree.

::

    RulesError                       every error the kit raises on purpose
    ├── RulesInputError (ValueError) bad input: names the field and what is allowed
    │   ├── DiceScriptError          a scripted-dice slot ran out or holds an impossible face
    │   ├── RulingError              unknown ruling id or answer
    │   ├── DeclarationError         (darkmaster) a declaration the TRS forbids
    ├── UnknownIdError (LookupError)       no rule/table with that citation id
    ├── UnknownConceptError (LookupError)  no concordance concept of that name
    └── RulesDataError               the rules data: names file:line, or the database
        ├── SourcesError             the sources could not be read or built (file:line per problem)
        │   └── BuildError
        └── DatabaseError            the database file: missing, damaged, or not a rules database
            └── DatabasePathError    the path names something that is not a rules database

Anything else that escapes is a bug in the kit: the CLI and the panels report it as an internal
error with a hint to report it. Callers catch classes, never names.
"""

from __future__ import annotations

__all__ = ["RulesError", "RulesInputError", "DiceScriptError", "RulingError", "UnknownIdError",
           "UnknownConceptError", "RulesDataError",
           "SourcesError", "DatabaseError", "DatabasePathError"]


class RulesError(Exception):
    """Root of every error the kit raises on purpose."""


class RulesInputError(RulesError, ValueError):
    """Bad input to an engine.

    Args:
        field: Dotted name of the offending input, e.g. ``"attacker.tier"``.
        message: What was wrong and what is allowed.

    Attributes:
        field: The offending input's dotted name.
        message: The human-readable explanation without the field prefix.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def __reduce__(self):  # keep pickling (e.g. multiprocessing) working
        return (self.__class__, (self.field, self.message))


class DiceScriptError(RulesInputError):
    """A scripted-dice slot ran out of faces or holds a face the die cannot show.

    The field is ``"dice.<slot>"``.
    """


class RulingError(RulesInputError):
    """An unknown ruling id, or an override answer not among the ruling's answers.

    The message lists the allowed answers (or, for an unknown id, says so).
    """


class UnknownIdError(RulesError, LookupError):
    """No rule, section or table has this citation id (the message offers close ids)."""

    field = "id"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown id"


class UnknownConceptError(RulesError, LookupError):
    """No concept of the concordance has this name or alias (the message lists the concepts)."""

    field = "concept"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown concept"


class RulesDataError(RulesError):
    """The rules data is at fault, not the caller's input: a source file (``file:line``) or the database."""


class SourcesError(RulesDataError, ValueError):
    """The sources could not be read. ``problems`` lists ``file:line: message`` strings."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("rules build failed:\n" + "\n".join(self.problems))


class DatabaseError(RulesDataError):
    """The rules database file cannot be used (damaged, unreadable, not rebuildable); names the path."""


class DatabasePathError(DatabaseError, ValueError):
    """The database path names something that is not (and may not become) a rules database."""
