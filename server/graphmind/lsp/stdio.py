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
import json
import logging
import os
import re
import socket
import stat
import threading
from typing import Any, BinaryIO

from .jsonrpc import StreamWriter

log = logging.getLogger(__name__)

CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")


class Splitter:
    """Whole message bodies out of a byte stream that comes in chunks: headers up to the blank
    line, then Content-Length bytes. Lines before a Content-Length header are skipped, as pygls does."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.length = 0  # of the body the headers read so far announce
        self.in_body = False

    def feed(self, data: bytes) -> list[bytes]:
        self.buf += data
        out: list[bytes] = []
        while True:
            if self.in_body:
                if len(self.buf) < self.length:
                    return out
                out.append(bytes(self.buf[: self.length]))
                del self.buf[: self.length]
                self.length, self.in_body = 0, False
                continue
            i = self.buf.find(b"\n")
            if i < 0:
                return out
            header = bytes(self.buf[: i + 1])
            del self.buf[: i + 1]
            if not self.length:
                match = CONTENT_LENGTH.fullmatch(header)
                if match:
                    self.length = int(match.group(1))
            elif not header.strip():
                self.in_body = True


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

    def deliver(bodies: list[bytes]) -> None:
        for body in bodies:
            if done.done():  # ``exit``: what follows it is not read
                return
            try:
                rpc.handle(json.loads(body))
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
