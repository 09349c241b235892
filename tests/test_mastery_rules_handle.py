"""The Mastery engines read the database they are handed (``rules=``), never silently the default one.

Each test builds its own database in ``tmp_path`` and changes one table cell there, so the default
database and the other one give different answers in the same process.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from ruleslawyer import registry
from ruleslawyer.cli import main
from ruleslawyer.dice import Dice
from ruleslawyer.errors import DiceScriptError
from ruleslawyer.odds.mastery import tier_die_odds
from ruleslawyer.odds.trauma import trauma_odds
from ruleslawyer.rulesdb import paths
from ruleslawyer.rulesdb.handle import open_rules
from ruleslawyer.rulesets.mastery import (Attack, Combatant, Situation, plan_actions, resolve_exchange, roll_trauma,
                                          startle, trauma_follows)

ROW_26 = "mastery/combat/wounds-injuries-and-trauma/trauma-table#28"  # the d100 26 row: Blurred Vision
TIER_1 = "mastery/supplement/tier-dice#2"                             # tier 1 | d2
STRAIGHTFORWARD = "mastery/supplement/named-difficulties#3"           # Straightforward | 4
STAND = "mastery/combat/actions-and-reactions/other-actions#11"      # Prone, Stand from | 1
DOUBLE = "Double Vision. Penalty -2 on everything."


def _set_cell(db, unit_id: str, col: int, value: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        (cells,) = conn.execute("SELECT cells FROM table_rows WHERE unit_id = ?", (unit_id,)).fetchone()
        cells = json.loads(cells)
        cells[col] = value
        conn.execute("UPDATE table_rows SET cells = ? WHERE unit_id = ?", (json.dumps(cells), unit_id))
    conn.close()
    # the kit seals a database it builds and rebuilds one whose seal is broken (a damaged file); this
    # edit is on purpose, so seal it again
    seal = getattr(paths, "seal_database", None)
    if seal is not None:
        seal(Path(db))


@pytest.fixture(scope="module")
def other_db(tmp_path_factory, shipped_db):
    """A second database whose d100 26 Trauma reads 'Double Vision', tier 1 rolls a d6,
    Straightforward is DC 5 and standing from prone costs 3 AP."""
    path = shipped_db(tmp_path_factory.mktemp("other") / "b.db")
    _set_cell(path, ROW_26, 1, DOUBLE)
    _set_cell(path, TIER_1, 1, "d6")
    _set_cell(path, STRAIGHTFORWARD, 1, "5")
    _set_cell(path, STAND, 1, "3")
    return path


def test_two_databases_in_one_process_give_their_own_trauma(other_db):
    other = open_rules(other_db)
    assert roll_trauma(roll=26, rules=other).text == DOUBLE
    assert roll_trauma(roll=26).text.startswith("Blurred Vision.")  # the default database is untouched
    assert roll_trauma(roll=26, rules=other).unit_id == ROW_26
    odds = {row.range: row for row in trauma_odds(rules=other).rows}
    assert odds["26"].text == "Double Vision" and odds["26"].unit_id == ROW_26


def test_every_entry_point_reads_the_handed_database(other_db):
    other = open_rules(other_db)
    # a tier 1 attack: d2 by default, d6 in the other database; scripted face 5 fits only a d6
    a = Combatant("A", attack=Attack("melee", tier=1))
    r = resolve_exchange(a, Combatant("D"), Situation(defend=False), script={"attack": [5]}, rules=other)
    assert r.attack_total == 5 and r.to_health == 5
    with pytest.raises(DiceScriptError):
        resolve_exchange(a, Combatant("D"), Situation(defend=False), script={"attack": [5]})
    # Startle with two tier 1 dice: d6 5 + d6 1 = 6 meets DC 6 in the other database
    s = startle(Dice(script={"startle_agility": [5], "startle_perception": [1]}), agility_tier=1,
                perception_tier=1, rules=other)
    assert s.success
    # Deadly's Endurance trial is Straightforward: 4 by default, 5 in the other database
    assert trauma_follows("exploded-hit-health-damage", "deadly").endurance_dc == 4
    assert trauma_follows("exploded-hit-health-damage", "deadly", rules=other).endurance_dc == 5
    # tier 1 exploding d6: P(total 6) = 0 (a 6 rolls again), P(7) = 1/6 * 1/6
    assert tier_die_odds(1, rules=other).sides == 6 and tier_die_odds(1).sides == 2
    # standing from prone: 1 AP in the chapter's Other Actions table, 3 in the other database
    assert plan_actions([{"table": "Prone, Stand from"}]).ap == 1
    assert plan_actions([{"table": "Prone, Stand from"}], rules=other).ap == 3


def test_cli_db_option_reads_that_database(other_db, capsys, tmp_path):
    code = main(["--db", str(other_db), "trauma", "--roll", "26", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["text"] == DOUBLE
    code = main(["trauma", "--roll", "26", "--json"])
    assert json.loads(capsys.readouterr().out)["text"].startswith("Blurred Vision.")
    # the odds command and the exchange command read it too
    code = main(["--db", str(other_db), "odds", "mastery", "--trauma", "--json"])
    rows = {row["range"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    assert code == 0 and rows["26"]["text"] == "Double Vision"
    exchange = tmp_path / "x.json"
    exchange.write_text(json.dumps({"attacker": {"attack": {"tier": 1}}, "defender": {},
                                    "situation": {"defend": False}, "dice": {"attack": [5]}}))
    code = main(["--db", str(other_db), "exchange", "mastery", "--input", str(exchange), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["attack_total"] == 5  # a d6 face


def test_rebuild_of_a_changed_source_is_seen_by_the_next_engine_call(tmp_path, monkeypatch):
    # the Mastery sources copied to tmp_path, the build pointed at the copy (both the registry's
    # sources folder and the sources root, whichever the build reads)
    sources = tmp_path / "sources"
    shutil.copytree(paths.SOURCES_DIR, sources)
    mastery = dataclasses.replace(registry.get_ruleset("mastery"), sources=sources / "mastery")
    found = {r.id: r for r in registry.rulesets()} | {"mastery": mastery}
    monkeypatch.setattr(registry, "_found", found)
    monkeypatch.setattr(paths, "SOURCES_DIR", sources)
    rules = open_rules(tmp_path / "c.db")
    assert roll_trauma(roll=26, rules=rules).text.startswith("Blurred Vision.")  # built, table cached
    chapter = sources / "mastery" / "combat.md"
    text = chapter.read_text(encoding="utf-8")
    old = "| 26 | Blurred Vision. Penalty -1 on Perception trials that rely on sight and on ranged attack rolls. |"
    assert old in text
    chapter.write_text(text.replace(old, f"| 26 | {DOUBLE} |"), encoding="utf-8")
    rules.rebuild()
    assert roll_trauma(roll=26, rules=rules).text == DOUBLE


def test_panels_read_the_handed_database(other_db):
    from ruleslawyer.widgets.exchange_mastery import MasteryExchangePanel
    from ruleslawyer.widgets.trauma import ENTER, TraumaPanel

    panel = TraumaPanel(rules=open_rules(other_db))
    panel.mode.value = ENTER
    panel.d100.value = 26
    panel.run()
    assert panel.result.text == DOUBLE
    # a tier 1 attack scripted 5: a d6 face in the other database
    ex = MasteryExchangePanel(rules=other_db, script="attack: 5")
    ex.load(attacker={"tier": 1, "weapon": "0"})
    ex.run()
    assert ex.result is not None and ex.result.attack_total == 5
