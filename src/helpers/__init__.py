"""Helpers behind the abstracts book: small, tested functions that return DataFrames."""

__version__ = "0.1.0"
