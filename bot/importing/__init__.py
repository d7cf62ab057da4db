"""Importing: a version of the ModelArts page taken into a data folder.

Takes the page as text, markdown or HTML; gives a `Table`, what changed against another version,
catalogue entries for new models, and an all-or-nothing write. Imports `facts` and `reading`
(new models' names are read as questions read them), and errors, language; nothing answers.
"""
