#!/usr/bin/env python3
"""The oldest versions pyproject.toml allows, as a pip constraints file: every declared
dependency (the package's, and each extra's) pinned to its `>=` floor. `make floors` installs the
checkout with it in a venv of its own and runs the suite, which is how the floors are known to
work: a floor that does not is raised in pyproject.toml.

    python3 tools/floors.py > build/floors.txt
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$")


def floors(pyproject: Path) -> dict[str, str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    declared = [*project.get("dependencies", ()),
                *(r for extra in project.get("optional-dependencies", {}).values() for r in extra)]
    found: dict[str, str] = {}
    for requirement in declared:
        match = REQUIREMENT.match(requirement)
        if match is None:
            raise SystemExit(f"cannot read the requirement {requirement!r}")
        name, _, spec = match.groups()
        if name.lower() == project["name"]:
            continue  # the package's own extras (mincards[hub])
        floor = next((part.strip()[2:].strip() for part in spec.split(",")
                      if part.strip().startswith(">=")), None)
        if floor is None:
            raise SystemExit(f"{requirement!r} has no floor (>=): every dependency needs one")
        previous = found.get(name.lower())
        if previous is not None and previous != floor:
            raise SystemExit(f"{name} is declared with two floors: {previous} and {floor}")
        found[name.lower()] = floor
    return found


def main() -> int:
    for name, floor in sorted(floors(ROOT / "pyproject.toml").items()):
        print(f"{name}=={floor}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
