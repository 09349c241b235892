"""The fight panel: a whole fight across rounds at the table or in class, for any ruleset with a
fight engine (:class:`ruleslawyer.encounter.Encounter`; found through the registry, so a ruleset whose
engine lands later shows up with no edit here).

What a GM sees, top to bottom: the ruleset and an example fight to load (the fight input itself can
be opened and edited), the dice (the fight's seed; scripted dice for the round, prefilled from the
example), one card per combatant (health bar, AP, status, conditions, Traumas and wounds, and what
changed since the start), one declaration box per combatant for the next round (JSON, prefilled from
the example's next round), Resolve round / Undo last round / Export handout, the round's result with
its log lines (every citation opens its rule in place; rulings are amber badges) and its folded
trace, then the whole fight log and the Markdown handout.

Nothing here knows a ruleset's rules: the cards read the combatant's JSON shape
(``Encounter.write_combatant``) and its ``Encounter.summary`` line; every change comes from the
engine's log. Errors (a refused declaration, JSON that does not parse, dice that run out) show as a
message naming the field; the fight, the log and the typed declarations are kept as they were.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import RulesLike, resolve_rules

from .base import SCRIPTED, SEEDED, DiceControls, PanelFrame, cite_html, css, esc, resolve_rule, script_text

__all__ = ["FightPanel", "fight_rulesets", "example_fights", "card_html", "log_html", "handout_markdown",
           "EXAMPLES_DIR"]

#: Example fights in a source checkout: ``examples/<ruleset>/fight*.json`` (an installed wheel has none;
#: the panel then starts from the input box).
EXAMPLES_DIR = Path(__file__).resolve().parents[3] / "examples"

#: Fields of a combatant's JSON shape the cards read, first found wins (a nested object such as
#: Mythras's ``condition``, which holds what the fight changed, is looked in before the top level).
HEALTH_KEYS = (("health", "health"), ("hits", "hits"), ("hit_points", "Hit Points"))
AP_KEYS = (("ap", "AP"), ("action_points", "AP per Round"))
STATUS_KEYS = ("state", "status")
LASTING_KEYS = (("traumas", "Traumas"), ("lost", "Lost"), ("useless", "Useless"))
INPUT_KEYS = ("seed", "rulings", "options", "combatants", "rounds", "fight", "description")
MAX_CHANGED_ROWS = 24
#: Longest static copy (characters, stylesheet aside) that still carries the whole log.
STATIC_LOG_MAX_CHARS = 40_000


def fight_rulesets() -> list[tuple[str, str]]:
    """``[(title, id), ...]`` of every installed ruleset with a fight engine (``Ruleset.encounter``)."""
    from ruleslawyer.registry import rulesets

    return [(r.title, r.id) for r in rulesets() if r.encounter]


def example_fights(ruleset_id: str, folder: Path | None = None) -> list[Path]:
    """The example fights of a ruleset: ``<folder>/<ruleset_id>/fight*.json``, sorted (none: ``[]``)."""
    base = (folder or EXAMPLES_DIR) / ruleset_id
    return sorted(base.glob("fight*.json")) if base.is_dir() else []


def _read_text(text: str, field_name: str) -> Any:
    """JSON typed in a box, read as the CLI reads ``--input`` (bounded; a huge number left to its field)."""
    from ruleslawyer.inputs import json_int
    from ruleslawyer.limits import INPUT_FILE_BYTES, megabytes

    if len(text) > INPUT_FILE_BYTES:
        raise RulesInputError(field_name, f"holds more than {megabytes(INPUT_FILE_BYTES)}, the most an input may")
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise RulesInputError(field_name, f"is not valid JSON: {exc.msg} at line {exc.lineno}, column "
                                          f"{exc.colno}") from None
    except RecursionError:
        raise RulesInputError(field_name, "nests lists or objects too deeply to read") from None


def _read_input(data: Any) -> dict:
    """A fight input (the ``ruleslawyer fight`` format) checked for its shape; the engine reads the rest."""
    if not isinstance(data, Mapping):
        raise RulesInputError("input", "must be a JSON object {seed, rulings, options, combatants, rounds}")
    unknown = sorted(set(data) - set(INPUT_KEYS))
    if unknown:
        raise RulesInputError(f"input.{unknown[0]}", f"unknown field; allowed: {', '.join(INPUT_KEYS)}")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise RulesInputError("input.rounds", 'must be a list of rounds, each {"declare": {...}, "dice": {...}}')
    for i, r in enumerate(rounds):
        if not isinstance(r, Mapping) or set(r) - {"declare", "dice"}:
            raise RulesInputError(f"input.rounds[{i}]", "a round is an object with declare and dice only")
        if not isinstance(r.get("declare", {}), Mapping) or not isinstance(r.get("dice", {}), Mapping):
            raise RulesInputError(f"input.rounds[{i}]", "declare and dice must be objects")
    if "fight" in data and not isinstance(data["fight"], Mapping):
        raise RulesInputError("input.fight", "must be a saved fight: the 'fight' member of ruleslawyer fight --json")
    if "fight" not in data and "combatants" not in data:
        raise RulesInputError("input.combatants", "required: the combatants (or a saved fight under 'fight')")
    both = [k for k in ("combatants", "seed", "options") if k in data and "fight" in data]
    if both:
        raise RulesInputError(f"input.{both[0]}", "give either a saved fight (\"fight\") to go on with or "
                                                  "\"combatants\" to start one, not both")
    return dict(data)


# -- the combatant cards ---------------------------------------------------------------------------

def _scopes(data: Mapping) -> list[Mapping]:
    return [v for v in data.values() if isinstance(v, Mapping)] + [data]


def _find(data: Mapping, keys) -> tuple[str, Any] | None:
    """``(label, value)`` of the first of ``keys`` (``(key, label)`` pairs) set in ``data``."""
    for key, label in keys:
        for scope in _scopes(data):
            if scope.get(key) is not None:
                return label, scope[key]
    return None


def _amount(value: Any) -> int | None:
    """A health-like value as one number: a whole number, or the sum of a by-location map (at least 0 each)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return sum(max(v, 0) for v in value.values())
    return None


def _flat(data: Mapping, prefix: str = "") -> dict[str, Any]:
    """``{"health": 7, "sheet.traumas": [...], "condition.hit_points.Chest": 7}``: nested objects flattened."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(_flat(value, name + "."))
        else:
            out[name] = value
    return out


def _count(n: int, noun: str) -> str:
    """``1 round``, ``2 rounds``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(v) for v in value) or "none"
    return "none" if value is None else str(value)


def _health_html(now: Mapping, start: Mapping) -> str:
    found = _find(now, HEALTH_KEYS)
    amount = _amount(found[1]) if found else None
    if amount is None:
        return ""
    was = _find(start, HEALTH_KEYS)
    top = max(amount, _amount(was[1]) or 0 if was else 0, 1)
    pct = max(0, min(100, round(100 * amount / top)))
    colour = "var(--rl-ok)" if pct > 50 else "var(--rl-warn)" if pct > 25 else "var(--rl-error)"
    bar = (f'<span class="rl-bar" role="meter" aria-valuemin="0" aria-valuemax="{top}" aria-valuenow="{amount}" '
           'style="display:inline-block;width:120px;max-width:40%;height:0.7em;vertical-align:middle;'
           'border:1px solid var(--rl-border);background:var(--rl-bg2);border-radius:3px;overflow:hidden">'
           f'<span style="display:block;height:100%;width:{pct}%;background:{colour}"></span></span>')
    return (f'<div class="rl-health" data-health="{amount}" data-max="{top}">{bar} '
            f'<b>{amount}</b> / {top} {esc(found[0])}</div>')


def _changed_html(now: Mapping, start: Mapping) -> str:
    a, b = _flat(start), _flat(now)
    rows = [(k, a.get(k), b.get(k)) for k in dict.fromkeys([*a, *b]) if k != "name" and a.get(k) != b.get(k)]
    if not rows:
        return ""
    body = "".join(f'<tr data-field="{esc(k)}"><td>{esc(k)}</td><td>{esc(_shown(x))}</td><td>{esc(_shown(y))}</td></tr>'
                   for k, x, y in rows[:MAX_CHANGED_ROWS])
    more = f'<div class="rl-hint">and {len(rows) - MAX_CHANGED_ROWS} more</div>' if len(rows) > MAX_CHANGED_ROWS else ""
    return (f'<details class="rl-changed"><summary>Changed since the start ({len(rows)})</summary>'
            '<table class="rl-table"><thead><tr><th>Field</th><th>Start</th><th>Now</th></tr></thead>'
            f"<tbody>{body}</tbody></table>{more}</details>")


def _conditions(combatant: Any) -> list[str]:
    """The combatant's named conditions (a ``conditions`` attribute: names, or objects with ``label()``)."""
    out = []
    for c in getattr(combatant, "conditions", None) or ():
        out.append(c.label() if hasattr(c, "label") else getattr(c, "name", None) or str(c))
    return out


def card_html(cls: Any, combatant: Any, start: Mapping | None = None) -> str:
    """One combatant's card (escaped HTML): name and side, a health bar against ``start`` (its JSON shape
    when the fight began), AP, status, the ruleset's summary line (``Encounter.summary``), conditions,
    Traumas and wounds, and a folded table of every field changed since the start."""
    now = cls.write_combatant(combatant)
    start = start if start is not None else now
    side = now.get("side") or ""
    side_html = f' <span class="rl-note">{esc(side)}</span>' if side else ""
    ap = _find(now, AP_KEYS)
    status = _find(now, tuple((k, k) for k in STATUS_KEYS))
    facts = [f'<span class="rl-ap" data-ap="{esc(ap[1])}">{esc(ap[1])} {esc(ap[0])}</span>'] if ap else []
    if status:
        facts.append(f'<span class="rl-state">{esc(status[1])}</span>')
    conds = _conditions(combatant)
    if conds:
        facts.append("conditions: " + ", ".join(f'<span class="rl-condition">{esc(c)}</span>' for c in conds))
    lasting = []
    for key, label in LASTING_KEYS:
        for scope in _scopes(now):
            if scope.get(key):
                lasting.append(f'<div class="rl-lasting" data-field="{esc(key)}">{esc(label)}: '
                               f"{esc(_shown(scope[key]))}</div>")
    return (f'<div class="rl-cell rl-fighter" data-combatant="{esc(combatant.name)}" '
            f'data-status="{esc(status[1] if status else "")}"><div class="rl-label">{esc(combatant.name)}'
            f'{side_html}</div>'
            f"{_health_html(now, start)}<div>{' · '.join(facts)}</div>"
            f'<div class="rl-summary">{esc(cls.summary(combatant))}</div>{"".join(lasting)}'
            f"{_changed_html(now, start)}</div>")


# -- the log and the handout -----------------------------------------------------------------------

@functools.cache
def _rulings() -> dict[str, Any]:
    from ruleslawyer.registry import all_rulings

    return {r.id: r for r in all_rulings()}


def _cite(cite_id: str, rulings: Mapping[str, str], rules) -> str:
    """A log line's citation: a click-to-open rule, or an amber badge with the ruling's answer in play."""
    ruling = _rulings().get(cite_id)
    if ruling is None:
        return cite_html(cite_id, rules=rules)
    answer = rulings.get(cite_id, ruling.default)
    return (f'<span class="rl-ruling" data-ruling-id="{esc(cite_id)}" data-answer="{esc(answer)}" '
            f'title="{esc(ruling.question)}">Ruling: {esc(cite_id)} = {esc(answer)}</span>')


def _line_html(line, rulings: Mapping[str, str], rules) -> str:
    cites = "".join(_cite(c, rulings, rules) for c in line.cites)
    return (f'<li class="rl-log-line" data-round="{line.round}">{esc(line.text)}'
            f'<div class="rl-log-cites" style="display:flex;flex-wrap:wrap;column-gap:1em">{cites}</div></li>')


def log_html(lines, rulings: Mapping[str, str] | None = None, *, rules=None) -> str:
    """Log lines (:class:`ruleslawyer.encounter.LogLine`) grouped by round, as escaped HTML: each line's
    text, then its citations (click to open the quoted rule) and rulings (amber, with the answer in
    play: ``rulings`` overrides, else the default)."""
    rulings = rulings or {}
    groups: dict[int, list[str]] = {}
    for line in lines:
        groups.setdefault(line.round, []).append(_line_html(line, rulings, rules))
    if not groups:
        return '<div class="rl-hint">No round resolved yet.</div>'
    return "".join(f'<div class="rl-log-round" data-round="{n}"><div class="rl-label">Round {n}</div>'
                   f'<ol class="rl-log">{"".join(items)}</ol></div>' for n, items in groups.items())


def handout_markdown(fight, *, title: str = "", rules=None) -> str:
    """The fight as a Markdown handout: where everyone stands, every log line by round with its
    citation ids, then each cited rule once, quoted verbatim with its breadcrumb, and each ruling used
    with its question, answer and provenance."""
    cls = type(fight)
    rules = resolve_rules(rules)
    state = fight.state
    out = [f"# {title or f'A {cls.ruleset} fight'}", "",
           f"Seed {fight.seed}; {_count(state.round, 'round')} resolved{'; the fight is over' if state.over else ''}.", "",
           f"## Where they stand after round {state.round}", ""]
    out += [f"- {cls.summary(c)}" for c in state.combatants]
    cited: dict[str, None] = {}
    rnd = None
    for line in fight.log:
        if line.round != rnd:
            rnd = line.round
            out += ["", f"## Round {rnd}", ""]
        out.append(f"- {line.text}" + (f" [{', '.join(line.cites)}]" if line.cites else ""))
        cited.update(dict.fromkeys(line.cites))
    rule_ids = [c for c in cited if c not in _rulings()]
    ruling_ids = [c for c in cited if c in _rulings()]
    if rule_ids:
        out += ["", "## The rules cited", ""]
    for rid in rule_ids:
        rule = resolve_rule(rid, rules)
        if rule is None:
            out += [f"**{rid}**: not in the rules database", ""]
            continue
        out += [f"**{rule.breadcrumb}** (`{rid}`)", "", *[f"> {t}" if t else ">" for t in rule.text.split("\n")], ""]
    if ruling_ids:
        out += ["", "## Rulings (the kit's answers where the book is silent)", ""]
    for rid in ruling_ids:
        r = _rulings()[rid]
        out.append(f"- `{rid}` = **{fight.rulings.get(rid, r.default)}**: {r.question} ({r.provenance}; "
                   f"default {r.default})")
    return "\n".join(out).rstrip() + "\n"


# -- the panel -------------------------------------------------------------------------------------

class FightPanel:
    """Run a whole fight round by round (any ruleset with a fight engine).

    Args:
        ruleset: the ruleset id (one of :func:`fight_rulesets`; default ``mastery``).
        input: a fight input as ``ruleslawyer fight RULESET --input`` reads it (``{seed, rulings,
            options, combatants, rounds}``, or a saved fight under ``fight``); None: the ruleset's first
            example fight (:func:`example_fights`), if any.
        rules: the rules handle (None: the default database).

    Controls: ``ruleset`` and ``example`` (choosing one loads it; ``load_button`` loads it again),
    ``input_toggle`` / ``input_text`` / ``start_button`` (edit the fight input and start it), ``dice``
    (:class:`~.base.DiceControls`: the fight's seed; scripted dice for the next round; Replay plays the
    resolved rounds again with the seed shown, ``roll_button`` does so with a fresh seed),
    ``declare`` (combatant name -> its declaration box, JSON; empty: declares nothing),
    ``resolve_button``, ``undo_button``, ``export_button`` (fills ``handout`` and the ``download`` link).

    Attributes:
        fight: the :class:`~ruleslawyer.encounter.Encounter` (None until an input is loaded).
        results: the :class:`~ruleslawyer.encounter.RoundResult` of each resolved round.
        played: per resolved round, ``{"declare": {name: text typed}, "dice": script or None}``.
        cards, log_view: HTML widgets (where everyone stands; the whole log).
    """

    def __init__(self, ruleset: str = "mastery", input: Mapping | None = None, *, rules: RulesLike = None) -> None:
        from ruleslawyer.commands.fight import encounter_class

        self.rules = resolve_rules(rules)
        encounter_class(ruleset)  # an unknown ruleset, or one without a fight engine, is refused here
        self.fight = None
        self.results: list = []
        self.played: list[dict] = []
        self.input: dict = {}
        self._start: dict[str, dict] = {}
        self._base_round = 0
        self._quiet = False
        self._build_controls(ruleset)
        self._build_frame()
        if input is not None:
            self.frame.guard(lambda: self.load_input(input))
        else:
            self.load_example()

    # -- building ----------------------------------------------------------------------------------
    def _build_controls(self, ruleset: str) -> None:
        self.ruleset = widgets.Dropdown(options=fight_rulesets(), value=ruleset, description="Ruleset",
                                        layout=widgets.Layout(width="240px"),
                                        tooltip="The ruleset whose fight engine runs the fight")
        self.example = widgets.Dropdown(options=self._example_options(ruleset), description="Example",
                                        layout=widgets.Layout(width="280px"),
                                        tooltip="An example fight (examples/<ruleset>/fight*.json) to load")
        self.load_button = widgets.Button(description="Load", icon="folder-open", layout=widgets.Layout(width="auto"),
                                          tooltip="Load the example again from its start")
        self.load_button.add_class("rl-load")
        self.input_toggle = widgets.ToggleButton(value=False, description="Fight input", icon="pencil",
                                                 layout=widgets.Layout(width="auto"),
                                                 tooltip="Show the fight input (JSON: seed, rulings, options, "
                                                         "combatants, rounds) to edit it or paste your own")
        self.input_text = widgets.Textarea(layout=widgets.Layout(width="98%", height="220px", display="none"))
        self.input_text.add_class("rl-fight-input")
        self.start_button = widgets.Button(description="Start this fight", icon="play",
                                           layout=widgets.Layout(width="auto", display="none"),
                                           tooltip="Start the fight in the input box from round 0")
        self.start_button.add_class("rl-start")
        self.dice = DiceControls(seed=7, on_run=self.run, slots_hint="the next round's dice, e.g. attack: 2 2 1")
        self.dice.replay_button.tooltip = "Play the resolved rounds again from the start with the seed shown"
        self.roll_button = widgets.Button(description="New dice", icon="random", layout=widgets.Layout(width="auto"),
                                          tooltip="A fresh seed, then the resolved rounds played again with it")
        self.roll_button.add_class("rl-roll")
        self.cards = widgets.HTML("")
        self.cards.add_class("rl-cards")
        self.declare_box = widgets.VBox([])
        self.declare_box.add_class("rl-declarations")
        self.declare: dict[str, widgets.Textarea] = {}
        self.resolve_button = widgets.Button(description="Resolve round", button_style="primary", icon="gavel",
                                             layout=widgets.Layout(width="auto"))
        self.resolve_button.add_class("rl-run")
        self.undo_button = widgets.Button(description="Undo last round", icon="undo", layout=widgets.Layout(width="auto"))
        self.undo_button.add_class("rl-undo")
        self.export_button = widgets.Button(description="Export handout", icon="file-text",
                                            layout=widgets.Layout(width="auto"),
                                            tooltip="The whole log as Markdown, with every cited rule quoted")
        self.export_button.add_class("rl-export")

    def _build_frame(self) -> None:
        self.frame = PanelFrame("Fight: a whole fight, round by round", [
            [self.ruleset, self.example, self.load_button, self.input_toggle], self.input_text, [self.start_button],
            [*self.dice.row.children, self.roll_button], self.cards, self.declare_box,
            [self.resolve_button, self.undo_button, self.export_button]],
            on_rulings_change=self.run, css_class="rl-fight-panel", rules=self.rules)
        self.output = self.frame.output
        self.log_view = widgets.HTML("")
        self.log_view.add_class("rl-fight-log")
        self.handout = widgets.Textarea(layout=widgets.Layout(width="98%", height="260px", display="none"))
        self.handout.add_class("rl-handout")
        self.download = widgets.HTML("")
        self.frame.widget.children = (*self.frame.widget.children, self.log_view, self.download, self.handout)
        self.widget = self.frame.widget
        self.ruleset.observe(lambda _c: self._ruleset_changed(), names="value")
        self.example.observe(lambda _c: self.load_example(), names="value")
        self.load_button.on_click(lambda _b: self.load_example())
        self.input_toggle.observe(lambda _c: self._sync_input(), names="value")
        self.start_button.on_click(lambda _b: self.frame.guard(self._start_typed))
        self.roll_button.on_click(lambda _b: self.dice.roll())
        self.resolve_button.on_click(lambda _b: self.resolve())
        self.undo_button.on_click(lambda _b: self.undo())
        self.export_button.on_click(lambda _b: self.export())

    def _example_options(self, ruleset: str) -> list[tuple[str, str]]:
        return [(p.stem, str(p)) for p in example_fights(ruleset)]

    def _sync_input(self) -> None:
        shown = None if self.input_toggle.value else "none"
        self.input_text.layout.display = shown
        self.start_button.layout.display = shown

    def _ruleset_changed(self) -> None:
        self._quiet = True  # the new options change the example's value: load once, below
        try:
            self.example.options = self._example_options(self.ruleset.value)
        finally:
            self._quiet = False
        self.load_example()

    @property
    def encounter_class(self):
        """The :class:`~ruleslawyer.encounter.Encounter` subclass of the chosen ruleset."""
        from ruleslawyer.commands.fight import encounter_class

        return encounter_class(self.ruleset.value)

    # -- loading and starting ----------------------------------------------------------------------
    def load_example(self) -> None:
        """Load the chosen example fight (none found: the input box opens for a fight of your own)."""
        if self._quiet:
            return

        def go() -> None:
            from ruleslawyer.commands.engines import read_object

            if not self.example.value:
                self.fight, self.input, self.played, self.results = None, {}, [], []
                self.input_toggle.value = True
                self._show_all()
                return
            self.load_input(read_object(self.example.value))
        self.frame.guard(go)

    def load_input(self, data: Mapping) -> None:
        """Start the fight ``data`` (the ``ruleslawyer fight`` input format) from its beginning, with its
        seed (none: a fresh one, shown in the seed box) and its rulings (overrides chosen earlier cleared).

        Raises:
            RulesInputError: a bad input (the field named); the fight on show stays as it was.
        """
        from .base import new_seed

        data = _read_input(data)
        seed = data["seed"] if data.get("seed") is not None else (data.get("fight") or {}).get("seed")
        self._start_from(data, [], new_seed() if seed is None else seed, {})
        self.frame.rulings.overrides.clear()
        self.input_text.value = json.dumps(data, indent=1, ensure_ascii=False)

    def _start_typed(self) -> None:
        self.load_input(_read_text(self.input_text.value, "input"))

    def _start_from(self, data: dict, played: list[dict], seed: Any, overrides: Mapping[str, str]) -> None:
        """A new fight from ``data`` with ``seed`` and the ruling ``overrides``, then ``played`` again (a
        round refused on the way stops there, its declarations back in the boxes)."""
        cls = self.encounter_class
        fight = cls.from_input(data, seed=seed, rulings=overrides, rules=self.rules, field="input")
        self.dice.seed.value = fight.seed
        self.fight, self.input, self.played, self.results = fight, data, [], []
        self._base_round = fight.state.round
        self._start = {c.name: cls.write_combatant(c) for c in fight.state.combatants}
        self._make_boxes()
        failed = None
        try:
            for rnd in played:
                failed = rnd
                try:
                    self._play(rnd["declare"], rnd["dice"])
                except RulesInputError as exc:
                    raise RulesInputError(exc.field, f"playing round {fight.state.round + 1} again: {exc.message}"
                                          ) from None
            failed = None
        finally:
            self._fill(failed)
            self._show_all()

    def run(self) -> None:
        """Start the fight again from its input with the seed shown and the rulings chosen, and play the
        resolved rounds again with the same declarations and dice scripts (Replay, New dice, a ruling)."""
        def go() -> None:
            if not self.input:
                raise RulesInputError("input", "load an example or start a fight of your own first")
            self._start_from(self.input, list(self.played), self.dice.seed.value, dict(self.frame.rulings.overrides))
        self.frame.guard(go)

    # -- playing -----------------------------------------------------------------------------------
    def _make_boxes(self) -> None:
        self.declare = {}
        rows = []
        for c in self.fight.state.combatants:
            box = widgets.Textarea(placeholder="{}  (empty: declares nothing this round)",
                                   layout=widgets.Layout(width="98%", height="64px"),
                                   tooltip=f"What {c.name} declares for the next round, as JSON "
                                           f"(ruleslawyer fight {self.fight.ruleset} --schema)")
            box.add_class("rl-declare")
            self.declare[c.name] = box
            rows.append(widgets.HTML(f'<div class="rl-label" data-combatant="{esc(c.name)}">{esc(c.name)} '
                                     f'declares</div>'))
            rows.append(box)
        self.declare_box.children = tuple(rows)

    def _input_round(self) -> Mapping:
        i = self.fight.state.round - self._base_round
        rounds = self.input.get("rounds") or []
        return rounds[i] if 0 <= i < len(rounds) else {}

    def _fill(self, played: Mapping | None = None) -> None:
        """The declaration boxes and the dice script: a resolved round's (``played``, e.g. the round
        undone), else the input's next round (none: the boxes emptied, the dice from the seed)."""
        rnd = played or self._input_round()
        declared = rnd.get("declare") or {}
        for name, box in self.declare.items():
            text = declared.get(name, "")
            box.value = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
        dice = rnd.get("dice")
        self.dice.script.value = script_text(dice) if dice else ""
        if dice or played is not None:
            self.dice.mode.value = SCRIPTED if dice else SEEDED

    def _play(self, typed: Mapping[str, str], script: Mapping | None) -> None:
        """Declare for everyone (all checked before any is declared), then resolve the round."""
        fight = self.fight
        if fight.state.over:
            raise RulesInputError("round", f"the fight is over after round {fight.state.round}; Undo or load a fight")
        checked: dict[str, Any] = {}
        for name, text in typed.items():
            if text.strip():
                field_name = f"declarations.{name}"
                decl = _read_text(text, field_name)
                fight.check_declaration(fight.state, fight.state.combatant(name, field_name), decl, field_name)
                checked[name] = decl
        for name in typed:
            if name not in checked:
                fight.withdraw(name)
        for name, decl in checked.items():
            fight.declare(name, decl)
        self.results.append(fight.resolve_round(script))
        self.played.append({"declare": dict(typed), "dice": script})

    def resolve(self) -> None:
        """Resolve the next round with the declarations typed and the dice chosen (a refusal is a
        message naming the field; nothing is lost)."""
        def go() -> None:
            if self.fight is None:
                raise RulesInputError("input", "load an example or start a fight of your own first")
            script = self.dice.kwargs()["script"]
            self._play({name: box.value for name, box in self.declare.items()}, script)
            self._fill()
            self._show_all()
        self.frame.guard(go)

    def undo(self) -> None:
        """Take back the last round: the state and log as before it, its declarations and dice back in
        the boxes."""
        def go() -> None:
            if self.fight is None or not self.played:
                raise RulesInputError("undo", "no round has been resolved yet")
            self.fight.undo()
            self.results.pop()
            self._fill(self.played.pop())
            self._show_all()
        self.frame.guard(go)

    # -- showing -----------------------------------------------------------------------------------
    def title(self) -> str:
        """``Mastery: fight-duel`` (the ruleset and the example or input on show)."""
        names = {v: k for k, v in self.ruleset.options}
        label = next((k for k, v in self.example.options if v == self.example.value), "") or "your fight"
        return f"{names.get(self.ruleset.value, self.ruleset.value)}: {label}"

    def _show_all(self) -> None:
        fight = self.fight
        if fight is None:
            self.cards.value = self.log_view.value = ""
            self.declare_box.children = ()
            self.frame.show('<div class="rl-hint">No example fight found: paste a fight input (ruleslawyer fight '
                            f'{esc(self.ruleset.value)} --schema) in the box and press Start this fight.</div>',
                            summary="No fight loaded", status="")
            return
        cls = type(fight)
        self.cards.value = ('<div class="rl-cells">' + "".join(
            card_html(cls, c, self._start.get(c.name)) for c in fight.state.combatants) + "</div>")
        n = fight.state.round
        self.resolve_button.description = f"Resolve round {n + 1}"
        self.resolve_button.disabled = fight.state.over
        self.undo_button.disabled = not self.played
        summary = f"Round {n}: " + "; ".join(cls.summary(c) for c in fight.state.combatants)
        summary += ". The fight is over." if fight.state.over else ""
        status = (f'{esc(self.title())}; fight seed <b class="rl-seed-used">{fight.seed}</b>; '
                  f"{_count(n, 'round')} resolved; next: {self.dice.describe()}")
        self.log_view.value = (f'<details class="rl-explain rl-log-all" open><summary>Fight log: {_count(n, "round")}, '
                               f'{_count(len(fight.log), "line")}</summary>{log_html(fight.log, fight.rulings, rules=self.rules)}'
                               "</details>")
        if self.handout.layout.display != "none":
            self.export()
        if not self.results:
            self.frame.show('<div class="rl-hint">Declare for each combatant (JSON) and press Resolve round.</div>',
                            summary=summary, status=status)
            return
        last = self.results[-1]
        header = (f'<div class="rl-outcome" data-round="{last.round}" data-over="{str(fight.state.over).lower()}">'
                  f'<ol class="rl-log">{"".join(_line_html(x, fight.rulings, self.rules) for x in last.lines)}</ol></div>')
        self.frame.show_trace(last.trace, header=header, summary=summary, status=status)
        self.frame.rulings.show([u for r in self.results for u in r.trace.ruling_uses()])

    def export(self) -> str:
        """The handout (:func:`handout_markdown`) in ``handout`` and as a download link; returns it."""
        if self.fight is None:
            return ""
        text = handout_markdown(self.fight, title=f"Fight: {self.title()}", rules=self.rules)
        self.handout.value = text
        self.handout.layout.display = None
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.download.value = (f'<a class="rl-download" download="fight-round-{self.fight.state.round}.md" '
                               f'href="data:text/markdown;charset=utf-8;base64,{data}">Download the handout '
                               "(Markdown)</a>")
        return text

    def static_html(self) -> str:
        """The panel as static HTML (no kernel): the frame's copy, then the cards and the log (the log
        left out when the page would pass :data:`STATIC_LOG_MAX_CHARS`)."""
        page = self.frame.static_html()
        extra = self.cards.value
        if len(page) + len(extra) + len(self.log_view.value) < STATIC_LOG_MAX_CHARS + len(css()):
            extra += self.log_view.value
        return page[: -len("</div>")] + extra + "</div>"

    def _repr_mimebundle_(self, **kwargs):
        data = self.frame.mimebundle(**kwargs)
        data["text/html"] = self.static_html()
        return data
