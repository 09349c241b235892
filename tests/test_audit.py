"""Source audit and the build-time cross-reference extraction it reads."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import all_ids
from ruleslawyer.rulesdb.audit import AuditReport, audit, cross_references
from ruleslawyer.rulesdb.extract import find_xrefs
from ruleslawyer.registry import all_rulings


@pytest.fixture(scope="module")
def report() -> AuditReport:
    return audit(rulings=all_rulings())


def test_dangling_references_name_the_missing_books(report):
    dangling = {(d["from_id"], d["text"]) for d in report.dangling}
    assert ("mastery/combat/action-points/initiative-phases#6", "Magic Mastery, Spell Speed") in dangling
    assert ("mastery/combat/actions-and-reactions/attack#14", "Weapon Mastery chapter") in dangling
    assert ("mastery/combat/death/reaching-0-health#2", "Conditions") in dangling
    assert ("darkmaster/combat/tactical-round-sequence/move-phase#1", "Conflicting Actions rules") in dangling
    assert ("mythras/combat/special-effects#2", "Combat reference") in dangling
    assert {d["from_id"].split("/")[1] for d in report.dangling} == {"combat"}  # chapters only by default


def test_missing_tables(report):
    assert {"from_id": "mythras/combat/ranged-combat#5", "text": "ranged situational table"} in report.missing_tables


def test_truncated_lists_are_darkmasters_two(report):
    got = {t["id"]: t["problem"] for t in report.truncated_lists}
    assert set(got) == {"darkmaster/combat/tactical-round-sequence/melee-phase#1",
                        "darkmaster/combat/action-types/combining-actions#1"}
    assert got["darkmaster/combat/action-types/combining-actions#1"] == "announces a list, but the section ends"
    texts = {t["text"] for t in report.truncated_lists}
    assert any(t.endswith("There are four weapon lengths:") for t in texts)
    assert any(t.endswith("in one of the following combinations:") for t in texts)


def test_undefined_terms_are_game_terms_not_defined_anywhere(report):
    terms = {(u["ruleset"], u["term"]) for u in report.undefined_terms}
    for t in [("mastery", "Dominance"), ("mastery", "Impotence"), ("mastery", "Inferiority"),
              ("mastery", "Impaired"), ("mythras", "Luck")]:
        assert t in terms
    for defined in [("mastery", "Flanking"), ("mastery", "Engaged"), ("mastery", "Durability"),
                    ("darkmaster", "Positional Bonus")]:
        assert defined not in terms
    counts = [u["count"] for u in report.undefined_terms]
    assert counts == sorted(counts, reverse=True)


def test_table_coverage(report):
    by_id = {t["id"]: t for t in report.tables}
    trauma = by_id["mastery/combat/tables/trauma"]
    assert (trauma["dice"], trauma["faces"], trauma["covered"], trauma["gaps"], trauma["overlaps"]) == \
        ("d100", 100, 100, [], [])
    assert by_id["mastery/combat/tables/other-actions"]["rows"] == 20


def test_rulings_are_listed_with_their_cites_checked(report):
    registered = {r.id for r in all_rulings()}
    assert {r["id"] for r in report.rulings} == registered
    ids = all_ids()
    for r in report.rulings:
        assert r["missing_cites"] == [c for c in r["cites"] if c not in ids]


def test_report_shapes(report):
    d = report.to_dict()
    json.dumps(d)
    assert d["summary"]["truncated_lists"] == 2
    md = report.to_markdown()
    assert md.startswith("# Source audit") and "## Dangling references" in md and "## Rulings" in md
    assert "`darkmaster/combat/action-types/combining-actions#1`" in md


def test_ruleset_scope_and_supplements():
    only = audit("mythras", rulings=all_rulings())
    assert only.rulings and audit("mythras").rulings == ()  # the caller chooses the rulings to check
    assert {d["from_id"].split("/")[0] for d in only.dangling} == {"mythras"}
    assert all(r["ruleset"] == "mythras" for r in only.rulings)
    with_supp = audit(include_supplements=True)
    assert len(with_supp.dangling) >= len(audit().dangling)
    with pytest.raises(ValueError):
        audit("dnd")


def test_cross_references_for_links():
    links = cross_references("mastery/combat/action-points/initiative-phases#7")
    assert {"target_id": "mastery/combat/combat-flow", "status": "link"}.items() <= links[0].items()
    dangling = cross_references(status="dangling")
    assert all(x["target_id"] is None for x in dangling)
    ids = all_ids()
    assert all(x["target_id"] in ids for x in cross_references() if x["status"] != "dangling")
    with pytest.raises(RulesInputError):
        cross_references(status="broken")


@pytest.mark.parametrize("text, refs", [
    ("Spells also have speeds. See Magic Mastery, Spell Speed.", ["Magic Mastery, Spell Speed"]),
    ("You suffer an Injury (see Conditions).", ["Conditions"]),
    ("heals only with magic (Magic Mastery, Restoring Traumas).", ["Magic Mastery, Restoring Traumas"]),
    ("use the Conflicting Actions rules.", ["Conflicting Actions rules"]),
    ("apply the ranged situational table.", ["ranged situational table"]),
    ("For weapon speeds, see the Weapon Mastery chapter.", ["Weapon Mastery chapter"]),
    ("Nothing to see here.", []),
])
def test_prose_reference_patterns(text, refs):
    assert find_xrefs(text) == refs


def test_header_lists_only_the_source_kinds_present(report, tmp_path):
    # the test database has the three chapters and their supplements, and no house rules
    assert report.scope["kinds"] == ["chapter"]
    assert "sources: chapter.\n" in report.to_markdown()
    assert audit("mythras", include_supplements=True).scope["kinds"] == ["chapter", "supplement"]
    # with a house-rules file built in, it is listed (and audited)
    from ruleslawyer.rulesdb.builder import build

    house = tmp_path / "house"
    house.mkdir()
    (house / "extras.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
        "provenance: our table\n---\n\n# House Rules\n\n## Brutal Crits\n\nA natural maximum also inflicts a Trauma.\n",
        encoding="utf-8")
    db = tmp_path / "rules.db"
    build(db, house_rules=house)
    assert audit(db=db).scope["kinds"] == ["chapter", "house-rules"]
    assert audit("mastery", db=db).scope["kinds"] == ["chapter"]


def test_a_table_read_by_a_number_with_backward_or_crossing_ranges_is_reported(tmp_path):
    # "10–6" runs backwards (no number finds it); "1–8" and "5–10" both cover 5 to 8
    from ruleslawyer.rulesdb.builder import build

    house = tmp_path / "house"
    house.mkdir()
    (house / "loads.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: loads\ntitle: Loads\nkind: house-rules\n"
        "provenance: our table\n---\n\n# Loads\n\n## Encumbrance\n\n| Weight | Effect |\n|---|---|\n"
        "| 1–8 | light |\n| 5–10 | heavy |\n| 10–6 | reversed |\n| 11+ | crushing |\n", encoding="utf-8")
    db = tmp_path / "rules.db"
    build(db, house_rules=house)
    report = audit("house", db=db)
    loads = next(t for t in report.tables if t["id"].startswith("house/"))
    assert loads["reversed_ranges"] == ["10–6"]
    assert loads["overlapping_rows"] == ["rows 1 and 2"]
    md = report.to_markdown()
    assert "rows 1 and 2" in md and "| `" + loads["id"] + "` | 10–6 |" in md
    # the book's tables read by a number are sound
    sound = audit(include_supplements=True)
    assert all(not t["reversed_ranges"] and not t["overlapping_rows"] for t in sound.tables)
