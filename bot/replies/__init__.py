"""Replies: an Answer written out for people and scripts.

Takes an `Answer`; gives plain text, the `--json` object, Block Kit messages and views (as
plain dicts, within Slack's limits), in the question's language. Imports `facts`, `reading` and
`answering` (and errors, language); never Slack itself.
"""
