"""The data mincards answers from, shipped inside the package as `mincards_data` (see
pyproject.toml), so that a wheel, pipx or a container image carries it. No code lives here."""
