"""What an Against the Darkmaster fight carries from Round to Round, and what a character declares.

A :class:`Fighter` is one character's state between Rounds: CMB, hits, :class:`Condition` s with the
Rounds they still last (Bleeding, Dying, Unconscious, Dead, a Spell's effect), whether an Assessment
Roll is due, a Multi-Round Action under way (:class:`Ongoing`) and a Readied Action still held. A
:class:`Declaration` is what the character does in the next Round: :class:`FightAction` s (the
Tactical Round Sequence's actions plus their declared :class:`Outcome` s), the CMB held back to
Parry, the Assessment Roll's outcome, and whether an action under way is given up.

Counting Rounds (``Condition.rounds``): between Rounds it is the number of coming Rounds the
condition still lasts (None: until removed). Each Assessment Phase (``assessment-phase#1``) a
condition at 0 ends; any other lasts this Round and counts one down. So Bleeding for 2 Rounds
inflicted in Round 1 costs its hits in the Assessment Phases of Rounds 2 and 3 and ends in Round 4.

Every reader takes JSON-shaped data and raises :class:`~ruleslawyer.errors.RulesInputError` naming
the field (``combatants[0].conditions[1].rounds``, ``declarations.Brom.actions[0].result.hits``);
every ``to_dict`` writes the shape its reader reads back to an equal object.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ruleslawyer.encounter import MAX_ROUNDS
from ruleslawyer.errors import RulesInputError
from ruleslawyer.inputs import Bool, Choice, Either, Int, ListOf, Name, Obj, Text, at
from ruleslawyer.limits import INPUT_NUMBER
from ruleslawyer.trace import to_jsonable

from .actions import MAX_CMB, Action, ActionKind, ActionSpec, ActionType, Assessment, Side

__all__ = ["Condition", "Outcome", "FightAction", "Declaration", "Ongoing", "Fighter", "read_condition",
           "read_result", "select_outcomes", "read_action", "read_declaration", "read_fighter", "BLEEDING", "DYING", "UNCONSCIOUS",
           "DEAD", "CONDITION", "OUTCOME", "ACTION", "DECLARATION", "COMBATANT"]

BLEEDING, DYING, UNCONSCIOUS, DEAD = "Bleeding", "Dying", "Unconscious", "Dead"
_NAMED = {n.lower(): n for n in (BLEEDING, DYING, UNCONSCIOUS, DEAD)}

# -- the input declarations (one source for reading and for --schema) -------------------------------

CONDITION = Obj({
    "name": Name("Bleeding, Dying, Unconscious, Dead, or any condition or Spell effect by name"),
    "rounds": Int(0, MAX_ROUNDS, "coming Rounds it lasts, counted down in each Assessment Phase "
                                      "(assessment-phase#1); absent or null: until removed", null=True),
    "per_round": Int(0, INPUT_NUMBER, "hits lost in each Assessment Phase while it lasts (Bleeding)"),
    "cmb": Int(-MAX_CMB, MAX_CMB, "modifier to the CMB while it lasts (a Spell's or condition's, from the "
                                  "declared result); gained mid-Round, it counts from the next Round's split"),
}, "a lasting effect tracked in the Assessment Phase", required=("name",))

OUTCOME = Obj({
    "at_least": Int(description="the lowest roll total this outcome is for (a row of the attack, critical "
                                "or Spell table of another chapter); absent: whatever the roll"),
    "target": Name("whom it affects; default the action's target (the actor's own name for a Fumble)"),
    "hits": Int(0, INPUT_NUMBER, "hits the target loses"),
    "conditions": ListOf(CONDITION, "conditions the target gains", max_items=20),
    "remove": ListOf(Name("a condition's name"), "conditions of the target that end (e.g. Bleeding "
                                                "stopped)", max_items=20),
    "interrupts": Bool("the effect interrupts the target's actions not yet resolved this Round; a Multi-Round "
                       "Action under way is lost (tactical-round-sequence#1, multi-round-actions#1)"),
    "assessment_roll": Bool("the effect demands an Assessment Roll in the target's next Assessment Phase (a "
                            "Fumble, being knocked down, a blinding flash: assessment-phase#2)"),
    "note": Text("what the table said, shown in the log", 200),
}, "what the action does when it resolves (ruling darkmaster.declared-outcome)")

ACTION = Obj({
    "name": Name("e.g. 'Longsword attack'; a trailing (n), 'Load (2)', makes a Multi-Round Action of n "
                 "Rounds; unique among the character's actions"),
    "type": Choice(["Full", "Half", "Free"], "default: the type the chapter gives the kind, else Full"),
    "kind": Choice(["move", "spell", "ranged", "melee", "other"], "decides the TRS phase", default="other"),
    "target": Name("the combatant it is aimed at"),
    "weapon_length": Name("melee: Hand, Short, Long, Longest or a weapon the weapon-examples table names"),
    "weapon": Name("the weapon's name (melee without weapon_length: its length from weapon-examples)"),
    "positional_bonus": Bool("melee: higher ground or mounted, flanking, or from the rear"),
    "dashing": Bool("melee: a Dashing Attack (-30, no Parry)"),
    "instant": Bool("spell: an Instant Spell"),
    "prepared_rounds": Int(0, MAX_ROUNDS, "spell: full previous Rounds of preparation"),
    "reloaded_before": Bool("ranged: loaded and aimed a complete Round or more before this one"),
    "thrown_in_hand": Bool("ranged: a readied thrown weapon already in hand"),
    "readied": Bool("a Readied Action: held until its trigger acts (readied-actions#1)"),
    "trigger": Name("a Readied Action's circumstance: the combatant whose first action this Round sets it off"),
    "rounds": Int(1, MAX_ROUNDS, "a Multi-Round Action's duration (default: the (n) in the name, else 1)"),
    "bonus": Int(-MAX_CMB, MAX_CMB, "a modifier to this action's roll the GM gives (situation, Spell "
                                    "preparation: amounts outside the combat chapter)"),
    "result": Either(OUTCOME, ListOf(OUTCOME, min_items=1, max_items=20),
                     description="the outcome (an object), or outcomes by roll total (a list, each with "
                                 "at_least)"),
}, "one declared action", required=("name",))

DECLARATION = Obj({
    "actions": ListOf(ACTION, "this Round's actions (Full, Half, Free; action-types)", max_items=10),
    "parry": Int(0, MAX_CMB, "CMB held back to Parry: at most the CMB (supplement parry#1); the rest goes to "
                             "the attack"),
    "assessment": Choice(["passed", "failed"], "this Round's Assessment Roll (read on tables outside the "
                                               "chapter): required when one is due"),
    "abandon": Bool("give up the Multi-Round Action under way (lost) or the Readied Action held"),
}, "what one combatant does in the next Round")

_ONGOING = Obj({"action": ACTION, "done": Int(1, MAX_ROUNDS, "Rounds of it already done")},
               "a Multi-Round Action under way", required=("action", "done"), null=True)

COMBATANT = Obj({
    "name": Name("unique; declarations name the combatant by it"),
    "side": Choice(["npc", "player"], "the GM's NPCs declare first; the fight ends when one side is left"),
    "cmb": Int(-MAX_CMB, MAX_CMB, "combat bonus of the skill in use"),
    "hits": Int(description="hits left (declared results and Bleeding take them away)"),
    "caster_level": Int(0, MAX_CMB, "orders Spells"),
    "spell_casting_bonus": Int(-MAX_CMB, MAX_CMB, "Spell Casting Roll bonus"),
    "unaware": Bool("caught unaware at the start: an Assessment Roll is due in Round 1 (assessment-phase#2)"),
    "assessment_due": Bool("an Assessment Roll is due in the next Round (a saved fight writes it)"),
    "conditions": ListOf(CONDITION, "lasting effects (a saved fight writes them)", max_items=50),
    "ongoing": _ONGOING,
    "held": Obj(ACTION.fields, "a Readied Action held from an earlier Round", required=("name",), null=True),
}, "one combatant", required=("name", "side", "cmb", "hits"))


def _plain(obj: Any) -> dict:
    """The fields of a dataclass that differ from their defaults, as JSON (the input shape)."""
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if value != f.default:
            out[f.name] = to_jsonable(value)
    return out


# -- conditions and outcomes ----------------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    """A lasting effect (``assessment-phase#1``: Spells and conditions such as Bleeding and Dying).

    Attributes:
        name: Bleeding, Dying, Unconscious, Dead (these four spelt so), or any other name.
        rounds: coming Rounds it lasts (None: until removed); see the module docstring.
        per_round: hits lost in each Assessment Phase while it lasts.
        cmb: modifier to the CMB while it lasts.
    """

    name: str
    rounds: int | None = None
    per_round: int = 0
    cmb: int = 0

    @property
    def lasts_next_round(self) -> bool:
        """Whether it is still in force in the coming Round (not ending in its Assessment Phase)."""
        return self.rounds is None or self.rounds > 0

    def label(self, rounds: bool = True) -> str:
        """``"Bleeding 2/round (3 Rounds)"``, ``"Blessing CMB +20 (1 Round)"``, ``"Unconscious"`` (without
        the Rounds left when ``rounds`` is false)."""
        text = self.name + (f" {self.per_round}/round" if self.per_round else "")
        text += f" CMB {self.cmb:+d}" if self.cmb else ""
        if not rounds or self.rounds is None:
            return text
        return text + f" ({self.rounds} Round{'s' if self.rounds != 1 else ''})"

    def to_dict(self) -> dict:
        return _plain(self)


def read_condition(value: Any, field: str) -> Condition:
    """A :class:`Condition` from ``{"name", "rounds"?, "per_round"?, "cmb"?}``.

    Raises:
        RulesInputError: a bad field; Dead with ``rounds``; Dying without ``rounds`` (the count);
            Bleeding without ``per_round``.
    """
    d = CONDITION.read(value, field)
    name = _NAMED.get(d["name"].strip().lower(), d["name"].strip())
    c = Condition(name, d.get("rounds"), d.get("per_round", 0), d.get("cmb", 0))
    if name == DEAD and c.rounds is not None:
        raise RulesInputError(at(field, "rounds"), "Dead does not run out: give no rounds")
    if name == DYING and c.rounds is None:
        raise RulesInputError(at(field, "rounds"), "Dying needs its count: the Rounds until it runs out "
                                                   "(ruling darkmaster.dying-ends)")
    if name == BLEEDING and not c.per_round:
        raise RulesInputError(at(field, "per_round"), "Bleeding needs the hits it costs each Round (1 or more)")
    return c


@dataclass(frozen=True)
class Outcome:
    """What an action does when it resolves (ruling ``darkmaster.declared-outcome``).

    Attributes:
        at_least: the lowest roll total it is for (None: whatever the roll).
        target: whom it affects (None: the action's target).
        hits: hits lost; conditions: conditions gained; remove: names of conditions that end.
        interrupts: interrupts the target's actions not yet resolved this Round.
        assessment_roll: demands an Assessment Roll in the target's next Assessment Phase.
        note: shown in the log.
    """

    at_least: int | None = None
    target: str | None = None
    hits: int = 0
    conditions: tuple[Condition, ...] = ()
    remove: tuple[str, ...] = ()
    interrupts: bool = False
    assessment_roll: bool = False
    note: str = ""

    def to_dict(self) -> dict:
        return _plain(self)


def _outcome(value: Any, field: str) -> Outcome:
    d = OUTCOME.read(value, field)
    conds = tuple(read_condition(c, at(at(field, "conditions"), i)) for i, c in enumerate(value.get("conditions", ())))
    return Outcome(d.get("at_least"), d.get("target"), d.get("hits", 0), conds, tuple(d.get("remove", ())),
                   d.get("interrupts", False), d.get("assessment_roll", False), d.get("note", ""))


def read_result(value: Any, field: str) -> tuple[Outcome, ...]:
    """An action's ``result``: one outcome (an object) or outcomes by roll total (a list, each with a
    distinct ``at_least``), in the order given.

    Raises:
        RulesInputError: a bad outcome; a listed one without ``at_least`` or with a repeated one.
    """
    if not isinstance(value, list):
        OUTCOME.read(value, field)
        return (_outcome(value, field),)
    ListOf(OUTCOME, min_items=1, max_items=20).read(value, field)
    out = [_outcome(v, at(field, i)) for i, v in enumerate(value)]
    seen: set[int] = set()
    for i, o in enumerate(out):
        if o.at_least is None or o.at_least in seen:
            raise RulesInputError(at(at(field, i), "at_least"), "each outcome of a list needs its own lowest roll "
                                                                "total (at_least), all different")
        seen.add(o.at_least)
    return tuple(out)


def select_outcomes(result: tuple[Outcome, ...], total: int | None) -> tuple[Outcome, ...]:
    """The outcomes that apply to a roll ``total``: those for any roll, and of those by total the one
    with the highest ``at_least`` not above it."""
    fixed = tuple(o for o in result if o.at_least is None)
    by_total = [o for o in result if o.at_least is not None and total is not None and o.at_least <= total]
    return fixed + tuple(sorted(by_total, key=lambda o: o.at_least)[-1:])


# -- actions and declarations --------------------------------------------------------------------

@dataclass(frozen=True)
class FightAction(ActionSpec):
    """A declared action: the TRS action's declared fields (:class:`~.actions.ActionSpec`: ``name``,
    ``type``, ``kind``, ... ``rounds``) plus ``trigger`` (a Readied Action's circumstance: a combatant's
    name), ``bonus`` (a GM modifier to its roll) and ``result`` (its :class:`Outcome` s)."""

    trigger: str | None = None
    bonus: int = 0
    result: tuple[Outcome, ...] = ()

    def trs(self, round_number: int = 1, continuing: bool = False) -> Action:
        """The Tactical Round Sequence's action: Round ``round_number`` of a Multi-Round Action,
        ``continuing`` last Round's action."""
        return Action(**self.spec(), round=round_number, continuing=continuing)

    def to_dict(self) -> dict:
        out = _plain(self)
        if len(self.result) == 1:
            out["result"] = self.result[0].to_dict()
        return out


def read_action(value: Any, field: str) -> FightAction:
    """A :class:`FightAction` from the ``actions[i]`` shape (see ``ruleslawyer fight darkmaster --schema``).

    Raises:
        RulesInputError: a bad field; a Readied Action without ``trigger`` or a ``trigger`` on an action
            that is not Readied.
    """
    d = ACTION.read(value, field)
    kw = {k: v for k, v in d.items() if k != "result"}
    kw["kind"] = ActionKind(d.get("kind", "other"))
    kw["type"] = ActionType(d["type"]) if d.get("type") else None
    if "result" in d:
        kw["result"] = read_result(value["result"], at(field, "result"))
    a = FightAction(**kw)
    if a.rounds is None and not 1 <= a.duration <= MAX_ROUNDS:
        raise RulesInputError(at(field, "name"), f"{a.name!r}: a trailing (n) makes a Multi-Round Action of n Rounds "
                                                 f"(multi-round-actions#1), n from 1 to {MAX_ROUNDS}; got {a.duration}")
    if a.readied and a.trigger is None:
        raise RulesInputError(at(field, "trigger"), "a Readied Action needs its trigger: the combatant whose "
                                                    "action sets it off (readied-actions#1)")
    if a.trigger is not None and not a.readied:
        raise RulesInputError(at(field, "trigger"), "only a Readied Action (readied: true) has a trigger")
    return a


@dataclass(frozen=True)
class Declaration:
    """What one character does in the next Round (see :data:`DECLARATION`)."""

    actions: tuple[FightAction, ...] = ()
    parry: int = 0
    assessment: Assessment | None = None
    abandon: bool = False

    @property
    def empty(self) -> bool:
        return self == Declaration()

    def to_dict(self) -> dict:
        return _plain(self)


def read_declaration(value: Any, field: str) -> Declaration:
    """A :class:`Declaration` from ``{"actions", "parry", "assessment", "abandon"}`` (all optional).

    Raises:
        RulesInputError: a bad field, or two actions of one name (``<field>.actions[j].name``).
    """
    d = DECLARATION.read(value, field)
    actions = tuple(read_action(a, at(at(field, "actions"), j)) for j, a in enumerate(value.get("actions", ())))
    names = [a.name for a in actions]
    for j, n in enumerate(names):
        if n in names[:j]:
            raise RulesInputError(at(at(at(field, "actions"), j), "name"), f"two actions are called {n!r}; each "
                                                                            "action of a character needs its own name")
    return Declaration(actions, d.get("parry", 0), Assessment(d["assessment"]) if d.get("assessment") else None,
                       d.get("abandon", False))


# -- the fighter ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ongoing:
    """A Multi-Round Action under way (``multi-round-actions#1``): the action and the Rounds of it done."""

    action: FightAction
    done: int

    def to_dict(self) -> dict:
        return {"action": self.action.to_dict(), "done": self.done}


@dataclass(frozen=True)
class Fighter:
    """One character's state between Rounds (frozen; every change makes a new one).

    Attributes:
        name, side (npc: the GM's, declares first; player), cmb (combat bonus of the skill in use), hits
        (hits left), caster_level, spell_casting_bonus.
        conditions: lasting effects with the Rounds they still last.
        assessment_due: an Assessment Roll is due in the next Round's Assessment Phase.
        ongoing: a Multi-Round Action under way, or None.
        held: a Readied Action held from an earlier Round, or None.
    """

    name: str
    side: Side
    cmb: int
    hits: int
    caster_level: int = 0
    spell_casting_bonus: int = 0
    conditions: tuple[Condition, ...] = ()
    assessment_due: bool = False
    ongoing: Ongoing | None = None
    held: FightAction | None = None

    def has(self, name: str, next_round: bool = False) -> bool:
        """Whether a condition called ``name`` is present (``next_round``: and lasts into the coming Round)."""
        return any(c.name == name and (c.lasts_next_round or not next_round) for c in self.conditions)

    @property
    def dead(self) -> bool:
        return self.has(DEAD)

    @property
    def down(self) -> str | None:
        """``"Dead"`` or ``"Unconscious"`` while so (during a Round every present condition is in force)."""
        return DEAD if self.dead else UNCONSCIOUS if self.has(UNCONSCIOUS) else None

    @property
    def down_next(self) -> str | None:
        """``"Dead"`` or ``"Unconscious"`` if so in the coming Round (what its declarations are checked against)."""
        return DEAD if self.dead else UNCONSCIOUS if self.has(UNCONSCIOUS, next_round=True) else None

    @property
    def waking_next(self) -> bool:
        """Unconscious ends in the coming Assessment Phase: waking mid-combat calls for the Assessment Roll
        (``assessment-phase#2``)."""
        return not self.dead and self.has(UNCONSCIOUS) and not self.has(UNCONSCIOUS, next_round=True)

    @property
    def due_next(self) -> bool:
        """An Assessment Roll is due in the coming Round."""
        return self.assessment_due or self.waking_next

    def effective_cmb(self, next_round: bool = False) -> tuple[int, list[Condition]]:
        """The CMB with the modifiers of the conditions in force (``next_round``: those lasting into the
        coming Round), and those conditions."""
        mods = [c for c in self.conditions if c.cmb and (c.lasts_next_round or not next_round)]
        return self.cmb + sum(c.cmb for c in mods), mods

    def to_dict(self) -> dict:
        out = {"name": self.name, "side": self.side.value, "cmb": self.cmb, "hits": self.hits}
        out.update({k: v for k, v in _plain(self).items() if k not in out})
        return out


def _carried(data: dict, value: Any, field: str) -> dict:
    """The ``ongoing`` and ``held`` actions of a saved fighter, checked for what they must be."""
    out: dict[str, Any] = {}
    if data.get("ongoing") is not None:
        f = at(field, "ongoing")
        action = read_action(value["ongoing"]["action"], at(f, "action"))
        done = data["ongoing"]["done"]
        if not 1 <= done < action.duration:
            raise RulesInputError(at(f, "done"), f"a Multi-Round Action of {action.duration} Round(s) under way has "
                                                 f"1 to {action.duration - 1} done, got {done}")
        out["ongoing"] = Ongoing(action, done)
    if data.get("held") is not None:
        held = read_action(value["held"], at(field, "held"))
        if not held.readied:
            raise RulesInputError(at(at(field, "held"), "readied"), "a held action is a Readied Action (readied: true)")
        out["held"] = held
    return out


def read_fighter(value: Any, field: str) -> Fighter:
    """A :class:`Fighter` from its JSON shape (see ``ruleslawyer fight darkmaster --schema``); ``unaware``
    makes the Assessment Roll due in Round 1 (``assessment-phase#2``: being ambushed).

    Raises:
        RulesInputError: naming ``<field>.<key>`` and what is allowed.
    """
    d = COMBATANT.read(value, field)
    conds = tuple(read_condition(c, at(at(field, "conditions"), i)) for i, c in enumerate(value.get("conditions", ())))
    return Fighter(d["name"], Side(d["side"]), d["cmb"], d["hits"], d.get("caster_level", 0),
                   d.get("spell_casting_bonus", 0), conds, d.get("assessment_due", False) or d.get("unaware", False),
                   **_carried(d, value, field))
