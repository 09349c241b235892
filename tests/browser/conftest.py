"""Browser-test harness: JupyterLab and Voila serving a temp copy of the notebooks, driven by Debian
chromium through Playwright.

* The servers listen on 127.0.0.1 free ports and serve a temp copy of ``notebooks/`` (outputs
  stripped), so autosave never touches the repository. They use their own rules database, built with
  a house-rules file that carries an ``<img onerror>`` payload (the injection test searches for it),
  and a private Jupyter config dir (announcements off, no user settings or workspaces).
* The servers run as ``make app`` / ``make lab`` do: Voila with the command line of
  ``ruleslawyer app`` (:func:`ruleslawyer.commands.app.voila_command`), both with TCP_NODELAY on the
  kernel websocket (:mod:`ruleslawyer.widgets.serve`).
* Every request that does not go to 127.0.0.1 is aborted with ``context.route``.
* Screenshots go to ``test-artifacts/`` (gitignored).
* Without ``/usr/bin/chromium`` (or the ``playwright`` package) the tests skip; under ``CI=true`` they
  fail instead, so CI cannot go green without running them.
* What the session fixtures start (servers, browsers, pages) is stopped right after the last browser
  test of the session, not when the whole run ends: the tests that follow on the same worker need not
  share the machine with idle servers, nor the run wait for their shutdown at its end.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer.commands.app import voila_command  # noqa: E402 - as `make app` serves
from ruleslawyer.widgets.serve import CONNECTION_CLASS  # noqa: E402 - as `make lab` serves

from browserkit import (ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, HOUSE_RULE, NOTEBOOKS,  # noqa: E402
                     free_port, new_page as _new_page, require as _require, stop_group, wait_http)
import culling as _culling  # noqa: E402

#: Everything the session fixtures below started, stopped in reverse order by :func:`_stop_started`.
_STARTED = contextlib.ExitStack()
_HERE = Path(__file__).resolve().parent


def _stop_started() -> None:
    _STARTED.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    if nextitem is None or _HERE not in Path(nextitem.path).resolve().parents:
        later = [i for i in item.session.items if _HERE in Path(i.path).resolve().parents]
        if later and later[-1] is item:  # the session's last browser test: nothing here is needed again
            _stop_started()


def pytest_sessionfinish(session, exitstatus):
    _stop_started()  # a run stopped early (-x, Ctrl-C)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not CHROMIUM.exists():
        _require(str(CHROMIUM))
    try:
        import playwright  # noqa: F401
    except ImportError:
        _require("the playwright package (pip install -e '.[test]')")
    return str(CHROMIUM)


@pytest.fixture(scope="session")
def served(tmp_path_factory, chromium_path):
    """A temp tree: notebooks copy (outputs stripped), rules db with the house rule, jupyter dirs, env."""
    import nbformat

    base = tmp_path_factory.mktemp("browser")
    nbdir = base / "notebooks"
    nbdir.mkdir()
    for src in NOTEBOOKS.glob("*.ipynb"):
        nb = nbformat.read(src, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nb.metadata.pop("widgets", None)
        nbformat.write(nb, nbdir / src.name)
    house = base / "house"
    house.mkdir()
    (house / "manners.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
        "provenance: The browser tests' own table.\n---\n"
        f"# House Rules\n\n## Table Manners\n\n{HOUSE_RULE}\n", encoding="utf-8")
    config = base / "jupyter-config"
    (config / "labconfig").mkdir(parents=True)
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    env = dict(os.environ)
    env.update({
        "RULESLAWYER_DB": str(base / "rules.db"),
        "RULESLAWYER_HOUSE_RULES": str(house),
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTERLAB_SETTINGS_DIR": str(base / "lab-settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "lab-workspaces"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "PYTHONUNBUFFERED": "1",
    })
    # Build the database once, before any kernel starts.
    subprocess.run([sys.executable, "-m", "ruleslawyer.cli", "build"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    ARTIFACTS.mkdir(exist_ok=True)
    return {"base": base, "notebooks": nbdir, "env": env}


def _start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    out = open(log, "wb")
    return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="session")
def servers(served):
    """JupyterLab and Voila, started together (they boot in parallel) and stopped together."""
    lab_port, voila_port = free_port(), free_port()
    while voila_port == lab_port:
        voila_port = free_port()
    lab_log, voila_log = served["base"] / "lab.log", served["base"] / "voila.log"
    lab = _start([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
                  "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={lab_port}", "--ServerApp.port_retries=0",
                  "--IdentityProvider.token=", "--ServerApp.password=",
                  f"--ServerApp.root_dir={served['notebooks']}", "--LabApp.expose_app_in_browser=True",
                  "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                  f"--ServerApp.kernel_websocket_connection_class={CONNECTION_CLASS}"],
                 served["env"], lab_log)
    voila = _start(voila_command(served["notebooks"] / "app.ipynb", host="127.0.0.1", port=voila_port),
                   served["env"], voila_log)  # exactly as `ruleslawyer app` (and so `make app`) serves it
    _STARTED.callback(_stop_both, lab, voila)
    wait_http(f"http://127.0.0.1:{lab_port}/api", lab, lab_log)
    wait_http(f"http://127.0.0.1:{voila_port}/voila/static/", voila, voila_log)
    return {"lab": f"http://127.0.0.1:{lab_port}", "voila": f"http://127.0.0.1:{voila_port}"}


def _stop_both(*procs: subprocess.Popen) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        _stop(proc)


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    p = _STARTED.enter_context(sync_playwright())
    b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
    _STARTED.callback(b.close)
    return b


_KERNEL_IDLE = ("() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                " const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;"
                " return !!k && k.status === 'idle'; }")


@pytest.fixture(scope="session")
def culling(served, chromium_path):
    """The culling scenario (culling.py: ``ruleslawyer app`` with a short cull timeout, two tabs) under
    way in a thread of its own: a ``concurrent.futures.Future`` of what it saw. Most of it is waiting
    for the server's culler, so ``pages`` starts it as soon as the shared pages are up when a test of
    the session asks for it, and its waits overlap the tests that run meanwhile."""
    from concurrent.futures import ThreadPoolExecutor

    log = served["base"] / "culling-app.log"
    proc, port = _culling.start_app(served["env"], log)
    _STARTED.callback(stop_group, proc)  # `ruleslawyer app` and the Voila it started
    pool = ThreadPoolExecutor(1, thread_name_prefix="culling")
    _STARTED.callback(pool.shutdown, wait=True)  # the scenario ends on its own (its waits are bounded)
    return pool.submit(_culling.scenario, chromium_path, proc, port, log)


@pytest.fixture(scope="session")
def pages(browser, servers, request):
    """Both apps loading at once: JupyterLab with app.ipynb (all cells run, the app live in the output)
    and the Voila app (what ``make app`` serves). Once they show, the culling scenario and the dark
    Voila page start in the background if a test of this session needs them (fixtures ``culling``,
    ``dark_voila_loading``)."""
    out = {}
    for kind in ("lab", "voila"):
        blocked: list[str] = []
        context, page = _new_page(browser, blocked)
        page.blocked, page.kind = blocked, kind
        url = f"{servers['lab']}/lab/tree/app.ipynb" if kind == "lab" else servers["voila"] + "/"
        page.goto(url, wait_until="commit")  # do not wait: the other app loads meanwhile
        _STARTED.callback(context.close)
        out[kind] = page
    lab = out["lab"]
    lab.wait_for_function(_KERNEL_IDLE, timeout=60_000)
    lab.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    for page in out.values():
        page.locator(".rl-app").first.wait_for(state="visible", timeout=60_000)
    wanted = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    for name in ("culling", "dark_voila_loading"):  # begun now, they get on while the tests run
        if name in wanted:
            request.getfixturevalue(name)
    return out


@pytest.fixture(scope="session")
def dark_voila_loading(browser, servers):
    """The Voila app in JupyterLab's dark theme (``?theme=dark``), a page of its own, asked for and not
    waited for (its kernel starts and builds the app meanwhile); ``pages`` begins it when a test of the
    session needs ``dark_voila_page``."""
    context, page = _new_page(browser, [])
    _STARTED.callback(context.close)
    page.blocked, page.kind = [], "voila"
    page.goto(servers["voila"] + "/?theme=dark", wait_until="commit")
    return page


@pytest.fixture(scope="session")
def dark_voila_page(dark_voila_loading):
    """The dark-theme Voila app (:func:`dark_voila_loading`), shown."""
    dark_voila_loading.locator(".rl-app").first.wait_for(state="visible", timeout=60_000)
    return dark_voila_loading


@pytest.fixture(scope="session")
def lab_page(pages):
    return pages["lab"]


@pytest.fixture(scope="session")
def voila_page(pages):
    return pages["voila"]


@pytest.fixture(params=["lab", "voila"])
def app_page(request):
    """The app in JupyterLab, then in Voila."""
    return request.getfixturevalue(f"{request.param}_page")
