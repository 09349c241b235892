"""Look-ups under hostile input: the session's stale default ruleset, ruleset ids matched in one
place, non-string queries, invisible characters inside words, house-rules entries that are not
files, and references() of unknown ids, sections and non-strings."""

from __future__ import annotations

import os
import warnings

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.errors import RulesInputError, UnknownIdError
from ruleslawyer.rulesdb.lookup import GENERIC_EXAMPLES, example_questions, set_session_ruleset, toc
from ruleslawyer.rulesdb.session import match_ruleset
from ruleslawyer.rulesdb.words import INVISIBLE, normalize
from ruleslawyer.rulesdb.xrefs import references

HOUSE = """---
ruleset: homebrew
chapter: crits
title: Crits
kind: house-rules
provenance: a test
---

# Crits

A critical par\u200dry doubles the dam\u00adage of the riposte.
"""


@pytest.fixture()
def house(tmp_path):
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "home.md").write_text(HOUSE, encoding="utf-8")
    rulesdb.build(tmp_path / "r.db", house_rules=folder)
    return rulesdb.open_rules(tmp_path / "r.db", folder), folder


# ------------------------------------------------------------------ 8: the session's stale default

def test_a_stale_session_ruleset_says_it_is_the_session_s_and_how_to_clear_it(house):
    rules, folder = house
    assert set_session_ruleset("homebrew", rules=rules) == "homebrew"
    assert [h.id for h in rulesdb.search("riposte", rules=rules)] == ["homebrew/crits#1"]
    (folder / "home.md").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules.rebuild()
    for call in (lambda: rulesdb.search("crit", rules=rules), lambda: toc(rules=rules)):
        with pytest.raises(RulesInputError) as err:
            call()
        assert err.value.field == "ruleset"
        assert "session's default ruleset 'homebrew'" in err.value.message
        assert "set_session_ruleset(None)" in err.value.message
    assert rulesdb.search("crit", ruleset=None, rules=rules).hits  # explicit None: every ruleset
    assert set_session_ruleset(None, rules=rules) is None
    assert rulesdb.search("crit", rules=rules).hits and toc(rules=rules)


# ------------------------------------------------------------------ ruleset ids, one matcher

@pytest.mark.parametrize("given", ["mastery", "MASTERY", " Mastery ", "mastery\n"])
def test_ruleset_ids_match_case_and_whitespace_insensitively_everywhere(given):
    assert match_ruleset(given, ("darkmaster", "mastery")) == "mastery"
    assert {e.ruleset for e in toc(given)} == {"mastery"}
    assert {h.ruleset for h in rulesdb.search("parry", ruleset=given)} == {"mastery"}
    assert set_session_ruleset(given) == "mastery"
    assert example_questions(given, 1) == ("What happens at 0 health?",)


@pytest.mark.parametrize("bad, says", [("nope", "unknown ruleset 'nope'"), (5, "got int 5"), (0, "got int 0"),
                                       (["mastery"], "got list"), (1.5, "got float")])
def test_a_bad_ruleset_is_one_error_naming_the_field_and_the_rulesets(bad, says):
    calls = [lambda: toc(bad), lambda: rulesdb.search("parry", ruleset=bad), lambda: set_session_ruleset(bad),
             lambda: example_questions(bad)]
    for call in calls:
        with pytest.raises(RulesInputError) as err:
            call()
        assert err.value.field == "ruleset" and says in err.value.message
        assert "mastery" in err.value.message and "mythras" in err.value.message
    assert rulesdb.session_ruleset() is None  # set_session_ruleset(0) clears nothing silently


def test_example_questions_of_a_house_ruleset_are_the_generic_ones_and_n_is_checked(house):
    rules, _folder = house
    assert example_questions("homebrew", rules=rules) == GENERIC_EXAMPLES
    assert example_questions("mythras", 0) == ()
    for n in (1.5, "2", None, -1, True):
        with pytest.raises(RulesInputError, match=r"^n: must be a whole number from 0"):
            example_questions("mastery", n)


# ------------------------------------------------------------------ 12: queries of any type, invisible characters

def test_none_is_an_empty_query_and_other_non_strings_are_refused():
    empty = rulesdb.search(None)
    assert empty.hits == () and empty.hint == rulesdb.search("").hint
    assert empty.hint.startswith("Type a word or a phrase")
    for bad, shown in ((5, "int 5"), (["parry"], "list ['parry']"), (b"parry", "bytes"), (3.0, "float 3.0")):
        with pytest.raises(RulesInputError) as err:
            rulesdb.search(bad)
        assert err.value.field == "query" and shown in err.value.message and "None is an empty query" in err.value.message


@pytest.mark.parametrize("mark", list(INVISIBLE))
def test_an_invisible_character_inside_a_query_word_is_removed(mark):
    assert normalize(f"par{mark}ry") == "parry"
    want = [h.id for h in rulesdb.search("parry", ruleset="mythras", limit=3)]
    assert [h.id for h in rulesdb.search(f"par{mark}ry", ruleset="mythras", limit=3)] == want
    assert rulesdb.search(f"par{mark}ry").suggestions == ()


def test_an_invisible_character_inside_a_house_rule_word_is_removed_from_the_index(house):
    rules, _folder = house
    # the house rule writes par<ZWJ>ry and dam<soft hyphen>age; both are found as typed plainly
    assert [h.id for h in rulesdb.search("parry", ruleset="homebrew", rules=rules)] == ["homebrew/crits#1"]
    assert [h.id for h in rulesdb.search("damage", ruleset="homebrew", rules=rules)] == ["homebrew/crits#1"]
    assert [h.id for h in rulesdb.search("dam\u200bage", ruleset="homebrew", rules=rules)] == ["homebrew/crits#1"]
    assert rulesdb.get_rule("homebrew/crits#1", rules=rules).text == \
        "A critical par\u200dry doubles the dam\u00adage of the riposte."  # the verbatim text keeps them


# ------------------------------------------------------------------ 13: house-rules entries that are not files

@pytest.mark.parametrize("make, says", [
    (lambda d: (d / "dir.md").mkdir(), "dir.md:1: cannot read: Is a directory"),
    (lambda d: os.symlink("loop.md", d / "loop.md"), "loop.md:1: cannot read: Too many levels of symbolic links"),
    (lambda d: os.symlink("gone.txt", d / "dangling.md"), "dangling.md:1: cannot read: No such file"),
])
def test_a_house_rules_entry_that_is_not_a_readable_file_is_named_never_dropped(house, make, says):
    rules, folder = house
    make(folder)
    with pytest.raises(rulesdb.BuildError) as err:
        rulesdb.build(rules.path, house_rules=folder)
    assert any(says in p for p in err.value.problems), err.value.problems
    rules.reset()
    with pytest.warns(rulesdb.RulesDatabaseWarning, match="using the previous rules database") as said:
        hits = rulesdb.search("riposte", rules=rules)
    assert hits[0].id == "homebrew/crits#1"  # the previous database answers
    assert any(says in str(w.message) for w in said)


def test_every_unreadable_house_rules_entry_is_named_not_only_the_first(house):
    rules, folder = house
    (folder / "a.md").mkdir()
    os.symlink("z.md", folder / "z.md")
    with pytest.raises(rulesdb.BuildError) as err:
        rulesdb.build(rules.path, house_rules=folder)
    assert [p.split(":1:")[0].rsplit("/", 1)[-1] for p in err.value.problems] == ["a.md", "z.md"]


# ------------------------------------------------------------------ 14: references()

def test_references_of_an_unknown_id_raise_unknown_id_error():
    for bad in ("nope", "mastery/combat/death/fighting-on#999", ["mastery/combat/death/fighting-on#1", "no/such#1"]):
        with pytest.raises(UnknownIdError, match="no rule with id"):
            references(bad)
    assert references([]) == ()


def test_references_of_a_section_are_those_of_its_units():
    section = "darkmaster/combat/tactical-round-sequence/assessment-phase"
    got = references(section)
    assert [(r.from_id, r.text, r.target_id) for r in got] == [
        (f"{section}#3", got[0].text, "darkmaster/combat/tactical-round-sequence/action-declaration-phase")]
    units = [u.id for u in rulesdb.context(section).after]
    assert got == references(units)
    assert references("mastery/combat/death") == references(
        [u.id for u in rulesdb.context("mastery/combat/death").after])


@pytest.mark.parametrize("bad, shown", [(None, "NoneType None"), (5, "int 5"), (b"x", "bytes"),
                                        ({"a": 1}, "dict"), ([5], "an item int 5"), (["a#1", None], "an item NoneType")])
def test_references_of_a_non_string_raise_rules_input_error(bad, shown):
    with pytest.raises(RulesInputError) as err:
        references(bad)
    assert err.value.field == "rule_ids" and shown in err.value.message


# ------------------------------------------------------------------ 11: the CLI's --ruleset and $RULESLAWYER_RULESET

def _cli(monkeypatch, capsys, env: str | None, *argv: str):
    from ruleslawyer.cli import main

    if env is None:
        monkeypatch.delenv("RULESLAWYER_RULESET", raising=False)
    else:
        monkeypatch.setenv("RULESLAWYER_RULESET", env)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_ruleset_filter_follows_the_variable_and_all_overrides_it(monkeypatch, capsys):
    import json

    for argv in (["toc", "--json"], ["search", "parry", "--json", "--limit", "20"], ["tables", "--json"]):
        code, out, _ = _cli(monkeypatch, capsys, "mythras", *argv)
        rows = json.loads(out)
        rows = rows["hits"] if isinstance(rows, dict) else rows
        assert code == 0 and {r["ruleset"] for r in rows} == {"mythras"}, argv
        for every in ("all", "ALL", ""):
            code, out, _ = _cli(monkeypatch, capsys, "mythras", *argv, "--ruleset", every)
            rows = json.loads(out)
            rows = rows["hits"] if isinstance(rows, dict) else rows
            assert code == 0 and len({r["ruleset"] for r in rows}) >= 2, (argv, every)
        code, out, _ = _cli(monkeypatch, capsys, " Mastery ", *argv, "--ruleset", " DARKMASTER ")
        rows = json.loads(out)
        rows = rows["hits"] if isinstance(rows, dict) else rows
        assert {r["ruleset"] for r in rows} == {"darkmaster"}, argv


@pytest.mark.parametrize("argv", [["toc"], ["search", "parry"], ["tables"], ["define", "parry"], ["audit"]])
def test_a_bad_ruleset_variable_is_one_error_naming_it(monkeypatch, capsys, argv):
    code, out, err = _cli(monkeypatch, capsys, "nope", *argv)
    assert code == 1 and out == ""
    assert err.strip() == ("ruleslawyer: error: RULESLAWYER_RULESET: unknown ruleset 'nope'; choose one of: "
                           "darkmaster, mastery, mythras, or all (or unset RULESLAWYER_RULESET for every ruleset)")
    code, out, err = _cli(monkeypatch, capsys, None, *argv, "--ruleset", "nope")
    assert code == 1 and "error: --ruleset: unknown ruleset 'nope'; choose one of: darkmaster, mastery, mythras, " \
                          "or all" in err


def test_doctor_reports_the_ruleset_variable(monkeypatch, capsys):
    import json

    for env, status, says in (("nope", "error", "unknown ruleset 'nope'"), ("MYTHRAS", "ok", "'MYTHRAS': mythras"),
                              (None, "ok", "not set: every ruleset")):
        code, out, _ = _cli(monkeypatch, capsys, env, "doctor", "--json")
        (check,) = [c for c in json.loads(out)["checks"] if c["check"] == "RULESLAWYER_RULESET"]
        assert check["status"] == status and says in check["detail"], check
        if status == "error":
            assert code == 1 and json.loads(out)["ok"] is False
