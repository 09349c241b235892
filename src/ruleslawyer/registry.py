"""The ruleset registry: every ruleset is one :class:`Ruleset` found through an entry point.

A ruleset package declares one ``Ruleset`` object and names it in its ``pyproject.toml``::

    [project.entry-points."ruleslawyer.rulesets"]
    mastery = "ruleslawyer.rulesets.mastery.ruleset:RULESET"

Everything else discovers it here: the rules database builds its ``sources`` and ``synonyms``;
``ruleslawyer rulings`` and the audit list its ``rulings``; the CLI adds its ``commands``; the app
adds its ``panels``; ``compare`` reads its ``concordance`` cells. A fourth ruleset is therefore a
separate installed package, with no edit to this one.

Rulings are registered here, for every ruleset at once, never by whichever engine happened to be
imported first: :func:`all_rulings` gives the same list in every process.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ruleslawyer.errors import RulesDataError, RulesInputError
from ruleslawyer.limits import clip
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ruleslawyer.trace import Ruling

__all__ = ["ENTRY_POINT_GROUP", "Ruleset", "rulesets", "get_ruleset", "all_rulings", "ruleset_ids", "discovered",
           "check_rulings"]

#: The entry-point group a ruleset package declares its :class:`Ruleset` under.
ENTRY_POINT_GROUP = "ruleslawyer.rulesets"


@dataclass(frozen=True)
class Ruleset:
    """One ruleset, as the rest of the kit sees it.

    Attributes:
        id: short id used in citation ids and on the command line (``mastery``).
        title: display title (``Mastery``).
        sources: folder of its Markdown sources (the chapter, a supplement); see ``rulesdb/README.md``.
        synonyms: JSON file of GM words mapped to the book's words, or None.
        rulings: module (dotted name) whose ``RULINGS`` tuple lists its registered rulings, or None.
        commands: module (dotted name) with ``register(subparsers)`` adding its CLI commands, or None.
        panels: ``(tab title, "module:ClassName")`` of its panels for the app, in tab order.
        concordance: JSON file of ``{concept id: {"summary": ..., "cites": [ids]}}`` cells, or None.
        order: display order among rulesets (tabs, comparison columns); ties go by id.
        encounter: ``"module:ClassName"`` of its :class:`ruleslawyer.encounter.Encounter` subclass
            (a whole fight across rounds), or None.
        examples: a few questions a GM might ask of it, in its own words (``"What happens at 0
            health?"``), offered by the search panel while its box is empty; ``()``: generic ones.
    """

    id: str
    title: str
    sources: Path
    synonyms: Path | None = None
    rulings: str | None = None
    commands: str | None = None
    panels: tuple[tuple[str, str], ...] = field(default=())
    concordance: Path | None = None
    order: int = 100
    encounter: str | None = None
    examples: tuple[str, ...] = ()

    def ruling_objects(self) -> "tuple[Ruling, ...]":
        """The ruleset's rulings (its ``rulings`` module's ``RULINGS``), registered for look-up."""
        from ruleslawyer.trace import Ruling, register

        if self.rulings is None:
            return ()
        found = tuple(getattr(importlib.import_module(self.rulings), "RULINGS", ()))
        for r in found:
            if not isinstance(r, Ruling):
                raise RulesDataError(f"{self.rulings}.RULINGS holds {r!r}, not a Ruling")
            register(r)
        return found


_lock = threading.Lock()
_found: dict[str, Ruleset] | None = None


def _entry_points() -> list[tuple[str, str]]:
    """``(name, "module:attr")`` of every ``ruleslawyer.rulesets`` entry point on ``sys.path``.

    Reads each installed distribution's ``entry_points.txt`` (the file ``importlib.metadata``
    reads) directly: importing ``importlib.metadata`` costs ~40 ms, which every engine command would
    pay at start; this scan costs a few. The first distribution of a name on ``sys.path`` wins, as
    with ``importlib.metadata``.
    """
    import configparser
    import os
    import sys

    seen_dists: set[str] = set()
    found: list[tuple[str, str]] = []
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            dist = name.rsplit("-", 1)[0].lower().replace("-", "_") if name.count("-") else name
            if dist in seen_dists:
                continue
            seen_dists.add(dist)
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if f"[{ENTRY_POINT_GROUP}]" not in text:
                continue
            parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            parser.optionxform = str  # keep names as written
            try:
                parser.read_string(text)
            except configparser.Error as exc:
                raise RulesDataError(f"{os.path.join(entry, name, 'entry_points.txt')}: cannot read: {exc}") from None
            found += [(k.strip(), v.strip()) for k, v in parser.items(ENTRY_POINT_GROUP)]
    return found


def _load(name: str, value: str) -> Ruleset:
    module, _, attr = value.partition(":")
    try:
        obj = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr else ():
            obj = getattr(obj, part)
    except Exception as exc:  # noqa: BLE001 - a broken plugin must name itself, not break the kit
        raise RulesDataError(f"ruleset entry point {name} = {value} cannot be loaded: "
                             f"{exc.__class__.__name__}: {exc}") from None
    if not isinstance(obj, Ruleset):
        raise RulesDataError(f"ruleset entry point {name} = {value} is not a Ruleset")
    return obj


def _discover() -> dict[str, Ruleset]:
    out: dict[str, Ruleset] = {}
    for name, value in sorted(_entry_points()):
        ruleset = _load(name, value)
        if ruleset.id in out:
            raise RulesDataError(f"two rulesets declare the id {ruleset.id!r}")
        out[ruleset.id] = ruleset
    return out


def rulesets() -> tuple[Ruleset, ...]:
    """Every installed ruleset, in display order (``order``, then id; discovered once per process)."""
    global _found
    with _lock:
        if _found is None:
            _found = _discover()
        return tuple(sorted(_found.values(), key=lambda r: (r.order, r.id)))


def discovered() -> bool:
    """Whether this process has already discovered the installed rulesets."""
    return _found is not None


def ruleset_ids() -> tuple[str, ...]:
    """The ids of every installed ruleset, in display order."""
    return tuple(r.id for r in rulesets())


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset ``ruleset_id``.

    Raises:
        RulesInputError: no such ruleset (field ``ruleset``; the message lists the installed ones).
    """
    for r in rulesets():
        if r.id == ruleset_id:
            return r
    raise RulesInputError("ruleset", f"unknown ruleset {clip(ruleset_id)}; choose one of: {', '.join(ruleset_ids())}")


def all_rulings(ruleset: str | None = None) -> "list[Ruling]":
    """Every ruling of every installed ruleset (or of ``ruleset``), sorted by id.

    Rulings whose ``ruleset`` is ``kit`` (shared by every engine) are listed under ``kit``.
    """
    from ruleslawyer.dice import EXPLOSION_CAP_RULING  # the kit's own rulings, shared by every engine

    found = {EXPLOSION_CAP_RULING.id: EXPLOSION_CAP_RULING}
    for r in rulesets():
        for ruling in r.ruling_objects():
            found[ruling.id] = ruling
    return sorted((r for r in found.values() if ruleset is None or r.ruleset == ruleset), key=lambda r: r.id)


def check_rulings(overrides: object, ruleset: str | None, field: str = "rulings") -> dict[str, str]:
    """The one check of a ``rulings`` value every engine, fight, odds function and panel reads.

    Args:
        overrides: ``None`` (no overrides) or an object of ruling id -> answer.
        ruleset: the ruleset whose engine reads them; each id must be its ruling or the kit's
            (``None``: any ruleset's).
        field: the field path of the value in its input (``rulings``, ``fight.rulings``).

    Returns:
        The overrides as a plain dict.

    Raises:
        RulingError: not an object (``<field>``: "must be an object of ruling id -> answer"), an
            answer that is not text, an id no installed ruleset has, an id of another ruleset (the
            message names the ruleset it belongs to) or an answer the ruling does not allow
            (``<field>.<id>``, listing the answers).
    """
    from ruleslawyer.errors import RulingError
    from ruleslawyer.inputs import shown
    from ruleslawyer.limits import clip
    from ruleslawyer.trace import check_overrides, registered_rulings

    if overrides is None:
        return {}
    if not isinstance(overrides, Mapping):
        raise RulingError(field, "must be an object of ruling id -> answer (e.g. {\"kit.explosion-cap\": \"10\"}), "
                                 f"got {shown(overrides)}")
    known = {r.id for r in registered_rulings()}
    if any(k not in known for k in overrides):
        known = {r.id for r in all_rulings()}  # a ruling of a ruleset whose engine is not imported yet
    for key in overrides:
        if key not in known:
            raise RulingError(f"{field}.{clip(key, quote=False)}", f"unknown ruling {clip(key)}; run "
                              "`ruleslawyer rulings` to list the known ones")
    try:
        check_overrides(overrides, ruleset)
    except RulingError as exc:
        raise RulingError(field + exc.field.removeprefix("rulings"), exc.message) from None
    return dict(overrides)


def _reset_for_tests() -> None:
    """Forget the discovered rulesets (a test that installs a ruleset calls this)."""
    global _found
    with _lock:
        _found = None
