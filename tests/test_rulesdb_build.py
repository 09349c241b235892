"""The rules database build: content, determinism, validation with file:line, atomicity, house rules."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import textwrap
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
import importlib

build_mod = importlib.import_module("ruleslawyer.rulesdb.builder")
from ruleslawyer.rulesdb.builder import BuildError, build

FRONT = """---
ruleset: house
ruleset_title: House
chapter: {chapter}
title: House Rules
kind: house-rules
provenance: our table
---

"""


def write(folder: Path, name: str, body: str, chapter: str = "extras") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(FRONT.format(chapter=chapter) + textwrap.dedent(body), encoding="utf-8")
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("db") / "rules.db"
    build(path)
    return path


def test_units_carry_the_book_text_under_path_ids(db):
    rule = rulesdb.get_rule("mastery/combat/death/fighting-on#2", db=db)
    assert rule.text == "Any health damage you take results in a Trauma."
    assert rule.breadcrumb == "Mastery › Combat › Death › Fighting On ¶2"
    assert rule.kind == "item"
    assert rule.provenance_kind == "chapter"
    heading = rulesdb.get_rule("mastery/combat/death/fighting-on", db=db)
    assert heading.kind == "heading" and heading.text == "Fighting On"


def test_flattened_lists_are_restored_as_items(db):
    ctx = rulesdb.context("mastery/combat/action-points/action-costs", db=db)
    texts = [r.text for r in ctx.after]
    assert texts[0] == "All basic actions cost 1 AP:"
    assert "Movement: Move up to your movement speed" in texts
    assert "Casting: Cast a spell (may cost 1 or 2 AP depending on spell)" in texts


def test_trauma_table_is_rollable_and_covers_1_to_100(db):
    t = rulesdb.load_table("mastery/combat/tables/trauma", db=db)
    assert t.dice == "d100" and t.sides == 100
    assert t.columns == ("d100", "Trauma", "Tier", "Mundane recovery")
    faces = [f for r in t.rows for f in range(r.low, r.high + 1)]
    assert sorted(faces) == list(range(1, 101))
    # 17–18 is "Lose a finger"; 100 is Broken Back; 3–5 a Close Call with empty Tier cells.
    assert t.row_for(17).cells[1].startswith("Lose a finger.")
    assert t.row_for(18) == t.row_for(17)
    assert t.row_for(100).cells[1].startswith("Broken Back.")
    assert t.row_for(4).cells == ("3–5", "Close Call! No Trauma.", "", "")


def test_other_actions_table_has_twenty_rows(db):
    frame = rulesdb.table("mastery/combat/tables/other-actions", db=db)
    assert len(frame) == 20
    assert list(frame.columns) == ["Action Type", "AP Cost", "Notes", "citation"]
    tinder = frame[frame["Action Type"] == "Torch / Lamp, Light (tinderbox)"].iloc[0]
    assert tinder["AP Cost"] == "6"
    assert tinder["citation"] in rulesdb.all_ids(db=db)


def test_roll_entered_and_seeded(db):
    r = rulesdb.roll("mastery/combat/tables/trauma", roll=17, db=db)
    assert r.roll == 17 and r.row.low == 17 and r.row.high == 18
    assert set(r.trace.cited_ids()) <= rulesdb.all_ids(db=db)
    a = rulesdb.roll("mastery/combat/tables/trauma", seed=11, db=db)
    b = rulesdb.roll("mastery/combat/tables/trauma", seed=11, db=db)
    assert a.roll == b.roll and a.row == b.row and a.seed == 11


@pytest.mark.parametrize("face", [101, -3, "1.5"])
def test_roll_out_of_range_names_the_field(db, face):
    # 0 is no longer out of range: it is "00", which reads as 100 on a d100 (ruleslawyer.dice.read_face)
    with pytest.raises(ValueError, match=r"roll: must be a d100 face: a whole number from 1 to 100"):
        rulesdb.roll("mastery/combat/tables/trauma", roll=face, db=db)


def test_unknown_ids_raise_lookup_errors(db):
    with pytest.raises(rulesdb.UnknownIdError, match="no rule with id"):
        rulesdb.get_rule("mastery/combat/nowhere#1", db=db)
    with pytest.raises(rulesdb.UnknownIdError, match="did you mean mastery/combat/tables/trauma"):
        rulesdb.load_table("trauma", db=db)


def test_build_is_deterministic(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    build(a)
    build(b)
    dump = lambda p: "\n".join(sqlite3.connect(p).iterdump())  # noqa: E731
    assert dump(a) == dump(b)
    assert digest(a) == digest(b)


def test_queries_open_read_only(db):
    conn = rulesdb.connect(db)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("DELETE FROM units")


def test_datasette_detects_the_full_text_index(db):
    from datasette.utils import detect_fts

    conn = sqlite3.connect(db)
    assert detect_fts(conn, "units") == "units_fts"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("# House Rules\n\n## Same\n\nOne.\n\n## Same\n\nTwo.\n", r".*/house/bad\.md:16: duplicate id house/extras/same \(first at .*/house/bad\.md:12\)"),
        ("# House Rules\n\nSee [nothing](house/extras/missing).\n", r".*/house/bad\.md:12: cross-reference to 'house/extras/missing'"),
        ("# House Rules\n\n| d6 | Result |\n|---|---|\n| 1–3 | low |\n| 5–6 | high |\n",
         r".*/house/bad\.md:12: rollable table house/extras/tables/extras \(d6\) does not cover 4"),
        ("# House Rules\n\n| d6 | Result |\n|---|---|\n| 1–4 | low |\n| 4–6 | high |\n",
         r".*/house/bad\.md:15: rollable table .*: 4 is covered twice \(also on line 14\)"),
        ("# House Rules\n\n| d6 | Result |\n|---|---|\n| one | low |\n| 2–6 | high |\n",
         r".*/house/bad\.md:14: rollable table .*: first cell 'one' is not a face"),
        ("No heading here.\n", r".*/house/bad\.md:10: text before the '# Chapter' heading"),
    ],
    ids=["duplicate-id", "dangling-link", "coverage-gap", "coverage-overlap", "bad-face", "no-heading"],
)
def test_bad_sources_fail_with_file_and_line(tmp_path, body, expected):
    house = tmp_path / "house"
    house.mkdir()
    (house / "bad.md").write_text(FRONT.format(chapter="extras") + body, encoding="utf-8")
    with pytest.raises(BuildError, match=expected):
        build(tmp_path / "out.db", house_rules=house)
    assert not (tmp_path / "out.db").exists()


def test_missing_front_matter_fails_with_file_and_line(tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "x.md").write_text("# Title\n\ntext\n", encoding="utf-8")
    with pytest.raises(BuildError, match=r"/house/x\.md:1: missing front matter"):
        build(tmp_path / "out.db", house_rules=house)


def test_failed_build_leaves_the_previous_database_untouched(tmp_path):
    target = tmp_path / "rules.db"
    build(target)
    before = digest(target)
    house = tmp_path / "house"
    write(house, "bad.md", "# House Rules\n\nSee [x](nowhere/at/all).\n")
    with pytest.raises(BuildError):
        build(target, house_rules=house)
    assert digest(target) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_interrupted_build_leaves_the_previous_database_untouched(tmp_path, monkeypatch):
    target = tmp_path / "rules.db"
    build(target)
    before = digest(target)

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_mod, "_write", boom)
    with pytest.raises(KeyboardInterrupt):
        build(target)
    assert digest(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.db"]


def test_house_rules_are_built_searched_and_cited(tmp_path):
    house = tmp_path / "house"
    write(house, "crits.md", """\
        # House Rules

        ## Brutal Crits

        A natural maximum on the attack tier die also inflicts a Trauma (see [Fighting On](mastery/combat/death/fighting-on)).

        Never trust <img src=x onerror=alert(1)> in rules text.
        """)
    target = tmp_path / "rules.db"
    report = build(target, house_rules=house)
    assert report.files == len(list(build_mod.SOURCES_DIR.glob('*/*.md'))) + 1
    hits = rulesdb.search("brutal crits", db=target)
    assert hits[0].id == "house/extras/brutal-crits"
    rule = rulesdb.get_rule("house/extras/brutal-crits#1", db=target)
    assert rule.provenance_kind == "house-rules"
    assert rule.breadcrumb == "House › House Rules › Brutal Crits ¶1"
    assert rule.source == f"{house}/crits.md:14"
    img = rulesdb.search("onerror", db=target)[0]
    assert img.text == "Never trust <img src=x onerror=alert(1)> in rules text."
    assert "<img" not in img.snippet and "&lt;img" in img.snippet


def test_stale_database_is_rebuilt_when_sources_change(tmp_path, monkeypatch):
    house = tmp_path / "house"
    write(house, "a.md", "# House Rules\n\n## Alpha\n\nFirst wording.\n")
    target = tmp_path / "rules.db"
    monkeypatch.setenv("RULESLAWYER_HOUSE_RULES", str(house))
    rulesdb.reset_cache()
    assert rulesdb.search("first wording", db=target)[0].id == "house/extras/alpha#1"
    write(house, "a.md", "# House Rules\n\n## Alpha\n\nSecond wording.\n")
    rulesdb.reset_cache()
    assert rulesdb.search("second wording", db=target)[0].id == "house/extras/alpha#1"
    # A broken edit keeps the last good database in use, with a warning naming file:line.
    write(house, "a.md", "# House Rules\n\nSee [x](no/such/id).\n")
    rulesdb.reset_cache()
    with pytest.warns(rulesdb.RulesDatabaseWarning, match=re.escape(f"{house}/a.md:12")):
        assert rulesdb.search("second wording", db=target)[0].id == "house/extras/alpha#1"
    rulesdb.reset_cache()


def test_scripted_roll_says_scripted_not_seeded(db):
    r = rulesdb.roll("mastery/combat/tables/trauma", script={"table": [23]}, db=db)
    assert r.roll == 23 and r.seed is None
    assert r.trace.children[0].label == "scripted d100"
    assert r.cells["Trauma"].startswith("Lose your nose.")


def test_changed_build_code_or_data_rebuilds_the_database(tmp_path, monkeypatch):
    paths = importlib.import_module("ruleslawyer.rulesdb.paths")
    extra = tmp_path / "synonyms.json"
    extra.write_text("{}", encoding="utf-8")
    real = paths._build_inputs
    monkeypatch.setattr(paths, "_build_inputs", lambda: [*real(), (extra, "rulesdb/extra.json")])
    target = tmp_path / "rules.db"
    rulesdb.reset_cache()
    rulesdb.ensure_database(target)
    first = digest(target)
    stamp = target.stat().st_mtime_ns
    rulesdb.reset_cache()
    rulesdb.ensure_database(target)
    assert target.stat().st_mtime_ns == stamp  # unchanged inputs: no rebuild
    extra.write_text('{"hp": ["health"]}', encoding="utf-8")
    rulesdb.reset_cache()
    rulesdb.ensure_database(target)
    assert target.stat().st_mtime_ns != stamp and digest(target) != first
    rulesdb.reset_cache()


def test_table_titles_are_distinct_within_a_ruleset(db):
    tables = rulesdb.list_tables(db=db)
    by_ruleset: dict[str, list[str]] = {}
    for t in tables:
        by_ruleset.setdefault(t.ruleset, []).append(t.title)
    for ruleset, titles in by_ruleset.items():
        assert len(titles) == len(set(titles)), (ruleset, titles)
    titles = {t.id: t.title for t in tables}
    assert titles["mythras/supplement/tables/weapon-size"] == "Weapon Size steps"
    assert titles["mastery/combat/tables/trauma"] == "Trauma Table"


def test_two_tables_in_one_section_get_their_names_in_the_title(tmp_path):
    house = tmp_path / "house"
    write(house, "t.md", "# House Rules\n\n## Loot\n\n<!-- table: coins -->\n\n| d4 | Coins |\n|---|---|\n"
                         "| 1–4 | few |\n\n<!-- table: gems -->\n\n| d2 | Gems |\n|---|---|\n| 1–2 | one |\n")
    target = tmp_path / "r.db"
    build(target, house_rules=house)
    titles = {t.id: t.title for t in rulesdb.list_tables("house", db=target)}
    assert titles == {"house/extras/tables/coins": "Loot — coins", "house/extras/tables/gems": "Loot — gems"}


def test_a_rebuild_parses_again_only_the_files_that_changed_and_gives_the_same_database(tmp_path, monkeypatch):
    from markdown_it import MarkdownIt

    house = tmp_path / "house"
    write(house, "a.md", "# House Rules\n\n## Alpha\n\nFirst wording.\n")
    write(house, "b.md", "# More House Rules\n\n## Beta\n\nUnchanged wording.\n", chapter="more")
    build(tmp_path / "one.db", house_rules=house)  # every file parsed (or found parsed earlier)
    parsed = []
    real = MarkdownIt.parse
    monkeypatch.setattr(MarkdownIt, "parse", lambda self, text, env=None: parsed.append(text) or real(self, text, env))
    edited = f"Second wording, edited in {tmp_path.name}."  # a text no other test has had parsed
    write(house, "a.md", f"# House Rules\n\n## Alpha\n\n{edited}\n")
    build(tmp_path / "two.db", house_rules=house)
    assert len(parsed) == 1 and edited in parsed[0]  # the edited file only
    assert rulesdb.search("second wording", db=tmp_path / "two.db")[0].id == "house/extras/alpha#1"
    assert rulesdb.search("unchanged wording", db=tmp_path / "two.db")[0].id == "house/more/beta#1"
    # the same database as a build that parses everything afresh
    monkeypatch.setattr(build_mod, "_PARSED", {})
    build(tmp_path / "three.db", house_rules=house)
    assert len(parsed) == 1 + len(list(build_mod.SOURCES_DIR.glob("*/*.md"))) + 2

    def rows(path):
        with sqlite3.connect(path) as conn:
            return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                    for t in ("units", "synonyms", "words", "glossary")]
    assert rows(tmp_path / "two.db") == rows(tmp_path / "three.db")


def test_a_rebuild_with_the_parse_cache_full_still_parses_only_the_changed_file(tmp_path, monkeypatch):
    # the cache drops the entry used least lately: texts parsed since (other databases, other tests) do
    # not push out the sources every build reads, which would then be parsed again one after another
    from markdown_it import MarkdownIt

    house = tmp_path / "house"
    write(house, "a.md", "# House Rules\n\n## Alpha\n\nFirst wording.\n")
    sources = len(list(build_mod.SOURCES_DIR.glob("*/*.md"))) + 1
    monkeypatch.setattr(build_mod, "_PARSED", {})
    monkeypatch.setattr(build_mod, "_PARSED_MAX", sources + 3)
    build(tmp_path / "one.db", house_rules=house)
    md = MarkdownIt("commonmark")
    for k in range(3):  # one-off texts fill the cache to its bound
        build_mod._tokens(md, f"# Other {k} {tmp_path.name}\n")
    build(tmp_path / "again.db", house_rules=house)  # every source found: each is used again
    for k in range(3, 6):
        build_mod._tokens(md, f"# Other {k} {tmp_path.name}\n")
    assert len(build_mod._PARSED) == sources + 3
    parsed = []
    real = MarkdownIt.parse
    monkeypatch.setattr(MarkdownIt, "parse", lambda self, text, env=None: parsed.append(text) or real(self, text, env))
    write(house, "a.md", f"# House Rules\n\n## Alpha\n\nEdited in {tmp_path.name}.\n")
    build(tmp_path / "two.db", house_rules=house)
    assert len(parsed) == 1, len(parsed)


def test_stems_are_the_same_from_the_memo_and_it_stays_bounded(monkeypatch):
    from ruleslawyer.rulesdb import words

    first = words.porter_stems(["Parrying", "evades", "...", "flanked"])
    assert first == {"parrying": "parri", "evades": "evad", "flanked": "flank"}  # "..." yields no token
    assert words.porter_stems(["parrying", "...", "flanked", "charges"]) == {
        "parrying": "parri", "flanked": "flank", "charges": "charg"}
    monkeypatch.setattr(words, "_STEM_MEMO", {})
    monkeypatch.setattr(words, "STEM_MEMO_WORDS", 3)
    stems = {"attack": "attack", "attacks": "attack", "defend": "defend", "defended": "defend", "rounds": "round"}
    for batch in (["attack", "attacks"], ["defend", "defended"], ["attack", "rounds"]):
        assert words.porter_stems(batch) == {w: stems[w] for w in batch}
        assert len(words._STEM_MEMO) <= 3
    assert words.porter_stems(["attack", "rounds", "defended"]) == {"attack": "attack", "rounds": "round",
                                                                    "defended": "defend"}
