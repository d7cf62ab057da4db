"""mincards: how many Ascend NPUs a model needs, from the ModelArts minimum-card table.

The one name an install adds. The repository keeps its agreed folders at the top and this package
holds them as links, so that the code is imported the same way in a checkout and installed:
`mincards.bot` (the pure core, bot/), `mincards.handlers` (the Slack adapters, handlers/) and
`mincards.data` (the facts, data/). `python -m mincards` is the `mincards` command.
"""
