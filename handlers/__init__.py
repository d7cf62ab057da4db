"""Thin Slack Bolt adapters: event text in, the core's rendered answer out. One module a surface.

They may import any stage of mincards.bot but its command line; nothing in mincards.bot imports
them, except `mincards serve`.
"""

if __name__ != "mincards.handlers":
    raise ImportError(f"import mincards.handlers, not {__name__} (pip install -e . or make setup)")
