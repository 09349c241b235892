"""A Charge met by a counter-attack, as one two-actor exchange (``mythras/combat/charge-evade-outmanoeuvre#1``).

The chapter: "Charge: ... Longer weapon strikes first if both counter; spears set against charge may
steal the charger's Damage Modifier." :func:`resolve_charge` resolves the charger's attack on the
target and the target's counter-attack on the charger, each a full exchange
(:func:`~.exchange.resolve_exchange`), in the order the weapons' lengths give; a spear set against
the charge strikes with the charger's Damage Modifier. The same dice serve both: the charge rolls in
the exchange's slots (``attack``, ``parry``, ``damage`` …), the counter in the same slots prefixed
``counter.`` (``counter.attack``, ``counter.damage`` …).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import dice_script
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step, StepKind, TracedResult, resolve_ruling

from . import ids, rulings as _r
from .exchange import ExchangeInput, ExchangeResult, resolve_exchange
from .schema import CHARGE, CHARGE_SLOTS

__all__ = ["LONGER", "ChargeInput", "ChargeResult", "resolve_charge"]

LONGER = ("charger", "counter", "same")
"""Whose weapon is longer, as ``ChargeInput.longer`` says it."""

COUNTER = "counter."
"""Prefix of the counter-attack's dice slots and input fields."""


@contextmanager
def _under(prefix: str) -> Iterator[None]:
    """Name the fields of input errors raised inside under ``prefix`` (``attacker.skill`` ->
    ``counter.attacker.skill``)."""
    try:
        yield
    except RulesInputError as exc:
        if exc.field.startswith("dice."):  # a dice slot already says it is the counter's (dice.counter.attack)
            raise
        raise type(exc)(prefix + exc.field, exc.message) from None


@dataclass(frozen=True)
class ChargeInput:
    """A Charge and the target's counter to it.

    Attributes:
        charge: the charger (``attacker``, with ``charge`` true) against the target (``defender``).
        counter: the target's counter-attack (``attacker``, ``set_against_charge`` for a set spear)
            against the charger (``defender``: the charger's defence), or None.
        longer: whose weapon is longer: ``"charger"``, ``"counter"`` or ``"same"``.
    """

    charge: ExchangeInput
    counter: ExchangeInput | None = None
    longer: str = "same"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChargeInput:
        """The exchange input with ``counter`` (an exchange input of its own) and ``longer``.

        Raises:
            RulesInputError: a bad field, named (``counter.attacker.skill``, ``longer``), read strictly
                by :data:`.schema.CHARGE` (unknown fields, dice slots, types, bounds).
        """
        d = CHARGE.read(data, "")  # strict: unknown fields, types, bounds, dice slots (counter.attack)
        with _under(COUNTER):
            counter = None if d.get("counter") is None else ExchangeInput.from_checked(d["counter"])
        return cls(ExchangeInput.from_checked(d), counter, d.get("longer", "same"))


@dataclass(frozen=True)
class ChargeResult(TracedResult):
    """A Charge and its counter.

    Attributes:
        charge: the charger's exchange, or None when the counter's first blow stopped it.
        counter: the counter-attack's exchange, or None (no counter, or not struck).
        first: who strikes first, ``"charger"`` or ``"counter"``; None when both strike at once.
        seed: the dice seed (None when scripted only).
        trace: the explanation.
    """

    charge: ExchangeResult | None
    counter: ExchangeResult | None
    first: str | None
    seed: int | None
    trace: Step

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe fields; the two exchanges leave out their own trace (it is inside ``trace``)."""
        data = super().to_dict()
        for key in ("charge", "counter"):
            if isinstance(data.get(key), dict):
                data[key].pop("trace", None)
        return data


class _Prefixed(Dice):
    """The same dice, every slot name prefixed (the counter-attack's ``counter.attack`` …)."""

    def __init__(self, inner: Dice, prefix: str) -> None:  # noqa: D107 - shares the inner dice's state
        self._inner, self._prefix = inner, prefix
        self.seed, self.history = inner.seed, inner.history

    def roll(self, sides: int, slot: str) -> int:  # noqa: D102 - see Dice.roll
        return self._inner.roll(sides, self._prefix + slot)

    def is_scripted(self, slot: str) -> bool:  # noqa: D102 - see Dice.is_scripted
        return self._inner.is_scripted(self._prefix + slot)


def _order(inp: ChargeInput, overrides: Mapping[str, str]) -> tuple[str | None, Step]:
    """Who strikes first: the longer weapon; the same length under ``mythras.charge-same-length``."""
    if inp.longer != "same":
        return inp.longer, Step.of(StepKind.RULE, f"The {inp.longer}'s weapon is longer: it strikes first",
                                   value=inp.longer, cites=[ids.CHARGE])
    use = resolve_ruling(_r.CHARGE_SAME_LENGTH.id, overrides)
    first = {"charger-first": "charger", "counter-first": "counter"}.get(use.answer)
    label = f"Weapons of the same length: the {first} strikes first" if first else \
        "Weapons of the same length: both strike at once"
    return first, Step.of(StepKind.RULING, label, value=first, cites=[ids.CHARGE], rulings=[use])


def _set_spear(inp: ChargeInput, overrides: Mapping[str, str], rules: Rules
               ) -> tuple[ExchangeInput, Step | None]:
    """The counter-attack, with the charger's Damage Modifier when its spear is set against the charge."""
    from .stages.context import open_exchange
    from .stages.damage import attacker_modifier

    counter = inp.counter
    if not counter.attacker.set_against_charge:
        return counter, None
    use = resolve_ruling(_r.SET_SPEAR_MODIFIER.id, overrides)
    charger = inp.charge.attacker if use.answer == "charging" else dataclasses.replace(inp.charge.attacker,
                                                                                      charge=False)
    ctx = open_exchange(ExchangeInput(charger, inp.charge.defender), Dice(seed=0), overrides, rules)
    row, steps = attacker_modifier(ctx)
    spear = dataclasses.replace(counter.attacker, set_against_charge=False, damage_modifier=row.dice, str_siz=None)
    step = Step.of(StepKind.RULING, f"Set against the charge: {counter.attacker.name} strikes with the "
                                    f"charger's Damage Modifier {row.dice}", value=row.dice,
                   detail="the charger's Damage Modifier " + ("as it charges" if use.answer == "charging" else
                                                              "without the Charge's step"),
                   cites=[ids.CHARGE], rulings=[use], children=steps)
    return dataclasses.replace(counter, attacker=spear), step


def resolve_charge(inp: ChargeInput, *, dice: Dice | None = None, rng=None, seed: int | None = None,
                   script: Mapping[str, Sequence[int]] | None = None, rulings: Mapping[str, str] | None = None,
                   rules: Rules | None = None) -> ChargeResult:
    """Resolve a Charge and the target's counter (``charge-evade-outmanoeuvre#1``).

    Example: a spear (longer) set against a charging sword strikes first, with the charger's Damage
    Modifier one step up for the Charge (+1d4 for STR+SIZ 27); then the sword's charge is resolved.

    Args:
        inp: the charge and the counter.
        dice: the dice; else built from ``rng`` / ``seed`` / ``script`` (the exchange's slots for the
            charge, ``counter.``-prefixed ones for the counter).
        rulings: ruling overrides.
        rules: the rules database whose tables are used (default: the default database).

    Raises:
        RulesInputError: bad input, naming the field (``attacker.charge`` when the charger does not
            charge; the counter's fields as ``counter.attacker.skill``).
    """
    rules = resolve_rules(rules)
    overrides = dict(rulings or {})
    check_rulings(overrides, "mythras")
    if not inp.charge.attacker.charge:
        raise RulesInputError("attacker.charge", "a Charge met by a counter needs the charger's charge: true")
    dice = dice or Dice(rng=rng, seed=seed, script=dice_script(script, CHARGE_SLOTS))
    if inp.counter is None:
        result = resolve_exchange(inp.charge, dice=dice, rulings=overrides, rules=rules)
        return ChargeResult(result, None, "charger", dice.seed, result.trace)
    first, order_step = _order(inp, overrides)
    counter_inp, spear_step = _set_spear(inp, overrides, rules)
    strikes = {"charger": lambda: resolve_exchange(inp.charge, dice=dice, rulings=overrides, rules=rules),
               "counter": lambda: _counter(counter_inp, dice, overrides, rules)}
    sequence = ("counter", "charger") if first == "counter" else ("charger", "counter")
    done = {sequence[0]: strikes[sequence[0]]()}
    steps = [order_step, *([spear_step] if spear_step else [])]
    stop = _stops_second(done[sequence[0]], first, overrides)
    if stop is None:
        done[sequence[1]] = strikes[sequence[1]]()
    labelled = [_labelled(who, done[who].trace) for who in sequence if who in done]
    trace = Step.of(StepKind.RESULT, "Mythras Charge met by a counter",
                    value={who: done[who].trace.value for who in sequence if who in done},
                    detail=("both strike at once" if first is None else f"the {first} strikes first"),
                    cites=[ids.CHARGE], children=[*steps, *labelled, *([stop] if stop else [])])
    return ChargeResult(done.get("charger"), done.get("counter"), first, dice.seed, trace)


def _counter(inp: ExchangeInput, dice: Dice, overrides: Mapping[str, str], rules: Rules) -> ExchangeResult:
    with _under(COUNTER):
        return resolve_exchange(inp, dice=_Prefixed(dice, COUNTER), rulings=overrides, rules=rules)


def _stops_second(first_blow: ExchangeResult, first: str | None, overrides: Mapping[str, str]) -> Step | None:
    """The step saying the second blow is not struck (ruling ``mythras.charge-first-blow``), or None."""
    if first is None or first_blow.damage <= 0:
        return None
    use = resolve_ruling(_r.CHARGE_FIRST_BLOW.id, overrides)
    if use.answer != "hit-stops-second":
        return None
    return Step.of(StepKind.RULING, "The first blow landed: the second is not struck", value=first_blow.damage,
                   cites=[ids.CHARGE], rulings=[use])


def _labelled(who: str, trace: Step) -> Step:
    return Step.of(trace.kind, f"{'Charge' if who == 'charger' else 'Counter'}: {trace.label}", trace.value,
                   trace.detail, trace.cites, trace.rulings, trace.children)

