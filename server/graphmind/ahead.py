"""A result made in a thread while the caller does something else (a start's waits overlapped:
connecting to the store while git answers, the snapshot read while files are parsed)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Ahead(Generic[T]):
    """``make()`` run in a thread from now on: its result, or what it raised, in the caller's
    thread (:meth:`result`)."""

    def __init__(self, make: Callable[[], T], name: str = "graphmind-ahead") -> None:
        self._got: T | Exception | None = None
        self._thread = threading.Thread(target=self._make, args=(make,), name=name, daemon=True)
        self._thread.start()

    def _make(self, make: Callable[[], T]) -> None:
        try:
            self._got = make()
        except Exception as exc:  # noqa: BLE001 - raised again by result(), in the caller's thread
            self._got = exc

    def result(self) -> T:
        self._thread.join()
        if isinstance(self._got, Exception):
            raise self._got
        assert self._got is not None
        return self._got

    def discard(self, close: Callable[[T], None]) -> None:
        """Not needed after all: closed once made."""
        with contextlib.suppress(Exception):
            close(self.result())
