# ruleslawyer: two commands for users (`make lab`, `make test`); the rest are their parts.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
# kernel websocket with TCP_NODELAY: panel clicks render in ~6 ms instead of ~50 (ruleslawyer/widgets/serve.py)
NODELAY := ruleslawyer.widgets.serve.NoDelayKernelConnection

.PHONY: lab app test test-slow strip-notebooks bench db browser clean

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[lab]' --group test
	@# bytecode of the standard library, the packages and the kit, compiled here in parallel (~12 s) into
	@# the cache every process of `make test` reads (TEST_ENV), rather than by each process of a first run
	@# (the standard library's own test files of broken syntax fail to compile, as they should: no error)
	@$(TEST_ENV) $(PY) -m compileall -q -j 0 $$($(PY) -c 'import sysconfig as s; print(s.get_path("stdlib"), s.get_path("purelib"))') src >/dev/null 2>&1 || true
	@touch $(STAMP)

## db: build the rules database (also built on first use)
db: $(STAMP)
	$(VENV)/bin/ruleslawyer build

## lab: open the kit in JupyterLab on notebooks/00-start-here.ipynb
lab: db
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) --ServerApp.kernel_websocket_connection_class=$(NODELAY) notebooks/00-start-here.ipynb

## app: serve the panels as a Voila app on http://$(HOST):$(PORT) (HOST=0.0.0.0 for a class on the network);
##      kernels of closed tabs are shut down after CULL_IDLE idle seconds (see `ruleslawyer app --help`)
HOST ?= 127.0.0.1
PORT ?= 8866
CULL_IDLE ?= 600
CULL_INTERVAL ?= 60
app: db
	$(VENV)/bin/ruleslawyer app --host $(HOST) --port $(PORT) --cull-idle-timeout $(CULL_IDLE) \
	  --cull-interval $(CULL_INTERVAL)

## browser: Debian chromium for the browser tests (installed when missing and we can)
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "note: /usr/bin/chromium is missing and cannot be installed without root; browser tests will be skipped"; fi; \
	fi

## test: the suite CI runs (unit, property, exact odds, browser, and the notebooks under strict nbval:
## every saved output must match a fresh run, after notebooks/nbval-sanitize.cfg); not the slow set.
## In parallel, one worker more than the cores (XDIST=N to choose; XDIST=0 runs it in one process): the
## browser tests' worker spends much of its time waiting on Chromium, the servers and the kernels, and the
## extra worker keeps the cores busy meanwhile (on 2 cores, 3 workers: about 100 s against 109 s with 2).
## The tests of a file, the cells of a notebook and the files sharing the browser tests' servers stay on
## one worker, in order (conftest.py), and each worker has its own rules database.
XDIST ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PARALLEL := -n $(XDIST) --dist loadfile --no-loadscope-reorder
## The run's Python processes (workers, notebook kernels, servers, the commands under test) keep their
## bytecode caches in $(VENV)/pycache, out of the source tree, even where PYTHONDONTWRITEBYTECODE is set:
## without them every process compiles the kit's modules (and pytest rewrites every test module) anew.
TEST_ENV := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache
test: $(STAMP) browser
	$(TEST_ENV) $(PY) -m pytest tests notebooks --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg \
	  -q -m "not slow" $(PARALLEL)

## test-slow: only the tests marked slow (seeded Monte Carlo runs of whole engines, the parried Mythras
## exchange enumerated face by face, the quick runs of the benchmarks that drive a browser of their own)
test-slow: $(STAMP) browser
	$(TEST_ENV) $(PY) -m pytest tests -q -m slow $(PARALLEL)

## strip-notebooks: drop saved widget state and UI metadata from notebooks/ (outputs stay; after
## re-executing them: jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb)
strip-notebooks: $(STAMP)
	$(PY) tests/test_notebooks_clean.py --strip notebooks/*.ipynb

## bench: run benchmarks/ and write BENCHMARKS.md
bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
