"""The installed libraries' versions in the analysis cache's key: read once per process, the same fingerprint."""

from __future__ import annotations

import importlib.metadata

from helpers.book import cache
from helpers.book.cache import environment_fingerprint, installed_closure

from tests.support import ROOT


def test_the_installed_versions_are_read_once_and_give_the_same_fingerprint(monkeypatch):
    requirements = ROOT / "requirements.txt"
    read_every_time = environment_fingerprint(requirements, list(importlib.metadata.distributions()))
    calls, distributions = [], importlib.metadata.distributions

    def counted():
        calls.append(1)
        return distributions()

    monkeypatch.setattr(cache.importlib.metadata, "distributions", counted)
    installed_closure.cache_clear()
    try:
        assert [environment_fingerprint(requirements) for _ in range(3)] == [read_every_time] * 3
        assert len(calls) == 1
    finally:
        installed_closure.cache_clear()
