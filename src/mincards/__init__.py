"""mincards: how many Ascend NPUs a model needs, from the ModelArts minimum-card table.

The one name an install adds. The repository keeps its agreed folders at the top and
pyproject.toml maps them into this package (package-dir), so that the code is imported the same
way in a checkout and installed: `mincards.bot` (the pure core, bot/), `mincards.handlers` (the
Slack adapters, handlers/), `mincards.playground` (a local Slack, playground/) and
`mincards.data` (the facts, data/). `python -m mincards` is the `mincards` command.
"""
