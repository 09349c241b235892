"""Exceptions raised by the rules engines for bad input.

Every error is a :class:`ValueError` subclass that names the offending input
field, so a caller (CLI, widget, notebook) can point at the control that needs
fixing.  ``str(error)`` reads ``"<field>: <message>"``, e.g.
``"attacker.tier: tier must be an integer from 1 to 6, got 0"``.
"""

from __future__ import annotations

__all__ = ["RulesInputError", "DiceScriptError", "RulingError"]


class RulesInputError(ValueError):
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
