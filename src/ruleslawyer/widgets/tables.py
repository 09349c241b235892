"""The table panel: pick any table of the rules; roll on a rollable one with a shown, settable seed, or
enter the die result rolled at the table; the row is shown with its citation."""

from __future__ import annotations

import ipywidgets as widgets

from .base import PanelFrame, cite_html, esc, new_seed

__all__ = ["TablePanel", "table_html", "ROLL", "ENTER"]

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
    return f'<table class="rl-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _row_html(result) -> str:
    """The row rolled: each column with its cell, then the row's click-to-open citation."""
    cells = "".join(f"<tr><th>{esc(c)}</th><td>{esc(v)}</td></tr>" for c, v in result.cells.items())
    span = f"{result.row.low}" if result.row.low == result.row.high else f"{result.row.low}–{result.row.high}"
    return (f'<div class="rl-outcome" data-roll="{result.roll}" data-row="{result.row.index}">'
            f'<b>{esc(result.dice)}: {result.roll}</b> → row {esc(span)}'
            f'<table class="rl-table rl-row">{cells}</table>'
            f'{cite_html(result.row.unit_id, note=f"row {span} of {result.table_id}", open_=True)}</div>')


class TablePanel:
    """Roll on (or look up) any table of the rules database.

    Controls: ``table`` (Dropdown of every table; rollable ones show their die), ``mode``
    (``ROLL`` or ``ENTER``), ``seed`` (IntText, shown and settable), ``die_result`` (the face rolled at
    the table, for ``ENTER``), ``button`` (Roll / Look up) and ``new_seed_button`` (draws a fresh seed and
    rolls). ``run()`` calls :func:`ruleslawyer.rulesdb.roll` for a rollable table and renders the row,
    its citation, the trace and the whole table with the row highlighted; a table without a die is
    shown whole with a citation per row.

    Args:
        table_id: initial table (default: the Mastery Trauma table when present).
        seed: initial seed (default 7).

    Attributes:
        result: the last :class:`ruleslawyer.tables.TableRoll` (None if none).
    """

    def __init__(self, table_id: str = "mastery/combat/tables/trauma", seed: int = 7) -> None:
        from ruleslawyer.rulesdb import list_tables

        infos = list_tables()
        options = [(f"{t.title} — roll {t.dice} ({t.id})" if t.dice else f"{t.title} ({t.id})", t.id) for t in infos]
        ids = [t.id for t in infos]
        self._dice = {t.id: t.dice for t in infos}
        self.table = widgets.Dropdown(options=options, value=table_id if table_id in ids else (ids[0] if ids else None),
                                      description="Table", layout=widgets.Layout(width="70%"))
        self.mode = widgets.ToggleButtons(options=[ROLL, ENTER], value=ROLL)
        self.seed = widgets.IntText(value=seed, description="Seed", layout=widgets.Layout(width="200px"))
        self.seed.add_class("rl-seed")
        self.die_result = widgets.IntText(value=1, description="Die result", layout=widgets.Layout(width="200px"))
        self.die_result.add_class("rl-die-result")
        self.button = widgets.Button(description="Roll", button_style="primary", icon="dice")
        self.button.add_class("rl-roll")
        self.new_seed_button = widgets.Button(description="New seed + roll", tooltip="Draw a fresh seed and roll")
        self.frame = PanelFrame("Roll on a table", [[self.table], [self.mode],
                                                    [self.seed, self.die_result, self.button, self.new_seed_button]],
                                css_class="rl-table-panel")
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.result = None
        self.button.on_click(lambda _b: self.run())
        self.new_seed_button.on_click(lambda _b: self.reroll())
        self.mode.observe(lambda _c: self._sync(), names="value")
        self.table.observe(lambda _c: self._sync(), names="value")
        self._sync()

    def _sync(self) -> None:
        rollable = bool(self._dice.get(self.table.value))
        self.mode.disabled = not rollable
        enter = self.mode.value == ENTER
        self.seed.disabled = not rollable or enter
        self.new_seed_button.disabled = not rollable or enter
        self.die_result.disabled = not rollable or not enter
        self.button.description = ("Look up" if enter else "Roll") if rollable else "Show table"

    def reroll(self) -> None:
        """Draw a fresh seed into the seed box and roll with it."""
        self.mode.value = ROLL
        self.seed.value = new_seed()
        self.run()

    def run(self) -> None:
        """Roll (seeded), look up the entered result, or show a table without a die."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesdb import load_table, roll

        tid = self.table.value
        self.result = None
        if not self._dice.get(tid):
            t = load_table(tid)
            self.frame.show(f'<div class="rl-crumb">{cite_html(t.section)}</div>{table_html(t)}',
                            status=f"{esc(t.title)}: {len(t.rows)} rows; no die, so nothing to roll")
            return
        if self.mode.value == ENTER:
            result = roll(tid, roll=self.die_result.value)
            status = f"{esc(result.dice)} result entered: {result.roll}"
        else:
            result = roll(tid, seed=self.seed.value)
            status = f"rolled {esc(result.dice)} with seed <b class=\"rl-seed-used\">{result.seed}</b>"
        self.result = result
        t = load_table(tid)
        whole = (f'<details class="rl-whole-table"><summary>Whole table ({len(t.rows)} rows)</summary>'
                 f'{table_html(t, highlight=result.row.index)}</details>')
        self.frame.show_trace(result.trace, header=_row_html(result), footer=whole, status=status)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
