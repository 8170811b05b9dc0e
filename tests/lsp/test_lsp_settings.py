"""Client settings: typed, read key by key; a bad value is ignored with a log line, never a crash."""

from __future__ import annotations

import logging

import pytest
from graphmind.lsp.settings import Settings
from graphmind.workspace import DEFAULT_MAX_FILE_SIZE


def test_defaults_and_good_values() -> None:
    s = Settings()
    assert (s.exclude, s.max_file_size, s.depth) == ([], DEFAULT_MAX_FILE_SIZE, 3)
    assert s.update({"exclude": ["gen/**", 7], "maxFileSize": 10, "blastRadius": {"depth": 5, "minConfidence": "x"}})
    assert (s.exclude, s.max_file_size, s.depth) == (["gen/**", "7"], 10, 5)
    assert not s.update({"blastRadiusDepth": 0})  # the flat spelling; depth alone needs no re-index
    assert s.depth == 0


def test_change_notification_unwraps_the_section() -> None:
    s = Settings()
    assert s.update_from_change({"graphmind": {"exclude": ["x"]}, "other": {}})
    assert s.exclude == ["x"]
    assert not s.update_from_change(None) and not s.update_from_change([1])


@pytest.mark.parametrize(
    "options",
    [
        {"exclude": "gen/**"},
        {"maxFileSize": "big"},
        {"maxFileSize": 0},
        {"maxFileSize": True},
        {"blastRadius": {"depth": -1}},
        {"blastRadius": 7, "blastRadiusDepth": "deep"},
    ],
)
def test_bad_values_are_ignored_with_a_log_line(options: dict, caplog: pytest.LogCaptureFixture) -> None:
    s = Settings()
    with caplog.at_level(logging.WARNING, logger="graphmind.lsp.settings"):
        assert s.update({**options, "exclude": options.get("exclude", ["kept"])}) is (options.get("exclude") is None)
    assert (s.max_file_size, s.depth) == (DEFAULT_MAX_FILE_SIZE, 3)
    assert s.exclude == ([] if "exclude" in options else ["kept"])
    assert caplog.records and all("ignoring the setting" in r.getMessage() for r in caplog.records)


def test_call_hierarchy_and_the_nested_depth(caplog: pytest.LogCaptureFixture) -> None:
    s = Settings()
    assert not s.update({"callHierarchy": {"includePossible": True}})
    assert s.include_possible is True and s.include_dispatch is False
    assert not s.update({"callHierarchy": {"includeDispatch": True}})
    assert s.include_dispatch is True and s.include_possible is True  # a key left out keeps its value
    with caplog.at_level(logging.WARNING, logger="graphmind.lsp.settings"):
        s.update({"callHierarchy": {"includePossible": "yes"}, "blastRadius": {}, "blastRadiusDepth": 4})
    assert s.include_possible is True and s.depth == 3  # a blastRadius object wins over the flat spelling
    assert [r.getMessage() for r in caplog.records] == ["ignoring the setting includePossible = 'yes': expected true or false, got 'yes'"]


def test_the_store_url_is_read_and_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    s = Settings()
    assert s.store is None
    assert not s.update({"store": "postgresql://editor:pw@db/graph"})  # read when a folder opens: no re-index
    assert s.store == "postgresql://editor:pw@db/graph"
    with caplog.at_level(logging.WARNING, logger="graphmind.lsp.settings"):
        s.update({"store": {"url": "postgresql://editor:pw@db/graph"}})
    assert s.store == "postgresql://editor:pw@db/graph"
    assert [r.getMessage() for r in caplog.records] == [
        "ignoring the setting store = (not shown: it may hold a password): expected a string, got dict"]
    s.update({"store": ""})  # an empty setting: no store
    assert s.store is None
