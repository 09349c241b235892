"""The one strict input layer: every engine, CLI command and panel reads its input through here.

Two halves, one source of truth:

* **Primitives** — :func:`boolean`, :func:`whole`, :func:`text`, :func:`name`, :func:`choice`,
  :func:`list_of`, :func:`known_fields`, :func:`dice_script` — check one JSON value strictly and raise
  :class:`~ruleslawyer.errors.RulesInputError` naming its field path (``attacker.weapon.traits[0]``)
  and what is allowed. Strings are never booleans or numbers, floats (and NaN, Infinity) are never
  whole numbers, every size has a bound (:mod:`ruleslawyer.limits`), an unknown field or dice slot is
  refused with a did-you-mean.
* **Declarations** — :class:`Obj`, :class:`Int`, :class:`Bool`, :class:`Text`, :class:`Choice`,
  :class:`ListOf`, :class:`MapOf`, :class:`Either`, :class:`Tagged`, :class:`DiceSlots` — describe an
  input once. ``spec.read(value, field)`` checks a value with the primitives and returns plain Python
  data (an :class:`Obj` gives a dict of the fields present); :func:`json_schema` turns the same
  declaration into the JSON Schema (draft 2020-12) every ``--schema`` prints.

Core layer: imports only :mod:`~ruleslawyer.errors` and :mod:`~ruleslawyer.limits` (``difflib`` only
when a did-you-mean is needed), so ``--schema`` and the engines stay quick to start.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ruleslawyer.errors import DiceScriptError, RulesInputError
from ruleslawyer.limits import (DIE_SIDES, INPUT_ITEMS, INPUT_NAME_CHARS, INPUT_NUMBER, INPUT_NUMBER_DIGITS,
                                INPUT_SEED, INPUT_TEXT_CHARS, clip)

__all__ = ["shown", "at", "did_you_mean", "known_fields", "boolean", "whole", "text", "name", "choice", "list_of",
           "mapping", "dice_script", "json_int", "LongNumber", "Spec", "Bool", "Int", "Text", "Name", "Choice",
           "ListOf", "MapOf", "Obj", "Either", "Tagged", "DiceSlots", "Any_", "SEED", "RULINGS", "seed", "json_schema",
           "check_attrs", "rename"]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


# --------------------------------------------------------------------------- primitives


def shown(value: object) -> str:
    """``value`` as a message echoes it: JSON's spelling for ``true``/``false``/``null``, else
    :func:`~ruleslawyer.limits.clip` (a ``repr`` of at most ~80 characters)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return clip(value)


def at(field: str, key: str | int) -> str:
    """The path of ``key`` inside ``field``: ``at("attacker", "skill") -> "attacker.skill"``,
    ``at("combatants", 2) -> "combatants[2]"``, ``at("", "dice") -> "dice"``."""
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else str(key)


def rename(exc: RulesInputError, prefix: str, old: str = "") -> RulesInputError:
    """``exc`` again with its field moved under ``prefix`` (``old`` stripped first), same class."""
    tail = exc.field.removeprefix(old).lstrip(".") if old else exc.field
    new = type(exc).__new__(type(exc))
    RulesInputError.__init__(new, at(prefix, tail) if tail else prefix, exc.message)
    return new


class LongNumber(str):
    """A JSON number with more digits than :data:`~ruleslawyer.limits.INPUT_NUMBER_DIGITS` (its text),
    kept unconverted so a 5,000-digit number costs nothing and is refused by the field it is in."""

    def __repr__(self) -> str:
        return f"a number of {len(self.lstrip('-'))} digits"


def json_int(digits: str) -> int | LongNumber:
    """``parse_int`` hook for :func:`json.loads`: ``int(digits)``, or a :class:`LongNumber` past
    :data:`~ruleslawyer.limits.INPUT_NUMBER_DIGITS` digits (Python refuses to convert 4,300 or more)."""
    return int(digits) if len(digits) <= INPUT_NUMBER_DIGITS else LongNumber(digits)


def did_you_mean(word: object, choices: Sequence[str]) -> str:
    """``" did you mean 'attack'?"`` for the choice closest to ``word``, or ``""`` if none is close."""
    if not isinstance(word, str) or not choices:
        return ""
    import difflib

    folded = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower()[:INPUT_NAME_CHARS], list(folded), n=1, cutoff=0.6)
    return f" did you mean {folded[close[0]]!r}?" if close else ""


def _listed(choices: Sequence[str]) -> str:
    return ", ".join(str(c) for c in choices)


def mapping(value: object, field: str, what: str = "an object") -> Mapping:
    """``value`` if it is a JSON object (a mapping with text keys), else a RulesInputError."""
    if not isinstance(value, Mapping):
        raise RulesInputError(field or "input", f"must be {what}, got {shown(value)}")
    for key in value:
        if not isinstance(key, str):
            raise RulesInputError(field or "input", f"field names must be text, got {clip(key)}")
    return value


def known_fields(data: Mapping, allowed: Sequence[str], field: str = "") -> None:
    """Refuse the first key of ``data`` not in ``allowed``, naming it with a did-you-mean.

    Raises:
        RulesInputError: field ``<field>.<key>``; the message offers the closest allowed name and
            lists them all.
    """
    for key in data:
        if key not in allowed:
            hint = did_you_mean(key, list(allowed))
            raise RulesInputError(at(field, clip(key, quote=False)),
                                  f"unknown field {clip(key)};{hint} allowed: {_listed(sorted(allowed))}")


def boolean(value: object, field: str) -> bool:
    """``value`` if it is ``true`` or ``false`` (never the text ``"false"``, never 0 or 1)."""
    if not isinstance(value, bool):
        raise RulesInputError(field, f"must be true or false, got {shown(value)}")
    return value


def whole(value: object, field: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (default ±:data:`INPUT_NUMBER`).

    A bool, a float (12.5, 3.0, NaN, Infinity), text ("60") or a :class:`LongNumber` is refused.
    """
    low = -INPUT_NUMBER if low is None else low
    high = INPUT_NUMBER if high is None else high
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesInputError(field, f"must be a whole number from {low:,} to {high:,}, got {shown(value)}")
    return value


def text(value: object, field: str, max_chars: int = INPUT_TEXT_CHARS, *, empty: bool = True) -> str:
    """``value`` if it is text of at most ``max_chars`` characters (non-empty unless ``empty``)."""
    if not isinstance(value, str) or isinstance(value, LongNumber):
        raise RulesInputError(field, f"must be text, got {shown(value)}")
    if len(value) > max_chars:
        raise RulesInputError(field, f"must be at most {max_chars:,} characters, got {shown(value)}")
    if not empty and not value.strip():
        raise RulesInputError(field, "must not be empty")
    return value


def name(value: object, field: str) -> str:
    """``value`` if it is a non-empty name of at most :data:`INPUT_NAME_CHARS` characters."""
    return text(value, field, INPUT_NAME_CHARS, empty=False)


def _fold(value: str) -> str:
    return "-".join(value.strip().lower().replace("_", " ").replace("-", " ").split())


def choice(value: object, allowed: Sequence[str], field: str) -> str:
    """The member of ``allowed`` that ``value`` names (case, spaces, ``_`` and ``-`` aside).

    Raises:
        RulesInputError: not text, or no such member (with a did-you-mean and the members).
    """
    if isinstance(value, str) and len(value) <= INPUT_NAME_CHARS:
        for member in allowed:
            if _fold(member) == _fold(value):
                return member
    hint = did_you_mean(value, list(allowed))
    raise RulesInputError(field, f"unknown value {shown(value)};{hint} allowed: {_listed(allowed)}")


def list_of(value: object, field: str, item: Callable[[Any, str], Any], max_items: int = INPUT_ITEMS,
            min_items: int = 0, label: Callable[[str, int, Any], str] | None = None) -> list:
    """``[item(v, "<field>[i]") for each v]`` if ``value`` is a JSON list of ``min_items`` to
    ``max_items`` items (refused before any item is read); ``label(field, i, v)`` may name an item
    otherwise (``combatants.Brom``)."""
    if not isinstance(value, (list, tuple)):
        raise RulesInputError(field, f"must be a list, got {shown(value)}")
    if not min_items <= len(value) <= max_items:
        raise RulesInputError(field, f"must hold {min_items:,} to {max_items:,} items, got {len(value):,}")
    return [item(v, label(field, i, v) if label else at(field, i)) for i, v in enumerate(value)]


def dice_script(value: object, slots: Sequence[str], field: str = "dice") -> dict[str, tuple[int, ...]] | None:
    """A scripted-dice object ``{slot: [faces]}`` (or ``{slot: face}``; ``None``: no script) checked
    against an engine's ``slots``: each face a whole number from 1 to :data:`~ruleslawyer.limits.DIE_SIDES` (whether it
    fits the die is checked when it is rolled), at most :data:`INPUT_ITEMS` a slot.

    Raises:
        DiceScriptError: not an object, an unknown slot (``dice.atack``: did you mean 'attack'?), or a
            face that is not a whole number (``dice.attack[0]``).
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise DiceScriptError(field, f"must be an object of slot -> list of faces, got {shown(value)}")
    out = {}
    for slot, faces in value.items():
        where = at(field, clip(slot, quote=False))
        if slot not in slots:
            hint = did_you_mean(slot, list(slots))
            raise DiceScriptError(where, f"unknown dice slot {clip(slot)};{hint} slots: {_listed(slots)}")
        try:
            one = isinstance(faces, int) and not isinstance(faces, bool)
            out[slot] = (whole(faces, where, 1, DIE_SIDES),) if one else tuple(
                list_of(faces, where, lambda v, f: whole(v, f, 1, DIE_SIDES)))
        except RulesInputError as exc:
            raise DiceScriptError(exc.field, exc.message) from None
    return out


# --------------------------------------------------------------------------- declarations


class Spec:
    """A declared input value: :meth:`read` checks one, :meth:`schema` documents it.

    Args:
        description: what it is, for the schema (field terms, units, the rule).
        null: ``null`` is allowed too (read as ``None``).
        default: the value an absent field takes (schema only; the engine's dataclass applies it).
    """

    __slots__ = ("description", "null", "default")
    kinds: tuple[str, ...] = ()

    def __init__(self, description: str = "", *, null: bool = False, default: Any = ...) -> None:
        self.description, self.null, self.default = description, null, default

    def read(self, value: Any, field: str) -> Any:
        """The checked value (plain Python data), or a RulesInputError naming ``field``."""
        if value is None and self.null:
            return None
        return self.check(value, field)

    def check(self, value: Any, field: str) -> Any:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def body(self) -> dict:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def schema(self) -> dict:
        """This declaration as a JSON Schema fragment."""
        out = self.body()
        if self.null:
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
            elif isinstance(out.get("type"), str):
                out["type"] = [out["type"], "null"]
            else:
                out = {"anyOf": [out, {"type": "null"}]}
        if self.default is not ...:
            out["default"] = self.default
        if self.description:
            out["description"] = self.description
        return out

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has a JSON type this declaration reads (for :class:`Either`)."""
        return (value is None and self.null) or _kind(value) in self.kinds


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, LongNumber)):
        return "integer"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return "number" if isinstance(value, float) else "null"


class Any_(Spec):
    """Any JSON value, passed through unread (a saved state another reader checks)."""

    __slots__ = ()
    kinds = ("boolean", "integer", "string", "object", "array", "number", "null")

    def check(self, value: Any, field: str) -> Any:
        return value

    def body(self) -> dict:
        return {}


class Bool(Spec):
    """``true`` or ``false``."""

    __slots__ = ()
    kinds = ("boolean",)

    def check(self, value: Any, field: str) -> bool:
        return boolean(value, field)

    def body(self) -> dict:
        return {"type": "boolean"}


class Int(Spec):
    """A whole number from ``low`` to ``high`` (default ±:data:`INPUT_NUMBER`)."""

    __slots__ = ("low", "high")
    kinds = ("integer",)

    def __init__(self, low: int | None = None, high: int | None = None, description: str = "", **kw) -> None:
        super().__init__(description, **kw)
        self.low = -INPUT_NUMBER if low is None else low
        self.high = INPUT_NUMBER if high is None else high

    def check(self, value: Any, field: str) -> int:
        return whole(value, field, self.low, self.high)

    def body(self) -> dict:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


class Text(Spec):
    """Text of at most ``max_chars`` characters (default :data:`INPUT_TEXT_CHARS`)."""

    __slots__ = ("max_chars", "empty")
    kinds = ("string",)

    def __init__(self, description: str = "", max_chars: int = INPUT_TEXT_CHARS, *, empty: bool = True,
                 **kw) -> None:
        super().__init__(description, **kw)
        self.max_chars, self.empty = max_chars, empty

    def check(self, value: Any, field: str) -> str:
        return text(value, field, self.max_chars, empty=self.empty)

    def body(self) -> dict:
        return {"type": "string", "maxLength": self.max_chars} | ({} if self.empty else {"minLength": 1})


class Name(Text):
    """A non-empty name of at most :data:`INPUT_NAME_CHARS` characters."""

    __slots__ = ()

    def __init__(self, description: str = "", **kw) -> None:
        super().__init__(description, INPUT_NAME_CHARS, empty=False, **kw)


class Choice(Spec):
    """One of ``values`` (read case-insensitively; returns the member as declared)."""

    __slots__ = ("values",)
    kinds = ("string",)

    def __init__(self, values: Sequence[str], description: str = "", **kw) -> None:
        super().__init__(description, **kw)
        self.values = tuple(values)

    def check(self, value: Any, field: str) -> str:
        return choice(value, self.values, field)

    def body(self) -> dict:
        return {"enum": list(self.values)}


class ListOf(Spec):
    """A list of ``item`` values, ``min_items`` to ``max_items`` long (default :data:`INPUT_ITEMS`);
    ``label(field, i, value)`` names an item in errors (default ``field[i]``)."""

    __slots__ = ("item", "min_items", "max_items", "label")
    kinds = ("array",)

    def __init__(self, item: Spec, description: str = "", *, min_items: int = 0, max_items: int = INPUT_ITEMS,
                 label: Callable[[str, int, Any], str] | None = None, **kw) -> None:
        super().__init__(description, **kw)
        self.item, self.min_items, self.max_items, self.label = item, min_items, max_items, label

    def check(self, value: Any, field: str) -> list:
        return list_of(value, field, self.item.read, self.max_items, self.min_items, self.label)

    def body(self) -> dict:
        out = {"type": "array", "items": self.item.schema(), "maxItems": self.max_items}
        return out | ({"minItems": self.min_items} if self.min_items else {})


class MapOf(Spec):
    """An object of any keys (names, at most ``max_items``) whose values are ``value``."""

    __slots__ = ("value", "max_items")
    kinds = ("object",)

    def __init__(self, value: Spec, description: str = "", *, max_items: int = INPUT_ITEMS, **kw) -> None:
        super().__init__(description, **kw)
        self.value, self.max_items = value, max_items

    def check(self, value: Any, field: str) -> dict:
        data = mapping(value, field)
        if len(data) > self.max_items:
            raise RulesInputError(field, f"must hold at most {self.max_items:,} entries, got {len(data):,}")
        return {name(k, at(field, clip(k, quote=False))): self.value.read(v, at(field, k)) for k, v in data.items()}

    def body(self) -> dict:
        return {"type": "object", "additionalProperties": self.value.schema(), "maxProperties": self.max_items,
                "propertyNames": {"minLength": 1, "maxLength": INPUT_NAME_CHARS}}


class Obj(Spec):
    """An object with declared ``fields`` only (unknown ones refused with a did-you-mean).

    ``read`` returns a dict of the fields present, each read by its declaration; a field in
    ``required`` must be present.
    """

    __slots__ = ("fields", "required", "title")
    kinds = ("object",)

    def __init__(self, fields: Mapping[str, Spec], description: str = "", *, required: Sequence[str] = (),
                 title: str = "", **kw) -> None:
        super().__init__(description, **kw)
        self.fields, self.required, self.title = dict(fields), tuple(required), title

    def check(self, value: Any, field: str) -> dict:
        data = mapping(value, field)
        known_fields(data, list(self.fields), field)
        out = {k: self.fields[k].read(v, at(field, k)) for k, v in data.items()}
        for key in self.required:
            if key not in data:
                what = self.fields[key].description
                raise RulesInputError(at(field, key), "is required" + (f": {what}" if what else ""))
        return out

    def body(self) -> dict:
        out: dict[str, Any] = {"type": "object", "additionalProperties": False}
        if self.title:
            out["title"] = self.title
        if self.required:
            out["required"] = list(self.required)
        out["properties"] = {k: s.schema() for k, s in self.fields.items()}
        return out

    def extend(self, description: str = "", **fields: Spec) -> Obj:
        """A new declaration with this one's fields and ``fields`` added (or replaced)."""
        return Obj({**self.fields, **fields}, description or self.description, required=self.required,
                   title=self.title, null=self.null, default=self.default)


class Either(Spec):
    """The first of ``options`` whose JSON type the value has (a whole number or an object, ...)."""

    __slots__ = ("options",)

    def __init__(self, *options: Spec, description: str = "", **kw) -> None:
        super().__init__(description, **kw)
        self.options = options

    @property
    def kinds(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(k for o in self.options for k in o.kinds)

    def check(self, value: Any, field: str) -> Any:
        for option in self.options:
            if option.accepts(value):
                return option.read(value, field)
        kinds = " or ".join(dict.fromkeys(_KIND_WORDS[k] for k in self.kinds))
        raise RulesInputError(field, f"must be {kinds}, got {shown(value)}")

    def body(self) -> dict:
        return {"anyOf": [o.schema() for o in self.options]}


_KIND_WORDS = {"boolean": "true or false", "integer": "a whole number", "string": "text", "object": "an object",
               "array": "a list", "number": "a number", "null": "null"}


class Tagged(Spec):
    """An object that is one of several shapes, told apart by which tag field it has
    (``{"retrieve": ...}``, ``{"move": 3}``): ``variants`` maps each tag to its :class:`Obj`."""

    __slots__ = ("variants",)
    kinds = ("object",)

    def __init__(self, variants: Mapping[str, Obj], description: str = "", **kw) -> None:
        super().__init__(description, **kw)
        self.variants = dict(variants)

    def tag(self, value: Any, field: str) -> str:
        """The one tag field of ``value``."""
        tags = [k for k in mapping(value, field) if k in self.variants]
        if len(tags) == 1:
            return tags[0]
        if tags:
            raise RulesInputError(field, f"give one of {_listed(self.variants)}, not {_listed(tags)}")
        hints = [(k, did_you_mean(k, list(self.variants))) for k in value]
        key, hint = next(((k, h) for k, h in hints if h), (None, ""))
        raise RulesInputError(at(field, clip(key, quote=False)) if key else field,
                              f"needs one of {_listed(self.variants)};{hint} got {clip(sorted(value))}")

    def check(self, value: Any, field: str) -> dict:
        return self.variants[self.tag(value, field)].read(value, field)

    def body(self) -> dict:
        return {"oneOf": [v.schema() for v in self.variants.values()]}


class DiceSlots(Spec):
    """A dice script ``{slot: [faces]}`` for an engine with these ``slots`` (:func:`dice_script`)."""

    __slots__ = ("slots",)
    kinds = ("object",)

    def __init__(self, slots: Sequence[str], description: str = "", **kw) -> None:
        super().__init__(description or "scripted dice by slot, e.g. {\"%s\": [4]}; unscripted slots roll "
                         "from the seed" % slots[0], **kw)
        self.slots = tuple(slots)

    def check(self, value: Any, field: str) -> dict[str, tuple[int, ...]]:
        return dice_script(value, self.slots, field)

    def body(self) -> dict:
        faces = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": DIE_SIDES},
                           {"type": "array", "maxItems": INPUT_ITEMS,
                            "items": {"type": "integer", "minimum": 1, "maximum": DIE_SIDES}}]}
        return {"type": "object", "additionalProperties": False, "properties": {s: faces for s in self.slots}}


SEED = Int(-INPUT_SEED, INPUT_SEED, "seed for the unscripted dice (the command line's --seed wins)")
"""The ``seed`` field every engine input may carry."""



def seed(value: object, field: str = "seed") -> int:
    """``value`` if it is a dice seed: a whole number from -:data:`~ruleslawyer.limits.INPUT_SEED` to
    :data:`~ruleslawyer.limits.INPUT_SEED` (the one bound every seed is held to: an input's ``seed``,
    ``--seed``, an engine's or fight's ``seed=``, a panel's seed box; a saved fight's seed is always
    one it can read back).

    Raises:
        RulesInputError: ``field``, naming the bound.
    """
    return whole(value, field, -INPUT_SEED, INPUT_SEED)


RULINGS = MapOf(Text("the answer", INPUT_NAME_CHARS),
                "ruling overrides, ruling id -> answer (see `ruleslawyer rulings`)")
"""The ``rulings`` field every engine input may carry (ids and answers are checked by the engine)."""


def check_attrs(obj: object, spec: Obj, field: str, names: Sequence[str]) -> None:
    """Check the attributes ``names`` of an input built in Python (a panel's, an API caller's) with the
    declarations the JSON reader uses: ``InitiativeCombatant(surprised="false")`` is refused as the
    JSON ``"surprised": "false"`` is, naming ``<field>.surprised``."""
    for key in names:
        spec.fields[key].read(getattr(obj, key), at(field, key))


def json_schema(spec: Spec, title: str, description: str = "") -> dict:
    """The JSON Schema (draft 2020-12) document of a declared input, as ``--schema`` prints it.

    ``title`` is the document's title even when the declaration carries its own (``Obj(title=...)``,
    the title it has where it is nested), so every ``--schema`` is titled as its command names it.
    """
    body = spec.schema()
    body.pop("title", None)
    if description:
        body["description"] = description
    return {"$schema": SCHEMA_DIALECT, "title": title, **body}
