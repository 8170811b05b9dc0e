"""The client's settings (``initializationOptions`` and the ``graphmind`` configuration section).

What a client may send is typed (``ClientSettings``) and read one key at a time: a key whose value
has the wrong type or is out of range is ignored with a log line, the others still apply. (Read
by hand, not by cattrs: this runs before ``initialize`` is answered, and importing attrs and cattrs
was a tenth of a server's start-up CPU.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

Reader = Callable[[Any], Any]  # a JSON value -> the setting; TypeError / ValueError: ignored


def _integer(check: Callable[[int], str | None] = lambda _: None) -> Reader:
    def read(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer, got {value!r}")
        problem = check(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    return read


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _texts(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return [str(v) for v in value]  # exclude patterns: anything, as text


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")  # (never the value: a URL may hold a password)
    return value


def _object(fields: dict[str, Reader]) -> Reader:
    def read(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {value!r}")
        return _fields(value, fields)

    return read


def _fields(obj: dict[str, Any], fields: dict[str, Reader]) -> dict[str, Any]:
    """The keys of ``obj`` that ``fields`` reads (camelCase, as sent), bad values ignored with a log line."""
    out: dict[str, Any] = {}
    for key, read in fields.items():
        if obj.get(key) is None:
            continue
        try:
            out[key] = read(obj[key])
        except (TypeError, ValueError) as exc:
            shown = "(not shown: it may hold a password)" if key in SECRET else repr(obj[key])
            log.warning("ignoring the setting %s = %s: %s", key, shown, exc)
    return out


_positive = _integer(lambda v: "must be positive" if v <= 0 else None)
_non_negative = _integer(lambda v: "must not be negative" if v < 0 else None)
FIELDS: dict[str, Reader] = {
    "exclude": _texts,
    "maxFileSize": _positive,
    "blastRadius": _object({"depth": _non_negative}),
    "blastRadiusDepth": _non_negative,  # older flat spelling
    # incoming calls list possible callers too; both directions list calls through a declared method
    "callHierarchy": _object({"includePossible": _boolean, "includeDispatch": _boolean}),
    "store": _text,  # a shared store's URL (read when a folder opens; see team_live.py)
}


SECRET = frozenset({"store"})  # settings whose value a log line never shows


@dataclass(frozen=True)
class ClientSettings:
    """As sent; ``None`` where a key is missing or its value was ignored."""

    exclude: list[str] | None = None
    max_file_size: int | None = None
    blast_radius_depth: int | None = None  # ``blastRadius.depth`` (an object), else the flat ``blastRadiusDepth``
    include_possible: bool | None = None  # ``callHierarchy.includePossible``
    include_dispatch: bool | None = None  # ``callHierarchy.includeDispatch``
    store: str | None = None  # a shared store's URL


def read(options: Any) -> ClientSettings | None:
    """The settings in ``options``; ``None`` when it is not an object at all."""
    if not isinstance(options, dict):
        return None
    sent = _fields(options, FIELDS)
    nested = sent.get("blastRadius")  # when it is an object, its depth (even none) wins
    return ClientSettings(
        exclude=sent.get("exclude"), max_file_size=sent.get("maxFileSize"),
        blast_radius_depth=sent.get("blastRadiusDepth") if nested is None else nested.get("depth"),
        include_possible=sent.get("callHierarchy", {}).get("includePossible"),
        include_dispatch=sent.get("callHierarchy", {}).get("includeDispatch"),
        store=sent.get("store"),
    )


class Settings:
    """The settings in force."""

    def __init__(self) -> None:
        self.exclude: list[str] = []
        self._max_file_size: int | None = None  # None: the workspace's default
        self.depth = 3
        self.include_possible = False  # callHierarchy.includePossible
        self.include_dispatch = False  # callHierarchy.includeDispatch
        self.store: str | None = None  # a shared store's URL, for the folders opened from now on

    @property
    def max_file_size(self) -> int:
        if self._max_file_size is None:  # read when a folder opens: not on the start-up path
            from ..workspace import DEFAULT_MAX_FILE_SIZE

            return DEFAULT_MAX_FILE_SIZE
        return self._max_file_size

    @max_file_size.setter
    def max_file_size(self, value: int) -> None:
        self._max_file_size = value

    def update(self, options: Any) -> bool:
        """Apply client settings; True when the index must be refreshed (file selection changed)."""
        sent = read(options)
        if sent is None:
            return False
        before = (list(self.exclude), self.max_file_size)
        if sent.exclude is not None:
            self.exclude = sent.exclude
        if sent.max_file_size is not None:
            self.max_file_size = sent.max_file_size
        if sent.blast_radius_depth is not None:
            self.depth = sent.blast_radius_depth
        if sent.include_possible is not None:
            self.include_possible = sent.include_possible
        if sent.include_dispatch is not None:
            self.include_dispatch = sent.include_dispatch
        if sent.store is not None:
            self.store = sent.store or None
        return before != (self.exclude, self.max_file_size)

    def update_from_change(self, settings: Any) -> bool:
        """``workspace/didChangeConfiguration``: the settings, or all sections with ours under ``graphmind``."""
        if isinstance(settings, dict) and isinstance(settings.get("graphmind"), dict):
            settings = settings["graphmind"]
        return self.update(settings)
