"""Where the graph is kept: the embedded SQLite file (the default) or a PostgreSQL database named
by a URL. The URL comes from ``--store``, else ``GRAPHMIND_STORE``, else ``store = …`` in the
workspace's configuration (``[tool.graphmind]`` of ``pyproject.toml`` or
``.graphmind/config.toml``).

Credentials come from the URL, the environment (``PGPASSWORD``, ``PGUSER``, ...) or
``~/.pgpass`` (libpq reads the last two itself). A URL is only ever shown through
:func:`redact`, and an error from the driver through :func:`redact_text`, so that a password
never reaches a log, an answer or an error message."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV = "GRAPHMIND_STORE"
SCHEMES = ("postgresql", "postgres")


class StoreURLError(ValueError):
    """The store setting names no store this program can open."""


@dataclass(frozen=True)
class StoreLocation:
    """A PostgreSQL store: ``url`` (secret: never print it) and where the setting came from."""

    url: str
    source: str  # "--store", "GRAPHMIND_STORE", "configuration"

    @property
    def shown(self) -> str:
        return redact(self.url)

    def __repr__(self) -> str:  # a location in a traceback or a log shows no password
        return f"StoreLocation({self.shown!r}, {self.source!r})"

    __str__ = __repr__


def redact(url: str) -> str:
    """The URL with its password (and any ``password=`` parameter) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<an unparsable store URL>"
    netloc = parts.netloc
    if "@" in netloc:
        cred, _, host = netloc.rpartition("@")
        user = cred.split(":", 1)[0]
        netloc = f"{user}:***@{host}" if ":" in cred else f"{user}@{host}"
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_text(text: str, url: str | None) -> str:
    """A message (a driver's error) with the URL's password, and any ``password=…`` or URL
    credentials it quotes, replaced by ``***``."""
    if url:
        password = urlsplit(url).password
        if password:
            text = text.replace(password, "***")
        text = text.replace(url, redact(url))
    text = re.sub(r"(?i)(password\s*=\s*)('[^']*'|\S+)", r"\1***", text)
    return re.sub(r"(postgres(?:ql)?://[^:/@\s]*):[^@\s]*@", r"\1:***@", text)


def check(url: str, source: str) -> StoreLocation:
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in SCHEMES:
        raise StoreURLError(
            f"{source}: {redact(url)!r} is not a PostgreSQL URL (postgresql://user@host:port/database); "
            "leave the setting out for the local SQLite index"
        )
    return StoreLocation(url, source)


def resolve(cli: str | None, root: Path | None, environ: dict[str, str] | None = None) -> StoreLocation | None:
    """The PostgreSQL store the settings name, or None for the local SQLite index."""
    env = os.environ if environ is None else environ
    if cli:
        return check(cli, "--store")
    if env.get(ENV):
        return check(env[ENV], ENV)
    if root is not None:
        from ..links import config

        got = config.load(root).get("store")
        if isinstance(got, str) and got:
            return check(got, "configuration")
    return None
