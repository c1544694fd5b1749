"""One module per chapter: the values, tables and figures each chapter shows."""
