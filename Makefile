# Two commands for a newcomer: `make demo` (set up, then answer a question) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

.PHONY: postgres setup demo playground test slow lint redis browser bench startup load clean \
	constraints floors

# The versions the suite last passed with (constraints.txt), never whatever is newest today.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# Renew constraints.txt: the newest versions pyproject.toml allows, in a fresh venv, kept only
# when the whole suite passes with them.
constraints: redis browser postgres
	rm -rf build/newest && $(PYTHON) -m venv build/newest
	build/newest/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	build/newest/bin/python -m pytest
	{ sed -n '1,2p' constraints.txt; build/newest/bin/pip freeze --exclude-editable \
	  --disable-pip-version-check | grep -v '^mincards'; } > build/constraints.txt
	mv build/constraints.txt constraints.txt
	@echo "constraints.txt renewed: review git diff constraints.txt, then make setup"

# The floors: the oldest versions pyproject.toml allows (tools/floors.py), in a venv of their
# own, and the whole suite. A floor that fails is raised in pyproject.toml.
floors: redis browser postgres
	mkdir -p build && $(PYTHON) tools/floors.py > build/floors.txt
	rm -rf build/floors && $(PYTHON) -m venv build/floors
	build/floors/bin/pip install --quiet --disable-pip-version-check -c build/floors.txt -e '.[dev]'
	build/floors/bin/python -m pytest

# Bytecode compiled as pip compiles a wheel's: an editable install has none, and
# PYTHONDONTWRITEBYTECODE (set on some machines) keeps Python from writing it itself.
setup: $(STAMP)
	@$(BIN)/python -m compileall -q bot handlers playground src >/dev/null
	@# The installed layout for mypy (pyproject.toml's package-dir, as links under build/).
	@mkdir -p build/typecheck/mincards && \
	  for f in __init__.py __main__.py; do ln -sfn ../../../src/mincards/$$f build/typecheck/mincards/$$f; done && \
	  for d in bot handlers playground data; do ln -sfn ../../../$$d build/typecheck/mincards/$$d; done

demo: setup
	$(BIN)/mincards ask "qwen 2.5 72b lora 8k?"
	@echo
	$(BIN)/mincards ask "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡"
	@echo
	$(BIN)/mincards ask --short "DeepSeek-R1-Distill-Qwen-32B lora"
	$(BIN)/mincards ask --short "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k tokens, 3 epochs at TPS 1800?"
	@echo
	$(BIN)/mincards estimate phi-4
	@echo
	@echo "Try the Slack app without a workspace: make playground (then open the page it prints)"

# The real app against a local Slack stand-in, and a page that plays Slack's client.
playground: setup
	$(BIN)/mincards playground

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# The tests start a real redis-server; install Debian's when it is missing and we can.
redis:
	@command -v redis-server >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	  { apt-get -o DPkg::Lock::Timeout=600 install -y -qq redis-server >/dev/null 2>&1 || \
	    { apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq redis-server >/dev/null; }; }; } || \
	  echo "redis-server is missing: install it (apt-get install redis-server) for the tests"

# One test draws every reply in a real headless Chromium at phone width; install Debian's.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && \
	  { apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null; }; }; } || \
	  echo "chromium is missing: install it (apt-get install chromium) for the tests"

# The database tests start a real PostgreSQL server; install Debian's when it is missing.
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && \
	  { apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql >/dev/null 2>&1 || \
	    { apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql >/dev/null; }; }; } || \
	  echo "postgresql is missing: install it (apt-get install postgresql) for the tests"

test: lint redis browser postgres
	$(BIN)/python -m pytest

# The long probes the default suite keeps short versions of (minutes, not seconds).
slow: setup redis
	$(BIN)/python -m pytest -m slow

bench: setup
	$(BIN)/python bench/questions.py

startup: setup
	$(BIN)/python bench/startup.py

load: setup
	$(BIN)/python bench/load.py --rate 300 --seconds 30 --slack-latency 0.3

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
