"""Where the rules sources and the database live, and the sources' freshness digest.

Kept free of heavy imports: every query checks freshness through this module, and a cold
``ruleslawyer search`` must not pay for the Markdown parser.
"""

from __future__ import annotations

import os
import re
import stat
import time
import zlib
from pathlib import Path

__all__ = ["DB_ENV", "HOUSE_RULES_ENV", "SCHEMA_FILE", "SCHEMA_VERSION", "SOURCES_DIR", "SourcesError",
           "default_db_path", "house_rules_dir", "source_files", "sources_digest", "sources_stats", "registered_source_dirs",
           "SourceDirs", "stored_source_dirs", "encode_source_dirs", "check_db_path", "database_state",
           "APPLICATION_ID", "database_checksum", "database_damage", "seal_database", "read_source",
           "remember_sealed"]

from ruleslawyer.errors import DatabasePathError, SourcesError
from ruleslawyer.limits import SOURCE_FILE_BYTES, megabytes
from ruleslawyer.shipped import DATA_DIR

SOURCES_DIR = DATA_DIR / "sources"
SCHEMA_FILE = DATA_DIR / "schema.sql"
CODE_DIR = Path(__file__).resolve().parent
HOUSE_RULES_ENV = "RULESLAWYER_HOUSE_RULES"
DB_ENV = "RULESLAWYER_DB"
SCHEMA_VERSION = "1"
#: The SQLite header's application id (offset 68) of every rules database the kit builds ("RLDB").
APPLICATION_ID = 0x524C4442
_SQLITE_MAGIC = b"SQLite format 3\x00"

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def default_db_path() -> Path:
    """``$RULESLAWYER_DB``, else ``$XDG_CACHE_HOME/ruleslawyer/rules.db`` (``~/.cache`` by default)."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "ruleslawyer" / "rules.db"


def house_rules_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The house-rules folder: the explicit argument, else ``$RULESLAWYER_HOUSE_RULES``, else None."""
    value = explicit if explicit is not None else os.environ.get(HOUSE_RULES_ENV)
    return Path(value).expanduser() if value else None


def check_db_path(path: Path) -> bool:
    """Whether a regular file is at ``path`` (False: nothing is), found without opening it.

    The database path may only ever name a regular file or nothing: opening a FIFO blocks for ever
    and a build would replace a device or a socket with a file (``--db /dev/null`` once did).

    Raises:
        DatabasePathError: ``path`` is a folder, a device, a FIFO, a socket, a symbolic link to one
            of those or to nothing, or sits below something that is not a folder.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            raise DatabasePathError(f"db: {path} is a symbolic link to nothing; give a file path for the "
                                    "rules database") from None
        return False
    except OSError as exc:
        raise DatabasePathError(f"db: cannot use {path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return True
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    link = " (through a symbolic link)" if os.path.islink(path) else ""
    raise DatabasePathError(f"db: {path} is {kind}{link}; give a file path for the rules database")


def database_state(path: Path) -> str:
    """What is at the database path: ``"missing"``, ``"empty"`` (an empty file) or ``"rules"`` (a rules
    database, perhaps damaged: its header carries :data:`APPLICATION_ID`, or it has a ``meta`` table).

    Only a regular file is opened, and without blocking.

    Raises:
        DatabasePathError: anything else is there (see :func:`check_db_path`), or a file that is not
            a rules database (the build refuses to overwrite it).
    """
    if not check_db_path(path):
        return "missing"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:  # removed since the check
        return "missing"
    except OSError as exc:
        raise DatabasePathError(f"db: cannot read {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the check
            raise DatabasePathError(f"db: {path} is not a regular file; give a file path for the rules database")
        header = os.read(fd, 100)
    finally:
        os.close(fd)
    if not header:
        return "empty"
    if header[:16] == _SQLITE_MAGIC and (int.from_bytes(header[68:72], "big") == APPLICATION_ID
                                         or _has_meta(path)):
        return "rules"
    raise DatabasePathError(f"db: {path} exists and is not a rules database; refusing to overwrite it "
                            "(remove it or choose another path)")


def _has_meta(path: Path) -> bool:
    """An SQLite file with a ``meta`` table holding ``schema_version`` (a rules database built before
    the application id was set)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return conn.execute("SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def database_checksum(data: bytes) -> int:
    """CRC-32 of a database file's bytes, leaving out the header's ``user_version`` (offset 60-63),
    where :func:`seal_database` keeps it."""
    view = memoryview(data)
    return zlib.crc32(view[64:], zlib.crc32(view[:60]))


def seal_database(path: Path) -> None:
    """Write the file's :func:`database_checksum` into its header's ``user_version`` (a field SQLite
    leaves to the application), once the build has closed it and before it replaces the database;
    then sync the file to disk, so the rename never puts an unwritten file in place."""
    with open(path, "r+b") as f:
        data = f.read()
        f.seek(60)
        f.write(database_checksum(data).to_bytes(4, "big"))
        f.flush()
        os.fsync(f.fileno())


#: A database larger than this (bytes) remembers a passed checksum check beside it, in
#: ``.NAME.checked``: the file's device, inode, size, modification and status-change times.
CHECKED_BYTES = 8 * 2**20


def database_damage(path: Path) -> str | None:
    """Why the rules database file at ``path`` is damaged, or None if its checksum matches.

    A file built before databases were sealed (no checksum, or not the kit's application id) counts
    as undamaged: it is rebuilt anyway once its sources digest is out of date. The file is mapped,
    not copied into memory: checking 1 MB takes well under a millisecond, a 100 MiB database
    ≈ 30 ms. So a database past :data:`CHECKED_BYTES` (a large house-rules corpus) is checked
    whole once per version of the file: a passed check is remembered beside it by the file's
    identity and times, which any write to it changes (the blind spot: a disk corrupting the file
    with no write, found by the next rebuild or by SQLite itself).
    """
    import mmap

    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if st.st_size < 100:
                return "its header is not an SQLite header"
            large = st.st_size > CHECKED_BYTES
            if large and _read_checked(path) == _identity(st, recent=True):
                return None
            seen = _identity(st) if large else ""  # remembered only once its times can be trusted
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                why = _damage(data)
    except FileNotFoundError:
        return None  # removed since it was checked: the open that follows builds it again
    except (OSError, ValueError) as exc:
        return f"it cannot be read: {getattr(exc, 'strerror', None) or exc}"
    if why is None and seen:
        _write_checked(path, seen)
    return why


def _identity(st: os.stat_result, recent: bool = False) -> str:
    """The file's identity and times; "" while its status changed too recently to trust them (unless
    ``recent``: this process wrote it)."""
    if not recent and time.time_ns() - st.st_ctime_ns < RECENT_NS:
        return ""
    return f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


def remember_sealed(path: Path) -> None:
    """Remember the database this process has just written, sealed and renamed into place as checked
    (if it is past :data:`CHECKED_BYTES`), so the next start need not read it whole. Best effort."""
    try:
        st = os.stat(path)
    except OSError:
        return
    if st.st_size > CHECKED_BYTES:
        _write_checked(path, _identity(st, recent=True))


def _checked_file(path: Path) -> Path:
    return path.with_name(f".{path.name}.checked")


def _read_checked(path: Path) -> str:
    try:
        with open(_checked_file(path), "rb") as f:
            return f.read(200).decode("ascii", "replace")
    except OSError:
        return ""


def _write_checked(path: Path, seen: str) -> None:
    """Remember a passed check (best effort: a read-only folder checks the whole file every time)."""
    target = _checked_file(path)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(seen.encode("ascii"))
        os.replace(tmp, target)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _damage(data) -> str | None:
    """:func:`database_damage` of a file's bytes (a buffer of at least 100 bytes)."""
    if data[:16] != _SQLITE_MAGIC:
        return "its header is not an SQLite header"
    stored = int.from_bytes(data[60:64], "big")
    if not stored or int.from_bytes(data[68:72], "big") != APPLICATION_ID:
        return None
    actual = database_checksum(data)
    return None if actual == stored else f"its checksum is {actual:08x}, not the {stored:08x} it was built with"


SourceDirs = tuple[tuple[str, Path], ...]
"""``((ruleset id, folder of its Markdown sources), ...)``, sorted by id."""


def registered_source_dirs() -> SourceDirs:
    """Every installed ruleset's sources folder, from the registry (:mod:`ruleslawyer.registry`)."""
    from ruleslawyer.registry import rulesets

    return tuple((r.id, Path(r.sources).resolve()) for r in rulesets())


def _display(path: Path, ruleset: str) -> str:
    try:
        return f"sources/{path.relative_to(SOURCES_DIR).as_posix()}"
    except ValueError:  # a ruleset package's own sources: its real path, so errors point at it
        return path.as_posix()


def source_files(house_rules: Path | None = None,
                 source_dirs: SourceDirs | None = None) -> list[tuple[Path, str, bool]]:
    """Every source file as ``(path, display name, is_house_rules)``, in a deterministic order.

    Args:
        house_rules: the house-rules folder, or None.
        source_dirs: the rulesets' sources folders; default: every installed ruleset's.

    Every house-rules entry named ``*.md`` is listed, even one that is not a readable file (a symlink
    loop, a folder holding no ``*.md`` file): reading it fails, and the build reports it as
    ``name:1: cannot read: ...``. A folder holding ``*.md`` files is read through them.

    Raises:
        SourcesError: the house-rules folder does not exist.
    """
    dirs = registered_source_dirs() if source_dirs is None else source_dirs
    files = [(p, _display(p, rid), False) for rid, d in sorted(dirs) for p in sorted(Path(d).glob("*.md"))]
    if house_rules is not None:
        if house_rules.exists() and not house_rules.is_dir():
            raise SourcesError([f"{house_rules}: is a file; house rules are read from a folder of *.md files"])
        if not house_rules.is_dir():
            raise SourcesError([f"{house_rules}: house-rules folder does not exist"])
        # House-rules files are named by their real path, so an error points at the file to fix.
        files += [(p, (house_rules / p.relative_to(house_rules)).as_posix(), True)
                  for p in sorted(house_rules.rglob("*.md")) if not _house_folder(p)]
    return files


def _house_folder(path: Path) -> bool:
    """Whether ``path`` (named ``*.md``) is a folder of house rules, read through the ``*.md`` files
    in it. Any other entry so named is listed as a source, a file or not: one that cannot be read as
    a file (a folder holding no ``*.md`` file, a symlink loop, a dangling link) then fails to read,
    so the build names it rather than dropping it."""
    try:
        return path.is_dir() and any(path.rglob("*.md"))
    except OSError:
        return False


def read_source(path: Path, name: str) -> bytes:
    """The bytes of the source file ``path`` (``name`` in messages), read up to
    :data:`~ruleslawyer.limits.SOURCE_FILE_BYTES`.

    Raises:
        SourcesError: it cannot be read, or it is larger than the limit (``name:1: ...``).
    """
    try:
        with open(path, "rb") as f:
            data = f.read(SOURCE_FILE_BYTES + 1)
    except OSError as exc:
        raise SourcesError([f"{name}:1: cannot read: {exc.strerror or exc}"]) from None
    if len(data) > SOURCE_FILE_BYTES:
        raise SourcesError([f"{name}:1: larger than {megabytes(SOURCE_FILE_BYTES)}, the most one source file "
                            "may hold"])
    return data


def _build_inputs() -> list[tuple[Path, str]]:
    """The package files that shape a built database: schema, build code, synonym data."""
    data = sorted([*DATA_DIR.glob("*.sql"), *DATA_DIR.glob("*.json"), *DATA_DIR.glob("*/*.json")])
    return ([(p, f"rulesdb/{p.relative_to(DATA_DIR).as_posix()}") for p in data]
            + [(p, f"ruleslawyer/rulesdb/{p.name}") for p in sorted(CODE_DIR.glob("*.py"))])


def sources_digest(house_rules: Path | None = None, source_dirs: SourceDirs | None = None) -> str:
    """The database's freshness key: CRC-32 and length of every build input and source file.

    Build inputs are the schema, the build code and its data files, so upgrading the kit rebuilds
    the database too. A change detector, not a security check (zlib keeps a cold
    ``ruleslawyer search`` free of the OpenSSL load that hashlib costs).
    """
    parts = [f"schema-v{SCHEMA_VERSION}"] + [f"ruleset:{rid}" for rid, _ in sorted(source_dirs or ())]
    for path, name in _build_inputs() + [(p, n) for p, n, _ in source_files(house_rules, source_dirs)]:
        data = read_source(path, name)
        parts.append(f"{name}:{len(data)}:{zlib.crc32(data):08x}")
    joined = "\n".join(parts).encode()
    return f"{zlib.crc32(joined):08x}-{zlib.adler32(joined):08x}-{len(parts)}"


#: A file whose status changed this recently (nanoseconds) when its stats are taken is not trusted by
#: them: a same-size edit within the same clock tick would leave its times as they were.
RECENT_NS = 2_000_000_000


def sources_stats(house_rules: Path | None = None, source_dirs: SourceDirs | None = None) -> str:
    """A cheap key of the same files :func:`sources_digest` reads, from their stats alone: the
    rulesets and their folders, and every build input's and source file's name, size, modification
    time and status-change time (``os.stat``, no file read).

    The database stores it beside the digest; an open whose key matches trusts the digest without
    reading a byte, and one whose key differs computes the digest (a touched file rebuilds nothing).
    An edit is seen when it changes a file's size, modification time or status-change time; one that
    keeps all three (the accepted blind spot: only a clock set back, or a file system that keeps no
    such times, allows it) needs ``ruleslawyer build``. Adding, removing or renaming a file changes
    the list, so it is seen.

    Returns:
        ``"crc32-adler32-count"`` of the stats list, or ``""`` (trust nothing: compute the digest)
        when a file cannot be stat-ed or changed status within :data:`RECENT_NS` (a later write in
        the same clock tick would keep its times).

    Raises:
        SourcesError: the house-rules folder does not exist (as :func:`source_files`).
    """
    parts = [f"schema-v{SCHEMA_VERSION}", f"house:{house_rules}"]
    parts += [f"ruleset:{rid}:{d}" for rid, d in sorted(source_dirs or ())]
    now = time.time_ns()
    for path, name in _build_inputs() + [(p, n) for p, n, _ in source_files(house_rules, source_dirs)]:
        try:
            st = os.stat(path)
        except OSError:
            return ""
        if now - st.st_ctime_ns < RECENT_NS or now - st.st_mtime_ns < RECENT_NS:
            return ""
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}")
    joined = "\n".join(parts).encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(joined):08x}-{zlib.adler32(joined):08x}-{len(parts)}"


def encode_source_dirs(dirs: SourceDirs) -> str:
    """``dirs`` as the JSON the database's ``meta.source_dirs`` stores."""
    import json

    return json.dumps([[rid, str(Path(d).resolve())] for rid, d in sorted(dirs)])


_DIR_PAIR = re.compile(r'\["([^"\\]*)", "([^"\\]*)"\]')


def stored_source_dirs(meta: dict[str, str]) -> SourceDirs | None:
    """The sources folders a database was built from (its ``meta.source_dirs``), or None.

    The JSON :func:`encode_source_dirs` writes is read without loading ``json`` when it holds no
    escape (ASCII paths, no quote or backslash): the pairs found must spell the whole text again in
    ``json.dumps``'s own layout, else ``json.loads`` reads it.
    """
    text = meta.get("source_dirs")
    if text is None:
        return None
    if "\\" not in text:
        pairs = _DIR_PAIR.findall(text)
        if "[" + ", ".join(f'["{rid}", "{d}"]' for rid, d in pairs) + "]" == text:
            return tuple((rid, Path(d)) for rid, d in pairs)
    import json

    try:
        return tuple((str(rid), Path(d)) for rid, d in json.loads(text))
    except (ValueError, TypeError):
        return None
