"""Links the syntax tree cannot see: event topics (an emitter reaches every handler of its topic)
and HTTP routes (a client call reaches the handler whose route matches), across files and
languages.

Plugins record call shapes (:mod:`.shapes`); the patterns (:mod:`.patterns`: each language's
defaults plus the workspace's :mod:`.config`) turn them into rows per file (:mod:`.match`); the
store makes the edges from every file's rows (:mod:`graphmind.store.layers`), labelled
``inferred`` and carrying ``via`` (``event:order.created``, ``http:GET /orders/{}``).
"""

from .match import CLIENT, EMIT, EVENT, HANDLE, HTTP, ROUTE, LinkRow, link_rows
from .patterns import NONE, Patterns, from_config, verbs

__all__ = ["CLIENT", "EMIT", "EVENT", "HANDLE", "HTTP", "NONE", "ROUTE", "LinkRow", "Patterns", "from_config", "link_rows", "verbs"]
