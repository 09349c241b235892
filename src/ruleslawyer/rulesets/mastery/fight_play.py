"""What one round of a Mastery fight carries from stage to stage, and the changes every stage logs.

:class:`Play` holds the fighters as the round changes them, their declarations, the AP they keep for
reactions, and the log. :meth:`Play.settle` writes a fighter back and logs what changed on it (health,
durability, reaching 0, fighting on, going down, Traumas and what they do to AP, new conditions), so
every stage that changes a fighter — an exchange, a hazard, the dying timer — logs it the same way,
each line citing its rule or ruling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import LogLine, log_line
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Citation, Step, StepKind

from . import _tables, ids
from . import rulings as R
from .combatant import State
from .damage import DamagePortion, apply_damage, parse_type
from .death import health_damage_aftermath
from .fighter import Fighter
from .orders import Orders
from .trauma import TraumaSetting
from .trauma_effects import trauma_face

__all__ = ["Play", "aftermath_trials", "over", "rounds"]


def rounds(n: int) -> str:
    """A count of rounds that reads as English: ``"1 round"``, ``"2 rounds"``."""
    return f"{n} round" + ("" if n == 1 else "s")

_STATE_LINE = {
    State.FIGHTING_ON: ("fights on at 0 health", (ids.ZERO_ENDURANCE, ids.FIGHTING_ON)),
    State.UNCONSCIOUS: ("falls unconscious", (ids.GOING_DOWN, ids.GOING_DOWN_UNCONSCIOUS)),
    State.DEAD: ("dies", (ids.DYING_TIMER,)),
}


@dataclass
class Play:
    """One round of a fight in progress (one per round, never shared).

    Attributes:
        number: the round; fighters: name -> fighter, in the fight's order; orders: name -> declaration.
        reserved: name -> reaction kind -> AP still kept for it; todo: name -> AP of declared actions
            not yet taken; moves: name -> moves made this round; hazard_hit: names a hazard hurt this turn;
            order: (phase, name) of each turn, in resolution order.
        lines, steps: the round's log lines and trace steps so far.
    """

    number: int
    fighters: dict[str, Fighter]
    orders: dict[str, Orders]
    dice: Dice
    rulings: dict[str, str]
    rules: Rules
    setting: TraumaSetting
    precipitation: bool
    reserved: dict[str, Counter] = field(default_factory=dict)
    todo: dict[str, int] = field(default_factory=dict)
    moves: Counter = field(default_factory=Counter)
    hazard_hit: set[str] = field(default_factory=set)
    order: list[tuple[str, str]] = field(default_factory=list)
    lines: list[LogLine] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, o in self.orders.items():
            self.reserved[name] = Counter({k: o.reserved(k) for k in ("defend", "counterattack", "reprisal",
                                                                      "reposition") if o.reserved(k)})
            self.todo[name] = sum(a.ap for a in o.actions if not a.reaction)

    def log(self, text: str, *cites: str | Citation) -> None:
        self.lines.append(log_line(self.number, text, *(c.rule_id if isinstance(c, Citation) else c for c in cites)))

    def enemies(self, a: Fighter, b: Fighter) -> bool:
        return a.side != b.side

    # -- AP ------------------------------------------------------------------------------------
    def free_ap(self, name: str) -> int:
        """AP ``name`` may spend on its declared actions (AP left less those kept for reactions)."""
        return self.fighters[name].body.ap - sum(self.reserved[name].values())

    def may_react(self, name: str, kind: str, paying: int = 0) -> tuple[bool, list]:
        """Whether ``name`` makes a reaction of ``kind`` now: with AP kept for it, or with spare AP per
        ``mastery.fight-spare-ap`` (``paying``: AP the current action is about to spend). An unconscious
        defender's AP go to the exchange, where ``mastery.unconscious-defense`` decides."""
        f = self.fighters[name]
        able = f.can_act or (kind == "defend" and f.state is State.UNCONSCIOUS)
        if not able or f.body.ap - paying < 1:
            return False, []
        if self.reserved[name][kind]:
            return True, []
        use = R.ruling_use(R.SPARE_AP, self.rulings)
        allowed = use.answer == "all-reactions" or (use.answer == "defend-only" and kind == "defend")
        spare = f.body.ap - paying - sum(self.reserved[name].values()) - self.todo[name]
        return allowed and spare >= 1, [use]

    def used_reaction(self, name: str, kind: str) -> None:
        if self.reserved[name][kind]:
            self.reserved[name][kind] -= 1

    # -- writing a fighter back ----------------------------------------------------------------
    def settle(self, after: Fighter, why: str = "", trials: Sequence[Step] = ()) -> None:
        """Store ``after`` and log what changed since the stored fighter of that name; ``trials``
        (from :func:`aftermath_trials`) are the Endurance trials its health damage called for, each
        logged with its roll before the state they lead to."""
        before = self.fighters[after.name]
        if before.body.health > 0 and after.body.health == 0:
            after = replace(after, dying_since=self.number)
        self.fighters[after.name] = after
        b, a, n = before.body, after.body, after.name
        changed = [f"{what} {x} -> {y}" for what, x, y in (("health", b.health, a.health),
                                                            ("durability", b.durability, a.durability)) if x != y]
        if changed:
            self.log(f"{n}: {', '.join(changed)}" + (f" ({why})" if why else ""),
                     *([ids.DURABILITY] if b.durability != a.durability else []),
                     *([ids.HEALTH, ids.WOUND] if b.health != a.health else []))
        if b.health > 0 and a.health == 0:
            self.log(f"{n} reaches 0 health: an Injury; the dying timer begins ({rounds(a.dying_rounds)})",
                     ids.ZERO_INJURY, ids.DYING_TIMER)
        for entry in a.sheet.traumas[len(b.sheet.traumas):]:
            self._trauma_line(n, entry, b, a)
        for trial in trials:
            self.log(f"{n}'s {trial.label}: {trial.detail} — {trial.value}",
                     *trial.cited_ids(), *trial.ruling_ids())
        for cond in a.sheet.conditions:
            if cond not in b.sheet.conditions:
                self.log(f"{n} is now {cond}", ids.TRAUMA_TABLE)
        if a.state is not b.state:
            text, cites = _STATE_LINE.get(a.state, (a.state.value, ()))
            self.log(f"{n} {text}", *cites)
        if a.casting != b.casting and not a.casting and a.state is not State.DEAD:
            self.log(f"{n} loses the spell being cast", ids.CASTING_INTERRUPTED, ids.DEFENSE_CASTING)

    def _trauma_line(self, name: str, entry: str, b, a) -> None:
        row = _tables.trauma_table(self.rules).row_for(trauma_face(entry))
        self.log(f"{name} suffers a Trauma: {entry}", ids.TRAUMAS, row.unit_id)
        if a.sheet.ap_per_round < b.sheet.ap_per_round:
            use = R.ruling_use(R.ONE_AP_TRAUMA_TIMING, self.rulings)
            when = "from now" if use.answer == "at-once" else "from the next round"
            self.log(f"{name} has 1 AP per round {when}", row.unit_id, use.ruling_id)

    # -- damage that is not an attack ------------------------------------------------------------
    def hazard_damage(self, name: str, damage_type: str, why: str, cites, uses=()) -> list[Step]:
        """1 damage of ``damage_type`` from Hazardous terrain (``.../terrain#6``), meeting armour per
        ``mastery.hazard-damage``, then what health damage leads to (wound, 0 health, fighting on)."""
        f = self.fighters[name]
        use = R.ruling_use(R.HAZARD_DAMAGE, self.rulings)
        through = use.answer == "as-any-damage"
        dmg = apply_damage([DamagePortion(1, parse_type(damage_type, "hazard"))],
                           armour_resistance=f.body.armour_resistance if through else 0,
                           durability=f.body.durability if through else 0, health=f.body.health,
                           rulings=self.rulings, label=f"Damage to {name} (1 {damage_type})", rules=self.rules)
        if not through:
            dmg = replace(dmg, durability=f.body.durability)
        after = health_damage_aftermath(f.body, dmg, exploded=False, setting=self.setting, fight_on=f.fight_on,
                                        dice=self.dice, rulings=self.rulings, rules=self.rules)
        self.log(f"{name} takes 1 {damage_type} damage: {why}", *cites, *(u.ruling_id for u in uses), use.ruling_id)
        self.settle(replace(f, body=after.target), why, aftermath_trials(after.step))
        return [Step.of(StepKind.RESULT, f"Hazard: {why}", 1, cites=cites, rulings=[*uses, use],
                        children=[dmg.step, after.step])]


def aftermath_trials(trace: Step, skip: Step | None = None) -> list[Step]:
    """The Endurance trials (``StepKind.RESULT`` steps labelled "Endurance trial ...") under every
    "After health damage" step of ``trace``, in order, leaving out the subtree ``skip`` (a
    counterattack's trace, whose trials are the other combatant's)."""
    out: list[Step] = []
    stack, inside = [(trace, False)], False
    while stack:
        step, inside = stack.pop()
        if step is skip:
            continue
        inside = inside or step.label == "After health damage"
        if inside and step.kind is StepKind.RESULT and step.label.startswith("Endurance trial"):
            out.append(step)
            continue
        stack.extend((c, inside) for c in reversed(step.children))
    return out


def over(fighters: Mapping[str, Fighter]) -> bool:
    """The fight is over once at most one side has a combatant standing or fighting on."""
    return len({f.side for f in fighters.values() if f.can_act}) <= 1
