"""The pure core of mincards, a folder per stage; nothing here imports Slack.

    facts/      data/'s files loaded and checked: table, catalogue, vocabulary, hardware
    reading/    a question's text read into what it asks (a few passes)
    answering/  what it asks resolved against the table: an Answer
    replies/    an Answer as text, JSON and Block Kit, in English and Chinese
    importing/  a version of the page read, compared and taken into a data folder
    cli.py      the `mincards` command, on top of everything

Each stage imports only the stages listed before it (importing: facts and reading), plus
`errors` and `language`, which every stage shares; tests/test_layout.py holds the list.
"""

if __name__ != "mincards.bot":
    # A checkout's bot/ importable by its bare name would be a second copy of every module.
    raise ImportError(f"import mincards.bot, not {__name__} (pip install -e . or make setup)")
