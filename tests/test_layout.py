"""The layout is the pipeline: imports run one way, from the source, and only under `mincards`.

Every import statement of every module is read with `ast` (those inside functions and under
TYPE_CHECKING too), so a lazy import cannot hide a wrong direction or a cycle.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.process_exit import run_to_exit

# Which part of mincards each part may import. A part is a stage folder of bot/, one of the
# modules every stage shares, the command line, or the Slack adapters.
COMMON = {"errors", "language", "shallow_json"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "language": set(),
    "shallow_json": set(),
    "facts": {"data"},
    "reading": {"facts"},
    "estimating": {"facts"},
    "answering": {"facts", "reading", "estimating"},
    "replies": {"facts", "reading", "answering", "estimating"},
    "importing": {"facts", "reading", "estimating"},
    "handlers": {"facts", "reading", "answering", "replies", "estimating"},
    "cli": {"facts", "reading", "answering", "replies", "importing", "handlers", "estimating",
            "playground"},
    # Slack's side, played locally: it starts the app as a process and reads only the facts.
    "playground": {"facts"},
    "package": {"cli"},  # src/mincards/__init__.py and __main__.py
}
STAGES = ("facts", "reading", "estimating", "answering", "replies", "importing")
SLACK = ("slack_bolt", "slack_sdk", "aiohttp", "gunicorn", "redis")
BARE = ("bot", "handlers", "mincards_data", "playground")


# Where each installed name's files live in the repository (pyproject.toml's package-dir).
FOLDERS = {"mincards": ROOT / "src" / "mincards", "mincards.bot": ROOT / "bot",
           "mincards.handlers": ROOT / "handlers", "mincards.playground": ROOT / "playground",
           "mincards.data": ROOT / "data"}


def modules() -> dict[str, Path]:
    """Every module of the package, by the name it is imported as, from its mapped folders."""
    found: dict[str, Path] = {}
    for name, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((name, *parts))] = path
    return found


def test_no_folder_at_the_root_shadows_the_installed_package() -> None:
    """Whatever runs with the checkout's root first on sys.path (`python -m mincards` there,
    Slack CLI's start hook running app.py) must import the installed `mincards`."""
    assert not (ROOT / "mincards").exists()
    assert not (ROOT / "mincards.py").exists()


def test_the_package_maps_the_folders_without_links() -> None:
    """pyproject.toml maps the top-level folders into `mincards`; the tree holds no links."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name, folder in FOLDERS.items():
        assert f'"{name}" = "{folder.relative_to(ROOT).as_posix()}"' in text
    links = [p for folder in FOLDERS.values() for p in folder.rglob("*") if p.is_symlink()]
    assert links == [] and not any(
        p.is_symlink() for p in FOLDERS["mincards"].iterdir())


def imported(path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(module, line) for every import in a file; `from p import m` counts as p.m when m is a
    module."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}:{node.lineno}: a relative import"
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                yield (sub if sub in known else node.module), node.lineno


def part(module: str) -> str:
    """The part of the layout a mincards module belongs to."""
    parts = module.split(".")
    if parts[1:2] == ["handlers"]:
        return "handlers"
    if parts[1:2] == ["playground"]:
        return "playground"
    if parts[1:2] == ["data"]:
        return "data"
    if parts[1:2] == ["bot"] and len(parts) > 2:
        return parts[2]  # a stage folder, or errors / language / cli
    return "package"  # mincards, mincards.bot itself, mincards.__main__


def test_every_module_sits_in_a_known_part() -> None:
    parts = {part(m) for m in modules()}
    assert parts <= set(ALLOWED) | {"data"}, parts - set(ALLOWED)
    assert set(STAGES) | {"handlers", "cli"} <= parts
    assert len(modules()) >= 60


@pytest.mark.parametrize("stage", [*STAGES, "handlers"])
def test_each_stage_says_what_it_takes_gives_and_may_import(stage: str) -> None:
    folder = ROOT / ("handlers" if stage == "handlers" else f"bot/{stage}")
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
    assert doc and "import" in doc.lower(), f"{folder}/__init__.py needs a docstring"


def test_imports_run_one_way() -> None:
    known = modules()
    wrong = []
    for module, path in known.items():
        here = part(module)
        for name, line in imported(path, known):
            if not name.startswith("mincards") or name in ("mincards.bot", "mincards"):
                continue
            there = part(name)
            if there != here and there not in ALLOWED[here] | COMMON:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {name} "
                             f"({there})")
    assert not wrong, "\n".join(wrong)


def test_the_core_never_imports_slack() -> None:
    known = modules()
    for module, path in known.items():
        if part(module) in ("handlers", "cli", "playground"):
            continue  # cli imports the Slack side only for `serve` and `playground`
        for name, line in imported(path, known):
            assert name.split(".")[0] not in SLACK, f"{path}:{line} imports {name}"


def test_no_module_imports_itself_round_a_cycle() -> None:
    known = modules()
    graph = {m: {n for n, _ in imported(p, known) if n in known and n != m}
             for m, p in known.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt):], nxt] if nxt in path else [module, nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def python_files() -> Iterator[Path]:
    for folder in ("bot", "handlers", "playground", "src", "tests", "tools", "bench"):
        yield from (ROOT / folder).rglob("*.py")
    yield ROOT / "app.py"


def test_nothing_imports_the_bare_folder_names() -> None:
    bare = []
    for path in python_files():
        for name, line in imported(path, {}):
            if name.split(".")[0] in BARE:
                bare.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bare, "\n".join(bare)


def test_every_module_imports_and_none_by_a_bare_name() -> None:
    for module in modules():
        if module != "mincards.__main__":
            importlib.import_module(module)
    assert not [m for m in sys.modules if m.split(".")[0] in BARE]


@pytest.mark.parametrize("name", ["bot", "handlers", "bot.cli"])
def test_a_bare_name_refuses_to_import_even_from_the_checkout(name: str) -> None:
    run = run_to_exit([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                      capture_output=True, text=True, check=False)
    assert run.returncode != 0
    assert f"import mincards.{name.split('.')[0]}" in run.stderr


def test_python_dash_m_mincards_is_the_command() -> None:
    run = run_to_exit([sys.executable, "-m", "mincards", "ask", "--json", "qwen2.5 72b lora"],
                      capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert '"models": ["qwen2.5-72b"]' in run.stdout
