"""The app served to a class: 20 concurrent sessions of ``ruleslawyer app`` (Voila) on this machine.

One ``ruleslawyer app`` server (the command ``make app`` runs: Voila, TCP_NODELAY kernel websocket,
idle-kernel culling) and one headless Debian chromium with ``SESSIONS`` browser contexts, each its own
tab and so its own kernel, opened in groups of ``ARRIVING`` as a class arrives (Playwright's async
API). Then, with every session open:

* memory per session: the resident set (RSS) of every kernel process the server started, summed and
  divided by the sessions; the reference is a bare ipykernel started in the same run
  (``jupyter_client.KernelManager``, no notebook), so the ratio is what the app costs over Python and
  a kernel;
* click p95: every session clicks Roll on the Tables tab ``CLICKS`` times, all sessions at once; a
  click is timed in its page from ``el.click()`` until the seed shown in the status line changes
  (Roll draws a fresh seed, so every click waits for its own new result). The reference is the p95
  of the same clicks from one session alone, before the others open.

Without chromium or playwright the rows are skipped (no row, a message). ``BENCH_QUICK=1`` (the
smoke test) opens one session (one page load, one kernel) with one click after the warm-up, alone and
"under load" alike, and does not wait for the kernel to settle. Run
alone: ``.venv/bin/python benchmarks/bench_app_load.py`` (prints the rows; ``make bench`` runs it with
the others).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from harness import QUICK, Row, scratch

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = 1 if QUICK else 20
CLICKS = 1 if QUICK else 10  # per session, after one warm-up click
SETTLE_S = 0 if QUICK else 2  # seconds every session idles before the memory is read and the clicks begin
ARRIVING = 4  # tabs opened at once: the class arrives in groups of four (2 cores start 4 kernels at a time)

# Click `click`; resolve with the ms until the text of `watch` differs from what it was before.
CLICK_UNTIL_CHANGED = """([click, watch]) => new Promise((resolve, reject) => {
  const el = document.querySelector(click);
  if (!el) { reject(new Error('nothing to click: ' + click)); return; }
  const text = () => { const w = document.querySelector(watch); return w ? w.textContent : null; };
  const before = text();
  const t0 = performance.now();
  const obs = new MutationObserver(() => { const now = text();
    if (now !== null && now !== before) { obs.disconnect(); resolve(performance.now() - t0); } });
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  el.click();
  setTimeout(() => { obs.disconnect(); reject(new Error('timeout waiting for ' + watch)); }, 60000);
})"""
ROLL = ".rl-table-panel button.rl-roll"
SEED_SHOWN = ".rl-table-panel .rl-seed-used"


def _browserkit():
    """tests/browser/browserkit.py, loaded under another module name so it cannot shadow this folder's."""
    spec = importlib.util.spec_from_file_location("rl_browserkit", ROOT / "tests" / "browser" / "browserkit.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)]


def kernel_rss(server: subprocess.Popen) -> list[int]:
    """RSS in bytes of each kernel process under ``server``."""
    import psutil

    out = []
    for child in psutil.Process(server.pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                out.append(child.memory_info().rss)
        except psutil.NoSuchProcess:
            pass
    return out


def bare_kernel_rss() -> int:
    """RSS in bytes of a bare ipykernel (started, ready, nothing run), the memory reference."""
    import psutil
    from jupyter_client import KernelManager

    km = KernelManager(kernel_name="python3")
    km.start_kernel(stderr=subprocess.DEVNULL)  # its "running over TCP" warning is not ours to print
    try:
        client = km.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        client.stop_channels()
        return psutil.Process(km.provisioner.process.pid).memory_info().rss
    finally:
        km.shutdown_kernel(now=True)


async def _open(browser, url: str):
    context = await browser.new_context(viewport={"width": 1000, "height": 900})
    await context.route("**/*", lambda route: route.continue_()
                        if urlparse(route.request.url).hostname == "127.0.0.1" else route.abort())
    page = await context.new_page()
    page.set_default_timeout(180_000)
    await page.goto(url, wait_until="commit")
    await page.locator(".rl-app").first.wait_for(state="visible")
    await page.locator(".rl-app .lm-TabBar-tab", has_text="Tables").first.click()
    await page.locator(ROLL).first.wait_for(state="visible")
    return page


async def _clicks(page, n: int) -> list[float]:
    await page.evaluate(CLICK_UNTIL_CHANGED, [ROLL, SEED_SHOWN])  # warm-up
    return [await page.evaluate(CLICK_UNTIL_CHANGED, [ROLL, SEED_SHOWN]) for _ in range(n)]


async def _load_test(chromium: str, args: list[str], url: str, server: subprocess.Popen) -> dict:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, args=args, headless=True)
        try:
            first = await _open(browser, url)
            alone = await _clicks(first, CLICKS)
            t0 = time.perf_counter()
            pages = [first]
            while len(pages) < SESSIONS:
                n = min(ARRIVING, SESSIONS - len(pages))
                pages += await asyncio.gather(*(_open(browser, url) for _ in range(n)))
            opened_s = time.perf_counter() - t0
            await asyncio.sleep(SETTLE_S)  # let every kernel settle after building the app
            rss = kernel_rss(server)
            loaded = await asyncio.gather(*(_clicks(page, CLICKS) for page in pages))
            return {"alone": alone, "loaded": [t for ts in loaded for t in ts], "rss": rss, "opened_s": opened_s}
        finally:
            await browser.close()


def _serve(tmp: Path, env: dict) -> tuple[subprocess.Popen, str, Path]:
    port = _browserkit().free_port()
    log = tmp / "app.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "ruleslawyer.cli", "app", "--host", "127.0.0.1",
                                   "--port", str(port)], cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    _browserkit().wait_http(f"http://127.0.0.1:{port}/voila/static/", server, log, timeout=90.0)
    return server, f"http://127.0.0.1:{port}/", log


def run() -> list[Row]:
    kit = _browserkit()
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("  bench_app_load: skipped (no playwright package)")
        return []
    if not Path(kit.CHROMIUM).exists():
        print(f"  bench_app_load: skipped (no {kit.CHROMIUM}; `make browser`)")
        return []
    tmp = scratch("rl-bench-load-")
    env = {**os.environ, "RULESLAWYER_DB": str(tmp / "rules.db"), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
           "PYTHONUNBUFFERED": "1"}
    env.pop("RULESLAWYER_HOUSE_RULES", None)
    subprocess.run([sys.executable, "-m", "ruleslawyer.cli", "build"], env=env, check=True, stdout=subprocess.DEVNULL)
    bare = bare_kernel_rss()
    server, url, log = _serve(tmp, env)
    try:
        got = asyncio.run(_load_test(str(kit.CHROMIUM), kit.CHROMIUM_ARGS, url, server))
    except Exception:
        print(log.read_text()[-4000:], file=sys.stderr)
        raise
    finally:  # the whole process group: `ruleslawyer app` and the Voila it started
        kit.stop_group(server, wait=30)
    mib = 1024 * 1024
    per_session = statistics.mean(got["rss"]) / mib
    note = (f"{len(got['rss'])} kernels for {SESSIONS} sessions, {sum(got['rss']) / mib:,.0f} MiB in all; "
            f"the {SESSIONS} tabs opened in {got['opened_s']:.1f} s; {os.cpu_count()} cores")
    return [
        Row(f"App for a class: kernel memory per session ({SESSIONS} sessions, RSS)", per_session, "MiB",
            "a bare ipykernel (no notebook)", bare / mib, note=note),
        Row(f"App for a class: click p95 with {SESSIONS} sessions clicking at once (Tables: Roll → new seed shown)",
            _p95(got["loaded"]), "ms", "the same clicks from one session alone", _p95(got["alone"]),
            note=f"{len(got['loaded'])} clicks, median {statistics.median(got['loaded']):.0f} ms under load; "
                 f"alone: median {statistics.median(got['alone']):.0f} ms over {len(got['alone'])} clicks"),
    ]


if __name__ == "__main__":
    for r in run():
        print(r)
