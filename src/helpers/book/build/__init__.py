"""The book's build around the pages: what jupyter-book and Sphinx need that a page does not compute.

- :mod:`.prebuild`: the pages executed on every core before the build, into jupyter-book's execution cache,
  each in a kernel forked from a warm worker (:mod:`.warm_kernels`).
- :mod:`.sphinx_ext`: the Sphinx extension (the corpus's title on every page, the build's table of contents,
  the authors, the launch buttons, the page's security policy).
- :mod:`.title`: the book named after its corpus (:mod:`.corpus_name`), the figures' labels, the citation's title.
- :mod:`.toc`: the chapters of a build (a chapter that does not apply is left out).
- :mod:`.citation`: ``CITATION.cff`` read once, for the footer and the BibTeX entry.
"""
