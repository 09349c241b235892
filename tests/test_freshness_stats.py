"""Freshness from the sources' stats: an open reads no source file while their stats match the ones the
database was built with, and computes the content digest only when a stat differs.

The rule (``paths.sources_stats``): each build input's and source file's name, size, modification time
and status-change time. A touched file costs one digest (and the new stats are stored, so the next open
is cheap again), never a rebuild; an edit, even one that keeps the size and puts the modification time
back, changes the status-change time and is rebuilt; adding or removing a file is seen. The accepted
blind spot is an edit that keeps all three (a clock set back): shown below with a faked stat.
Every database and folder here is in tmp_path.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from ruleslawyer.rulesdb import builder, db, paths
from ruleslawyer.rulesdb.db import ensure_database
from ruleslawyer.rulesdb.paths import database_damage

HOUSE = "---\nruleset: house\nchapter: ours\ntitle: Ours\n---\n\n# Ours\n\n## Crits\n\nBig crits.\n"


def _meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT key, value FROM meta"))


def _units(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT text FROM units WHERE ruleset = 'house' ORDER BY ord")]


@pytest.fixture
def counted(monkeypatch):
    """Counts of builds and content digests from here on (files' status changes trusted at once)."""
    monkeypatch.setattr(paths, "RECENT_NS", 0)
    calls = {"build": 0, "digest": 0}
    real_build, real_digest = builder.build, db.sources_digest

    def build(*args, **kwargs):
        calls["build"] += 1
        return real_build(*args, **kwargs)

    def digest(*args, **kwargs):
        calls["digest"] += 1
        return real_digest(*args, **kwargs)

    monkeypatch.setattr(builder, "build", build)
    monkeypatch.setattr(db, "sources_digest", digest)
    return calls


@pytest.fixture
def built(tmp_path, monkeypatch) -> tuple[Path, Path]:
    monkeypatch.setattr(paths, "RECENT_NS", 0)
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    path = tmp_path / "rules.db"
    builder.build(path, house_rules=house)
    return path, house


def test_matching_stats_read_no_source(built, counted):
    path, house = built
    assert _meta(path)["sources_stats"]
    ensure_database(path, house)
    assert counted == {"build": 0, "digest": 0}


def test_touched_file_costs_one_digest_and_no_rebuild(built, counted):
    path, house = built
    before = _meta(path)
    st = os.stat(house / "ours.md")
    os.utime(house / "ours.md", ns=(st.st_atime_ns, st.st_mtime_ns - 5_000_000_000))
    ensure_database(path, house)
    assert counted == {"build": 0, "digest": 1}
    after = _meta(path)
    assert after["sources_digest"] == before["sources_digest"]
    assert after["sources_stats"] not in ("", before["sources_stats"])  # stored: the next open is cheap
    assert database_damage(path) is None  # the rewritten file is sealed again
    ensure_database(path, house)
    assert counted == {"build": 0, "digest": 1}


def test_same_size_edit_with_mtime_put_back_is_rebuilt(built, counted):
    path, house = built
    src = house / "ours.md"
    st = os.stat(src)
    src.write_text(HOUSE.replace("Big", "Odd"), encoding="utf-8")
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(src).st_size == st.st_size and os.stat(src).st_mtime_ns == st.st_mtime_ns
    with pytest.warns(db.RulesDatabaseNotice, match="the sources changed"):
        ensure_database(path, house)
    assert counted["build"] == 1
    assert _units(path)[-1] == "Odd crits."


def test_same_stats_edit_is_the_accepted_blind_spot(built, counted, monkeypatch):
    """An edit that keeps size, modification and status-change time is not seen (documented)."""
    path, house = built
    src = house / "ours.md"
    frozen = os.stat(src)
    src.write_text(HOUSE.replace("Big", "Odd"), encoding="utf-8")
    real_stat = os.stat
    monkeypatch.setattr(paths.os, "stat", lambda p, *a, **k: frozen if Path(p) == src else real_stat(p, *a, **k))
    ensure_database(path, house)
    assert counted == {"build": 0, "digest": 0}
    assert _units(path)[-1] == "Big crits."


@pytest.mark.parametrize("change", ["add", "remove"])
def test_added_or_removed_file_is_seen(built, counted, change):
    path, house = built
    other = house / "more.md"
    if change == "remove":
        other.write_text(HOUSE.replace("ours", "more").replace("Big", "More"), encoding="utf-8")
        builder.build(path, house_rules=house)
        counted["build"] = 0
        other.unlink()
    else:
        other.write_text(HOUSE.replace("ours", "more").replace("Big", "More"), encoding="utf-8")
    with pytest.warns(db.RulesDatabaseNotice, match="the sources changed"):
        ensure_database(path, house)
    assert counted["build"] == 1
    assert ("More crits." in _units(path)) == (change == "add")


def test_recently_changed_file_is_not_trusted_by_its_stats(tmp_path):
    """A file whose status changed within paths.RECENT_NS of the build is stored as untrusted (a second
    same-size write in the same clock tick would keep its times): the next opens check the digest."""
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    path = tmp_path / "rules.db"
    builder.build(path, house_rules=house)
    assert _meta(path)["sources_stats"] == ""
    assert paths.sources_stats(house, paths.registered_source_dirs()) == ""


def test_storing_stats_is_best_effort(built, counted, monkeypatch):
    """A folder that cannot be written (here: the copy fails) stores nothing, raises nothing, and
    leaves the database as it was; the next open computes the digest again."""
    path, house = built
    st = os.stat(house / "ours.md")
    os.utime(house / "ours.md", ns=(st.st_atime_ns, st.st_mtime_ns - 5_000_000_000))
    before = path.read_bytes()

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(shutil, "copyfile", refuse)
    ensure_database(path, house)
    ensure_database(path, house)
    assert counted == {"build": 0, "digest": 2}
    assert path.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if ".tmp-" in p.name]


def test_stats_not_stored_over_a_database_replaced_meanwhile(built, counted):
    """The stats are stored in a copy renamed over the database only if the database is still the file
    that was checked: another process's rebuild in between is never overwritten."""
    path, house = built
    found = db._diagnose(path, house)
    assert found.why is None and found.stats == ""
    replaced = db._Diagnosis(None, house, True, None, "0-0-1", (0, 0, 0))
    before = path.read_bytes()
    db._store_stats(path, replaced)
    assert path.read_bytes() == before


def test_reader_keeps_its_file_while_stats_are_stored(built, counted):
    """The new stats go into a copy renamed over the database: a connection opened before keeps reading."""
    path, house = built
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        inode = os.stat(path).st_ino
        count = conn.execute("SELECT count(*) FROM units WHERE ruleset = 'house'").fetchone()[0]
        st = os.stat(house / "ours.md")
        os.utime(house / "ours.md", ns=(st.st_atime_ns, st.st_mtime_ns - 5_000_000_000))
        ensure_database(path, house)
        assert os.stat(path).st_ino != inode
        assert conn.execute("SELECT count(*) FROM units WHERE ruleset = 'house'").fetchone()[0] == count
    finally:
        conn.close()


@pytest.fixture
def remembered(built, monkeypatch):
    """A database counted as large (its passed check remembered), and the whole-file checks counted."""
    monkeypatch.setattr(paths, "CHECKED_BYTES", 0)
    checks = []
    real = paths._damage
    monkeypatch.setattr(paths, "_damage", lambda data: checks.append(1) or real(data))
    return built[0], checks


def test_large_database_is_checked_whole_once_per_version(remembered):
    path, checks = remembered
    assert database_damage(path) is None and database_damage(path) is None
    assert len(checks) == 1
    assert (path.parent / f".{path.name}.checked").is_file()


def test_any_write_to_a_checked_database_is_checked_again(remembered):
    """A write in place (here one byte of the last page flipped) changes the file's times: checked
    whole again, and the damage found."""
    path, checks = remembered
    assert database_damage(path) is None
    with open(path, "r+b") as f:
        f.seek(-10, os.SEEK_END)
        byte = f.read(1)
        f.seek(-10, os.SEEK_END)
        f.write(bytes([byte[0] ^ 0xFF]))
    assert "checksum" in (database_damage(path) or "")
    assert len(checks) == 2


def test_database_replaced_by_a_damaged_copy_is_checked_again(remembered, tmp_path):
    path, checks = remembered
    assert database_damage(path) is None
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    other = tmp_path / "damaged.db"
    other.write_bytes(bytes(data))
    os.replace(other, path)
    assert "checksum" in (database_damage(path) or "")


def test_remembering_is_best_effort(remembered, monkeypatch):
    """Garbage in the memo, or a folder where it cannot be written: the whole file is checked."""
    path, checks = remembered
    (path.parent / f".{path.name}.checked").write_text("not a file identity")
    assert database_damage(path) is None
    monkeypatch.setattr(paths, "_checked_file", lambda p: p.parent / "no-such-folder" / "memo")
    assert database_damage(path) is None and database_damage(path) is None
    assert len(checks) == 3


def test_the_build_remembers_the_database_it_sealed(tmp_path, monkeypatch):
    """The process that wrote and sealed a large database remembers it as checked: the next start
    reads none of it, though its times are not 2 s old yet."""
    monkeypatch.setattr(paths, "CHECKED_BYTES", 0)
    path = tmp_path / "rules.db"
    builder.build(path)
    checks = []
    real = paths._damage
    monkeypatch.setattr(paths, "_damage", lambda data: checks.append(1) or real(data))
    assert database_damage(path) is None
    assert checks == []
