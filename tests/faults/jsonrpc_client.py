"""A raw JSON-RPC client over a language server's stdio, for fault injection.

It sends exactly the bytes a test asks for (malformed params, odd ids, messages out of order), so
it talks to a server the test started itself (``RawServer.start``), never to anything else. Every
wait is bounded by a timeout.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Message = dict[str, Any]


@dataclass
class RawServer:
    proc: subprocess.Popen[bytes]
    inbox: queue.Queue[Message] = field(default_factory=queue.Queue)
    seen: list[Message] = field(default_factory=list)  # every message the server sent, in order
    stderr: list[str] = field(default_factory=list)
    next_id: int = 1

    @staticmethod
    def start(cwd: Path, *args: str, env: dict[str, str] | None = None) -> RawServer:
        cmd = [sys.executable, "-m", "graphmind", "serve", *args]
        proc = subprocess.Popen(
            cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        server = RawServer(proc)
        threading.Thread(target=server._read, daemon=True).start()
        threading.Thread(target=server._read_stderr, daemon=True).start()
        return server

    # ------------------------------------------------------------------ wire
    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = out.read(length)
            msg = json.loads(body)
            self.seen.append(msg)
            self.inbox.put(msg)

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr.append(line.decode("utf-8", "replace"))

    def send_raw(self, body: bytes) -> None:
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def write(self, data: bytes) -> None:
        """Bytes to the server's stdin as they are (headers and all)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: Message) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", **msg}).encode("utf-8"))

    # ------------------------------------------------------------------ requests
    def request(self, method: str, params: Any = None, *, msg_id: Any = None, omit_params: bool = False) -> Any:
        """Send a request and return its id (the answer is read with ``answer``)."""
        if msg_id is None:
            msg_id = self.next_id
            self.next_id += 1
        msg: Message = {"id": msg_id, "method": method}
        if not omit_params:
            msg["params"] = params
        self.send(msg)
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, "params": params})

    def wait_for(self, pred: Callable[[Message], bool], timeout: float = 30.0) -> Message:
        """The next message (already received or not) that ``pred`` accepts; answers the server's
        own requests (configuration, registration, progress) as a client would."""
        for msg in self.seen:
            if pred(msg) and not msg.get("_taken"):
                msg["_taken"] = True
                return msg
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout}s; stderr:\n{''.join(self.stderr[-30:])}")
            try:
                msg = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if "method" in msg and "id" in msg:  # a request from the server
                self._reply_to_server(msg)
            if pred(msg) and not msg.get("_taken"):
                msg["_taken"] = True
                return msg

    def _reply_to_server(self, msg: Message) -> None:
        result: Any = None
        if msg["method"] == "workspace/configuration":
            result = [None for _ in msg["params"]["items"]]
        self.send({"id": msg["id"], "result": result})

    def answer(self, msg_id: Any, timeout: float = 30.0) -> Message:
        return self.wait_for(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def call(self, method: str, params: Any = None, timeout: float = 30.0, **kw: Any) -> Message:
        return self.answer(self.request(method, params, **kw), timeout)

    def answers_to(self, msg_id: Any) -> list[Message]:
        """Every answer the server sent so far to ``msg_id`` (to check there is exactly one)."""
        return [m for m in self.seen if m.get("id") == msg_id and "method" not in m]

    def notifications(self, method: str) -> list[Message]:
        return [m for m in self.seen if m.get("method") == method and "id" not in m]

    # ------------------------------------------------------------------ session
    def initialize(self, root: Path, capabilities: dict[str, Any] | None = None, timeout: float = 30.0) -> Message:
        got = self.call(
            "initialize",
            {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": capabilities or {},
             "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}]},
            timeout=timeout,
        )
        self.notify("initialized", {})
        return got

    def wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.call("graphmind/status", {}, timeout=timeout)
            if got.get("result", {}).get("ready"):
                return
            time.sleep(0.05)
        raise TimeoutError("the server did not finish indexing")

    def wait_exit(self, timeout: float = 15.0) -> int:
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        """End the server this test started (politely, then by its pid)."""
        if self.proc.poll() is None:
            try:
                self.call("shutdown", None, timeout=5)
                self.notify("exit", None)
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def peak_rss_mb(self) -> float:
        """The server's peak resident memory so far (Linux: VmHWM)."""
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0
