"""The explanation tree every engine returns, and the registry of named rulings.

An engine never just returns a number: it returns a frozen result dataclass
whose ``trace`` field is a :class:`Step` tree.  Each step says what happened
(a roll, a modifier, a comparison, a rule applied, a result) and *why*: either
the :class:`Citation` of the rule text that drives it (an id of the rules
database such as ``mastery/combat/death/fighting-on#2``) or the
:class:`RulingUse` of a named :class:`Ruling` where the source is silent,
ambiguous or truncated.  "Cite it or call it a ruling": a reader of the trace
can always tell the book from the kit.

Rulings are registered by the engine modules at import time with
:func:`register`; callers choose non-default answers through an overrides
mapping (``{"mastery.failed-defense-damage": "attack-minus-defense"}``) that
engines pass to :func:`resolve_ruling`.

This module is pure: no database, pandas or widget imports.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .errors import RulesInputError, RulingError

__all__ = [
    "Citation",
    "StepKind",
    "RulingUse",
    "Step",
    "Ruling",
    "PROVENANCE_SOURCE_SILENT",
    "PROVENANCE_KIT_DEFAULT",
    "PROVENANCE_PUBLISHED_PREFIX",
    "register",
    "get_ruling",
    "registered_rulings",
    "resolve_ruling",
    "check_overrides",
    "merge_overrides",
    "TracedResult",
    "to_jsonable",
]

PROVENANCE_SOURCE_SILENT = "source-silent"
"""Provenance of a ruling where the source text says nothing; the kit picked an answer."""

PROVENANCE_KIT_DEFAULT = "kit default"
"""Provenance of a ruling that is purely a choice of this kit (e.g. a safety cap)."""

PROVENANCE_PUBLISHED_PREFIX = "published rules outside the source: "
"""Prefix of a provenance naming published rules that fill a gap, e.g.
``"published rules outside the source: Mythras Imperative"``."""


# --------------------------------------------------------------------------- JSON


def to_jsonable(obj: Any) -> Any:
    """Convert a value to plain JSON types (dict, list, str, int, float, bool, None).

    Rules: enums become their ``.value``; :class:`Step` uses :meth:`Step.to_dict`;
    other objects with a ``to_dict()`` method use it; dataclasses become dicts of
    their fields; mappings become dicts with ``str`` keys; tuples, lists and
    other sequences become lists; sets become lists sorted by ``repr``;
    :class:`~fractions.Fraction` and :class:`~decimal.Decimal` become strings
    (``"2/3"``) so no precision is silently lost; non-finite floats become
    strings (``"inf"``, ``"nan"``) because JSON has no spelling for them; any
    other object becomes ``str(obj)``.

    Args:
        obj: Any value found in a trace or result.

    Returns:
        A value that ``json.dumps`` accepts with ``allow_nan=False``.
    """
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, enum.Enum):
        return to_jsonable(obj.value)
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else str(obj)
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, (Fraction, Decimal)):
        return str(obj)
    if isinstance(obj, Step):
        return obj.to_dict()
    to_dict = getattr(obj, "to_dict", None)
    if callable(to_dict) and not isinstance(obj, type):
        return to_dict()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {str(to_jsonable(k)): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return [to_jsonable(v) for v in sorted(obj, key=repr)]
    if isinstance(obj, (list, tuple, range)):
        return [to_jsonable(v) for v in obj]
    return str(obj)


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Citation:
    """A pointer to one citable unit (paragraph, list item, table row) of the rules database.

    Attributes:
        rule_id: Path-shaped id, ``<ruleset>/<chapter>/<section slugs>#<n>``,
            e.g. ``"mastery/combat/death/fighting-on#2"``.
        note: Optional short remark on how the rule applies here.

    Raises:
        RulesInputError: If ``rule_id`` is empty or not a string.
    """

    rule_id: str
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.rule_id, str) or not self.rule_id.strip():
            raise RulesInputError("cites", f"a citation needs a non-empty rule id, got {self.rule_id!r}")
        if not isinstance(self.note, str):
            raise RulesInputError("cites", f"a citation note must be a string, got {self.note!r}")

    def to_dict(self) -> dict[str, str]:
        """Return ``{"rule_id": ..., "note": ...}``."""
        return {"rule_id": self.rule_id, "note": self.note}


class StepKind(StrEnum):
    """What a trace step records."""

    ROLL = "roll"
    """A die was rolled; ``value`` is the face or total."""
    MODIFIER = "modifier"
    """A number was added, subtracted or multiplied in."""
    COMPARE = "compare"
    """Two numbers were compared (roll vs DC, attack vs defense)."""
    RULE = "rule"
    """A rule was applied that is not itself a number (a branch, a condition)."""
    RULING = "ruling"
    """A named ruling decided something the source leaves open."""
    RESULT = "result"
    """The outcome of the step's subtree or of the whole call."""
    INFO = "info"
    """Context for the reader; changes nothing."""
    ERROR = "error"
    """Something could not be resolved (e.g. leftover scripted dice)."""


@dataclass(frozen=True)
class RulingUse:
    """Which answer of a named ruling a step applied.

    Attributes:
        ruling_id: Id of a registered :class:`Ruling`, e.g. ``"mastery.failed-defense-damage"``.
        answer: The answer applied (the ruling's default or a caller's override).
    """

    ruling_id: str
    answer: str

    def to_dict(self) -> dict[str, str]:
        """Return ``{"ruling_id": ..., "answer": ...}``."""
        return {"ruling_id": self.ruling_id, "answer": self.answer}


def _as_citation(c: Citation | str) -> Citation:
    if isinstance(c, Citation):
        return c
    if isinstance(c, str):
        return Citation(c)
    raise RulesInputError("cites", f"a citation must be a rule id string or a Citation, got {c!r}")


@dataclass(frozen=True)
class Step:
    """One node of an engine's explanation tree.

    The constructor normalises its arguments: ``kind`` may be a
    :class:`StepKind` or its string value; ``cites`` may hold rule-id strings or
    :class:`Citation` objects; ``rulings`` and ``children`` may be any iterables.
    They are stored as tuples so the tree is immutable and hashable as long as
    the values are.

    Attributes:
        kind: What the step records.
        label: Short human label, e.g. ``"Attack roll"``.
        value: The number or outcome at this step (``None`` when there is none).
            Any value is allowed; :meth:`to_dict` makes it JSON-safe.
        detail: Longer explanation shown beneath the label.
        cites: Rules that drive this step.
        rulings: Named rulings this step applied.
        children: Sub-steps, in the order they happened.

    Raises:
        RulesInputError: If ``kind`` is unknown, ``label``/``detail`` are not
            strings, or a citation, ruling use or child has the wrong type.
    """

    kind: StepKind
    label: str
    value: object = None
    detail: str = ""
    cites: tuple[Citation, ...] = ()
    rulings: tuple[RulingUse, ...] = ()
    children: tuple["Step", ...] = ()

    def __post_init__(self) -> None:
        try:
            kind = StepKind(self.kind)
        except ValueError:
            allowed = ", ".join(k.value for k in StepKind)
            raise RulesInputError("kind", f"unknown step kind {self.kind!r}; allowed: {allowed}") from None
        if not isinstance(self.label, str):
            raise RulesInputError("label", f"a step label must be a string, got {self.label!r}")
        if not isinstance(self.detail, str):
            raise RulesInputError("detail", f"a step detail must be a string, got {self.detail!r}")
        cites = (self.cites,) if isinstance(self.cites, (str, Citation)) else self.cites
        rulings = (self.rulings,) if isinstance(self.rulings, RulingUse) else self.rulings
        children = (self.children,) if isinstance(self.children, Step) else self.children
        cites_t = tuple(_as_citation(c) for c in cites)
        rulings_t = tuple(rulings)
        for r in rulings_t:
            if not isinstance(r, RulingUse):
                raise RulesInputError("rulings", f"a step's rulings must be RulingUse objects, got {r!r}")
        children_t = tuple(children)
        for ch in children_t:
            if not isinstance(ch, Step):
                raise RulesInputError("children", f"a step's children must be Step objects, got {ch!r}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cites", cites_t)
        object.__setattr__(self, "rulings", rulings_t)
        object.__setattr__(self, "children", children_t)

    @classmethod
    def of(
        cls,
        kind: StepKind | str,
        label: str,
        value: object = None,
        detail: str = "",
        cites: Iterable[Citation | str] | Citation | str = (),
        rulings: Iterable[RulingUse] | RulingUse = (),
        children: Iterable[Step] | Step = (),
    ) -> Step:
        """Build a step from plain Python values.

        Example:
            ``Step.of("roll", "Attack roll", 7, cites=["mastery/combat/trials#1"],
            children=[...])``

        Args:
            kind: A :class:`StepKind` or its value (``"roll"``).
            label: Short human label.
            value: The step's number or outcome.
            detail: Longer explanation.
            cites: Rule ids or :class:`Citation` objects (a single one is accepted).
            rulings: :class:`RulingUse` objects (a single one is accepted).
            children: Sub-steps, e.g. a list (a single one is accepted).

        Returns:
            The frozen :class:`Step`.

        Raises:
            RulesInputError: As for the constructor.
        """
        return cls(kind, label, value, detail, cites, rulings, children)  # type: ignore[arg-type]

    def walk(self) -> Iterator[Step]:
        """Yield this step and every descendant, depth-first, parents before children."""
        stack: list[Step] = [self]
        while stack:
            step = stack.pop()
            yield step
            stack.extend(reversed(step.children))

    def cited_ids(self) -> tuple[str, ...]:
        """Return every rule id cited anywhere in the tree, deduplicated, in walk order."""
        return tuple(dict.fromkeys(c.rule_id for s in self.walk() for c in s.cites))

    def ruling_ids(self) -> tuple[str, ...]:
        """Return every ruling id applied anywhere in the tree, deduplicated, in walk order."""
        return tuple(dict.fromkeys(r.ruling_id for s in self.walk() for r in s.rulings))

    def ruling_uses(self) -> tuple[RulingUse, ...]:
        """Return every distinct :class:`RulingUse` in the tree, in walk order."""
        return tuple(dict.fromkeys(r for s in self.walk() for r in s.rulings))

    def to_dict(self) -> dict[str, Any]:
        """Return the tree as JSON-safe nested dicts.

        Shape::

            {"kind": "roll", "label": str, "value": <json>, "detail": str,
             "cites": [{"rule_id": str, "note": str}, ...],
             "rulings": [{"ruling_id": str, "answer": str}, ...],
             "children": [<same shape>, ...]}

        ``value`` goes through :func:`to_jsonable` (enums by value, tuples as lists).
        """
        return {
            "kind": self.kind.value,
            "label": self.label,
            "value": to_jsonable(self.value),
            "detail": self.detail,
            "cites": [c.to_dict() for c in self.cites],
            "rulings": [r.to_dict() for r in self.rulings],
            "children": [ch.to_dict() for ch in self.children],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        """Rebuild a step tree from :meth:`to_dict` output.

        Values come back as their JSON form (a tuple value returns as a list).

        Args:
            data: A mapping shaped like :meth:`to_dict` output.

        Returns:
            The rebuilt :class:`Step`.

        Raises:
            RulesInputError: If a field has the wrong type or an unknown kind.
        """
        return cls(
            kind=data["kind"],
            label=data["label"],
            value=data.get("value"),
            detail=data.get("detail", ""),
            cites=tuple(Citation(c["rule_id"], c.get("note", "")) for c in data.get("cites", ())),
            rulings=tuple(RulingUse(r["ruling_id"], r["answer"]) for r in data.get("rulings", ())),
            children=tuple(cls.from_dict(ch) for ch in data.get("children", ())),
        )


# --------------------------------------------------------------------------- rulings


@dataclass(frozen=True)
class Ruling:
    """A named decision the kit makes where the source is silent, ambiguous or truncated.

    Attributes:
        id: Dotted id, conventionally ``<ruleset>.<slug>``, e.g. ``"mastery.failed-defense-damage"``.
        ruleset: Ruleset id (``"mastery"``, ``"mythras"``, ``"darkmaster"``, or ``"kit"``).
        question: The question the source leaves open, as a sentence.
        default: The answer engines use unless overridden.
        alternatives: Other allowed answers (may be empty).
        provenance: ``"source-silent"``, ``"kit default"``, or
            ``"published rules outside the source: <name>"``.
        explanation: Why the default was chosen and what each answer means.
        cites: Rule ids of the text around the gap (the rules the question is about).

    Raises:
        RulesInputError: If a field is empty, an answer repeats, or the
            provenance is not one of the three forms.
    """

    id: str
    ruleset: str
    question: str
    default: str
    alternatives: tuple[str, ...]
    provenance: str
    explanation: str = ""
    cites: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("id", "ruleset", "question", "default"):
            val = getattr(self, name)
            if not isinstance(val, str) or not val.strip():
                raise RulesInputError(f"ruling.{name}", f"must be a non-empty string, got {val!r}")
        alternatives = (self.alternatives,) if isinstance(self.alternatives, str) else tuple(self.alternatives)
        cites = (self.cites,) if isinstance(self.cites, str) else tuple(self.cites)
        answers = (self.default, *alternatives)
        for a in answers:
            if not isinstance(a, str) or not a.strip():
                raise RulesInputError(f"ruling.{self.id}", f"answers must be non-empty strings, got {a!r}")
        if len(set(answers)) != len(answers):
            raise RulesInputError(f"ruling.{self.id}", f"answers must be distinct, got {list(answers)!r}")
        for c in cites:
            if not isinstance(c, str) or not c.strip():
                raise RulesInputError(f"ruling.{self.id}", f"cites must be rule id strings, got {c!r}")
        prov = self.provenance
        if not isinstance(prov, str) or not (
            prov in (PROVENANCE_SOURCE_SILENT, PROVENANCE_KIT_DEFAULT)
            or (prov.startswith(PROVENANCE_PUBLISHED_PREFIX) and prov[len(PROVENANCE_PUBLISHED_PREFIX):].strip())
        ):
            raise RulesInputError(
                f"ruling.{self.id}",
                f"provenance must be {PROVENANCE_SOURCE_SILENT!r}, {PROVENANCE_KIT_DEFAULT!r} or "
                f"{PROVENANCE_PUBLISHED_PREFIX + '<name>'!r}, got {prov!r}",
            )
        if not isinstance(self.explanation, str):
            raise RulesInputError(f"ruling.{self.id}", "explanation must be a string")
        object.__setattr__(self, "alternatives", alternatives)
        object.__setattr__(self, "cites", cites)

    @property
    def answers(self) -> tuple[str, ...]:
        """All allowed answers: ``(default, *alternatives)``."""
        return (self.default, *self.alternatives)

    def to_dict(self) -> dict[str, Any]:
        """Return the ruling as JSON-safe dict, including the derived ``answers`` list."""
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "question": self.question,
            "default": self.default,
            "alternatives": list(self.alternatives),
            "answers": list(self.answers),
            "provenance": self.provenance,
            "explanation": self.explanation,
            "cites": list(self.cites),
        }


_REGISTRY: dict[str, Ruling] = {}


def register(ruling: Ruling) -> Ruling:
    """Add a ruling to the process-wide registry.

    Re-registering an identical ruling is a no-op, so reloading an engine
    module is safe.

    Args:
        ruling: The ruling to register.

    Returns:
        The registered ruling (so ``X = register(Ruling(...))`` reads naturally).

    Raises:
        TypeError: If ``ruling`` is not a :class:`Ruling`.
        ValueError: If a different ruling is already registered under the same id.
    """
    if not isinstance(ruling, Ruling):
        raise TypeError(f"register() needs a Ruling, got {type(ruling).__name__}")
    existing = _REGISTRY.get(ruling.id)
    if existing is not None and existing != ruling:
        raise ValueError(f"ruling {ruling.id!r} is already registered with different content")
    _REGISTRY[ruling.id] = ruling
    return ruling


def get_ruling(ruling_id: str) -> Ruling:
    """Look up a registered ruling.

    Args:
        ruling_id: E.g. ``"mastery.failed-defense-damage"``.

    Returns:
        The :class:`Ruling`.

    Raises:
        RulingError: If no ruling has that id (field ``"rulings"``).
    """
    try:
        return _REGISTRY[ruling_id]
    except (KeyError, TypeError):
        raise RulingError(
            "rulings",
            f"unknown ruling {ruling_id!r}; run `ruleslawyer rulings` to list the known ones",
        ) from None


def registered_rulings(ruleset: str | None = None) -> list[Ruling]:
    """Rulings registered in this process so far, sorted by id, optionally only one ruleset's.

    The complete list, whatever was imported, is :func:`ruleslawyer.registry.all_rulings`.

    Args:
        ruleset: Ruleset id to filter on, or ``None`` for all.

    Returns:
        A new list of :class:`Ruling`.
    """
    return sorted(
        (r for r in _REGISTRY.values() if ruleset is None or r.ruleset == ruleset),
        key=lambda r: r.id,
    )


def resolve_ruling(ruling_id: str, overrides: Mapping[str, str] | None = None) -> RulingUse:
    """Decide which answer of a ruling applies.

    Args:
        ruling_id: Id of a registered ruling.
        overrides: Caller's choices, ruling id -> answer. Entries for other
            rulings are ignored here (see :func:`check_overrides`).

    Returns:
        ``RulingUse(ruling_id, answer)`` with the override if present, else the default.

    Raises:
        RulingError: If the ruling is unknown (field ``"rulings"``), or the
            override is not one of its answers (field ``"rulings.<id>"``; the
            message lists the allowed answers).
    """
    ruling = get_ruling(ruling_id)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RulingError("rulings", f"ruling overrides must be an object of ruling id -> answer, got {overrides!r}")
    if overrides is None or ruling_id not in overrides:
        return RulingUse(ruling_id, ruling.default)
    answer = overrides[ruling_id]
    if answer not in ruling.answers:
        allowed = ", ".join(repr(a) for a in ruling.answers)
        raise RulingError(
            f"rulings.{ruling_id}",
            f"answer {answer!r} is not allowed; choose one of {allowed} (default {ruling.default!r})",
        )
    return RulingUse(ruling_id, answer)


def check_overrides(overrides: Mapping[str, str] | None, ruleset: str | None = None) -> None:
    """Validate a whole overrides mapping up front, so a typo cannot pass silently.

    Args:
        overrides: Ruling id -> answer, or ``None``.
        ruleset: If given, every id must belong to this ruleset or to ``"kit"``.

    Raises:
        RulingError: On an unknown id, an id of another ruleset, or a
            disallowed answer.
    """
    if overrides is None:
        return
    if not isinstance(overrides, Mapping):
        raise RulingError("rulings", f"ruling overrides must be an object of ruling id -> answer, got {overrides!r}")
    for ruling_id in overrides:
        ruling = get_ruling(ruling_id)
        if ruleset is not None and ruling.ruleset not in (ruleset, "kit"):
            raise RulingError(
                f"rulings.{ruling_id}",
                f"ruling belongs to {ruling.ruleset!r}, not {ruleset!r}",
            )
        resolve_ruling(ruling_id, overrides)


def merge_overrides(*layers: Mapping[str, str] | None) -> dict[str, str]:
    """Merge ruling-override mappings, later layers winning (e.g. an input file's ``rulings``, then
    the command line's ``--ruling``).

    Args:
        *layers: Ruling id -> answer mappings, or ``None`` for none.

    Returns:
        A new dict.

    Raises:
        RulingError: If a layer is not a mapping (field ``"rulings"``).
    """
    merged: dict[str, str] = {}
    for layer in layers:
        if layer is None:
            continue
        if not isinstance(layer, Mapping):
            raise RulingError("rulings", f"ruling overrides must be an object of ruling id -> answer, got {layer!r}")
        merged.update(layer)
    return merged


# --------------------------------------------------------------------------- results


class TracedResult:
    """Mixin for frozen engine-result dataclasses that carry a ``trace: Step`` field.

    Example::

        @dataclass(frozen=True)
        class TrialResult(TracedResult):
            total: int
            success: bool
            trace: Step
    """

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the result's fields as JSON-safe nested dicts.

        Dataclass fields recurse (nested dataclasses become dicts, enums their
        values, tuples lists); the trace uses :meth:`Step.to_dict`.

        Raises:
            TypeError: If the subclass is not a dataclass.
        """
        if not dataclasses.is_dataclass(self):
            raise TypeError(f"{type(self).__name__} must be a dataclass to use TracedResult.to_dict()")
        return {f.name: to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}
