"""One module per page: the values, tables and figures each page shows.

:mod:`.landing` and :mod:`.findings` (the landing page), :mod:`.corpus`, :mod:`.themes`, :mod:`.cooccurrence`,
:mod:`.links`, :mod:`.change`, :mod:`.explorer`, :mod:`.validation`, :mod:`.performance` (with
:mod:`.performance_large` and :mod:`.benchmark_targets`), :mod:`.figure_index`, :mod:`.reproduce` (Reproduce
and How to cite). A chapter imports its module (``from helpers.book.reports import themes as report``).
"""
