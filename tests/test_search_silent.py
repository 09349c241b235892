"""A question the chapter is silent on finds the kit's note on its ruling (the supplement's
"Where the chapter is silent"), and every ruling id such a note names is a registered ruling."""

from __future__ import annotations

import re

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.registry import all_rulings


@pytest.fixture(scope="module")
def rules(tmp_path_factory, shipped_db):
    return rulesdb.open_rules(shipped_db(tmp_path_factory.mktemp("silent") / "rules.db"))


@pytest.mark.parametrize("question, ruleset, expected", [
    ("what happens at 0 hit points", "mythras", "mythras/supplement/where-the-chapter-is-silent#9"),
    ("when is it a major wound", "mythras", "mythras/supplement/where-the-chapter-is-silent#9"),
    ("what does a serious wound do", "mythras", "mythras/supplement/where-the-chapter-is-silent#10"),
])
def test_a_silent_chapter_question_finds_the_ruling_note(rules, question, ruleset, expected):
    ids = [h.id for h in rulesdb.search(question, ruleset, 3, rules=rules)]
    assert expected in ids, ids


def test_every_ruling_a_note_names_is_registered(rules):
    registered = {r.id for r in all_rulings()}
    conn = rules.connection()
    named = {m for (text,) in conn.execute("SELECT text FROM units WHERE section LIKE '%/where-the-chapter-is-silent'")
             for m in re.findall(r"\b((?:mastery|mythras|darkmaster)\.[a-z0-9-]+[a-z0-9])", text)}
    assert named >= {"mythras.wound-levels", "mythras.serious-wound", "mythras.major-wound"}
    assert named <= registered, named - registered
