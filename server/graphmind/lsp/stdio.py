"""The stdio transport: one reader thread hands whole messages to the event loop.

pygls reads stdin on its thread pool one line at a time (each header line and the body is a trip
to a worker thread and back), four thread hand-offs per message. Here a thread of our own reads
a whole message (headers and body) and hands it over once; the event loop decodes and handles
messages in the order they came (``jsonrpc.JsonRpc.handle``; a failure is logged and the loop
goes on). Nothing here imports pygls or lsprotocol (see ``jsonrpc.py``).
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
import threading
from typing import Any, BinaryIO

from .jsonrpc import StreamWriter

log = logging.getLogger(__name__)

CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")


class FdReader:
    """Buffered reads straight from a file descriptor. A daemon thread blocked in a
    ``BufferedReader`` holds its lock, and the interpreter aborts at exit when it cannot take it;
    ``os.read`` holds none."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()

    def _fill(self) -> bool:
        chunk = os.read(self.fd, 1 << 16)
        self.buf += chunk
        return bool(chunk)

    def readline(self) -> bytes:
        start = 0
        while (i := self.buf.find(b"\n", start)) < 0:
            start = len(self.buf)
            if not self._fill():
                i = len(self.buf) - 1
                break
        line = bytes(self.buf[: i + 1])
        del self.buf[: i + 1]
        return line

    def read(self, n: int) -> bytes:
        while len(self.buf) < n and self._fill():
            pass
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out


def _reader_of(stdin: BinaryIO) -> BinaryIO | FdReader:
    with contextlib.suppress(AttributeError, OSError, io.UnsupportedOperation):
        return FdReader(stdin.fileno())
    return stdin


def read_message(stdin: BinaryIO | FdReader) -> bytes | None:
    """The next message's body (None at the end of input): headers up to the blank line, then
    Content-Length bytes. Lines before a Content-Length header are skipped, as pygls does."""
    length = 0
    while True:
        header = stdin.readline()
        if not header:
            return None
        if not length:
            match = CONTENT_LENGTH.fullmatch(header)
            if match:
                length = int(match.group(1))
        if length and not header.strip():
            body = stdin.read(length)
            return body or None


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

    def deliver(body: bytes | None) -> None:
        if body is None:
            end()
            return
        try:
            rpc.handle(json.loads(body))
        except Exception:
            log.exception("Unable to handle message")

    source = _reader_of(stdin)

    def reader() -> None:
        try:
            while not stop.is_set():
                body = read_message(source)
                if body is None:
                    break
                loop.call_soon_threadsafe(deliver, body)
        except (OSError, ValueError) as exc:  # stdin closed under us
            log.info("reading stdin stopped: %s", exc)
        finally:
            try:
                loop.call_soon_threadsafe(deliver, None)
            except RuntimeError:  # the loop is gone already (``exit``)
                pass

    threading.Thread(target=reader, name="graphmind-stdin", daemon=True).start()
    await done
