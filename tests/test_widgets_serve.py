"""The no-delay kernel connection `make app` and `make lab` serve the panels with."""

from pathlib import Path

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from traitlets.utils.importstring import import_item

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
    assert "--Voila.kernel_websocket_connection_class=$(NODELAY)" in makefile
    assert "--ServerApp.kernel_websocket_connection_class=$(NODELAY)" in makefile


def test_connect_sets_tcp_nodelay_before_the_stock_connect(monkeypatch):
    calls = []
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: calls.append("stock") or "future")
    conn = NoDelayKernelConnection.__new__(NoDelayKernelConnection)
    handler = _Handler()
    monkeypatch.setattr(NoDelayKernelConnection, "websocket_handler", handler, raising=False)
    assert conn.connect() == "future"
    assert handler.nodelay is True and calls == ["stock"]
