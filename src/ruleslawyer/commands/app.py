"""``ruleslawyer app`` (serve the panels to a table or a class through Voila) and ``ruleslawyer doctor``
(is this machine ready: the Jupyter widget stack, the database, house rules, the browser for tests).

``ruleslawyer app [--host H] [--port P] [--cull-idle-timeout S] [--cull-interval S] [--dry-run]`` runs
Voila on the app notebook with the kernel websocket sending at once (TCP_NODELAY) and idle kernels
culled: a kernel whose browser tab is gone (no connection) and that has been idle for
``--cull-idle-timeout`` seconds is shut down; the server checks every ``--cull-interval`` seconds.
A tab left open keeps its kernel (``cull_connected`` is off). The kernels read the database given
with ``--db`` / ``--house-rules`` (passed to them in their environment). ``make app HOST=... PORT=...``
runs this command.

``ruleslawyer doctor [--json]`` prints one line per check (ok / warn / error); the exit status is 1
when a check is an error (a warning is not). Top level imports only the standard library.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from ruleslawyer.limits import whole_arg

__all__ = ["register", "voila_command", "app_notebook", "doctor_checks", "DEFAULT_HOST", "DEFAULT_PORT",
           "DEFAULT_CULL_IDLE_TIMEOUT", "DEFAULT_CULL_INTERVAL", "IOPUB_TIMEOUT", "WIDGET_STACK", "CHROMIUM"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866
#: Seconds a kernel with no browser tab may sit idle before it is shut down (10 minutes).
DEFAULT_CULL_IDLE_TIMEOUT = 600
#: Seconds between the server's checks for such kernels.
DEFAULT_CULL_INTERVAL = 60
#: Seconds Voila waits for a cell's output after its reply (nbclient's default is 4).
IOPUB_TIMEOUT = 60
#: The Jupyter widget stack: its packages must be installed in versions that fit together.
WIDGET_STACK = ("ipywidgets", "jupyterlab_widgets", "widgetsnbextension", "jupyterlab", "voila", "jupyter_server",
                "ipykernel")
#: The browser the browser tests drive (Debian chromium).
CHROMIUM = Path("/usr/bin/chromium")

_CHECKOUT = Path(__file__).resolve().parents[3]
_APP_CELL = "from ruleslawyer.widgets.app import app\n\napp(title=True)  # a one-cell notebook has no heading of its own"


def app_notebook(workdir: Path | None = None) -> Path:
    """The app notebook: the checkout's ``notebooks/app.ipynb``, or (an installed kit) a one-cell
    notebook written into ``workdir`` (default: a new temporary folder)."""
    found = _CHECKOUT / "notebooks" / "app.ipynb"
    if found.is_file():
        return found
    import json
    import tempfile

    folder = Path(workdir or tempfile.mkdtemp(prefix="ruleslawyer-app-"))
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "app", "metadata": {}, "outputs": [],
                     "source": _APP_CELL}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path = folder / "app.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def voila_command(notebook: Path, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                  cull_idle_timeout: int = DEFAULT_CULL_IDLE_TIMEOUT, cull_interval: int = DEFAULT_CULL_INTERVAL,
                  python: str | None = None) -> list[str]:
    """The Voila command line serving ``notebook`` (argv list).

    ``--Voila.ip``/``--Voila.port`` (Voila ignores a plain ``--ip``), no port retries, the no-delay
    kernel websocket (:mod:`ruleslawyer.widgets.serve`), and jupyter_server's idle-kernel culler:
    ``MappingKernelManager.cull_idle_timeout`` (seconds idle; 0 turns culling off),
    ``cull_interval`` (seconds between checks) and ``cull_connected=False`` (a kernel with an open
    tab is never culled). ``VoilaExecutor.iopub_timeout`` is raised from nbclient's 4 s to
    :data:`IOPUB_TIMEOUT`: on a busy server (a class opening the app at once) the app cell's output
    can arrive seconds after its reply, and Voila would otherwise serve the page without the app.
    """
    from ruleslawyer.widgets.serve import CONNECTION_CLASS

    return [python or sys.executable, "-m", "voila", "--no-browser", f"--Voila.ip={host}", f"--Voila.port={port}",
            "--Voila.port_retries=0", f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS}",
            f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
            f"--MappingKernelManager.cull_interval={cull_interval}",
            "--MappingKernelManager.cull_connected=False", f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
            str(notebook)]


def _check_args(args) -> None:
    from ruleslawyer.errors import RulesInputError

    if not 1 <= args.port <= 65535:
        raise RulesInputError("port", f"must be a TCP port from 1 to 65535, got {args.port}")
    if args.cull_idle_timeout < 0:
        raise RulesInputError("cull-idle-timeout", f"must be 0 (no culling) or more seconds, got {args.cull_idle_timeout}")
    if args.cull_interval < 1:
        raise RulesInputError("cull-interval", f"must be 1 second or more, got {args.cull_interval}")


def _app(args) -> int:
    import shlex
    import subprocess

    _check_args(args)
    cmd = voila_command(app_notebook(), host=args.host, port=args.port, cull_idle_timeout=args.cull_idle_timeout,
                        cull_interval=args.cull_interval)
    env = dict(os.environ)  # the child's environment; this process's stays as it is
    env["RULESLAWYER_DB"] = str(args.rules.path)
    if args.rules.house_rules is not None:
        env["RULESLAWYER_HOUSE_RULES"] = str(args.rules.house_rules)
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    args.rules.ensure()  # build the database once here, not in the first kernel
    print(f"ruleslawyer: serving the app on http://{args.host}:{args.port}/ (Ctrl-C stops it)", file=sys.stderr)
    return _serve(subprocess.Popen(cmd, env=env))


def _serve(child) -> int:
    """Wait for the Voila server ``child`` (a ``Popen``), handing it the signals that stop this
    command (SIGTERM, SIGHUP), so stopping ``ruleslawyer app`` never leaves its server running."""
    import signal

    def forward(signum, _frame) -> None:
        child.send_signal(signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    try:
        return child.wait()
    except KeyboardInterrupt:  # Ctrl-C reached the server too (one process group): let it finish
        child.wait()
        return 130


# ------------------------------------------------------------------------------- doctor


def _version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _widget_checks() -> list[dict]:
    """Versions of the widget stack; a warning where ipywidgets' own requirements (its
    jupyterlab_widgets / widgetsnbextension pins) or the checkout's constraints.txt are not met."""
    from importlib import metadata

    out = []
    for name in WIDGET_STACK:
        v = _version(name)
        out.append({"check": name, "status": "ok" if v else "warn", "detail": v or "not installed"})
    if _version("ipywidgets"):
        try:
            from packaging.requirements import Requirement
        except ImportError:  # pragma: no cover - packaging ships with pip's environments
            return out
        for text in metadata.requires("ipywidgets") or []:
            req = Requirement(text)
            if req.marker is not None or req.name not in WIDGET_STACK + ("widgetsnbextension",):
                continue
            have = _version(req.name)
            ok = have is not None and req.specifier.contains(have, prereleases=True)
            out.append({"check": f"ipywidgets {_version('ipywidgets')} needs {req}",
                        "status": "ok" if ok else "warn",
                        "detail": f"{req.name} {have or 'missing'}" + ("" if ok else
                                  ": widgets will not render (front end and kernel side must match); "
                                  "reinstall with `make` (pip install -c constraints.txt)")})
    out += _constraint_checks()
    return out


def _constraint_checks() -> list[dict]:
    pins = _CHECKOUT / "constraints.txt"
    if not pins.is_file():
        return []
    out = []
    for line in pins.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" not in line:
            continue
        name, want = (p.strip() for p in line.split("==", 1))
        have = _version(name)
        out.append({"check": f"constraints.txt pins {name}=={want}", "status": "ok" if have == want else "warn",
                    "detail": f"installed {have or 'nothing'}"})
    return out


def _database_checks(rules) -> list[dict]:
    """The database path, whether it is built, damaged or stale (the sources changed), and house rules."""
    from ruleslawyer.rulesdb.db import _staleness, _stored_meta  # the database's own freshness rule
    from ruleslawyer.rulesdb.paths import database_damage, database_state

    path = Path(rules.path)
    state = database_state(path)
    out = [{"check": "database", "status": "ok" if state in ("rules", "missing") else "error",
            "detail": f"{path} ({state})"}]
    if state == "rules":
        damage = database_damage(path)
        stale = _staleness(state, _stored_meta(path), rules.house_rules)
        out.append({"check": "database freshness", "status": "warn" if (damage or stale) else "ok",
                    "detail": damage or (f"stale: {stale}; the next query rebuilds it (or `ruleslawyer build`)"
                                         if stale else "up to date with the sources")})
    elif state == "missing":
        out.append({"check": "database freshness", "status": "warn",
                    "detail": "not built yet: the first query builds it (or `ruleslawyer build`)"})
    house = rules.house_rules
    if house is None:
        out.append({"check": "house rules", "status": "ok", "detail": "none"})
    else:
        files = sorted(p.name for p in Path(house).glob("*.md")) if Path(house).is_dir() else []
        out.append({"check": "house rules", "status": "ok" if files else "warn",
                    "detail": f"{house}: " + (", ".join(files) if files else "no .md files (or not a folder)")})
    return out


def _browser_checks() -> list[dict]:
    import subprocess

    if not CHROMIUM.exists():
        return [{"check": "browser for tests", "status": "warn",
                 "detail": f"{CHROMIUM} missing: browser tests skip (`make browser` installs it)"}]
    try:
        version = subprocess.run([str(CHROMIUM), "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        version = f"cannot run it: {exc}"
    out = [{"check": "browser for tests", "status": "ok", "detail": f"{CHROMIUM}: {version or 'version unknown'}"}]
    pw = _version("playwright")
    out.append({"check": "playwright", "status": "ok" if pw else "warn",
                "detail": pw or "not installed: browser tests skip (pip install --group test)"})
    return out


def doctor_checks(rules) -> list[dict]:
    """Every check: ``[{"check", "status" ("ok" | "warn" | "error"), "detail"}]``, widget stack first."""
    out = [{"check": "python", "status": "ok", "detail": f"{sys.version.split()[0]} ({sys.executable})"},
           {"check": "ruleslawyer", "status": "ok", "detail": _version("ruleslawyer") or "source checkout"}]
    return out + _widget_checks() + _database_checks(rules) + _ruleset_checks(rules) + _browser_checks()


def _ruleset_checks(rules) -> list[dict]:
    """``$RULESLAWYER_RULESET``, the default of every ``--ruleset`` filter: unset, or a ruleset of the
    database (an error naming the variable and the rulesets when it names none)."""
    from ruleslawyer.commands.db import RULESET_ENV, chosen_ruleset
    from ruleslawyer.errors import RulesError

    value = os.environ.get(RULESET_ENV)
    if not value:
        return [{"check": RULESET_ENV, "status": "ok", "detail": "not set: every ruleset"}]
    try:
        chosen = chosen_ruleset(rules)
    except RulesError as exc:
        return [{"check": RULESET_ENV, "status": "error", "detail": str(exc)}]
    return [{"check": RULESET_ENV, "status": "ok", "detail": f"{value!r}: " + (chosen or "every ruleset")}]


def _doctor(args) -> int:
    checks = doctor_checks(args.rules)
    failed = any(c["status"] == "error" for c in checks)
    if args.json:
        from ruleslawyer.commands.output import print_json

        print_json({"ok": not failed, "warnings": sum(c["status"] == "warn" for c in checks), "checks": checks})
    else:
        for c in checks:
            print(f"{c['status']:<5} {c['check']}: {c['detail']}")
    return 1 if failed else 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the panels as a Voila app (for a table or a class)",
                       description="Serve the app notebook through Voila; idle kernels of closed tabs are culled.")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for every machine on the network)")
    p.add_argument("--port", type=whole_arg, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--cull-idle-timeout", type=whole_arg, default=DEFAULT_CULL_IDLE_TIMEOUT, metavar="SECONDS",
                   help="shut down a kernel whose tab is closed after this many idle seconds "
                        f"(default {DEFAULT_CULL_IDLE_TIMEOUT}; 0: never)")
    p.add_argument("--cull-interval", type=whole_arg, default=DEFAULT_CULL_INTERVAL, metavar="SECONDS",
                   help=f"how often to look for such kernels (default {DEFAULT_CULL_INTERVAL})")
    p.add_argument("--dry-run", action="store_true", help="print the Voila command instead of running it")
    p.set_defaults(func=_app)

    p = sub.add_parser("doctor", help="check the widget stack, the database, house rules and the test browser")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(func=_doctor)
