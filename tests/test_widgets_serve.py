"""The no-delay kernel connection `make app` and `make lab` serve the panels with."""

from pathlib import Path

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from traitlets.utils.importstring import import_item

from ruleslawyer.commands.app import voila_command
from ruleslawyer.widgets.serve import CONNECTION_CLASS, NoDelayKernelConnection

ROOT = Path(__file__).resolve().parents[1]


class _Handler:
    def __init__(self):
        self.nodelay = None

    def set_nodelay(self, value):
        self.nodelay = value


def test_the_import_string_names_the_class_and_the_makefile_uses_it():
    assert import_item(CONNECTION_CLASS) is NoDelayKernelConnection
    assert issubclass(NoDelayKernelConnection, ZMQChannelsWebsocketConnection)
    makefile = (ROOT / "Makefile").read_text()
    assert f"NODELAY := {CONNECTION_CLASS}" in makefile
    assert "--ServerApp.kernel_websocket_connection_class=$(NODELAY)" in makefile  # make lab
    # make app runs `ruleslawyer app`, whose Voila command carries the class
    assert "$(VENV)/bin/ruleslawyer app --host $(HOST) --port $(PORT)" in makefile
    assert f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS}" in voila_command(Path("app.ipynb"))


def test_connect_sets_tcp_nodelay_before_the_stock_connect(monkeypatch):
    calls = []
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: calls.append("stock") or "future")
    conn = NoDelayKernelConnection.__new__(NoDelayKernelConnection)
    handler = _Handler()
    monkeypatch.setattr(NoDelayKernelConnection, "websocket_handler", handler, raising=False)
    assert conn.connect() == "future"
    assert handler.nodelay is True and calls == ["stock"]


# ---------------------------------------------------------------- ruleslawyer app / make app

def run_cli(capsys, *argv):
    """``ruleslawyer ARGV`` through the CLI's main() in this process: its exit status and what it wrote,
    as a finished process gives them (``returncode``, ``stdout``, ``stderr``)."""
    import subprocess

    from ruleslawyer.cli import main

    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["ruleslawyer", *argv], code, out.out, out.err)


def test_app_command_serves_voila_with_host_port_culling_and_the_callers_database(tmp_path, capsys):
    import shlex

    db = tmp_path / "class.db"
    out = run_cli(capsys, "--db", str(db), "app", "--host", "0.0.0.0", "--port", "9123", "--cull-idle-timeout", "30",
                  "--cull-interval", "5", "--dry-run")
    assert out.returncode == 0, out.stderr
    cmd = shlex.split(out.stdout)
    assert cmd[1:3] == ["-m", "voila"] and cmd[-1].endswith("app.ipynb")
    for arg in ("--Voila.ip=0.0.0.0", "--Voila.port=9123", "--Voila.port_retries=0",
                "--MappingKernelManager.cull_idle_timeout=30", "--MappingKernelManager.cull_interval=5",
                "--MappingKernelManager.cull_connected=False",
                f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS}"):
        assert arg in cmd, arg
    defaults = shlex.split(run_cli(capsys, "app", "--dry-run").stdout)
    assert "--Voila.ip=127.0.0.1" in defaults and "--Voila.port=8866" in defaults
    assert "--MappingKernelManager.cull_idle_timeout=600" in defaults


def test_make_app_passes_host_and_port():
    import subprocess

    out = subprocess.run(["make", "-n", "app", "HOST=0.0.0.0", "PORT=9124"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert "ruleslawyer app --host 0.0.0.0 --port 9124" in out.stdout


def test_app_command_refuses_a_bad_port_or_timeout_naming_the_option(capsys):
    out = run_cli(capsys, "app", "--port", "70000", "--dry-run")
    assert out.returncode == 1 and "port: must be a TCP port from 1 to 65535, got 70000" in out.stderr
    out = run_cli(capsys, "app", "--cull-interval", "0", "--dry-run")
    assert out.returncode == 1 and "cull-interval: must be 1 second or more" in out.stderr


def test_an_installed_kit_writes_its_own_app_notebook(tmp_path, monkeypatch):
    import json

    from ruleslawyer.commands import app as app_cmd

    monkeypatch.setattr(app_cmd, "_CHECKOUT", tmp_path / "nowhere")
    nb = app_cmd.app_notebook(tmp_path)
    cell = json.loads(nb.read_text())["cells"][0]
    # a one-cell notebook has no heading of its own, so the app shows its title
    assert cell["source"].startswith("from ruleslawyer.widgets.app import app\n\napp(title=True)")


# ---------------------------------------------------------------- ruleslawyer doctor

def test_doctor_reports_the_widget_stack_database_house_rules_and_browser(tmp_path, capsys):
    import json

    house = tmp_path / "house"
    house.mkdir()
    (house / "manners.md").write_text("x", encoding="utf-8")
    out = run_cli(capsys, "--db", str(tmp_path / "d.db"), "--house-rules", str(house), "doctor", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    checks = {c["check"]: c for c in report["checks"]}
    import ipywidgets

    assert checks["ipywidgets"]["detail"] == ipywidgets.__version__
    assert any(k.startswith("ipywidgets ") and "jupyterlab_widgets" in k for k in checks)
    assert checks["database"]["detail"] == f"{tmp_path / 'd.db'} (missing)"
    assert checks["database freshness"]["status"] == "warn"  # not built yet
    assert checks["house rules"]["detail"] == f"{house}: manners.md"
    assert "browser for tests" in checks and report["ok"] is True
    text = run_cli(capsys, "--db", str(tmp_path / "d.db"), "doctor").stdout
    assert "ok    ipywidgets: " in text and "warn  database freshness: not built yet" in text


def test_doctor_warns_on_an_ipywidgets_jupyterlab_widgets_mismatch(monkeypatch):
    from importlib import metadata

    from ruleslawyer.commands import app as app_cmd

    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "2.0.0" if name == "jupyterlab_widgets" else real(name))
    checks = {c["check"]: c for c in app_cmd._widget_checks()}
    pin = next(c for k, c in checks.items() if k.startswith("ipywidgets ") and "jupyterlab_widgets" in k)
    assert pin["status"] == "warn" and "jupyterlab_widgets 2.0.0" in pin["detail"]
    assert next(c for k, c in checks.items() if k.startswith("constraints.txt pins jupyterlab_widgets=="))["status"] == "warn"


def test_stopping_the_app_command_stops_its_server(tmp_path, shipped_db):
    """SIGTERM to ``ruleslawyer app`` reaches its Voila server: no server is left running."""
    import os
    import signal
    import socket
    import subprocess
    import time

    import sys

    import psutil

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = shipped_db(tmp_path / "app.db")  # built already: the command starts its server at once
    proc = subprocess.Popen([sys.executable, "-m", "ruleslawyer.cli", "--db", str(db), "app", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        children = []
        while time.monotonic() < deadline and not children:
            children = [c for c in psutil.Process(proc.pid).children(recursive=True) if "voila" in " ".join(c.cmdline())]
            time.sleep(0.2)
        assert children, "the app command did not start its Voila server"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        gone, alive = psutil.wait_procs(children, timeout=30)
        assert not alive, f"left running: {[c.pid for c in alive]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
