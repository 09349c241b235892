"""The Mastery Trauma panel: the trauma setting, a d100 roll (seeded) or an entered result, the finger
sub-roll, and a character's trauma sheet that accumulates (Blinded after the second eye, ...)."""

from __future__ import annotations

import ipywidgets as widgets

from ruleslawyer.rulesdb.handle import RulesLike, resolve_rules

from .base import PanelFrame, esc, explain_html, new_seed
from .tables import see_also_html

__all__ = ["TraumaPanel", "sheet_html", "ROLL", "ENTER"]

ROLL = "Roll with seed"
ENTER = "Enter die results"


def sheet_html(sheet) -> str:
    """A :class:`ruleslawyer.rulesets.mastery.trauma.TraumaSheet` as escaped HTML: conditions, parts
    lost, punctured lungs and every Trauma suffered, in order."""
    if sheet is None or not (sheet.traumas or sheet.lost or sheet.punctured_lungs):
        return '<div class="rl-sheet"><b>Trauma sheet:</b> <span class="rl-hint">no Traumas yet</span></div>'
    conds = ", ".join(sheet.conditions) or "none"
    lost = ", ".join(sorted(sheet.lost)) or "nothing"
    items = "".join(f"<li>{esc(t)}</li>" for t in sheet.traumas)
    return (f'<div class="rl-sheet" data-conditions="{esc(conds)}"><b>Trauma sheet</b>'
            f'<div>Conditions: <b class="rl-conditions">{esc(conds)}</b></div>'
            f'<div>Lost: {esc(lost)}; punctured lungs: {sheet.punctured_lungs}</div>'
            f'<ol class="rl-sheet-list">{items}</ol></div>')


class TraumaPanel:
    """Roll Traumas for one character and keep their trauma sheet.

    Controls: ``setting`` (Realistic / Brutal / Deadly) with ``event`` and ``check_button`` (does a
    Trauma follow this event under this setting? :func:`~ruleslawyer.rulesets.mastery.trauma.trauma_follows`),
    ``mode`` (``ROLL`` / ``ENTER``), ``seed``, ``d100`` and ``finger`` (the 1d10 sub-roll for "Lose a
    finger", used in ``ENTER`` mode), ``button`` (Roll Trauma: a fresh seed each press, shown in
    ``seed``), ``replay_button`` (the last roll again with the seed shown, in its place on the sheet)
    and ``reset_button`` (a clean sheet). ``run()`` calls :func:`~ruleslawyer.rulesets.mastery.trauma.roll_trauma` with the
    current sheet and the rulings chosen in the bar, then keeps the updated sheet. ``rules``: the rules
    database (a :class:`~ruleslawyer.rulesdb.handle.Rules` handle or a path; default database) whose
    Trauma table is rolled.

    Attributes:
        sheet: the character's :class:`~ruleslawyer.rulesets.mastery.trauma.TraumaSheet`.
        result: the last :class:`~ruleslawyer.rulesets.mastery.trauma.Trauma` (None if none).
        check: the last :class:`~ruleslawyer.rulesets.mastery.trauma.TraumaCheck` (None if none).
    """

    def __init__(self, seed: int = 7, setting: str = "realistic", *, rules: RulesLike = None) -> None:
        from ruleslawyer.rulesets.mastery.trauma import TraumaEvent, TraumaSetting, TraumaSheet

        self.rules = resolve_rules(rules)
        self._TraumaSheet = TraumaSheet
        self.setting = widgets.Dropdown(options=[(s.value.capitalize(), s.value) for s in TraumaSetting],
                                        value=setting, description="Setting", layout=widgets.Layout(width="220px"))
        labels = {
            TraumaEvent.FIGHTING_ON_HEALTH_DAMAGE: "health damage while fighting on at 0",
            TraumaEvent.REACHED_ZERO: "reached 0 health",
            TraumaEvent.NATURAL_MINIMUM_RESIST: "natural minimum on a trial to resist damage",
            TraumaEvent.EXPLODED_HIT_HEALTH_DAMAGE: "health damage from a hit whose dice exploded",
        }
        self.event = widgets.Dropdown(options=[(labels.get(e, e.value), e.value) for e in TraumaEvent],
                                      description="Event", layout=widgets.Layout(width="440px"))
        self.check_button = widgets.Button(description="Does a Trauma follow?", layout=widgets.Layout(width="auto"))
        self.mode = widgets.ToggleButtons(options=[ROLL, ENTER], value=ROLL)
        self.seed = widgets.IntText(value=seed, description="Seed", layout=widgets.Layout(width="200px"))
        self.seed.add_class("rl-seed")
        self.d100 = widgets.IntText(value=1, description="d100", layout=widgets.Layout(width="160px"))
        self.finger = widgets.IntText(value=1, description="Finger d10", layout=widgets.Layout(width="180px"))
        self.button = widgets.Button(description="Roll Trauma", button_style="danger")
        self.button.add_class("rl-roll")
        self.replay_button = widgets.Button(description="Replay", icon="repeat",
                                            tooltip="The last roll again with the seed shown, in its place on the sheet")
        self.replay_button.add_class("rl-replay")
        self.reset_button = widgets.Button(description="Clear sheet", tooltip="Start a clean trauma sheet")
        self.frame = PanelFrame("Mastery: Traumas", [
            [self.setting, self.event, self.check_button], [self.mode],
            [self.seed, self.d100, self.finger, self.button, self.replay_button, self.reset_button]],
            on_rulings_change=self.rerun_with_rulings, css_class="rl-trauma-panel", rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.sheet = TraumaSheet()
        self.result = None
        self.check = None
        self._last_sheet = self.sheet
        self._pending = False  # True while a ruling change re-resolves the last roll
        self.button.on_click(lambda _b: self.roll())
        self.replay_button.on_click(lambda _b: self.rerun_with_rulings())
        self.reset_button.on_click(lambda _b: self.reset())
        self.check_button.on_click(lambda _b: self.run_check())
        self.mode.observe(lambda _c: self._sync(), names="value")
        self._sync()

    def _sync(self) -> None:
        enter = self.mode.value == ENTER
        self.seed.disabled = enter
        self.replay_button.disabled = enter
        self.d100.disabled = not enter
        self.finger.disabled = not enter

    def run(self) -> None:
        """Roll a Trauma (or look up the entered d100) onto the character's sheet."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesets.mastery.trauma import roll_trauma

        rulings = dict(self.frame.rulings.overrides)
        if self.result is not None and self._pending:
            base = self._last_sheet  # a ruling change re-resolves the last roll against the sheet before it
        else:
            base = self.sheet
        if self.mode.value == ENTER:
            result = roll_trauma(roll=self.d100.value, finger=self.finger.value, seed=self.seed.value,
                                 sheet=base, rulings=rulings, rules=self.rules)
            status = f"d100 entered: {result.roll}"
        else:
            result = roll_trauma(seed=self.seed.value, sheet=base, rulings=rulings, rules=self.rules)
            status = f'rolled d100 with seed <b class="rl-seed-used">{esc(self.seed.value)}</b>: {result.roll}'
        self._last_sheet = base
        self.result = result
        self.sheet = result.sheet
        self._pending = False
        head = (f'<div class="rl-outcome" data-roll="{result.roll}" data-range="{esc(result.range)}">'
                f'<b>d100 {result.roll}</b> → row {esc(result.range)}: {esc(result.text)}'
                + (f' <i>({esc(result.tier)}; recovery {esc(result.recovery)})</i>' if result.tier else "")
                + see_also_html(result.see_also, self.rules)
                + (f'<div>Finger d10: {result.finger} → <b>{esc(result.finger_lost)}</b></div>' if result.finger else "")
                + f'<div>Effect: {esc(result.effect)}</div></div>')
        summary = (f"d100 {result.roll} → {result.text}" + (f" ({result.tier}; recovery {result.recovery})" if result.tier
                                                            else "") + (f"; finger d10 {result.finger}: {result.finger_lost}"
                                                                        if result.finger else "")
                   + (f" — {result.see_also.line}" if result.see_also is not None else ""))
        self.frame.show_trace(result.trace, header=head + sheet_html(self.sheet), status=status, summary=summary)

    def rerun_with_rulings(self) -> None:
        """Re-resolve the last roll with the rulings now chosen and the seed shown (the sheet as it was
        before that roll): a ruling change, and the Replay button."""
        self._pending = True
        try:
            self.run()
        finally:
            self._pending = False

    def roll(self) -> None:
        """The Roll Trauma button: a fresh seed into the seed box (``ROLL`` mode), then :meth:`run`."""
        if self.mode.value == ROLL:
            self.seed.value = new_seed()
        self.run()

    def reroll(self) -> None:
        """Switch to ``ROLL`` mode and roll with a fresh seed."""
        self.mode.value = ROLL
        self.roll()

    def reset(self) -> None:
        """Start a clean trauma sheet."""
        self.sheet = self._last_sheet = self._TraumaSheet()
        self.result = None
        self.frame.show(sheet_html(self.sheet), status="clean sheet", summary="A clean trauma sheet")

    def run_check(self) -> None:
        """Does a Trauma follow the chosen event under the chosen setting?"""
        def go() -> None:
            from ruleslawyer.rulesets.mastery.trauma import trauma_follows

            check = trauma_follows(self.event.value, self.setting.value, rules=self.rules)
            self.check = check
            text = {"trauma": "a Trauma follows", "none": "no Trauma",
                    "endurance-trial-or-trauma": f"Endurance trial (DC {check.endurance_dc}); on a failure, a Trauma"}
            head = (f'<div class="rl-outcome" data-outcome="{esc(check.outcome)}"><b>{esc(self.setting.label)}:</b> '
                    f'{esc(text.get(check.outcome, check.outcome))}</div>')
            self.frame.show(head + explain_html(check.trace, rules=self.rules) + sheet_html(self.sheet),
                            summary=f"{self.setting.label}: {text.get(check.outcome, check.outcome)}")
        self.frame.guard(go)

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
