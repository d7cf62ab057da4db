# Two commands for a newcomer: `make demo` (set up, then answer a question) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: postgres setup demo playground test slow lint redis browser bench startup load clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

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
