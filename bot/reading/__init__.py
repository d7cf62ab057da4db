"""Reading: a question as typed, read into what it asks, in a few passes of one module each.

Takes text and the facts' words; gives a `Question` (model mentions read into family, version,
variant and size; strategies, lengths, budget, frameworks, flavours). `normalize` → `filters` →
`numbers` → `names`, tied together by `question`. Imports only `facts` (and errors, language).
"""
