"""A chapter re-run as a notebook in JupyterLab (``make lab``) reads as its page does.

- :mod:`.launch`: what ``make lab`` checks and writes before JupyterLab starts (its settings, a free port).
- :mod:`.notebook`: whether a chapter runs as a notebook, and its errors shown as one line.
- :mod:`.page_values`: what a page's cells glued, which the notebook's prose asks for.
- :mod:`.markdown`: the chapters' Markdown as JupyterLab renders it (glue as ``{eval}``), and back.
- :mod:`.contents`: JupyterLab's contents manager that applies :mod:`.markdown` when a chapter opens and is saved
  (it needs JupyterLab, so nothing here imports it).
"""
