"""Text: from a stored abstract to the words and terms every analysis counts, in the order they are made.

Both the themes and the term map start here, so both count the same words spelled the same way:

1. :mod:`.normalise`: the stored text (line ends, Unicode spaces, invisible characters; markup kept) and the key two
   abstracts share when they are duplicates. The readers and the corpus apply it to every record.
2. :mod:`.cleaning`: the analysis text (:func:`~.cleaning.analysis_text`): markup, math, addresses and citations
   removed, lower case but acronyms and formulas, a phrase boundary where something was removed.
3. :mod:`.tokens`: runs of word tokens between boundaries, and a whole corpus as word ids
   (:class:`~.tokens.TokenizedCorpus`); :mod:`.stop_words`: the words no term or theme word is made of.
4. :mod:`.word_classes`: each word tagged once and spelled as terms spell it, on the dictionaries of
   :mod:`.lexicon` (part-of-speech tags, singular nouns); :mod:`.noun_phrases`: the context rules and the terms as
   noun phrases in their singular.
5. :mod:`.vocabulary`: the researcher's edits of terms (removed, replaced), applied to term counts, read from
   VOSviewer's thesaurus and stop-term files by :mod:`.vocabulary_files`.

Each module lists its public names in its ``__all__``; importing this package imports none of them, so a reader
that needs only :mod:`.normalise` loads no dictionary, numpy or scikit-learn.
"""
