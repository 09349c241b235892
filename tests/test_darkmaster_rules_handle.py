"""Against the Darkmaster with two rules databases in one process: each call reads the tables of the
handle it is given (``rules=``), never the default database behind its back."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ruleslawyer.cli import main
from ruleslawyer.dice import Dice
from ruleslawyer.rulesdb.handle import open_rules
from ruleslawyer.rulesets.darkmaster import SequenceInput, effective_length, roll_open_ended, sequence_round

LENGTHS = "darkmaster/supplement/tables/weapon-length"
OPEN_ENDED = "darkmaster/supplement/tables/open-ended-d100"
ROUND = {"combatants": [
    {"name": "Pikeman", "cmb": 10, "actions": [{"name": "Pike", "kind": "melee", "weapon_length": "Longest"}]},
    {"name": "Brawler", "cmb": 20, "actions": [{"name": "Punch", "kind": "melee", "weapon_length": "Hand"}]},
]}


try:  # a database the kit builds may be sealed with a checksum: an edit made here must be sealed again
    from ruleslawyer.rulesdb.paths import seal_database
except ImportError:  # pragma: no cover - a kit that does not seal its databases
    def seal_database(path):
        pass


def _edit(db, table_id, row_match, column, value, **range_):
    """Set one cell of the row of ``table_id`` whose cells contain ``row_match`` (and its die range), as a
    user editing the built database would, then seal the file as the build does."""
    conn = sqlite3.connect(db)
    cols = json.loads(conn.execute("SELECT columns FROM rule_tables WHERE id = ?", (table_id,)).fetchone()[0])
    for index, cells in conn.execute("SELECT row_index, cells FROM table_rows WHERE table_id = ?", (table_id,)).fetchall():
        cells = json.loads(cells)
        if row_match in cells:
            cells[cols.index(column)] = value
            conn.execute("UPDATE table_rows SET cells = ? WHERE table_id = ? AND row_index = ?",
                         (json.dumps(cells), table_id, index))
            for k, v in range_.items():
                conn.execute(f"UPDATE table_rows SET {k} = ? WHERE table_id = ? AND row_index = ?", (v, table_id, index))
    conn.commit()
    conn.close()
    seal_database(db)


@pytest.fixture(scope="module")
def other_db(tmp_path_factory, shipped_db):
    """A second database where Hand is the longest length (step 5) and 01-10 is the low open end."""
    db = shipped_db(tmp_path_factory.mktemp("other") / "b.db")
    _edit(db, LENGTHS, "Hand", "Step", "5")
    _edit(db, OPEN_ENDED, "01–05", "d100", "01–10", high=10)
    _edit(db, OPEN_ENDED, "06–95", "d100", "11–95", low=11)
    return db


def melee_order(result):
    return [p.combatant for ph in result.phases if ph.phase.value == "Melee Phase" for p in ph.placements]


def test_each_database_gives_its_own_attack_order(other_db):
    other = open_rules(other_db)
    # default: Longest (step 4) attacks before Hand (step 1); other: Hand is step 5, so the Brawler first
    assert melee_order(sequence_round(SequenceInput.from_dict(ROUND))) == ["Pikeman", "Brawler"]
    assert melee_order(sequence_round(SequenceInput.from_dict(ROUND), rules=other)) == ["Brawler", "Pikeman"]
    # and again on the default database: nothing of the other one was cached as the default's
    assert melee_order(sequence_round(SequenceInput.from_dict(ROUND))) == ["Pikeman", "Brawler"]
    assert effective_length("Hand", rules=other)[0] == 5 and effective_length("Hand")[0] == 1


def test_open_ended_reads_the_table_of_its_database(other_db):
    # a first roll of 08: 06-95 stands as it is by default; the other database makes 01-10 the low end, 8 - 30
    assert roll_open_ended(Dice(script={"cmb": [8]})).total == 8
    assert roll_open_ended(Dice(script={"cmb": [8, 30]}), rules=open_rules(other_db)).total == -22


def test_the_panel_reads_the_database_it_is_given(other_db):
    from ruleslawyer.widgets import DarkmasterRoundPanel

    panel = DarkmasterRoundPanel(ROUND["combatants"], rules=other_db)
    # lengths shortest first by the other database's steps: Short 2, Long 3, Longest 4, Hand 5
    assert [v for _, v in panel.length.options][1:] == ["Short", "Long", "Longest", "Hand"]
    panel.run()
    assert melee_order(panel.result) == ["Brawler", "Pikeman"]


def test_cli_db_option_reads_that_database(other_db, tmp_path, capsys):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ROUND))
    assert main(["--db", str(other_db), "sequence", "darkmaster", "--input", str(path), "--json"]) == 0
    melee = next(p for p in json.loads(capsys.readouterr().out)["phases"] if p["phase"] == "Melee Phase")
    assert [p["combatant"] for p in melee["placements"]] == ["Brawler", "Pikeman"]
    assert main(["sequence", "darkmaster", "--input", str(path), "--json"]) == 0
    melee = next(p for p in json.loads(capsys.readouterr().out)["phases"] if p["phase"] == "Melee Phase")
    assert [p["combatant"] for p in melee["placements"]] == ["Pikeman", "Brawler"]
