"""Exact discrete distributions for the odds engines.

A :class:`Dist` maps outcomes to exact :class:`~fractions.Fraction` probabilities. Exploding dice
are followed exactly up to the engine's explosion cap; where a chain of maximum faces is so unlikely
that following it further changes nothing a table could notice, it is cut off and the mass cut off
is kept: ``Dist.truncated_mass`` is exactly ``1 - sum(probabilities)``, reported with every answer
(by default at most :data:`DEFAULT_TOLERANCE`).

:func:`enumerate_engine` runs a real engine entry point once per distinct sequence of die faces
(scripted by a replaying :class:`~ruleslawyer.dice.Dice`) and collects what it returns, weighted by
the probability of those faces: the odds of a trial or a table roll are computed *by* the engine,
so the two cannot drift apart.

This module is pure: no database, pandas or widget imports.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.errors import RulesInputError

__all__ = [
    "DEFAULT_TOLERANCE",
    "Dist",
    "ExplodingInfo",
    "die",
    "exploding",
    "dice_expr",
    "enumerate_engine",
    "check_tolerance",
    "merge_rulings",
    "exploding_support",
    "prob_to_float",
]

DEFAULT_TOLERANCE = Fraction(1, 10**12)
"""Most probability mass an answer may cut off by default (1e-12)."""

ONE = Fraction(1)
ZERO = Fraction(0)


def check_tolerance(tolerance: object) -> Fraction:
    """Validate a tolerance (a probability from 0 to 1e-3) and return it as a Fraction.

    Args:
        tolerance: an int, float or Fraction from 0 to 0.001 (NaN and infinities are refused).

    Raises:
        RulesInputError: field ``tolerance``.
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, Fraction)) \
            or (isinstance(tolerance, float) and not math.isfinite(tolerance)):
        raise RulesInputError("tolerance", f"must be a number from 0 to 0.001, got {tolerance!r}")
    # a float as the decimal it was written as: the binary double nearest 0.001 is a little more
    # than 1/1000, and "must be from 0 to 0.001, got 0.001" was the result
    t = Fraction(repr(tolerance)) if isinstance(tolerance, float) else Fraction(tolerance)
    if not 0 <= t <= Fraction(1, 1000):
        raise RulesInputError("tolerance", f"must be a number from 0 to 0.001, got {tolerance!r}")
    return t


def merge_rulings(*layers: object) -> dict[str, str]:
    """Merge ruling-override layers (later layers win), each checked to be an object first.

    Args:
        layers: each ``None`` (no overrides) or a mapping of ruling id -> answer, e.g. an input's
            ``"rulings"`` then the caller's ``rulings=``.

    Returns:
        One plain dict (ids and answers are checked by the ruleset's own ``check``).

    Raises:
        RulesInputError: field ``rulings``, when a layer is not an object (a string, number or list).
    """
    merged: dict[str, str] = {}
    for layer in layers:
        if layer is None:
            continue
        if not isinstance(layer, Mapping):
            raise RulesInputError("rulings", "must be an object of ruling id -> answer "
                                             f"(e.g. {{\"kit.explosion-cap\": \"10\"}}), got {layer!r}")
        merged.update(layer)
    return merged


def prob_to_float(p: Fraction) -> float:
    """A probability as a float (JSON output)."""
    return float(p)


class Dist:
    """A discrete distribution with exact probabilities.

    Stored as whole-number weights over one common denominator (fast exact arithmetic); every
    probability read from it is an exact :class:`~fractions.Fraction`.

    Args:
        pmf: outcome -> probability (Fractions or ints; zero entries are dropped). The
            probabilities may sum to less than 1: the rest is mass cut off (:attr:`truncated_mass`).

    Outcomes may be any hashable value (ints, strings, tuples). A Dist is immutable by contract.
    """

    __slots__ = ("_w", "_den")

    def __init__(self, pmf: Mapping[Hashable, Fraction | int]) -> None:
        den = 1
        for p in pmf.values():
            q = Fraction(p).denominator
            den = den * q // math.gcd(den, q)
        w: dict[Hashable, int] = {}
        for k, p in pmf.items():
            if p:
                f = Fraction(p)
                w[k] = f.numerator * (den // f.denominator)
        self._w = w
        self._den = den

    @classmethod
    def _raw(cls, weights: dict[Hashable, int], den: int) -> Dist:
        d = cls.__new__(cls)
        d._w = {k: v for k, v in weights.items() if v}
        d._den = den
        return d

    # ---- construction ---------------------------------------------------------------------------
    @classmethod
    def point(cls, outcome: Hashable) -> Dist:
        """Certainty: ``outcome`` with probability 1."""
        return cls._raw({outcome: 1}, 1)

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Dist:
        """Each listed outcome equally likely (repeats add up)."""
        items = list(outcomes)
        if not items:
            raise ValueError("uniform() needs at least one outcome")
        acc: dict[Hashable, int] = defaultdict(int)
        for o in items:
            acc[o] += 1
        return cls._raw(acc, len(items))

    @classmethod
    def weighted(cls, pairs: Iterable[tuple[Hashable, Fraction]]) -> Dist:
        """From (outcome, probability) pairs; repeated outcomes add up."""
        acc: dict[Hashable, Fraction] = defaultdict(Fraction)
        for o, p in pairs:
            acc[o] += p
        return cls(acc)

    # ---- reading --------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._w)

    def __len__(self) -> int:
        return len(self._w)

    def __getitem__(self, outcome: Hashable) -> Fraction:
        return Fraction(self._w.get(outcome, 0), self._den)

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {v}" for k, v in list(self.items())[:8])
        more = ", ..." if len(self._w) > 8 else ""
        return f"Dist({{{body}{more}}}, truncated={self.truncated_mass})"

    def _sorted(self) -> list[tuple[Hashable, int]]:
        try:
            return sorted(self._w.items())
        except TypeError:
            return list(self._w.items())

    def items(self) -> list[tuple[Hashable, Fraction]]:
        """(outcome, probability) pairs, sorted by outcome where outcomes are comparable."""
        return [(k, Fraction(v, self._den)) for k, v in self._sorted()]

    def outcomes(self) -> list[Hashable]:
        return [k for k, _ in self._sorted()]

    @property
    def total(self) -> Fraction:
        """Sum of the probabilities kept (1 minus :attr:`truncated_mass`)."""
        return Fraction(sum(self._w.values()), self._den)

    @property
    def truncated_mass(self) -> Fraction:
        """Exact probability mass cut off (0 when the distribution is complete)."""
        return 1 - self.total

    def prob(self, pred: Callable[[Any], bool] | Hashable) -> Fraction:
        """P(pred(outcome)) for a predicate, or P(outcome == value) for a value."""
        if callable(pred):
            return Fraction(sum(v for k, v in self._w.items() if pred(k)), self._den)
        return Fraction(self._w.get(pred, 0), self._den)

    def mean(self) -> Fraction:
        """Expected value of numeric outcomes, over the mass kept (renormalised)."""
        t = sum(self._w.values())
        return Fraction(sum(k * v for k, v in self._w.items()), t) if t else ZERO

    def conditional(self, pred: Callable[[Any], bool]) -> Dist:
        """The distribution given ``pred`` (renormalised; empty Dist when pred has probability 0)."""
        keep = {k: v for k, v in self._w.items() if pred(k)}
        t = sum(keep.values())
        return Dist._raw(keep, t) if t else Dist({})

    def to_dict(self) -> dict[str, Any]:
        """``{"outcomes": {str(outcome): float}, "truncated_mass": float}`` for JSON."""
        return {"outcomes": {_key(k): v / self._den for k, v in self._sorted()},
                "truncated_mass": float(self.truncated_mass)}

    def as_floats(self) -> dict[Hashable, float]:
        return {k: v / self._den for k, v in self._sorted()}

    # ---- transforming ---------------------------------------------------------------------------
    def map(self, fn: Callable[[Any], Hashable]) -> Dist:
        """Distribution of ``fn(outcome)`` (outcomes mapping to the same value add up)."""
        acc: dict[Hashable, int] = defaultdict(int)
        for k, v in self._w.items():
            acc[fn(k)] += v
        return Dist._raw(acc, self._den)

    def bind(self, fn: Callable[[Any], Dist]) -> Dist:
        """Chain a dependent step: for each outcome, ``fn(outcome)`` is the next distribution."""
        subs = [(v, fn(k)) for k, v in self._w.items()]
        common = 1
        for _, d in subs:
            common = common * d._den // math.gcd(common, d._den)
        acc: dict[Hashable, int] = defaultdict(int)
        for v, d in subs:
            scale = v * (common // d._den)
            for k2, v2 in d._w.items():
                acc[k2] += scale * v2
        return Dist._raw(acc, self._den * common)

    def combine(self, other: Dist, fn: Callable[[Any, Any], Hashable]) -> Dist:
        """Distribution of ``fn(a, b)`` for independent ``a ~ self`` and ``b ~ other``."""
        acc: dict[Hashable, int] = defaultdict(int)
        for a, va in self._w.items():
            for b, vb in other._w.items():
                acc[fn(a, b)] += va * vb
        return Dist._raw(acc, self._den * other._den)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, Dist):
            acc: dict[Hashable, int] = defaultdict(int)
            for a, va in self._w.items():
                for b, vb in other._w.items():
                    acc[a + b] += va * vb
            return Dist._raw(acc, self._den * other._den)
        if other == 0:
            return self
        return Dist._raw({k + other: v for k, v in self._w.items()}, self._den)

    __radd__ = __add__

    def scaled(self, p: Fraction) -> Dist:
        """Every probability multiplied by ``p`` (a sub-distribution; the rest counts as cut off)."""
        p = Fraction(p)
        return Dist._raw({k: v * p.numerator for k, v in self._w.items()}, self._den * p.denominator)

    def best_of_two(self, keep: str) -> Dist:
        """Roll twice (independently) and keep the ``"higher"`` or ``"lower"`` total."""
        items = self._sorted()
        acc: dict[Hashable, int] = {}
        below = 0  # weight of X < k
        above = sum(self._w.values())  # weight of X >= k
        for k, v in items:
            above -= v  # now X > k
            acc[k] = v * v + 2 * v * (below if keep == "higher" else above)
            below += v
        return Dist._raw(acc, self._den * self._den)

    def p_ge(self, other: Dist) -> Fraction:
        """P(self >= other) for independent numeric distributions (cumulative sums)."""
        return Fraction(self._ge_weight(other), self._den * other._den)

    def _tail(self) -> tuple[list[Hashable], list[int]]:
        """Sorted outcomes and, for each, the weight of outcomes >= it."""
        mine = self._sorted()
        keys = [k for k, _ in mine]
        tails = [0] * len(mine)
        acc = 0
        for i in range(len(mine) - 1, -1, -1):
            acc += mine[i][1]
            tails[i] = acc
        return keys, tails

    def _ge_weight(self, other: Dist) -> int:
        keys, tails = self._tail()
        out = 0
        for y, vy in other._w.items():
            i = bisect.bisect_left(keys, y)
            if i < len(keys):
                out += vy * tails[i]
        return out

    @staticmethod
    def merge(*parts: Dist) -> Dist:
        """Add sub-distributions (disjoint cases, each already weighted by its own probability)."""
        common = 1
        for d in parts:
            common = common * d._den // math.gcd(common, d._den)
        acc: dict[Hashable, int] = defaultdict(int)
        for d in parts:
            scale = common // d._den
            for k, v in d._w.items():
                acc[k] += v * scale
        return Dist._raw(acc, common)

    def below_weights(self, x: Hashable) -> int:
        """Weight (over :attr:`denominator`) of outcomes < x."""
        return sum(v for k, v in self._w.items() if k < x)

    @property
    def denominator(self) -> int:
        return self._den

    def weights(self) -> dict[Hashable, int]:
        """Outcome -> whole-number weight over :attr:`denominator` (a copy)."""
        return dict(self._w)


def _key(k: Hashable) -> str:
    if isinstance(k, tuple):
        return "|".join(_key(x) for x in k)
    if isinstance(k, bool):
        return "true" if k else "false"
    return str(k)


def die(sides: int) -> Dist:
    """One plain die: faces 1..sides, each 1/sides."""
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise RulesInputError("dice", f"a die needs a whole number of sides >= 1, got {sides!r}")
    return Dist.uniform(range(1, sides + 1))


@dataclass(frozen=True)
class ExplodingInfo:
    """How an exploding die's distribution was built.

    Attributes:
        sides: die size; cap: the engine's cap in extra dice; depth: how many extra dice the
        distribution follows (``cap`` unless cut off sooner); capped_mass: P(the engine's cap stops
        a die) (the mass where the kit's cap departs from unbounded explosion; 0 when cut off
        before the cap); truncated_mass: mass cut off (chains longer than ``depth``).
    """

    sides: int
    cap: int
    depth: int
    capped_mass: Fraction
    truncated_mass: Fraction


def exploding(sides: int, cap: int, tolerance: Fraction = DEFAULT_TOLERANCE) -> tuple[Dist, ExplodingInfo]:
    """Total of one exploding die, exactly as :meth:`ruleslawyer.dice.Dice.exploding` rolls it.

    On a maximum face the die is rolled again and added, at most ``cap`` extra dice; a chain still
    on a maximum when the cap stops it keeps its total (``(cap + 1) * sides``). Chains of ``K`` or
    more maximum faces (probability ``sides**-K``) are cut off when that is at most ``tolerance``
    and ``K <= cap``; the cut-off mass is exactly ``sides**-K``.

    Worked: a d4 explodes on 4: P(total 5) = P(4 then 1) = 1/4 * 1/4 = 1/16.

    Args:
        sides: die size >= 1; cap: extra dice >= 0; tolerance: most mass to cut off.

    Returns:
        ``(dist, info)``.
    """
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise RulesInputError("dice", f"a die needs a whole number of sides >= 1, got {sides!r}")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise RulesInputError("dice", f"an explosion cap must be a whole number >= 0, got {cap!r}")
    p1 = Fraction(1, sides)
    depth = cap
    truncated = ZERO
    if sides > 1 and tolerance > 0:
        k = 1
        pk = p1
        while k <= cap and pk > tolerance:
            k += 1
            pk *= p1
        if k <= cap:  # chains of k or more maxima cut off
            depth, truncated = k - 1, pk
    den = sides ** (depth + 1)
    w: dict[int, int] = {}
    for k in range(depth + 1):
        wk = sides ** (depth - k)  # P(k maxima then this face) = sides**-(k+1)
        for f in range(1, sides):
            w[k * sides + f] = wk
    capped = ZERO
    if depth == cap:  # the engine's cap: all cap+1 faces maxima, total kept
        top = (cap + 1) * sides
        w[top] = w.get(top, 0) + 1
        capped = Fraction(1, den)
    d = Dist._raw(w, den)
    return d, ExplodingInfo(sides, cap, depth, capped, truncated)


def exploding_support(sides: int, cap: int, tolerance: Fraction = DEFAULT_TOLERANCE) -> int:
    """How many distinct totals :func:`exploding` gives for these arguments, without building it.

    ``(depth + 1) * (sides - 1)`` totals below a chain's cut-off, plus the capped total when the
    distribution follows the chain all the way to the engine's cap (``depth == cap``).
    """
    depth = cap
    if sides > 1 and tolerance > 0:
        k, pk, p1 = 1, Fraction(1, sides), Fraction(1, sides)
        while k <= cap and pk > tolerance:
            k += 1
            pk *= p1
        if k <= cap:
            depth = k - 1
    return (depth + 1) * (sides - 1) + (1 if depth == cap else 0)


def dice_expr(expr, *, explode_cap: int | None = None, tolerance: Fraction = DEFAULT_TOLERANCE) -> Dist:
    """Total of a parsed dice expression (:class:`ruleslawyer.dice.DiceExpr`), each die exploding
    when ``explode_cap`` is given (as the Mastery engine rolls weapon dice)."""
    total = Dist.point(expr.modifier)
    for term in expr.dice:
        one = exploding(term.sides, explode_cap, tolerance)[0] if explode_cap is not None else die(term.sides)
        if term.sign < 0:
            one = one.map(lambda x: -x)
        for _ in range(term.count):
            total = total + one
    return total


# --------------------------------------------------------------------------- engine enumeration


class _Pruned(BaseException):
    """Raised inside an engine call when a path becomes too unlikely to follow."""


class _ReplayDice(Dice):
    """Dice that hand out a fixed prefix of faces, then branch on every new die."""

    def __init__(self, prefix: list[int], prob: Fraction, prune_below: Fraction,
                 pending: list[tuple[list[int], Fraction]]) -> None:
        super().__init__(seed=0)
        self._prefix = prefix
        self._i = 0
        self.path_prob = prob
        self._prune = prune_below
        self._pending = pending

    def roll(self, sides: int, slot: str) -> int:  # noqa: D102 - see Dice.roll
        if self._i < len(self._prefix):
            face = self._prefix[self._i]
        else:
            p = self.path_prob / sides
            if p < self._prune:
                self.path_prob = ZERO
                raise _Pruned(sides)
            for f in range(sides, 1, -1):
                self._pending.append((self._prefix[: self._i] + [f], p))
            face = 1
            self._prefix = self._prefix[: self._i] + [1]
            self.path_prob = p
        self._i += 1
        self.history.append(_face(slot, sides, face))
        return face


def _face(slot: str, sides: int, face: int):
    from ruleslawyer.dice import DieRoll

    return DieRoll(slot, sides, face, False)


def enumerate_engine(fn: Callable[[Dice], Hashable], *, tolerance: Fraction = DEFAULT_TOLERANCE,
                     max_paths: int = 200_000) -> Dist:
    """Exact distribution of ``fn(dice)`` over every sequence of die faces ``fn`` can roll.

    ``fn`` is called once per distinct face sequence with a replaying :class:`Dice`: the first call
    gets 1 on every die, and each new die it rolls opens branches for the other faces. A path
    whose probability would fall below ``tolerance / 1000`` is cut off (its mass is left out, so
    :attr:`Dist.truncated_mass` reports it exactly).

    Args:
        fn: takes the dice, returns a hashable summary of the engine result.
        tolerance: see above; 0 follows every path (only for engines that always stop).
        max_paths: safety limit on calls.

    Raises:
        RuntimeError: more than ``max_paths`` face sequences.
    """
    prune = tolerance / 1000
    pending: list[tuple[list[int], Fraction]] = [([], ONE)]
    acc: dict[Hashable, Fraction] = defaultdict(Fraction)
    calls = 0
    while pending:
        prefix, p = pending.pop()
        calls += 1
        if calls > max_paths:
            raise RuntimeError(f"enumerate_engine: more than {max_paths} face sequences")
        d = _ReplayDice(prefix, p, prune, pending)
        try:
            out = fn(d)
        except _Pruned:
            continue
        acc[out] += d.path_prob
    return Dist(acc)
