# Two commands for a newcomer: `make demo` (set up, then answer a question) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: setup demo test lint bench load clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/mincards ask "qwen 2.5 72b lora 8k?"
	@echo
	$(BIN)/mincards ask "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python bench/questions.py

load: setup
	$(BIN)/python bench/load.py --rate 100 --seconds 60

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
