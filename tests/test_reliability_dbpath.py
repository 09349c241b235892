"""The database path only ever replaces a regular file that is a rules database, or nothing.

Anything else -- a FIFO (opening it blocks for ever), a socket, a folder, a symbolic link to one of
those or to nothing, a file that is not a rules database -- is refused at once with a
DatabasePathError (CLI: one error line, exit 1) and left exactly as it was. Everything here is made in
tmp_path: no test points at a real device (``/dev/null`` as a database path once replaced the
machine's ``/dev/null``).
"""

from __future__ import annotations

import importlib
import os
import socket
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.errors import DatabasePathError
from ruleslawyer.rulesdb.handle import open_rules

CLI = [sys.executable, "-m", "ruleslawyer.cli"]


def _hostile_paths(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    sock.close()
    folder = tmp_path / "folder"
    folder.mkdir()
    notes = tmp_path / "notes.txt"
    notes.write_text("my campaign notes\n", encoding="utf-8")
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE characters (name TEXT)")
    conn.commit()
    conn.close()
    link_to_fifo = tmp_path / "link-to-fifo"
    link_to_fifo.symlink_to(fifo)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    return {"fifo": fifo, "socket": sock_path, "folder": folder, "text file": notes, "other sqlite": other,
            "link to a fifo": link_to_fifo, "dangling link": dangling, "below a file": notes / "rules.db"}


def _snapshot(path: Path):
    """What is at ``path``: its lstat type and, for a regular file, its bytes."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return ("error", exc.errno)
    data = path.read_bytes() if stat.S_ISREG(st.st_mode) else None
    return (stat.S_IFMT(st.st_mode), st.st_ino, data)


WHY = {"fifo": "named pipe", "socket": "socket", "folder": "folder", "text file": "not a rules database",
       "other sqlite": "not a rules database", "link to a fifo": "named pipe (FIFO) (through a symbolic link)",
       "dangling link": "symbolic link to nothing", "below a file": "Not a directory"}


def test_every_hostile_path_is_refused_by_the_api_and_left_as_it_was(tmp_path):
    for what, path in _hostile_paths(tmp_path).items():
        before = _snapshot(path)
        for call in (lambda: rulesdb.build(path), lambda: rulesdb.search("parry", rules=open_rules(path)),
                     lambda: rulesdb.ensure_database(path)):
            with pytest.raises(DatabasePathError, match=r"^db: ") as exc:
                call()
            assert str(path) in str(exc.value) and WHY[what] in str(exc.value), (what, exc.value)
            assert _snapshot(path) == before, what
        rulesdb.reset_cache()
    assert not [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]


@pytest.mark.parametrize("command", [["search", "parry"], ["show", "mastery/combat/death/fighting-on#2"],
                                     ["build"]])
def test_the_cli_refuses_a_fifo_or_a_socket_at_once_with_one_line(tmp_path, command):
    paths = _hostile_paths(tmp_path)
    for what in ("fifo", "link to a fifo", "socket", "text file"):
        path = paths[what]
        before = _snapshot(path)
        # timeout: opening the FIFO used to block for ever
        out = subprocess.run([*CLI, "--db", str(path), *command], capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL)
        assert out.returncode == 1, (what, out.stderr)
        assert out.stderr.startswith(f"ruleslawyer: error: db: {path} ") and len(out.stderr.splitlines()) == 1, \
            out.stderr
        assert out.stdout == ""
        assert _snapshot(path) == before, what


def test_build_out_refuses_a_fifo_before_reading_the_sources(tmp_path, monkeypatch):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    build_mod = importlib.import_module("ruleslawyer.rulesdb.builder")

    def no_parse(*args, **kwargs):
        raise AssertionError("the sources were parsed before the target was checked")

    monkeypatch.setattr(build_mod, "_parse_all", no_parse)
    with pytest.raises(DatabasePathError, match="named pipe"):
        build_mod.build(fifo)


def test_a_regular_rules_database_through_a_symbolic_link_still_answers(tmp_path):
    real = tmp_path / "real.db"
    rulesdb.build(real)
    link = tmp_path / "link.db"
    link.symlink_to(real)
    rules = open_rules(link)
    try:
        assert rules.rule("mastery/combat/death/fighting-on#2").id == "mastery/combat/death/fighting-on#2"
    finally:
        rules.reset()
