"""Database faults never cost a wrong answer, an internal error or every later search.

- A damaged file (pages overwritten in the middle, or one byte of one table cell changed) is found
  by its checksum when it is opened and rebuilt, with one notice line; the answer is right.
- Damaged and not rebuildable (broken house rules): a DatabaseError naming the file, exit 1.
- An SQLite error from a query is a DatabaseError naming the file, never an "internal error".
- A read-only folder or a full disk during a rebuild: the previous database answers, with a warning;
  with no previous database, a DatabaseError naming the file.
Every database here is a copy in tmp_path.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main
from ruleslawyer.errors import DatabaseError
from ruleslawyer.rulesdb.db import RulesDatabaseNotice, RulesDatabaseWarning
from ruleslawyer.rulesdb.handle import open_rules
from ruleslawyer.rulesdb.paths import database_damage

CLI = [sys.executable, "-m", "ruleslawyer.cli"]
RULE = "mastery/combat/death/fighting-on#2"
HOUSE = "---\nruleset: house\nchapter: ours\ntitle: Ours\n---\n\n# Ours\n\n## Crits\n\nBig crits.\n"


@pytest.fixture(scope="module")
def good_db(tmp_path_factory, shipped_db) -> Path:
    return shipped_db(tmp_path_factory.mktemp("good") / "rules.db")


@pytest.fixture(scope="module")
def truth(good_db) -> dict:
    """Answers from the sound database, to compare the damaged copies' answers with."""
    rules = open_rules(good_db)
    try:
        ctx = rulesdb.context(RULE, rules=rules)
        return {"rule": ctx.rule, "section_title": ctx.section_title,
                "trauma": rules.table("mastery/combat/tables/trauma").rows}
    finally:
        rules.reset()


def _copy(good_db: Path, tmp_path: Path) -> Path:
    path = tmp_path / "rules.db"
    shutil.copyfile(good_db, path)
    return path


def _overwrite_pages(path: Path, pages: int = 6, fill: bytes | None = None) -> None:
    """Overwrite ``pages`` pages in the middle of the file (random bytes, or ``fill`` repeated); with
    ``pages=0``, every page but the first."""
    data = bytearray(path.read_bytes())
    size = sqlite3.connect(path).execute("PRAGMA page_size").fetchone()[0]
    count = len(data) // size
    first, last = (1, count) if pages == 0 else (count // 2 - pages // 2, count // 2 + pages // 2)
    rng = random.Random(7)
    for page in range(first, last):
        data[page * size:(page + 1) * size] = fill * size if fill else rng.randbytes(size)
    assert len(data) == count * size
    path.write_bytes(bytes(data))


def test_pages_overwritten_in_the_middle_are_rebuilt_with_one_notice_and_the_right_answer(good_db, truth,
                                                                                             tmp_path, capsys):
    path = _copy(good_db, tmp_path)
    _overwrite_pages(path)
    assert database_damage(path) is not None
    assert main(["--db", str(path), "show", RULE, "--json"]) == 0
    captured = capsys.readouterr()
    # `show` once gave an empty section title from a damaged file
    assert '"section_title": "Fighting On"' in captured.out and truth["section_title"] == "Fighting On"
    assert captured.err.splitlines() == [
        f"ruleslawyer: rebuilding the rules database {path} (it is damaged: "
        + captured.err.split("(it is damaged: ", 1)[1].strip()]
    assert "checksum" in captured.err and len(captured.err.splitlines()) == 1
    assert database_damage(path) is None and path.read_bytes() == good_db.read_bytes()
    rulesdb.reset_cache()


def test_one_changed_table_cell_is_found_and_rebuilt_never_answered(good_db, truth, tmp_path):
    path = _copy(good_db, tmp_path)
    row = truth["trauma"][0]
    data = path.read_bytes()
    cell = row.cells[1].encode()  # the first trauma row's result text, stored as JSON in table_rows
    at = data.find(cell)
    assert at > 0
    # same length, so the file is still a well-formed SQLite database: only the checksum can tell
    swapped = bytes(b if not chr(b).isalpha() else ord(chr(b).swapcase()) for b in cell)
    path.write_bytes(data[:at] + swapped + data[at + len(cell):])
    assert sqlite3.connect(path).execute("PRAGMA quick_check").fetchone() == ("ok",)
    rules = open_rules(path)
    try:
        with pytest.warns(RulesDatabaseNotice, match="it is damaged"):
            table = rules.table("mastery/combat/tables/trauma")
        assert table.rows == truth["trauma"]
    finally:
        rules.reset()


def test_damaged_and_not_rebuildable_is_a_database_error_naming_the_file(tmp_path, capsys):
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    path = tmp_path / "rules.db"
    rulesdb.build(path, house_rules=house)
    _overwrite_pages(path)
    (house / "ours.md").write_text(HOUSE + "\nSee [x](no/such/id).\n", encoding="utf-8")
    assert main(["--db", str(path), "--house-rules", str(house), "search", "crits"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ruleslawyer: error: the rules database {path} is damaged (its checksum is ")
    assert "cannot be rebuilt: rules build failed:" in err and "ours.md:13: cross-reference" in err
    assert "internal error" not in err and "Traceback" not in err
    rulesdb.reset_cache()


def test_an_sqlite_error_mid_query_is_a_database_error_and_the_next_query_rebuilds(good_db, truth, tmp_path):
    path = _copy(good_db, tmp_path)
    rules = open_rules(path)
    try:
        rules.connection().execute("SELECT 1").fetchone()  # opened and checked while sound
        _overwrite_pages(path, pages=0, fill=b"\0")  # then every page but the header zeroed
        with pytest.raises(DatabaseError, match=f"the rules database {path} cannot be read") as exc:
            rulesdb.search("parry", rules=rules)
        assert "malformed" in str(exc.value) or "not a database" in str(exc.value)
        with pytest.warns(RulesDatabaseNotice, match="it is damaged"):
            assert rules.rule(RULE) == truth["rule"]
    finally:
        rules.reset()


def test_the_cli_reports_a_stray_sqlite_error_as_a_database_error_not_an_internal_one(good_db, tmp_path,
                                                                                     monkeypatch, capsys):
    from ruleslawyer.rulesdb import lookup

    def malformed(*args, **kwargs):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(rulesdb, "context", malformed, raising=False)  # first: see tests/conftest.py
    monkeypatch.setattr(lookup, "context", malformed)
    path = _copy(good_db, tmp_path)
    assert main(["--db", str(path), "show", RULE, "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"ruleslawyer: error: the rules database {path} cannot be read "
                            "(database disk image is malformed)\n")
    assert '"type": "DatabaseError"' in captured.out and '"internal": false' in captured.out


def _stale(tmp_path: Path) -> tuple[Path, Path]:
    """A database built with a house-rules folder, then the folder edited (so a query must rebuild)."""
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    folder = tmp_path / "dbs"
    folder.mkdir()
    path = folder / "rules.db"
    rulesdb.build(path, house_rules=house)
    (house / "ours.md").write_text(HOUSE + "\nEven bigger crits.\n", encoding="utf-8")
    return path, house


def _without_root_powers() -> list[str]:
    """A command prefix under which file permissions hold, or skip: root ignores a read-only folder,
    so as root the CLI runs under setpriv without the DAC-override capabilities."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv (util-linux) is missing: chmod cannot make a folder read-only")
    probe = subprocess.run([setpriv, "--bounding-set=-dac_override,-dac_read_search", "--", sys.executable,
                            "-c", "print(1)"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"running as root and setpriv cannot drop capabilities here: {probe.stderr.strip()}")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]


def test_a_read_only_folder_with_a_stale_database_still_answers_with_a_warning(tmp_path):
    prefix = _without_root_powers()
    path, house = _stale(tmp_path)
    before = path.read_bytes()
    path.parent.chmod(0o555)
    try:
        outs = [subprocess.run([*prefix, *CLI, "--db", str(path), "search", "crits", "--ruleset", "house"],
                               capture_output=True, text=True, timeout=120) for _ in range(2)]
    finally:
        path.parent.chmod(0o755)
    for out in outs:  # every search answers, not just the first
        assert out.returncode == 0, out.stderr
        assert "House › Ours › Crits ¶1  [house/ours/crits#1]" in out.stdout
        assert out.stderr == (f"ruleslawyer: warning: using the previous rules database; cannot write the rules "
                              f"database {path}: Permission denied\n")
    assert path.read_bytes() == before and os.listdir(path.parent) == ["rules.db"]


def test_a_read_only_folder_with_no_database_is_one_error_naming_it(tmp_path):
    prefix = _without_root_powers()
    folder = tmp_path / "dbs"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        out = subprocess.run([*prefix, *CLI, "--db", str(folder / "rules.db"), "search", "crits"],
                             capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o755)
    assert out.returncode == 1
    assert out.stderr == f"ruleslawyer: error: cannot write the rules database {folder / 'rules.db'}: Permission denied\n"


def _small_disk(limit: int):
    """preexec_fn: files may grow to ``limit`` bytes at most (a full disk, as the writer sees it)."""
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_during_a_rebuild_keeps_the_previous_database_answering(tmp_path):
    path, house = _stale(tmp_path)
    before = path.read_bytes()
    out = subprocess.run([*CLI, "--db", str(path), "search", "crits", "--ruleset", "house"], capture_output=True,
                         text=True, timeout=120, preexec_fn=_small_disk(100_000))
    assert out.returncode == 0, out.stderr
    assert "House › Ours › Crits ¶1  [house/ours/crits#1]" in out.stdout
    lines = out.stderr.splitlines()
    assert lines[0] == f"ruleslawyer: rebuilding the rules database {path} (the sources changed)..."
    assert lines[1].startswith(f"ruleslawyer: warning: using the previous rules database; cannot write the rules "
                               f"database {path}: ") and len(lines) == 2
    assert path.read_bytes() == before and os.listdir(path.parent) == ["rules.db"]  # no temp file left
    # the disk has room again: the next search rebuilds
    out = subprocess.run([*CLI, "--db", str(path), "search", "even", "bigger"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "[house/ours/crits#2]" in out.stdout
    assert out.stderr == f"ruleslawyer: rebuilding the rules database {path} (the sources changed)...\n"


def test_a_full_disk_with_no_database_is_one_error_naming_it(tmp_path):
    path = tmp_path / "rules.db"
    out = subprocess.run([*CLI, "--db", str(path), "search", "crits"], capture_output=True, text=True,
                         timeout=120, preexec_fn=_small_disk(100_000))
    assert out.returncode == 1
    lines = out.stderr.splitlines()
    assert lines[-1].startswith(f"ruleslawyer: error: cannot write the rules database {path}: ")
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr
    assert not path.exists() and os.listdir(tmp_path) == []


def test_the_api_keeps_the_previous_database_when_the_disk_refuses_a_rebuild(tmp_path, monkeypatch):
    import errno
    import importlib

    build_mod = importlib.import_module("ruleslawyer.rulesdb.builder")
    path, house = _stale(tmp_path)
    before = path.read_bytes()

    def full_disk(tmp, *args):
        tmp.write_bytes(b"half a database")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build_mod, "_write_file", full_disk)
    rules = open_rules(path)
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            assert rules.rule("house/ours/crits#1").text == "Big crits."
        assert [(w.category, str(w.message)) for w in seen] == [
            (RulesDatabaseNotice, f"rebuilding the rules database {path} (the sources changed)..."),
            (RulesDatabaseWarning, f"using the previous rules database; cannot write the rules database {path}: "
                                   "No space left on device")]
        assert path.read_bytes() == before and os.listdir(path.parent) == ["rules.db"]
    finally:
        rules.reset()


def test_exchange_mythras_on_a_corrupted_table_cell_answers_as_the_sound_database(good_db, tmp_path, capsys):
    """A damage-modifier cell changed on disk once made ``exchange mythras`` blame the user's input."""
    example = Path(__file__).resolve().parents[1] / "examples" / "mythras" / "broadsword-vs-dagger.json"
    argv = ["exchange", "mythras", "--input", str(example), "--seed", "3", "--json"]
    code = main(["--db", str(good_db), *argv])
    sound = capsys.readouterr()
    assert code == 0, sound.err
    path = _copy(good_db, tmp_path)
    data = path.read_bytes()
    cells = [b'"+1d4"]', b'"-1d4"]', b'"+1d2"]', b'"-1d2"]']
    assert all(c in data for c in cells)
    for c in cells:  # same length: still a well-formed database, with unreadable dice in the table
        data = data.replace(c, c.replace(b"d", b"x"))
    path.write_bytes(data)
    code = main(["--db", str(path), *argv])
    damaged = capsys.readouterr()
    assert code == 0, damaged.err
    assert damaged.out == sound.out
    assert damaged.err.startswith(f"ruleslawyer: rebuilding the rules database {path} (it is damaged: ")
    assert len(damaged.err.splitlines()) == 1
