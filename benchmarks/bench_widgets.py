"""Widget click-to-rendered latency in Chromium (Voila), against a plain ipywidgets Button -> Label update
in the same page, clicked in turns.

Voila serves the page as ``make app`` does (the kit's kernel websocket connection with TCP_NODELAY,
:mod:`ruleslawyer.widgets.serve`), then once more with the stock connection for comparison. The page
holds three things: the Mastery exchange panel (scripted dice), the Trauma panel, and a
plain ``ipywidgets.Button`` whose handler sets a ``Label``'s value. Each sample is timed in the page
(``performance.now()`` from ``el.click()`` until a ``MutationObserver`` sees the awaited element):

* exchange: click "Resolve exchange" until ``.rl-outcome[data-attack=N]`` shows; the script alternates
  between ``attack: 1`` (d4 1 + WEA 2 = 3) and ``attack: 4 4 1; endurance: 2`` (11), so every click
  waits for an outcome not yet on show (the recipe of ``tests/browser/test_app_browser.py``);
* trauma: click "Replay" (the seed shown; Roll draws a fresh one) until ``.rl-outcome[data-roll=N]``
  shows, seeds alternating 1 (d100 18) and 7 (42);
* reference: click the plain button until the label reads the next count.

The browser settings (Debian chromium, its flags) come from ``tests/browser/browserkit.py``; every request
not to 127.0.0.1 is aborted. Without chromium or playwright the rows are skipped (no row, a message).
``BENCH_QUICK=1`` (the smoke test) serves the page once, as ``make app`` does (no stock-websocket rows),
and clicks one round after the warm-up.
"""

from __future__ import annotations

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
SAMPLES = 1 if QUICK else 15  # clicks per figure, after a warm-up click each
#: The servings measured: with the kit's TCP_NODELAY connection (as `make app`), then the stock one.
NODELAY = (True,) if QUICK else (True, False)

# Click `click`, resolve with the ms until `selector` matches (and, if given, its text equals `text`).
CLICK_TIMED = """([click, selector, text]) => new Promise((resolve, reject) => {
  const el = document.querySelector(click);
  if (!el) { reject(new Error('nothing to click: ' + click)); return; }
  const ok = () => { const t = document.querySelector(selector);
                     return !!t && (text === null || t.textContent.trim() === text); };
  const t0 = performance.now();
  const obs = new MutationObserver(() => { if (ok()) { obs.disconnect(); resolve(performance.now() - t0); } });
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  el.click();
  setTimeout(() => { obs.disconnect(); reject(new Error('timeout waiting for ' + selector)); }, 10000);
})"""

NOTEBOOK_CELLS = [
    """import ipywidgets as w
from IPython.display import display
from ruleslawyer.widgets.exchange_mastery import MasteryExchangePanel
from ruleslawyer.widgets.trauma import TraumaPanel

plain = w.Button(description="Plain button")
plain.add_class("bench-plain")
label = w.Label("0")
label.add_class("bench-label")
plain.on_click(lambda _b: setattr(label, "value", str(int(label.value) + 1)))
exchange = MasteryExchangePanel()
exchange.load(script="attack: 1")
trauma = TraumaPanel(seed=1)
display(w.HBox([plain, label]), exchange, trauma)""",
]


def _browserkit():
    """tests/browser/browserkit.py (the browser tests' settings and server helpers), loaded under
    another module name so it cannot shadow this folder's modules."""
    spec = importlib.util.spec_from_file_location("rl_browserkit", ROOT / "tests" / "browser" / "browserkit.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _notebook(folder: Path) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in NOTEBOOK_CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "latency.ipynb"
    nbformat.write(nb, path)
    return path


def _fill(page, selector: str, text: str) -> None:
    box = page.locator(selector).first
    box.fill(text)
    box.press("Tab")
    page.wait_for_timeout(50)  # let the new value reach the kernel before the click


def measure(page) -> dict[str, list[float]]:
    """Click in turns: plain button, exchange, plain button, trauma, ... -> samples in ms per figure."""
    out: dict[str, list[float]] = {"plain": [], "exchange": [], "trauma": []}
    count = [int(page.locator(".bench-label").first.inner_text().strip() or 0)]

    def plain():
        count[0] += 1
        return page.evaluate(CLICK_TIMED, ["button.bench-plain", ".bench-label", str(count[0])])

    scripts = [("attack: 4 4 1; endurance: 2", 11), ("attack: 1", 3)]
    seeds = [(7, 42), (1, 18)]
    for i in range(SAMPLES + 1):  # the first round is the warm-up
        script, total = scripts[i % 2]
        seed, face = seeds[i % 2]
        page.wait_for_timeout(100)  # the kernel idle before each plain click, as before each panel click
        t_plain = plain()
        _fill(page, ".rl-mastery-exchange-panel .rl-script input", script)
        t_ex = page.evaluate(CLICK_TIMED, [".rl-mastery-exchange-panel button.rl-run",
                                           f'.rl-mastery-exchange-panel .rl-outcome[data-attack="{total}"]', None])
        page.wait_for_timeout(100)
        t_plain2 = plain()
        _fill(page, ".rl-trauma-panel .rl-seed input", str(seed))
        t_tr = page.evaluate(CLICK_TIMED, [".rl-trauma-panel button.rl-replay",
                                           f'.rl-trauma-panel .rl-outcome[data-roll="{face}"]', None])
        if i:
            out["plain"] += [t_plain, t_plain2]
            out["exchange"].append(t_ex)
            out["trauma"].append(t_tr)
    return out


def _session(chromium, args, tmp: Path, env: dict, nb: Path, nodelay: bool) -> tuple[dict[str, list[float]], float]:
    """Serve ``nb`` with Voila, open it in chromium, :func:`measure`; -> (samples, page load seconds).

    ``nodelay``: serve as ``make app`` does, with the kit's kernel websocket connection
    (:data:`ruleslawyer.widgets.serve.CONNECTION_CLASS`, TCP_NODELAY); else the stock connection.
    """
    from playwright.sync_api import sync_playwright

    from ruleslawyer.widgets.serve import CONNECTION_CLASS

    port = _browserkit().free_port()
    log = tmp / f"voila{'-nodelay' if nodelay else '-stock'}.log"
    extra = [f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS}"] if nodelay else []
    with open(log, "wb") as out:
        voila = subprocess.Popen([sys.executable, "-m", "voila", "--no-browser", "--Voila.ip=127.0.0.1",
                                  f"--Voila.port={port}", "--Voila.port_retries=0", *extra, str(nb)],
                                 cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _browserkit().wait_http(f"http://127.0.0.1:{port}/voila/static/", voila, log, timeout=90.0)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium), args=args, headless=True)
            try:
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                context.route("**/*", lambda route: route.continue_()
                              if urlparse(route.request.url).hostname == "127.0.0.1" else route.abort())
                page = context.new_page()
                page.set_default_timeout(90_000)
                t0 = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/", wait_until="commit")
                page.locator(".rl-trauma-panel").first.wait_for(state="visible")
                page.locator(".bench-label").first.wait_for(state="visible")
                load_s = time.perf_counter() - t0
                return measure(page), load_s
            finally:
                browser.close()
    finally:
        voila.terminate()
        try:
            voila.wait(10)
        except subprocess.TimeoutExpired:
            voila.kill()
            voila.wait(5)


def _p90(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.9 * len(xs))) - 1)]


def run() -> list[Row]:
    kit = _browserkit()
    chromium, args = kit.CHROMIUM, kit.CHROMIUM_ARGS
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("  bench_widgets: skipped (no playwright package)")
        return []
    if not Path(chromium).exists():
        print(f"  bench_widgets: skipped (no {chromium}; `make browser`)")
        return []
    tmp = scratch("rl-bench-voila-")
    env = {**os.environ, "RULESLAWYER_DB": str(tmp / "rules.db"), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
           "PYTHONUNBUFFERED": "1"}
    env.pop("RULESLAWYER_HOUSE_RULES", None)
    subprocess.run([sys.executable, "-m", "ruleslawyer.cli", "build"], env=env, check=True, stdout=subprocess.DEVNULL)
    nb = _notebook(tmp)
    rows = []
    for nodelay in NODELAY:
        samples, load_s = _session(chromium, args, tmp, env, nb, nodelay)
        plain = statistics.median(samples["plain"])
        where = ("Voila as `make app` serves it (kernel websocket with TCP_NODELAY, ruleslawyer.widgets.serve)"
                 if nodelay else "Voila with the stock kernel websocket (Nagle on; diagnostic)")
        note = (f"{where}, headless Debian chromium; medians of {len(samples['exchange'])} clicks after a "
                f"warm-up click, in turns with {len(samples['plain'])} plain-button clicks; p90 {{p90:.0f}} ms; "
                f"the page loaded in {load_s:.1f} s")
        suffix = "" if nodelay else ", stock websocket"
        rows += [
            Row(f"Mastery exchange panel: click → outcome rendered (Chromium, Voila{suffix})",
                statistics.median(samples["exchange"]), "ms", "plain ipywidgets Button → Label, same page", plain,
                goal="<= 150 ms", note=note.format(p90=_p90(samples["exchange"]))),
            Row(f"Trauma panel: click → row rendered (Chromium, Voila{suffix})",
                statistics.median(samples["trauma"]), "ms", "plain ipywidgets Button → Label, same page", plain,
                goal="<= 150 ms", note=note.format(p90=_p90(samples["trauma"]))),
        ]
    return rows


if __name__ == "__main__":
    for r in run():
        print(r)
