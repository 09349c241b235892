"""The table panel: pick any table of the rules; roll on a rollable one (each Roll a fresh, shown
seed; Replay repeats the seed shown), or enter the die result rolled at the table; the row is shown
with its citation."""

from __future__ import annotations

import ipywidgets as widgets

from ruleslawyer.errors import RulesInputError

from ruleslawyer.rulesdb import roll as _roll
from .base import PanelArgs, PanelFrame, cite_html, esc, new_seed

__all__ = ["TablePanel", "table_html", "row_summary", "see_also_html", "ROLL", "ENTER"]

ROLL = "Roll with seed"
ENTER = "Enter die result"


def table_html(table, highlight: int | None = None) -> str:
    """A :class:`ruleslawyer.tables.RuleTable` as an escaped HTML table with a citation id per row.

    Args:
        table: the table.
        highlight: 1-based index of a row to highlight (the row rolled), or None.
    """
    head = "".join(f"<th>{esc(c)}</th>" for c in table.columns) + "<th>Citation</th>"
    rows = []
    for row in table.rows:
        cls = ' class="rl-hit-row"' if row.index == highlight else ""
        cells = "".join(f"<td>{esc(c)}</td>" for c in row.cells)
        rows.append(f'<tr{cls} data-rule-id="{esc(row.unit_id)}">{cells}<td class="rl-id">{esc(row.unit_id)}</td></tr>')
    return (f'<div class="rl-scroll"><table class="rl-table"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _span(result) -> str:
    return f"{result.row.low}" if result.row.low == result.row.high else f"{result.row.low}–{result.row.high}"


def _first_sentence(text: str) -> str:
    head, dot, _rest = text.partition(". ")
    return head + "." if dot else text


def row_summary(result) -> str:
    """The result line of a roll: the die, the face, the row, its first cell after the range cut to
    its first sentence, and the other cells in brackets: ``d100 42 → row 42–43: Skull Fracture.
    (Severe; 30 days' rest)``."""
    cells = [_first_sentence(str(v).strip()) for v in list(result.cells.values())[1:] if str(v).strip()]
    line = f"{result.dice} {result.roll} → row {_span(result)}"
    if cells:
        line += f": {cells[0]}" + (f" ({'; '.join(cells[1:])})" if len(cells) > 1 else "")
    found = getattr(result, "see_also", None)
    return line + (f" — {found.line}" if found is not None else "")


def see_also_html(found, rules=None) -> str:
    """The row an "As left arm." row refers to (:class:`ruleslawyer.tables.SeeAlso`), quoted with its
    click-to-open citation: ``As left arm: <text> [citation]``; ``""`` for None."""
    if found is None:
        return ""
    return (f'<div class="rl-see-also" data-rule-id="{esc(found.row.unit_id)}">As {esc(found.phrase)}: '
            f'{esc(found.text)} {cite_html(found.row.unit_id, rules=rules)}</div>')


def _row_html(result, rules) -> str:
    """The row rolled: each column with its cell, then the row's click-to-open citation."""
    cells = "".join(f"<tr><th>{esc(c)}</th><td>{esc(v)}</td></tr>" for c, v in result.cells.items())
    span = _span(result)
    return (f'<div class="rl-outcome" data-roll="{result.roll}" data-row="{result.row.index}">'
            f'<b>{esc(result.dice)}: {result.roll}</b> → row {esc(span)}'
            f'<table class="rl-table rl-row">{cells}</table>'
            f'{cite_html(result.row.unit_id, note=f"row {span} of {result.table_id}", open_=True, rules=rules)}'
            f'{see_also_html(result.see_also, rules)}</div>')


class TablePanel:
    """Roll on (or look up) any table of the rules database.

    Controls: ``table`` (Dropdown of every table; rollable ones show their die), ``mode``
    (``ROLL`` or ``ENTER``), ``seed`` (IntText, shown and settable), ``die_result`` (the face rolled at
    the table, for ``ENTER``), ``button`` (Roll: draws a fresh seed into ``seed`` and rolls; in
    ``ENTER`` mode, Look up) and ``replay_button`` (rolls again with the seed shown). ``run()`` rolls
    with the seed shown, calling :func:`ruleslawyer.rulesdb.roll` for a rollable table, and renders
    the result line (:func:`row_summary`), the row with its citation, the trace (folded) and the
    whole table with the row highlighted; a table without a die is shown whole with a citation per row.

    Args:
        table_id: initial table (default: the Mastery Trauma table when present).
        seed: initial seed (default 7), used by ``run()`` and Replay until Roll draws another.
        rules: the rules handle whose tables are listed and rolled (None: the default database).

    A bad argument (a table id not in the database, a seed that is not a whole number the seed box
    holds, a ``rules`` path that is not a rules database) never raises and never falls back to
    another table: the panel shows the message (``frame.error``) until a run succeeds
    (:class:`~ruleslawyer.widgets.base.PanelArgs`).

    Attributes:
        result: the last :class:`ruleslawyer.tables.TableRoll` (None if none).
    """

    def __init__(self, table_id: str = "mastery/combat/tables/trauma", seed: int = 7, *, rules=None) -> None:
        from ruleslawyer.rulesdb import list_tables

        args = PanelArgs(rules)
        self.rules = args.rules
        infos = args.safely(lambda: list_tables(rules=self.rules), [])
        options = [(f"{t.title} — roll {t.dice} ({t.id})" if t.dice else f"{t.title} ({t.id})", t.id) for t in infos]
        ids = [t.id for t in infos]
        self._dice = {t.id: t.dice for t in infos}
        chosen = args.choice("table_id", table_id, ids, None, what="table") if ids else None
        self._arg_error = args.error  # shown again by a run while no table is chosen
        seed = args.seed(seed)
        self.table = widgets.Dropdown(options=options, value=chosen, description="Table",
                                      layout=widgets.Layout(width="98%"))
        self.mode = widgets.ToggleButtons(options=[ROLL, ENTER], value=ROLL, style={"button_width": "130px"})
        self.seed = widgets.IntText(value=seed, description="Seed", layout=widgets.Layout(width="180px"),
                                    tooltip="The seed of the roll: Roll draws a new one; Replay repeats it")
        self.seed.add_class("rl-seed")
        self.die_result = widgets.IntText(value=1, description="Die result", layout=widgets.Layout(width="180px"),
                                          tooltip="The face rolled at the table, looked up on the table")
        self.die_result.add_class("rl-die-result")
        self.button = widgets.Button(description="Roll", button_style="primary", icon="dice",
                                     tooltip="Roll with a fresh seed (shown in the seed box)")
        self.button.add_class("rl-roll")
        self.replay_button = widgets.Button(description="Replay", icon="repeat",
                                            tooltip="Roll again with the seed shown (the same roll)")
        self.replay_button.add_class("rl-replay")
        self.frame = PanelFrame("Roll on a table", [[self.table], [self.mode],
                                                    [self.seed, self.die_result, self.button, self.replay_button]],
                                css_class="rl-table-panel", rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.result = None
        self.button.on_click(lambda _b: self.roll())
        self.replay_button.on_click(lambda _b: self.run())
        self.mode.observe(lambda _c: self._sync(), names="value")
        self.table.observe(lambda _c: self._sync(), names="value")
        self._sync()
        args.report(self.frame)  # a bad argument: its message, not another table

    def _sync(self) -> None:
        rollable = bool(self._dice.get(self.table.value))
        self.mode.disabled = not rollable
        enter = self.mode.value == ENTER
        self.seed.disabled = not rollable or enter
        self.replay_button.disabled = not rollable or enter
        self.die_result.disabled = not rollable or not enter
        self.button.description = ("Look up" if enter else "Roll") if rollable else "Show table"

    def roll(self) -> None:
        """The Roll button: a fresh seed into the seed box, then :meth:`run` (in ``ENTER`` mode, or for a
        table without a die, just :meth:`run`)."""
        if self._dice.get(self.table.value) and self.mode.value == ROLL:
            self.seed.value = new_seed()
        self.run()

    def reroll(self) -> None:
        """Switch to ``ROLL`` mode and roll with a fresh seed."""
        self.mode.value = ROLL
        self.roll()

    def run(self) -> None:
        """Roll with the seed shown, look up the entered result, or show a table without a die."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        tid = self.table.value
        self.result = None
        if tid is None:
            raise self._arg_error or RulesInputError("table", "choose a table to roll on")
        t = self.rules.table(tid)
        if not self._dice.get(tid):
            self.frame.show(f'<div class="rl-crumb">{cite_html(t.section, rules=self.rules)}</div>{table_html(t)}',
                            status=f"{esc(t.title)}: {len(t.rows)} rows; no die, so nothing to roll",
                            summary=f"{t.title}: {len(t.rows)} rows, each with its citation")
            return
        if self.mode.value == ENTER:
            result = _roll(tid, rules=self.rules, roll=self.die_result.value)
            status = f"{esc(result.dice)} result entered: {result.roll}"
        else:
            result = _roll(tid, rules=self.rules, seed=self.seed.value)
            status = (f'rolled {esc(result.dice)} with seed <b class="rl-seed-used">{result.seed}</b> '
                      f'(Replay repeats it)')
        self.result = result
        whole = (f'<details class="rl-whole-table"><summary>Whole table ({len(t.rows)} rows)</summary>'
                 f'{table_html(t, highlight=result.row.index)}</details>')
        self.frame.show_trace(result.trace, header=_row_html(result, self.rules), footer=whole, status=status,
                              summary=row_summary(result))

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
