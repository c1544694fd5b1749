"""The analysis layer. Nothing here imports the book or web layers (``tests/test_layers.py``).

The steps of a run (:func:`helpers.analysis.pipeline.run_pipeline`), each a package or module of its own:

1. :mod:`.corpus` (:func:`~helpers.analysis.corpus.read_corpus`), through :mod:`.readers`: the corpus tables;
   :mod:`.corpus.groups`: the papers in groups.
2. :mod:`.text`: the analysis text, tokens and noun-phrase terms, and the researcher's vocabulary.
3. :mod:`.themes`: the theme model.
4. :mod:`.cooccurrence`: the term map.
5. :mod:`.links`: link availability (:mod:`.links.linkcheck` checks the links online).
6. :mod:`.change`: what changed between groups, with the intervals and tests of :mod:`.statistics`.

:mod:`.pipeline` runs a corpus through them, on this machine's cores or a Dask cluster, and keeps the book's
cache; :mod:`.settings` holds the settings. The public names are each package's own
(``helpers.analysis.corpus.__all__``, ...): importing this package imports none of them.
"""
