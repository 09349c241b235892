"""Two rules databases in one process: every Mythras entry point reads the tables of the one it is handed.

The second database is built from the same sources, then two cells are altered with sqlite3:
- ``hit-location-humanoid``: Chest covers 10 only and Right Arm 11–15 (shipped: Chest 10–12, Right Arm 13–15);
- ``damage-modifier``: STR+SIZ 21–25 gives +1d4 (shipped: +0).
"""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction as F

import pytest

from ruleslawyer.cli import main
from ruleslawyer.rulesdb.handle import open_rules

# 1d8 = 5; STR+SIZ 22; location face 11; no defence (a Failure); attack 30 <= 60 Success
INPUT = {"attacker": {"name": "A", "skill": 60, "str_siz": 22,
                      "weapon": {"name": "Broadsword", "damage": "1d8", "size": "Medium", "traits": ["cutting"]}},
         "defender": {"name": "D", "defence": "none"},
         "dice": {"attack": [30], "damage": [5], "damage_modifier": [3], "location": [11]}}


@pytest.fixture(scope="module")
def other_db(tmp_path_factory, shipped_db):
    path = shipped_db(tmp_path_factory.mktemp("rules") / "b.db")
    # checked fresh once now, so the handle does not rebuild it (undoing the edits) if another
    # checkout's sources change while the tests run
    open_rules(path).ensure()
    with sqlite3.connect(path) as conn:
        loc = "mythras/supplement/tables/hit-location-humanoid"
        conn.execute("UPDATE table_rows SET high = 10 WHERE table_id = ? AND row_index = 4", (loc,))
        conn.execute("UPDATE table_rows SET low = 11 WHERE table_id = ? AND row_index = 5", (loc,))
        conn.execute("UPDATE table_rows SET cells = ? WHERE table_id = ? AND row_index = 5",
                     (json.dumps(["21–25", "+1d4"]), "mythras/supplement/tables/damage-modifier"))
    conn.close()
    return path


def _resolve(rules=None):
    from ruleslawyer.rulesets.mythras import ExchangeInput, resolve_exchange

    return resolve_exchange(ExchangeInput.from_dict(INPUT), script=INPUT["dice"], rules=rules)


def test_each_database_gives_its_own_exchange(other_db):
    shipped = _resolve()  # default database: face 11 is the Chest; STR+SIZ 22 is +0 -> 5
    other = _resolve(open_rules(other_db))  # 11 is the Right Arm; +1d4 rolled 3 -> 5 + 3 = 8
    assert (shipped.location, shipped.damage) == ("Chest", 5)
    assert (other.location, other.damage) == ("Right Arm", 8)
    # and again in the other order: nothing is cached across handles
    assert (_resolve(open_rules(other_db)).location, _resolve().damage) == ("Right Arm", 5)


def test_each_database_gives_its_own_odds(other_db):
    from ruleslawyer.odds.mythras import mythras_exchange_odds

    data = {k: v for k, v in INPUT.items() if k != "dice"}
    # P(hit) = 60/100; the Chest is 10–12 (3/20) shipped, 10 only (1/20) in the other database
    assert mythras_exchange_odds(data).location["Chest"] == F(60, 100) * F(3, 20)
    other = mythras_exchange_odds(data, rules=open_rules(other_db))
    assert other.location["Chest"] == F(60, 100) * F(1, 20)
    # +1d4 there: the least damage of a hit is 1 + 1 = 2, shipped 1 + 0 = 1
    assert min(k for k in other.damage_by_location["Chest"]) == 2


def test_levels_and_panel_take_the_handle(other_db):
    from ruleslawyer.rulesets.mythras.damage import location_names
    from ruleslawyer.widgets.exchange_mythras import MythrasExchangePanel

    rules = open_rules(other_db)
    panel = MythrasExchangePanel(script="attack: 30; damage: 5; damage_modifier: 3; location: 11", rules=rules)
    panel.load(attacker={"str_siz": 22, "skill": 60}, defender={"defence": "none", "armour": 0})
    panel.run()
    assert (panel.result.location, panel.result.damage) == ("Right Arm", 8)
    assert location_names(rules) == location_names()  # the names did not change, only the ranges


def test_cli_db_option_reads_that_database(other_db, tmp_path, capsys):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(INPUT))
    assert main(["--db", str(other_db), "exchange", "mythras", "--input", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["location"], data["damage"]) == ("Right Arm", 8)
    assert main(["exchange", "mythras", "--input", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["location"], data["damage"]) == ("Chest", 5)


def test_cli_odds_db_option_reads_that_database(other_db, tmp_path, capsys):
    f = tmp_path / "in.json"
    f.write_text(json.dumps({k: v for k, v in INPUT.items() if k != "dice"}))
    assert main(["--db", str(other_db), "odds", "mythras", "--input", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["location"]["outcomes"]["Chest"] == pytest.approx(0.6 * 1 / 20)  # Chest is 10 only there
