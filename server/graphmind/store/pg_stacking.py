"""The local layer a reader's pool of sessions stacks on a snapshot, installed in a session when
the pool hands it out (``PgConnection.on_checkout``) rather than when it connects.

So one pool serves a whole start: the build of the layer reads the snapshot alone in a session,
then resolves in it with the layer's interface stacked, and the reader's first question is asked
in that same session with the finished layer stacked (:meth:`Stacking.stack` each time: a session
that holds an older one gets the new one at its next checkout). A start connects once for all
three, not once each (on a loaded machine a connection costs tens of milliseconds of waiting)."""

from __future__ import annotations

import threading
import weakref
from typing import Any

from .pg_overlay import LayerRows, install


class Stacking:
    """What the sessions of one pool have stacked on the snapshot: nothing at first (version 0),
    then each layer given to :meth:`stack`. A session is brought to the newest when handed out."""

    def __init__(self) -> None:
        self.rows: LayerRows | None = None
        self.version = 0
        self._lock = threading.Lock()
        self._have: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # session -> its version
        self._held: weakref.WeakKeyDictionary[Any, LayerRows] = weakref.WeakKeyDictionary()  # session -> its rows

    def stack(self, rows: LayerRows) -> None:
        """Sessions handed out from now on have ``rows`` stacked (replacing the layer they held)."""
        with self._lock:
            self.rows = rows
            self.version += 1

    def holds(self, conn: Any, rows: LayerRows) -> bool:
        """Whether the session holds ``rows`` stacked (the newest layer, and that one)."""
        with self._lock:
            return self.rows is rows and self.version > 0 and self._have.get(conn) == self.version

    def __call__(self, conn: Any) -> None:
        """A session being handed out: the newest layer installed in it unless it holds it (the
        tables of the one it holds whose rows are the same kept: :func:`.pg_overlay.install`)."""
        with self._lock:
            have, version, rows, held = self._have.get(conn, 0), self.version, self.rows, self._held.get(conn)
        if have == version or rows is None:
            return
        install(conn, rows, held)
        with self._lock:
            self._have[conn] = version
            self._held[conn] = rows


__all__ = ["Stacking"]
