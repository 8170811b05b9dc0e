"""Where the store is, and that its password never shows: URLs from the flag, the environment and
the configuration; redaction of URLs and of the driver's errors."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from graphmind.store import IndexUnavailable
from graphmind.store.location import ENV, StoreURLError, check, redact, redact_text, resolve
from graphmind.store.snapshots import SnapshotStore
from pg_util import PASSWORD, Cluster


def test_the_flag_then_the_environment_then_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.graphmind]\nstore = "postgresql://ci@db/graph"\n')
    assert resolve(None, tmp_path, {}).url == "postgresql://ci@db/graph"
    assert resolve(None, tmp_path, {ENV: "postgres://env@db/g"}).source == ENV
    assert resolve("postgresql://flag@db/g", tmp_path, {ENV: "postgres://env@db/g"}).source == "--store"
    assert resolve(None, tmp_path / "nowhere", {}) is None  # the local SQLite index: nothing changes


def test_a_url_that_is_not_postgresql_is_refused_without_its_password() -> None:
    with pytest.raises(StoreURLError) as err:
        check("mysql://u:hunter2@db/g", "--store")
    assert "hunter2" not in str(err.value) and "mysql://u:***@db/g" in str(err.value)


def test_redaction() -> None:
    assert redact("postgresql://ci:hunter2@db:5432/g?sslmode=require") == "postgresql://ci:***@db:5432/g?sslmode=require"
    assert redact("postgresql://db/g?password=hunter2&x=1") == "postgresql://db/g?password=***&x=1"
    assert redact("postgresql://ci@db/g") == "postgresql://ci@db/g"
    url = "postgresql://ci:p%40ss@db/g"
    assert "p%40ss" not in redact_text(f"failed for {url}: password=p@ss rejected", url)
    assert repr(check(url, "x")) == "StoreLocation('postgresql://ci:***@db/g', 'x')"


def test_a_wrong_password_or_a_dead_server_errs_without_the_password(
    pg_cluster: Cluster, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = pg_cluster.url(password="not-" + PASSWORD)
    for url in (wrong, f"postgresql://graphmind:{PASSWORD}@127.0.0.1:1/postgres"):
        with pytest.raises(IndexUnavailable) as err:
            SnapshotStore(check(url, "test"), timeout=2)
        message = str(err.value)
        assert "is unavailable" in message and "***" in message
        out = capsys.readouterr()
        for text in (message, caplog.text, out.out, out.err):
            assert PASSWORD not in text
