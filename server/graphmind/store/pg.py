"""PostgreSQL connections: a pool of psycopg 3 connections seen through the small part of
sqlite3's interface the reads use (``execute`` → rows with ``fetchone``/``fetchall``), so that
:class:`~.reads.Reads`, :class:`~.view.StoreView` and the layers' reads run unchanged on a
snapshot. Every failure is an :class:`~.store.IndexUnavailable` whose message names the store by
its redacted URL and never holds a password."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .location import StoreLocation, redact_text
from .pg_schema import SCHEMA_NAME
from .store import IndexUnavailable

CONNECT_TIMEOUT = 5  # seconds: a store that does not answer by then is down (editors fall back)
POOL_SIZE = 4
SETUP_SECONDS = 30.0  # how long a reader's new session may take to set up (a local layer's rows copied in)

READER_RANDOM_PAGE_COST = 1.1  # a snapshot reader's planner: its pages are in the cache (see connect_options)

_TOKEN = re.compile(r"'(?:[^']|'')*'|\?(\d*)|%")


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, tuple[int, ...]]:
    """sqlite3's parameters (``?`` and ``?N``, numbered the way SQLite numbers them) as psycopg's
    (``%s``), with the index of the parameter each one takes; a literal ``%`` doubled."""
    order: list[int] = []
    last = 0

    def sub(m: re.Match[str]) -> str:
        nonlocal last
        token = m.group(0)
        if token.startswith("'") or token == "%":
            return token.replace("%", "%%")
        if m.group(1):
            n = int(m.group(1))
            last = max(last, n)
        else:
            last += 1
            n = last
        order.append(n - 1)
        return "%s"

    return _TOKEN.sub(sub, sql), tuple(order)


def snapshot_lock(snapshot: int) -> str:
    """The advisory lock key of a snapshot: its readers hold it shared, a prune takes it alone."""
    return f"hashtext('graphmind snapshot {int(snapshot)}')"


def _holding(snapshot: int, setup: Callable[[Any], None] | None, ready: Any) -> Any:
    """A reader's connection holds its snapshot's lock shared for its life, so that a prune
    never removes a snapshot under a reader (whose views would then answer nothing); then
    ``setup`` makes the session's own state (a local layer stacked on the snapshot), unless
    the session is ``ready`` (the probe, which ran it already)."""

    def configure(conn: Any) -> None:
        conn.execute(f"SELECT pg_advisory_lock_shared({snapshot_lock(snapshot)})")
        if setup is not None and conn is not ready:
            setup(conn)

    return configure


def _first_then_new(probe: Any) -> type:
    """The pool's connection class: its first connection is ``probe`` (already connected, with the
    same settings: a reader's start makes one session, not two), the others new ones."""
    import psycopg

    class Connection(psycopg.Connection):
        @classmethod
        def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:  # type: ignore[override]
            nonlocal probe
            first, probe = probe, None
            if first is not None and not first.closed:
                return first
            return super().connect(conninfo, **kwargs)

    return Connection


@functools.lru_cache(maxsize=1)
def _reader_adapters() -> Any:
    """A snapshot reader's types: its answers' rows come as JSON (``Dialect.json_rows``: a blast
    radius's nodes, edges and sites), parsed by orjson (a dependency: ~25 % less CPU than the
    standard library's parser on those rows)."""
    import orjson
    import psycopg
    from psycopg.types.json import set_json_loads

    adapters = psycopg.adapt.AdaptersMap(psycopg.adapters)
    set_json_loads(orjson.loads, adapters)
    return adapters


class Rows(list):
    """A statement's rows, fetched whole (the connection goes back to the pool at once)."""

    def fetchone(self) -> tuple | None:
        return self[0] if self else None

    def fetchall(self) -> list[tuple]:
        return list(self)


def failure(exc: BaseException, location: StoreLocation) -> IndexUnavailable:
    import psycopg

    down = not isinstance(exc, psycopg.Error) or isinstance(exc, psycopg.OperationalError)
    what = "is unavailable" if down else "refused a statement"
    said = " ".join(str(exc).split())  # libpq's messages span lines
    return IndexUnavailable(f"the store {location.shown} {what}: {redact_text(said, location.url)}")


def connect_options(snapshot: int | None, read_only: bool, statement_timeout: float | None) -> str:
    """A session's settings: the schema, the snapshot it reads, and for a reader (an editor)
    read-only transactions and a bound on every statement."""
    opts = [f"-c search_path={SCHEMA_NAME}"]
    if snapshot is not None:
        # a reader asks the same few statements over and over: each is planned once per session
        # (planning the views' joins costs more than running them; see ``PgConnection``)
        opts.append(f"-c graphmind.snapshot={int(snapshot)} -c plan_cache_mode=force_generic_plan")
        # and its rows are read from the cache: a random read costs what a sequential one does.
        # At the default (4), a join to the snapshot's files was a hash of all of them (a scan of
        # the snapshot's every file for each question: unresolved calls by name), not a probe a row
        opts.append(f"-c random_page_cost={READER_RANDOM_PAGE_COST}")
    if read_only:
        opts.append("-c default_transaction_read_only=on")
    if statement_timeout is not None:
        opts.append(f"-c statement_timeout={max(1, int(statement_timeout * 1000))}")
    return " ".join(opts)


class PgConnection:
    """A pool of connections to one store (reading one snapshot when ``snapshot`` is given;
    ``read_only``: sessions refuse every write, whatever the role may do; ``setup``: run on each
    new session of a snapshot's reader, after it holds the snapshot's lock; ``check``: what the
    first connection runs instead, to say at once why a store refuses ``setup``)."""

    def __init__(
        self, location: StoreLocation, *, snapshot: int | None = None, timeout: float = CONNECT_TIMEOUT,
        size: int = POOL_SIZE, read_only: bool = False, statement_timeout: float | None = None,
        setup: Callable[[Any], None] | None = None, check: Callable[[Any], None] | None = None,
    ) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool, PoolTimeout

        self.location = location
        self.snapshot = snapshot
        # run on a session each time it is handed out (a live layer brings its TEMP tables up to date)
        self.on_checkout: Callable[[Any], None] | None = None
        self._errors = (psycopg.Error, PoolTimeout)
        kwargs = {"autocommit": True, "connect_timeout": max(1, round(timeout)),
                  "options": connect_options(snapshot, read_only, statement_timeout)}
        if snapshot is not None:  # statements prepared at their first run (with one generic plan)
            kwargs["prepare_threshold"] = 0
            kwargs["context"] = _reader_adapters()
        probe = None
        try:  # one connection first: a store that is down, or a session it refuses to set up, says
            # why at once (the pool would retry until its timeout); it then is the pool's first
            probe = psycopg.connect(location.url, **kwargs)
            if setup is not None and snapshot is not None:
                (check or setup)(probe)
        except BaseException as exc:
            if probe is not None:
                probe.close()
            if isinstance(exc, psycopg.Error):
                raise failure(exc, location) from None
            raise
        ready = probe if setup is not None and snapshot is not None and check is None else None
        self.pool = ConnectionPool(
            location.url, min_size=1, max_size=size, open=False, timeout=timeout, name="graphmind", kwargs=kwargs,
            reconnect_timeout=timeout, configure=None if snapshot is None else _holding(snapshot, setup, ready),
            connection_class=_first_then_new(probe),
        )
        try:
            # (the probe found the store up, accepting the setup)
            self.pool.open(wait=True, timeout=timeout + (SETUP_SECONDS if setup is not None else 0))
        except self._errors as exc:
            self.pool.close(timeout=0)
            probe.close()  # (when the pool never took it)
            raise failure(exc, location) from None

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """One pooled connection (autocommit: open a transaction with ``conn.transaction()``)."""
        try:
            with self.pool.connection() as conn:
                if self.on_checkout is not None:
                    self.on_checkout(conn)
                yield conn
        except self._errors as exc:
            raise failure(exc, self.location) from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        text, order = translate(sql)
        with self.connection() as conn:
            # no parameters: the text goes as written (psycopg reads no placeholders in it)
            cur = conn.execute(text, [params[i] for i in order]) if order else conn.execute(sql)
            # (whether it returned rows, from the result's field count: ``cur.description`` makes
            # a Column object a column, a quarter of a millisecond for a callers' 27 columns)
            res = cur.pgresult
            return Rows(cur.fetchall() if res is not None and res.nfields else ())

    def close(self) -> None:
        # waits for a connection still being opened (it would hold a reader's snapshot lock)
        self.pool.close(timeout=CONNECT_TIMEOUT)
