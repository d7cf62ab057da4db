"""mincards core: the ModelArts minimum-card table, question parsing, answers and rendering.

Pure Python; nothing here imports Slack.
"""
