"""Deeply nested lists in house rules: read whole up to the parser's limit, refused past it with
file:line, never silently cut (the parser used to drop the rest of the file after nine levels)."""

from __future__ import annotations

import pytest

from ruleslawyer.errors import SourcesError
from ruleslawyer.rulesdb import build, open_rules, search


def _write(folder, levels: int) -> None:
    lines = ["---", "ruleset: house", "chapter: deep", "title: Deep", "---", "", "# Deep", "", "## Abyss", ""]
    lines += ["  " * d + f"- layerword{d}" for d in range(levels)]
    lines += ["", "Afterword zebra here.", "", "## Later Section", "", "Quokka rules are here.", ""]
    folder.mkdir(exist_ok=True)
    (folder / "deep.md").write_text("\n".join(lines), encoding="utf-8")


@pytest.mark.parametrize("levels", [9, 11, 25])
def test_every_level_and_the_text_after_it_is_indexed(tmp_path, levels):
    house = tmp_path / "house"
    _write(house, levels)
    build(tmp_path / "rules.db", house_rules=house)
    rules = open_rules(tmp_path / "rules.db", house)
    for word in (f"layerword{levels - 1}", "zebra", "quokka"):
        assert [h.ruleset for h in search(word, ruleset="house", rules=rules)][:1] == ["house"], word


def test_past_the_limit_the_build_fails_at_file_line_and_the_old_database_answers(tmp_path):
    house = tmp_path / "house"
    _write(house, 3)
    db = tmp_path / "rules.db"
    build(db, house_rules=house)
    _write(house, 26)
    with pytest.raises(SourcesError) as err:
        build(db, house_rules=house)
    assert "deep.md:36: lists or quotes nested more than 25 levels deep" in str(err.value)
    assert search("quokka", ruleset="house", rules=open_rules(db))[0].id == "house/deep/later-section#1"
