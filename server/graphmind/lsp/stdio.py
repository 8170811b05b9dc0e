"""The stdio transport: the event loop reads the client's messages itself.

pygls reads stdin on its thread pool one line at a time (each header line and the body is a trip
to a worker thread and back), four thread hand-offs per message. Here, when stdin is a pipe or a
socket (what every client gives a server), the event loop watches it (``add_reader``) and reads
whatever is there when it is readable: a request wakes the one thread that answers it, no hand-off
at all (on a loaded machine each wake-up of another thread waits for a time slice). Otherwise (a
file, a terminal) a thread reads and hands whole messages to the loop. Either way the loop decodes
and handles messages in the order they came (``jsonrpc.JsonRpc.handle``; a failure is logged and
the loop goes on). Nothing here imports pygls or lsprotocol (see ``jsonrpc.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import socket
import stat
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO

from .jsonrpc import StreamWriter

log = logging.getLogger(__name__)

MAX_BODY = 64 << 20  # bytes a message may announce: a larger Content-Length is refused, not awaited
MAX_HEADER = 8 << 10  # bytes of a header line: longer is garbage, not awaited
HEADER = re.compile(rb"([A-Za-z0-9_-]+)[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?\n")
CONTENT_LENGTH_NAME = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A message whose body cannot be found (its headers give no usable Content-Length): it gets
    a ParseError answer, and the stream is read again from the next Content-Length header."""

    why: str


class Splitter:
    """Whole message bodies out of a byte stream that comes in chunks: headers up to the blank
    line, then Content-Length bytes. Header names are matched case-insensitively and a bare LF
    ends a line too. Blank lines between messages are skipped (as pygls does); anything else that
    is not a header (the tail of a body shorter than its Content-Length said, stray output) is
    skipped up to the next ``Content-Length:``, so one bad message never loses the ones after it."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.length: int | None = None  # of the body the headers read so far announce
        self.headers = False  # a header of this message was read (a blank line then ends them)
        self.in_body = False
        self.resync = False  # skipping to the next Content-Length header

    def feed(self, data: bytes) -> list[bytes | Unreadable]:
        self.buf += data
        out: list[bytes | Unreadable] = []
        while True:
            if self.resync and not self._resync():
                return out
            if self.in_body:
                assert self.length is not None
                if len(self.buf) < self.length:
                    return out
                out.append(bytes(self.buf[: self.length]))
                del self.buf[: self.length]
                self.length, self.headers, self.in_body = None, False, False
                continue
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > MAX_HEADER:
                    self._garbage(f"a header line longer than {MAX_HEADER} bytes")
                    continue
                return out
            line = bytes(self.buf[: i + 1])
            if not line.strip():
                del self.buf[: i + 1]
                if self.length is not None:
                    self.in_body = True
                elif self.headers:  # the headers ended without a Content-Length
                    out.append(self._unreadable("a message without a Content-Length header"))
                continue
            named = CONTENT_LENGTH_NAME.search(line)
            if named is not None and named.start() > 0:  # the tail of something else, then a message
                self._garbage(f"not a header: {line[: named.start()][:80]!r}", named.start())
                continue
            header = HEADER.fullmatch(line)
            if header is None:
                self._garbage(f"not a header: {line[:80]!r}")  # its Content-Length may follow in it
                continue
            del self.buf[: i + 1]
            self.headers = True
            if header.group(1).lower() != b"content-length":
                continue
            value = header.group(2)
            if not value.isdigit():
                out.append(self._unreadable(f"Content-Length is not a number: {value[:40].decode('latin-1')!r}"))
            elif int(value) > MAX_BODY:
                out.append(self._unreadable(f"Content-Length {int(value)} is over the limit ({MAX_BODY} bytes)"))
            else:
                self.length = int(value)

    def _unreadable(self, why: str) -> Unreadable:
        log.warning("unreadable message: %s", why)
        self.length, self.headers, self.resync = None, False, True
        return Unreadable(why)

    def _garbage(self, what: str, upto: int = 1) -> None:
        """Skip ``upto`` bytes (at least one: a malformed ``Content-Length:`` line is not found
        again where it starts), then up to the next Content-Length header."""
        log.warning("skipped bytes between messages: %s", what)
        del self.buf[:upto]
        self.length, self.headers, self.resync = None, False, True

    def _resync(self) -> bool:
        """Drop bytes up to the next ``Content-Length:`` (True: found, read on from there)."""
        found = CONTENT_LENGTH_NAME.search(self.buf)
        if found is None:
            del self.buf[: max(0, len(self.buf) - 32)]  # a header name cut by the read stays
            return False
        del self.buf[: found.start()]
        self.resync = False
        return True


def _fd(stream: Any) -> int | None:
    with contextlib.suppress(AttributeError, OSError, io.UnsupportedOperation):
        return int(stream.fileno())
    return None


def _pollable(fd: int | None) -> bool:
    """A pipe or a socket: the event loop can watch it (not a regular file)."""
    if fd is None:
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def serve(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Run ``server`` (a ``GraphMindServer``) on a pair of byte streams until the input ends or ``exit``."""
    stop = threading.Event()
    server.rpc.writer = StreamWriter(stdout)
    try:
        asyncio.run(_run(server, stdin, stop))
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop.set()
        server.shut_down()


def serve_tcp(server: Any, host: str, port: int) -> None:
    """Serve the first client that connects to ``host:port``, as ``serve`` does on stdio."""
    with socket.create_server((host, port)) as listener:
        conn, _ = listener.accept()
    with conn, conn.makefile("rb") as rfile, conn.makefile("wb") as wfile:
        serve(server, rfile, wfile)


async def _run(server: Any, stdin: BinaryIO, stop: threading.Event) -> None:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    rpc = server.rpc
    rpc.loop = loop

    def end() -> None:
        if not done.done():
            done.set_result(None)

    rpc.on_exit = end

    def deliver(bodies: list[bytes | Unreadable]) -> None:
        for body in bodies:
            if done.done():  # ``exit``: what follows it is not read
                return
            try:
                if isinstance(body, Unreadable):
                    rpc.parse_error(body.why)
                else:
                    rpc.receive(body)
            except Exception:
                log.exception("Unable to handle message")

    splitter = Splitter()
    fd = _fd(stdin)
    if fd is not None and _pollable(fd):

        def readable() -> None:
            try:  # the fd is readable: one read returns what is there without blocking
                chunk = os.read(fd, 1 << 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # stdin closed under us
                log.info("reading stdin stopped: %s", exc)
                chunk = b""
            if not chunk:
                end()
                return
            deliver(splitter.feed(chunk))

        loop.add_reader(fd, readable)
        try:
            await done
        finally:
            loop.remove_reader(fd)
        return

    def read() -> bytes:
        if fd is not None:  # (not a BufferedReader: a daemon thread blocked in one holds its
            return os.read(fd, 1 << 16)  # lock, and the interpreter aborts at exit when it cannot take it)
        return stdin.read1(1 << 16) if hasattr(stdin, "read1") else stdin.read(1 << 16)

    def reader() -> None:
        try:
            while not stop.is_set():
                chunk = read()
                if not chunk:
                    break
                bodies = splitter.feed(chunk)
                if bodies:
                    loop.call_soon_threadsafe(deliver, bodies)
        except (OSError, ValueError) as exc:  # stdin closed under us
            log.info("reading stdin stopped: %s", exc)
        finally:
            try:
                loop.call_soon_threadsafe(end)
            except RuntimeError:  # the loop is gone already (``exit``)
                pass

    threading.Thread(target=reader, name="graphmind-stdin", daemon=True).start()
    await done
