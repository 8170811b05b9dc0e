"""Which calls are links: named method lists, with defaults from each language's package and
additions from the workspace's configuration (:mod:`.config`).

Every list names the *last* identifier of a callee (``emit`` matches ``bus.emit``, ``emit`` and
``self.events.emit``). Additions from the configuration apply to calls a plugin records: those
with a string argument, decorators, and the verbs of the defaults (:func:`verbs`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

HTTP_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")


@dataclass(frozen=True, slots=True)
class Patterns:
    # events: a string topic
    emit: frozenset[str] = frozenset()  # bus.emit("topic", ...): the first argument is the topic
    subscribe: frozenset[str] = frozenset()  # bus.on("topic", handler) / on("topic", handler)
    decorators: frozenset[str] = frozenset()  # @bus.on("topic") def handler
    # events: the receiver object is the topic (Django signals, Celery tasks)
    signal_emit: frozenset[str] = frozenset()  # post_save.send(sender=...) / charge.delay()
    signal_connect: frozenset[str] = frozenset()  # post_save.connect(handler) / @sig.connect
    signal_decorators: frozenset[str] = frozenset()  # @receiver(post_save) / @receiver([a, b])
    task_decorators: frozenset[str] = frozenset()  # @app.task def charge: topic "charge"
    # HTTP
    clients: frozenset[str] = frozenset()  # receivers whose get/post/...("/path") are requests
    client_functions: frozenset[str] = frozenset()  # fetch("/path", {method: "POST"})
    route_decorators: frozenset[str] = frozenset()  # @app.route("/p", methods=[...]) (besides @app.get)
    route_functions: frozenset[str] = frozenset()  # path("orders/<int:pk>/", view) (Django)

    def merged(self, more: Patterns) -> Patterns:
        return Patterns(**{f.name: getattr(self, f.name) | getattr(more, f.name) for f in fields(self)})


NONE = Patterns()
EVENT_FIELDS = ("emit", "subscribe", "decorators", "signal_emit", "signal_connect", "signal_decorators", "task_decorators")
HTTP_FIELDS = ("clients", "client_functions", "route_decorators", "route_functions")


def verbs(p: Patterns) -> frozenset[str]:
    """The method names a plugin keeps calls of even without a string argument."""
    return p.emit | p.subscribe | p.signal_emit | p.signal_connect | p.client_functions | p.route_functions | frozenset(
        HTTP_METHODS
    ) | {"request"}


def from_config(table: dict[str, Any]) -> Patterns:
    """Additions from the ``[events]`` and ``[http]`` tables of the configuration; unknown keys
    and values that are not lists of strings are ignored."""
    out: dict[str, frozenset[str]] = {}
    for section, names in (("events", EVENT_FIELDS), ("http", HTTP_FIELDS)):
        sub = table.get(section)
        if not isinstance(sub, dict):
            continue
        for name in names:
            value = sub.get(name)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                out[name] = frozenset(value)
    return replace(NONE, **out)
