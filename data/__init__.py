"""The data mincards answers from, installed inside the package as `mincards.data` (see
pyproject.toml), so that a wheel, pipx or a container image carries it. No code lives here."""
