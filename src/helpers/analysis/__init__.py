"""The analysis layer: reading corpora, text, terms, themes, co-occurrence, links and availability, the
pipeline and its cache. Nothing here imports the book or web layers (``tests/test_layers.py``)."""
