"""Answering: a read question resolved against the table.

Takes a `Question` (and a conversation's `Context`, or a button's `FollowUp`); gives an `Answer`:
the intent, models, entries, budget verdicts, comparison and notes, as plain data. `engine` ties
reading and resolving together. Imports `facts` and `reading` (and errors, language).
"""
