"""The versions the checkout installs: constraints.txt pins every dependency pyproject.toml
declares, within its bounds (make setup installs exactly those), and tools/floors.py gives
every dependency's floor for `make floors`."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import ROOT


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in (
        *project["dependencies"],
        *(r for extra in project["optional-dependencies"].values() for r in extra))]
    return [r for r in found if canonicalize_name(r.name) != "mincards"]


def pins() -> dict[str, Version]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            out[canonicalize_name(name)] = Version(version)
    return out


def test_every_dependency_has_a_floor_and_a_ceiling_at_its_next_major() -> None:
    """The ceiling is the next major version after the one the suite passed with (for 0.x, 1.0):
    a major nobody ran the suite on is never allowed in."""
    pinned = pins()
    for requirement in declared():
        bounds = {s.operator: Version(s.version) for s in requirement.specifier}
        assert ">=" in bounds and "<" in bounds, requirement
        tested = pinned[canonicalize_name(requirement.name)]
        assert bounds["<"].major <= max(tested.major + 1, 1), (
            f"{requirement}: tested with {tested}, a ceiling past its next major")


def test_constraints_pin_every_declared_dependency_within_its_bounds() -> None:
    pinned = pins()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {name}=={pinned[name]} outside {requirement.specifier}")


def test_floors_are_the_declared_lower_bounds() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "floors.py")], capture_output=True,
                         text=True, check=True)
    floors = dict(line.split("==") for line in run.stdout.split())
    for requirement in declared():
        (floor,) = (s.version for s in requirement.specifier if s.operator == ">=")
        assert floors[requirement.name.lower()] == floor
