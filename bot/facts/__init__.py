"""Facts: the files of data/ loaded, validated and cross-checked, once.

Takes a data folder; gives `Knowledge` (the `Table` with its entries, the model `Catalogue`, the
`Vocabulary` of every word the reader knows, the `Hardware` flavours) or a `DataError` naming
the file, line and field. Imports nothing of mincards but `errors` and `language`.
"""
