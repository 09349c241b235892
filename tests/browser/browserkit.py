"""Constants and helpers shared by the browser tests and their fixtures."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path(os.environ.get("RULESLAWYER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage",
                 # every request but to the loopback goes to a proxy that is not there: nothing leaves
                 # the machine, and no request waits on a route handler (intercepting every request
                 # costs the browser, its driver and Python)
                 "--proxy-server=127.0.0.1:9"]
XSS_MARK = "__rlxss"
HOUSE_RULE = f"Never trust <img src=x onerror={XSS_MARK}=1> in a house rule."
HOUSE_ID = "house/extras/table-manners#1"
STARTUP_TIMEOUT = 60.0


def require(what: str) -> None:
    """Skip (or, under ``CI=true``, fail) because ``what`` is missing."""
    import pytest

    msg = f"browser tests need {what}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg + " (CI=true: a missing browser fails the run; `make browser` installs it)")
    pytest.skip(msg + "; run `make browser`")


def shot(page, name: str, full_page: bool = False) -> None:
    """Save a screenshot as ``test-artifacts/<lab|voila>-<name>.png`` (the viewport, or the whole page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{page.kind}-{name}.png"), full_page=full_page)


def free_port() -> int:
    """A free TCP port on 127.0.0.1, drawn at random from below the system's ephemeral range: between
    this check and the server binding it, a kernel or client binding port 0 (which takes ephemeral
    ports) cannot take it ("The port ... is already in use" from a server started with no retries)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 0
    for port in (random.randrange(10_000, low) for _ in range(50)) if low > 11_000 else ():
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float = STARTUP_TIMEOUT) -> None:
    """Poll ``url`` until it answers with any HTTP status (the server is up).

    Raises:
        RuntimeError: the server process exited, or ``url`` did not answer within ``timeout`` s
            (the message ends with the tail of ``log``).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s:\n{log.read_text()[-3000:]}")


# JS: the lowest text contrast (WCAG 2) among the visible elements matching `selector` (and their
# descendants) that hold text of their own. Each text colour is alpha-blended over its background,
# the element's and its ancestors' background colours composited up to the nearest opaque one (the
# page's white if none is). Returns {min, worst: [{ratio, color, background, tag, cls, text}], n}.
CONTRAST_JS = """(selector) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, bottom) => { const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]); };
  const background = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (!el.getClientRects().length) continue;
      const own = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).map(n => n.textContent.trim()).join(' ');
      if (!own) continue;
      const st = getComputedStyle(el); if (st.visibility === 'hidden' || Number(st.opacity) === 0) continue;
      const bg = background(el); const fg = over(parse(st.color), bg);
      const [a, b] = [lum(fg), lum(bg)]; const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      out.push({ratio: Math.round(ratio * 100) / 100, color: st.color, background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ')',
                tag: el.tagName, cls: el.className || '', text: own.slice(0, 60)});
    }
  }
  out.sort((x, y) => x.ratio - y.ratio);
  return {min: out.length ? out[0].ratio : null, worst: out.slice(0, 5), n: out.length};
}"""

# JS: visible elements matching `selector` whose content is wider than their box (clipped or
# scrolled sideways): [{cls, scrollWidth, clientWidth}].
CLIPPED_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
  .map(e => ({cls: String(e.className).slice(0, 80), text: (e.innerText || '').slice(0, 40), scrollWidth: e.scrollWidth, clientWidth: e.clientWidth}))"""


def stop_group(proc: subprocess.Popen, wait: float = 15.0) -> None:
    """Stop ``proc`` and everything it started (it was started in a session of its own, e.g.
    ``ruleslawyer app`` and its Voila): SIGTERM to the whole process group, then SIGKILL after
    ``wait`` seconds."""
    for sig, timeout in ((signal.SIGTERM, wait), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout)
            return
        except subprocess.TimeoutExpired:
            continue


#: JS: resolves once the page has rendered ``n`` more frames (Lumino and the widgets lay out on
#: animation frames, so a resize or a tab switch has been laid out and painted by then).
FRAMES_JS = """(n) => new Promise(done => { const step = (k) => k ? requestAnimationFrame(() => step(k - 1)) : done(true);
  step(n); })"""


def resized(page, width: int, height: int) -> None:
    """Set the viewport to ``width`` x ``height`` and wait four frames for the app to lay itself out
    again (in place of a fixed pause)."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(FRAMES_JS, 4)


def new_page(browser, blocked: list[str], width: int = 1400, height: int = 1000):
    """A new browser context and page that records the URL of every request not to 127.0.0.1 in
    ``blocked`` (``CHROMIUM_ARGS`` send it to a proxy that is not there, so it fails), records dialogs in
    ``page.dialogs`` and waits up to 30 s by default."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.on("request", lambda request: None if urlparse(request.url).hostname in ("127.0.0.1", None)
               else blocked.append(request.url))
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.set_default_timeout(30_000)
    return context, page


def tab(page, title: str) -> None:
    """Open the app's tab titled ``title``."""
    import re

    page.locator(".rl-app .lm-TabBar-tab", has_text=re.compile(f"^{re.escape(title)}$")).first.click(force=True)


def use_script(panel, script: str) -> None:
    """Scripted dice: the mode, then the script. ipywidgets holds a model's state update back while the
    kernel is busy with its last one but sends a button click at once, so wait for the script to be
    in before anything is clicked."""
    panel.locator(".widget-toggle-button", has_text="Scripted dice").first.click()
    box = panel.locator(".rl-script input")
    box.fill(script)
    box.press("Tab")
    panel.page.wait_for_timeout(150)


def eventually(check, timeout: float = 10.0, interval: float = 0.05):
    """Run ``check`` (a function that asserts) until it passes or ``timeout`` seconds go by, then once more
    to raise its own error. Each widget draws in its own turn, so a value read right after waiting on another
    widget may still be the old one; this reads it until it settles. Returns what ``check`` returns."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            return check()
        except AssertionError:
            time.sleep(interval)
    return check()
