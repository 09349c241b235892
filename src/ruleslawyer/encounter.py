"""A whole fight: rounds resolved one after another, state carried, every change cited, replayable.

:class:`Encounter` is the part every ruleset shares: the frozen :class:`FightState`, declarations
checked against it, the round's dice, the log, undo, and saving and loading. Each ruleset subclasses
it (``ruleslawyer.rulesets.<id>.fight``) and supplies four hooks: reading a combatant, writing one
back, checking a declaration, and playing a round; two more are optional: linking the combatants to
each other once all are read (:meth:`Encounter.link_combatants`), and the fight's options, settings
the GM chooses for the whole fight (:meth:`Encounter.read_options`; none by default).

Dice: a round's unscripted dice come from a :class:`random.Random` seeded with the fight's seed and
the round number, so saving after any round and loading to go on gives exactly the run without the
stop. A round may also carry a dice script (``{"slot": [faces]}``) for worked examples.

Shapes (``to_dict``)::

    {"ruleset": "mastery", "seed": 7, "rulings": {...}, "options": {...},
     "state": {"round": 2, "over": false, "combatants": [{...}, ...]},
     "pending": {"Aldric": {...declaration...}}, "log": [{"round": 1, "text": ..., "cites": [...]}]}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import (SEED, Any_, Bool, Int, ListOf, MapOf, Name, Obj, Text, at, dice_script, rename,
                                seed as read_seed)
from ruleslawyer.limits import clip
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step, StepKind, TracedResult, to_jsonable

__all__ = ["LogLine", "FightState", "RoundResult", "Encounter", "MAX_ROUNDS", "MAX_COMBATANTS", "SAVED_FIGHT",
           "log_line", "fight_over_text"]

#: Bounds on a fight's size (README "Limits").
MAX_ROUNDS = 200
MAX_COMBATANTS = 50


@dataclass(frozen=True)
class LogLine:
    """One line of the fight log: what changed, in which round, and the rules (or rulings) behind it."""

    round: int
    text: str
    cites: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"round": self.round, "text": self.text, "cites": list(self.cites)}


@dataclass(frozen=True)
class FightState:
    """Where the fight stands after ``round`` rounds.

    Attributes:
        ruleset: ruleset id.
        round: rounds resolved so far (0 before the first).
        combatants: the ruleset's frozen combatant states, each with a ``name``, in input order.
        over: True once the ruleset's end condition holds (one side left standing).
    """

    ruleset: str
    round: int
    combatants: tuple[Any, ...]
    over: bool = False

    def combatant(self, name: str, field_name: str = "name") -> Any:
        """The combatant called ``name``.

        Raises:
            RulesInputError: no such combatant (the message lists them).
        """
        for c in self.combatants:
            if c.name == name:
                return c
        names = ", ".join(c.name for c in self.combatants)
        raise RulesInputError(field_name, f"no combatant called {name!r}; combatants: {names}")

    def with_combatant(self, updated: Any) -> "FightState":
        """This state with the combatant of the same name replaced by ``updated``."""
        return replace(self, combatants=tuple(updated if c.name == updated.name else c for c in self.combatants))


@dataclass(frozen=True)
class RoundResult(TracedResult):
    """One resolved round: the state after it, its log lines and its trace."""

    round: int
    state: FightState
    lines: tuple[LogLine, ...]
    trace: Step


@dataclass
class _Saved:
    state: FightState
    pending: dict[str, Any]
    log_length: int


class Encounter:
    """A fight across rounds for one ruleset (subclass per ruleset; see the module docstring).

    Args:
        state: the starting state (build it with :meth:`start`).
        seed: the fight's seed (each round's dice derive from it and the round number); None draws one.
        rulings: ruling overrides, ``{ruling id: answer}``, for every exchange of the fight.
        rules: the rules handle (None: the default database).
        options: the fight's options (:meth:`read_options` checks them; ``self.options`` holds them).
    """

    ruleset: ClassVar[str] = ""
    #: The dice slots a round of this ruleset rolls: a round's script is read strictly against them
    #: (:func:`ruleslawyer.inputs.dice_script`: an unknown slot, a face that is no whole number from 1 up,
    #: too many faces); whether a face fits its die is checked as it is rolled (``dice.<slot>``, naming
    #: the die and the faces allowed). Empty: the script is only checked for its shape when rolled.
    dice_slots: ClassVar[tuple[str, ...]] = ()

    def __init__(self, state: FightState, *, seed: int | None = None,
                 rulings: Mapping[str, str] | None = None, rules=None,
                 options: Mapping[str, Any] | None = None) -> None:
        from ruleslawyer.rulesdb.handle import resolve_rules

        self.seed = read_seed(seed) if seed is not None else random.SystemRandom().randrange(2**32)
        self.rulings = check_rulings(rulings, self.ruleset or None)
        self.rules = resolve_rules(rules)
        self.options = self.read_options(options)
        self._state = state
        self._pending: dict[str, Any] = {}
        self._log: list[LogLine] = []
        self._history: list[_Saved] = []

    # -- the four hooks a ruleset supplies ---------------------------------------------------
    @classmethod
    def read_combatant(cls, data: Any, field_name: str, rules) -> Any:
        """A combatant's starting state from JSON-shaped ``data`` (raise RulesInputError naming fields)."""
        raise NotImplementedError

    @classmethod
    def write_combatant(cls, combatant: Any) -> dict:
        """A combatant state as JSON-shaped data that :meth:`read_combatant` reads back exactly."""
        return to_jsonable(combatant)

    def check_declaration(self, state: FightState, combatant: Any, declaration: Any, field_name: str) -> Any:
        """The declaration, checked against the state (a dead combatant acting, more AP than left, a
        second Full Action...: RulesInputError naming the field and the rule)."""
        raise NotImplementedError

    def play_round(self, state: FightState, declarations: Mapping[str, Any], dice: Dice
                   ) -> tuple[FightState, Step, list[LogLine]]:
        """Resolve one round from ``state``: the new state, the round's trace and its log lines."""
        raise NotImplementedError

    @classmethod
    def read_options(cls, data: Mapping[str, Any] | None) -> dict:
        """The fight's options, checked, as JSON-shaped data (``to_dict`` saves it and this reads it
        back). Default: a ruleset with no options takes none.

        Raises:
            RulesInputError: not an object, or an option this ruleset does not have (``options.<name>``).
        """
        if data is None:
            return {}
        if not isinstance(data, Mapping):
            raise RulesInputError("options", "must be an object of option -> value")
        if data:
            raise RulesInputError(f"options.{sorted(data)[0]}", f"{cls.ruleset or 'this ruleset'} fights take no options")
        return {}

    @classmethod
    def link_combatants(cls, combatants: tuple[Any, ...], rules) -> tuple[Any, ...]:
        """The combatants once all are read, made consistent with each other (names they refer to
        exist, relations both ways). Default: unchanged. Raise RulesInputError naming
        ``combatants[i].<field>``."""
        return combatants

    @classmethod
    def schema(cls) -> dict:
        """The ``fight`` input format for this ruleset (combatant and declaration fields)."""
        raise NotImplementedError

    @classmethod
    def summary(cls, combatant: Any) -> str:
        """One line on where a combatant stands (``Brute: 3 health, 1 AP, Prone``)."""
        return str(combatant.name)

    # -- building and reading ----------------------------------------------------------------
    @classmethod
    def start(cls, combatants: Sequence[Any], *, seed: int | None = None,
              rulings: Mapping[str, str] | None = None, rules=None,
              options: Mapping[str, Any] | None = None) -> "Encounter":
        """A new fight at round 0 from the combatants' JSON-shaped data.

        Raises:
            RulesInputError: not a list, too many, a repeated name, a bad combatant (named), or one
                :meth:`check_new` refuses.
        """
        fight = cls._assemble(combatants, seed=seed, rulings=rulings, rules=rules, options=options)
        fight.check_new()
        return fight

    def check_new(self) -> None:
        """Checks a new fight's combatants get and a saved fight's do not (a saved state may have come
        where it is by play, e.g. a Darkmaster character woken at 0 hits): none by default.

        Raises:
            RulesInputError: naming ``combatants[i].<field>``.
        """

    @classmethod
    def _assemble(cls, combatants: Sequence[Any], *, seed: int | None, rulings: Mapping[str, str] | None, rules,
                  options: Mapping[str, Any] | None) -> "Encounter":
        """The fight from the combatants' data, each read and linked (what :meth:`start` and
        :meth:`from_dict` share)."""
        from ruleslawyer.rulesdb.handle import resolve_rules

        rules = resolve_rules(rules)
        if isinstance(combatants, (str, bytes, Mapping)) or not isinstance(combatants, Sequence):
            raise RulesInputError("combatants", "must be a list of combatants")
        if not 1 <= len(combatants) <= MAX_COMBATANTS:
            raise RulesInputError("combatants", f"must hold 1 to {MAX_COMBATANTS} combatants, got {len(combatants)}")
        read = [cls.read_combatant(c, f"combatants[{i}]", rules) for i, c in enumerate(combatants)]
        names = [c.name for c in read]
        for name in names:
            if names.count(name) > 1:
                raise RulesInputError("combatants", f"two combatants are called {name!r}; names must differ")
        read = cls.link_combatants(tuple(read), rules)
        return cls(FightState(cls.ruleset, 0, tuple(read)), seed=seed, rulings=rulings, rules=rules, options=options)

    @property
    def state(self) -> FightState:
        """The frozen state after the last resolved round."""
        return self._state

    @property
    def log(self) -> tuple[LogLine, ...]:
        """Every log line so far, oldest first."""
        return tuple(self._log)

    @property
    def pending(self) -> dict[str, Any]:
        """Declarations made for the next round, by combatant name."""
        return dict(self._pending)

    # -- playing -----------------------------------------------------------------------------
    def declare(self, name: str, declaration: Any) -> None:
        """Declare what ``name`` does in the next round (replacing an earlier declaration).

        Raises:
            RulesInputError: unknown combatant, or a declaration the state forbids (field
                ``declarations.<name>...``, naming the rule). Nothing already resolved is lost.
        """
        field_name = f"declarations.{name}"
        combatant = self._state.combatant(name, field_name)
        if self._state.over:
            raise RulesInputError(field_name, "the fight is over")
        self._pending[name] = self.check_declaration(self._state, combatant, declaration, field_name)

    def withdraw(self, name: str) -> None:
        """Take back what ``name`` declared for the next round (after :meth:`undo` too), so it takes the
        ruleset's default; nothing pending: nothing changes.

        Raises:
            RulesInputError: unknown combatant (field ``declarations.<name>``).
        """
        self._state.combatant(name, f"declarations.{name}")
        self._pending.pop(name, None)

    def round_dice(self, round_number: int, script: Mapping[str, Sequence[int]] | None = None) -> Dice:
        """The dice of round ``round_number``: its script, else the fight's seed and the round number.

        Raises:
            DiceScriptError: a script that is not an object of this ruleset's :attr:`dice_slots`
                (``dice``, ``dice.<slot>``, ``dice.<slot>[i]``).
        """
        if script is not None and self.dice_slots:
            script = dice_script(script, self.dice_slots)
        return Dice(rng=random.Random(f"{self.seed}:{round_number}"), script=script)

    def resolve_round(self, script: Mapping[str, Sequence[int]] | None = None) -> RoundResult:
        """Resolve the next round with the pending declarations (combatants who declared nothing
        take the ruleset's default) and return it. ``script`` scripts this round's dice."""
        if self._state.round >= MAX_ROUNDS:
            raise RulesInputError("rounds", f"a fight lasts at most {MAX_ROUNDS} rounds")
        number = self._state.round + 1
        before = _Saved(self._state, dict(self._pending), len(self._log))
        state, trace, lines = self.play_round(self._state, dict(self._pending), self.round_dice(number, script))
        state = replace(state, round=number)
        self._history.append(before)
        self._state = state
        self._pending = {}
        self._log.extend(lines)
        return RoundResult(number, state, tuple(lines), trace)

    def undo(self) -> FightState:
        """Take back the last resolved round (its declarations become pending again).

        Raises:
            RulesInputError: no round to undo.
        """
        if not self._history:
            raise RulesInputError("undo", "no round has been resolved yet")
        saved = self._history.pop()
        self._state, self._pending = saved.state, saved.pending
        del self._log[saved.log_length:]
        return self._state

    # -- saving ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything needed to go on exactly where this fight stands (see the module docstring)."""
        return {"ruleset": self.ruleset, "seed": self.seed, "rulings": dict(self.rulings),
                "options": to_jsonable(self.options),
                "state": {"round": self._state.round, "over": self._state.over,
                          "combatants": [self.write_combatant(c) for c in self._state.combatants]},
                "pending": {k: to_jsonable(v) for k, v in self._pending.items()},
                "log": [line.to_dict() for line in self._log]}

    @classmethod
    def from_input(cls, data: Mapping[str, Any], *, seed: int | None = None,
                   rulings: Mapping[str, str] | None = None, rules=None, field: str = "") -> "Encounter":
        """A fight from a ``ruleslawyer fight`` input: ``combatants`` (with ``seed``, ``options``) to
        start one, or a saved ``fight`` to go on with; ``rulings`` in the input, then ``rulings=``
        over them. ``seed`` (``--seed``, a panel's seed box) wins over the input's or the saved one.

        Raises:
            RulesInputError: both ``fight`` and ``combatants`` (or ``seed``, ``options``) given, no
                combatants, or a bad field (named under ``field``).
        """
        top = check_rulings(data.get("rulings"), cls.ruleset, at(field, "rulings"))
        top.update(check_rulings(rulings, cls.ruleset))
        if "fight" in data:
            extra = [k for k in ("combatants", "seed", "options") if k in data]
            if extra:
                raise RulesInputError(at(field, extra[0]), "give either a saved fight (\"fight\") to go on with or "
                                      "\"combatants\" to start one, not both; a saved fight carries its own "
                                      "combatants, seed and options")
            return cls.from_dict(data["fight"], rules=rules, field=at(field, "fight"), seed=seed, rulings=top)
        if "combatants" not in data:
            raise RulesInputError(at(field, "combatants"), "is required: the combatants (or a saved fight under "
                                                           "\"fight\")")
        return cls.start(data["combatants"], seed=data.get("seed") if seed is None else seed, rulings=top,
                         rules=rules, options=data.get("options"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, rules=None, field: str = "", seed: int | None = None,
                  rulings: Mapping[str, str] | None = None) -> "Encounter":
        """A fight saved with :meth:`to_dict`, ready to go on.

        Args:
            data: the saved fight, read strictly (:data:`SAVED_FIGHT`): unknown fields, a log line or
                a pending declaration of the wrong shape, a bad combatant are refused.
            field: where ``data`` sits in its input (``fight`` on the command line): every error's
                field starts with it (``fight.state.combatants[0].health``).
            seed: a seed to go on with instead of the saved one (checked against the same bound).
            rulings: ruling overrides laid over the saved ones.

        Raises:
            RulesInputError: a saved fight of another ruleset (``<field>.ruleset``, naming it), or a
                bad field of it (its full path).
        """
        saved = SAVED_FIGHT.read(data, field)
        if saved["ruleset"] != cls.ruleset:
            raise RulesInputError(at(field, "ruleset"), f"this is a saved {clip(saved['ruleset'])} fight, not a "
                                                        f"{cls.ruleset} one; go on with it in that ruleset's fight")
        state = saved["state"]
        merged = check_rulings(saved.get("rulings"), cls.ruleset, at(field, "rulings"))
        merged.update(check_rulings(rulings, cls.ruleset))
        try:
            fight = cls._assemble(state["combatants"], seed=saved.get("seed") if seed is None else seed,
                                  rulings=merged, rules=rules, options=saved.get("options"))
        except RulesInputError as exc:
            if exc.field.startswith("combatants"):
                raise rename(exc, at(field, "state")) from None
            if field and not exc.field.startswith("rulings") and not (seed is not None and exc.field == "seed"):
                raise rename(exc, field) from None
            raise
        fight._state = replace(fight._state, round=state.get("round", 0), over=state.get("over", False))
        fight._log = [LogLine(x["round"], x["text"], tuple(x.get("cites", ()))) for x in saved.get("log", ())]
        for name, decl in saved.get("pending", {}).items():
            try:
                fight.declare(name, decl)
            except RulesInputError as exc:
                raise rename(exc, at(field, "pending"), "declarations") from None
        return fight

    def round_step(self, number: int, children: list[Step]) -> Step:
        """The trace root of round ``number`` (a helper for :meth:`play_round`)."""
        return Step.of(StepKind.RESULT, f"Round {number}", children=children)


#: A saved fight (:meth:`Encounter.to_dict`) as :meth:`Encounter.from_dict` reads it; the combatants,
#: options and pending declarations are then read by the ruleset's own hooks.
SAVED_FIGHT = Obj({
    "ruleset": Name("the ruleset id the fight was saved from"),
    "seed": SEED,
    "rulings": Any_("ruling overrides, ruling id -> answer (checked as every rulings value is)"),
    "options": Any_("the fight's options (checked by the ruleset)"),
    "state": Obj({"round": Int(0, MAX_ROUNDS, "rounds resolved so far"),
                  "over": Bool("whether the fight has ended"),
                  "combatants": ListOf(Any_("a combatant, read by the ruleset"), min_items=1,
                                       max_items=MAX_COMBATANTS)},
                 "where the fight stands", required=("combatants",)),
    "pending": MapOf(Any_("a declaration, checked against the state"), "declarations for the next round, by name",
                     max_items=MAX_COMBATANTS),
    "log": ListOf(Obj({"round": Int(0, MAX_ROUNDS), "text": Text("what changed"),
                       "cites": ListOf(Text("a rule or ruling id", 1000))}, required=("round", "text")),
                  "the fight log, oldest first", max_items=MAX_ROUNDS * MAX_COMBATANTS * 20),
}, "a fight saved with --json (its \"fight\" member)", required=("ruleset", "state"), title="saved fight")


def log_line(round_number: int, text: str, *cites: str) -> LogLine:
    """A :class:`LogLine` (a short helper for the rulesets' ``play_round``)."""
    return LogLine(round_number, text, tuple(c for c in cites if c))



def fight_over_text(sides: Sequence[str]) -> str:
    """The log line every ruleset writes when its fight ends, naming the winning side.

    Args:
        sides: the sides (``Fighter.side`` values) still able to fight: at most one.

    Returns:
        ``"The fight is over, won by heroes: the only side still able to fight"`` for one side,
        ``"The fight is over, won by nobody: no side is still able to fight"`` for none.
    """
    if not sides:
        return "The fight is over, won by nobody: no side is still able to fight"
    return f"The fight is over, won by {' and '.join(sides)}: the only side still able to fight"
