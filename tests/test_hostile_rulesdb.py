"""Hostile use of the rules database: broken house rules, odd database paths, import orders.

- A broken house-rules file fails the build naming ``file:line`` and leaves the previous database
  byte for byte; the CLI says so in ``ruleslawyer: error`` lines, no traceback.
- The database path never overwrites anything but an earlier rules database (or an empty file):
  ``--db /etc/passwd`` or ``--db ~/notes.sqlite`` is an error, not a rebuilt database in its place.
- ``ruleslawyer.rulesdb.search`` / ``.build`` stay the functions whatever was imported first.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main


FRONT = "---\nruleset: house\nchapter: rules\ntitle: House Rules\n---\n"

#: name -> (file text as bytes, the line the error must name, a word of the message)
BROKEN = {
    "bad-yaml": (b"---\nruleset: [\n---\n# House\n", 2, "YAML"),
    # a few hundred bytes of nested aliases once expanded to 3 GB, 15 s a command and a 522 MB warning
    "alias-bomb": (("---\nruleset: house\nchapter: rules\na: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n"
                    + "".join(f"{x}: &{x} [{', '.join([f'*{p}'] * 9)}]\n" for p, x in zip("abcdefgh", "bcdefghi"))
                    + "title: *i\n---\n# House\n").encode(), 4,
                   "anchors and aliases (&name, *name) are not allowed in front matter"),
    "one-anchor": (b"---\nruleset: house\nchapter: rules\ntitle: &t House\n---\n# House\n", 4, "anchors and aliases"),
    "kind-too-long-to-echo": (("---\nruleset: house\nchapter: rules\ntitle: House\nkind: " + "z" * 100_000
                               + "\n---\n# House\n").encode(), 1, "got 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"),
    "unterminated-flow-far-down": (b"---\nruleset: house\nchapter: rules\ntitle: House\nx: [\n---\n# House\n", 5,
                                   "YAML"),
    "no-front-matter": (b"# House\n\ntext\n", 1, "front matter"),
    "front-matter-list": (b"---\n- a\n- b\n---\n# House\n", 1, "mapping"),
    "title-not-text": (b"---\nruleset: house\nchapter: rules\ntitle: {a: 1}\n---\n# House\n", 1,
                       "'title' must be text"),
    "ruleset-title-null": (b"---\nruleset: house\nchapter: rules\ntitle: House\nruleset_title: null\n---\n# House\n",
                           1, "'ruleset_title' must be text"),
    "unknown-kind": (b"---\nruleset: house\nchapter: rules\ntitle: House\nkind: [x]\n---\n# House\n", 1,
                     "'kind' must be text"),
    "kind-not-a-kind": (b"---\nruleset: house\nchapter: rules\ntitle: House\nkind: errata\n---\n# House\n", 1,
                        "'kind' must be one of chapter, supplement, house-rules"),
    "second-h1": ((FRONT + "# House Rules\n\ntext\n\n# Again\n\nmore\n").encode(), 10, "second level-1 heading"),
    "table-short-of-its-die": ((FRONT + "# House Rules\n\n## Fumbles\n\n| d6 | Result |\n|---|---|\n"
                                "| 1-3 | drop it |\n| 5 | trip |\n").encode(), 10, "does not cover 4, 6"),
    "die-of-zero-sides": ((FRONT + "# House Rules\n\n## Fumbles\n\n| d0 | Result |\n|---|---|\n| 1 | drop it |\n"
                           ).encode(), 10, "must be one die of 1 to 10000 sides"),
    "die-of-a-billion-sides": ((FRONT + "# House Rules\n\n## Fumbles\n\n| d1000000000 | Result |\n|---|---|\n"
                                "| 1-1000000000 | drop it |\n").encode(), 10, "must be one die of 1 to 10000 sides"),
    "two-dice": ((FRONT + "# House Rules\n\n## Reactions\n\n| 2d6 | Result |\n|---|---|\n| 2-12 | hostile |\n"
                  ).encode(), 10, "must be one die"),
    "link-to-nowhere": ((FRONT + "# House Rules\n\nSee [this](mastery/combat/no-such-section#9).\n").encode(), 8,
                        "does not exist"),
    "not-utf8": (FRONT.encode() + b"# House Rules\n\n\xff\xfe caf\xe9\n", 1, "not UTF-8"),
    "binary": (bytes(range(256)) * 4, 1, "not UTF-8"),
}


def _guard_env(monkeypatch) -> None:
    """``main(["--db", ...])`` sets the environment for the process: restore it after the test."""
    for var in ("RULESLAWYER_DB", "RULESLAWYER_HOUSE_RULES"):
        monkeypatch.setenv(var, "x")
        monkeypatch.delenv(var)


def _db_bytes(path: Path) -> bytes:
    return path.read_bytes()


@pytest.fixture(scope="module")
def built_db(tmp_path_factory, shipped_db) -> Path:
    return shipped_db(tmp_path_factory.mktemp("db") / "rules.db")


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_house_rules_file_names_file_and_line_and_keeps_the_old_database(kind, built_db, tmp_path,
                                                                                   monkeypatch, capsys):
    text, line, words = BROKEN[kind]
    house = tmp_path / "house"
    house.mkdir()
    (house / f"{kind}.md").write_bytes(text)
    before = _db_bytes(built_db)
    with pytest.raises(rulesdb.BuildError) as exc:
        rulesdb.build(built_db, house_rules=house)
    assert any(p.startswith(f"{house / kind}.md:{line}:") and words in p for p in exc.value.problems), \
        exc.value.problems
    assert max(len(p) for p in exc.value.problems) < 400  # never an unbounded echo of the file
    assert _db_bytes(built_db) == before
    # the CLI: error lines naming the file, exit 1, the database untouched
    _guard_env(monkeypatch)
    assert main(["--db", str(built_db), "--house-rules", str(house), "build"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("ruleslawyer: error: ")
    assert f"{kind}.md:{line}:" in err
    assert _db_bytes(built_db) == before


def test_a_folder_named_like_a_markdown_file_is_not_read_as_one(built_db, tmp_path, monkeypatch):
    house = tmp_path / "house"
    (house / "chapter.md").mkdir(parents=True)  # a folder, not a file
    (house / "chapter.md" / "real.md").write_text(FRONT + "# House Rules\n\nA house rule.\n", encoding="utf-8")
    out = tmp_path / "rules.db"
    report = rulesdb.build(out, house_rules=house)
    assert report.files == rulesdb.build(tmp_path / "plain.db", house_rules=None).files + 1
    conn = sqlite3.connect(out)
    assert conn.execute("SELECT text FROM units WHERE id = 'house/rules#1'").fetchone() == ("A house rule.",)
    conn.close()


def _not_a_rules_db(tmp_path: Path) -> dict[str, Path]:
    text = tmp_path / "notes.txt"
    text.write_text("my campaign notes\n", encoding="utf-8")
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE characters (name TEXT)")
    conn.execute("INSERT INTO characters VALUES ('Aldric')")
    conn.commit()
    conn.close()
    folder = tmp_path / "a-folder"
    folder.mkdir()
    return {"text file": text, "another sqlite database": other, "folder": folder}


def test_build_refuses_to_overwrite_what_is_not_a_rules_database(tmp_path):
    for what, path in _not_a_rules_db(tmp_path).items():
        before = None if path.is_dir() else path.read_bytes()
        with pytest.raises(ValueError, match=r"^db: ") as exc:
            rulesdb.build(path)
        assert str(path) in str(exc.value), what
        if before is not None:
            assert path.read_bytes() == before, what
        else:
            assert path.is_dir() and not list(path.parent.glob(".*.tmp-*")), what


def test_a_query_with_db_pointing_at_another_file_is_an_error_not_a_rebuild(tmp_path, monkeypatch, capsys):
    _guard_env(monkeypatch)
    for what, path in _not_a_rules_db(tmp_path).items():
        before = None if path.is_dir() else path.read_bytes()
        rulesdb.reset_cache()
        assert main(["--db", str(path), "search", "death"]) == 1, what
        err = capsys.readouterr().err
        assert err.startswith("ruleslawyer: error: db: ") and len(err.splitlines()) == 1, err
        if before is not None:
            assert path.read_bytes() == before, what
    rulesdb.reset_cache()


def test_an_empty_file_or_an_earlier_rules_database_is_rebuilt(tmp_path, built_db):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert rulesdb.build(empty).units > 0
    assert rulesdb.build(built_db).units > 0


def test_search_and_build_stay_functions_whatever_was_imported_first():
    """Importing a submodule named like an exported function used to replace the function."""
    code = textwrap.dedent("""
        import importlib, types
        from ruleslawyer import rulesdb
        from ruleslawyer.rulesdb import _EXPORTS
        for module in sorted(set(_EXPORTS.values())):
            importlib.import_module(f"ruleslawyer.rulesdb.{module}")
        for name, module in _EXPORTS.items():
            value = getattr(rulesdb, name)
            assert not isinstance(value, types.ModuleType), name
            assert value is getattr(importlib.import_module(f"ruleslawyer.rulesdb.{module}"), name), name
        from ruleslawyer.rulesdb import search, build
        assert callable(search) and callable(build)
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr
