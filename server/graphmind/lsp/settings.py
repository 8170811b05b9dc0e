"""The client's settings (``initializationOptions`` and the ``graphmind`` configuration section).

What a client may send is typed (``ClientSettings``) and read with cattrs, one key at a time: a key
whose value has the wrong type or is out of range is ignored with a log line, the others still apply.
"""

from __future__ import annotations

import logging
from typing import Any

import attrs
import cattrs

log = logging.getLogger(__name__)


def _positive(_: Any, __: attrs.Attribute, value: int | None) -> None:
    if value is not None and value <= 0:
        raise ValueError("must be positive")


def _non_negative(_: Any, __: attrs.Attribute, value: int | None) -> None:
    if value is not None and value < 0:
        raise ValueError("must not be negative")


@attrs.define
class BlastRadiusSettings:
    depth: int | None = attrs.field(default=None, validator=_non_negative)


@attrs.define
class CallHierarchySettings:
    include_possible: bool | None = None  # incoming calls list callers over ambiguous edges too


@attrs.define
class ClientSettings:
    """As sent; ``None`` where a key is missing or its value was ignored."""

    exclude: list[str] | None = None
    max_file_size: int | None = attrs.field(default=None, validator=_positive)
    blast_radius: BlastRadiusSettings | None = None
    blast_radius_depth: int | None = attrs.field(default=None, validator=_non_negative)  # older flat spelling
    call_hierarchy: CallHierarchySettings | None = None


attrs.resolve_types(BlastRadiusSettings)
attrs.resolve_types(CallHierarchySettings)
attrs.resolve_types(ClientSettings)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def _strict_int(value: Any, _: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _strict_bool(value: Any, _: type) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _strict_list(value: Any, cls: type) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    (item,) = cls.__args__  # type: ignore[attr-defined]
    return [_converter.structure(v, item) for v in value]


def _key_by_key(cls: type) -> Any:
    """Structure an attrs class from a JSON object field by field, skipping (and logging) bad values."""
    fields = attrs.fields(cls)

    def structure(obj: Any, _: type) -> Any:
        if not isinstance(obj, dict):
            raise TypeError(f"expected an object, got {obj!r}")
        kwargs: dict[str, Any] = {}
        for a in fields:
            key = _camel(a.name)
            if key not in obj:
                continue
            try:
                value = _converter.structure(obj[key], a.type)
                if a.validator is not None:
                    a.validator(None, a, value)
            except (TypeError, ValueError, cattrs.BaseValidationError) as exc:
                log.warning("ignoring the setting %s = %r: %s", key, obj[key], exc)
                continue
            kwargs[a.name] = value
        return cls(**kwargs)

    return structure


_converter = cattrs.Converter()
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(bool, _strict_bool)
_converter.register_structure_hook(str, lambda v, _: str(v))  # exclude patterns: anything, as text
_converter.register_structure_hook_func(lambda t: getattr(t, "__origin__", None) is list, _strict_list)
_converter.register_structure_hook_factory(attrs.has, _key_by_key)


def read(options: Any) -> ClientSettings | None:
    """The settings in ``options``; ``None`` when it is not an object at all."""
    if not isinstance(options, dict):
        return None
    return _converter.structure(options, ClientSettings)


class Settings:
    """The settings in force."""

    def __init__(self) -> None:
        self.exclude: list[str] = []
        self._max_file_size: int | None = None  # None: the workspace's default
        self.depth = 3
        self.include_possible = False  # callHierarchy.includePossible

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
        depth = sent.blast_radius.depth if sent.blast_radius is not None else sent.blast_radius_depth
        if depth is not None:
            self.depth = depth
        if sent.call_hierarchy is not None and sent.call_hierarchy.include_possible is not None:
            self.include_possible = sent.call_hierarchy.include_possible
        return before != (self.exclude, self.max_file_size)

    def update_from_change(self, settings: Any) -> bool:
        """``workspace/didChangeConfiguration``: the settings, or all sections with ours under ``graphmind``."""
        if isinstance(settings, dict) and isinstance(settings.get("graphmind"), dict):
            settings = settings["graphmind"]
        return self.update(settings)
