#!/usr/bin/env python3
"""A small, dependency-free JSON-RPC / LSP client over stdio for benchmarks and accuracy runs.

Standard library only (threads + subprocess). Typical use::

    with LspClient(["basedpyright-langserver", "--stdio"]) as c:
        c.initialize(workspace)                # also sends `initialized`
        c.did_open(workspace / "pkg/mod.py")
        items, secs = c.timed_request("textDocument/prepareCallHierarchy", {...})
        print(c.memory())                      # RSS of the server and all its children
    # __exit__ sends shutdown/exit, waits, and kills the process tree on timeout

Server -> client requests are answered automatically (``workspace/configuration`` with
the matching section of ``settings`` or null, ``client/registerCapability``,
``window/workDoneProgress/create`` and the various ``*/refresh`` requests with null...);
notifications (``$/progress``, ``textDocument/publishDiagnostics``, ``window/logMessage``...)
are collected with their arrival time in ``notifications``.

Running it as a script performs a smoke test: ``python scripts/lsp_client.py -- CMD ARGS...``
initializes CMD on the current directory, prints the server's capabilities, memory and
timings as JSON, and shuts it down.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

JSON = Any


class LspError(Exception):
    """A JSON-RPC error response."""

    def __init__(self, method: str, error: dict[str, Any]) -> None:
        self.method = method
        self.code = error.get("code")
        self.data = error.get("data")
        super().__init__(f"{method}: [{self.code}] {error.get('message')}")


class ServerExited(Exception):
    """The server process ended while a response was awaited."""


def path_to_uri(path: str | os.PathLike[str]) -> str:
    return Path(path).resolve().as_uri()


def uri_to_path(uri: str) -> Path:
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme != "file":
        raise ValueError(f"not a file URI: {uri}")
    return Path(urllib.parse.unquote(parsed.path))


# ------------------------------------------------------------------------------------------
# process memory (Linux /proc)
# ------------------------------------------------------------------------------------------


def _status_kb(pid: int) -> dict[str, int]:
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, val = line.split(":", 1)
                    out[key] = int(val.split()[0])
    except (FileNotFoundError, ProcessLookupError, PermissionError, ValueError):
        pass
    return out


def process_tree(pid: int) -> list[int]:
    """*pid* and all its live descendants (scan of /proc/*/stat)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                stat = fh.read()
        except OSError:
            continue
        # the command name may contain spaces/parens: ppid follows the last ')'
        rest = stat.rsplit(")", 1)[-1].split()
        if len(rest) >= 2:
            children.setdefault(int(rest[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def tree_memory(pid: int) -> dict[str, int]:
    """Current RSS and summed high-water marks (kB) of *pid* and its descendants."""
    rss = hwm = 0
    pids = process_tree(pid)
    for p in pids:
        st = _status_kb(p)
        rss += st.get("VmRSS", 0)
        hwm += st.get("VmHWM", 0)
    return {"rss_kb": rss, "hwm_kb": hwm, "processes": len(pids)}


# ------------------------------------------------------------------------------------------
# client
# ------------------------------------------------------------------------------------------


class _Pending:
    __slots__ = ("method", "sent", "event", "response", "received")

    def __init__(self, method: str) -> None:
        self.method = method
        self.sent = time.perf_counter()
        self.event = threading.Event()
        self.response: dict[str, Any] | None = None
        self.received = 0.0


class LspClient:
    """Synchronous LSP client; a reader thread dispatches responses, server requests and notifications."""

    def __init__(
        self,
        cmd: list[str],
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        stderr: str | os.PathLike[str] | None = None,
        settings: dict[str, Any] | None = None,
        sample_memory_every: float | None = 0.25,
        trace: IO[str] | None = None,
    ) -> None:
        self.cmd = list(cmd)
        self.cwd = cwd
        self.env = env
        self.stderr_path = stderr
        self.settings = settings or {}
        self.sample_every = sample_memory_every
        self.trace = trace
        self.proc: subprocess.Popen[bytes] | None = None
        self.t_start = 0.0
        self.notifications: list[tuple[float, str, JSON]] = []
        self.server_requests: list[tuple[float, str, JSON]] = []
        self.handlers: dict[str, Callable[[JSON], JSON]] = {
            "workspace/configuration": self._on_configuration,
            "client/registerCapability": lambda p: None,
            "client/unregisterCapability": lambda p: None,
            "window/workDoneProgress/create": lambda p: None,
            "window/showMessageRequest": lambda p: None,
            "window/showDocument": lambda p: {"success": False},
            "workspace/applyEdit": lambda p: {"applied": False},
            "workspace/workspaceFolders": lambda p: self._folders,
        }
        self.peak_rss_kb = 0
        self._folders: list[dict[str, str]] | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int | str, _Pending] = {}  # awaiting a response (reader side)
        self._by_id: dict[int, _Pending] = {}  # sent, not yet collected by wait()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._closed = threading.Event()
        self._stderr_fh: IO[bytes] | None = None
        self._threads: list[threading.Thread] = []

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> LspClient:
        if self.stderr_path is not None:
            self._stderr_fh = open(self.stderr_path, "wb")  # noqa: SIM115 - closed in close()
        self.t_start = time.perf_counter()
        self.proc = subprocess.Popen(
            self.cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr_fh if self._stderr_fh is not None else subprocess.DEVNULL,
            cwd=self.cwd,
            env=self.env,
            start_new_session=True,  # own process group: kill the whole tree on timeout
        )
        reader = threading.Thread(target=self._read_loop, name="lsp-reader", daemon=True)
        reader.start()
        self._threads.append(reader)
        if self.sample_every:
            sampler = threading.Thread(target=self._sample_loop, name="lsp-mem", daemon=True)
            sampler.start()
            self._threads.append(sampler)
        return self

    def __enter__(self) -> LspClient:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int:
        assert self.proc is not None, "not started"
        return self.proc.pid

    def elapsed(self) -> float:
        """Seconds since the server process was spawned."""
        return time.perf_counter() - self.t_start

    def close(self, timeout: float = 10.0) -> int | None:
        """shutdown + exit, wait up to *timeout*, then kill the process group. Returns the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
            except (LspError, TimeoutError, ServerExited, OSError):
                pass
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self._kill_tree()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        # children (e.g. node workers) that outlived the parent
        self._kill_group()
        self._closed.set()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if self._stderr_fh is not None:
            self._stderr_fh.close()
            self._stderr_fh = None
        return proc.returncode

    def _kill_tree(self) -> None:
        assert self.proc is not None
        for pid in reversed(process_tree(self.proc.pid)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._kill_group()

    def _kill_group(self) -> None:
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    # -- wire ----------------------------------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None, "not started"
        body = json.dumps(msg, separators=(",", ":")).encode("utf-8")
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body
        if self.trace is not None:
            self.trace.write(f">> {body[:2000].decode('utf-8', 'replace')}\n")
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def _read_loop(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        stream = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = stream.read(length)
                if len(body) < length:
                    return
                if self.trace is not None:
                    self.trace.write(f"<< {body[:2000].decode('utf-8', 'replace')}\n")
                self._dispatch(json.loads(body))
        except (OSError, ValueError):
            return
        finally:
            with self._lock:
                pending = list(self._pending.values())
            for p in pending:
                p.event.set()
            with self._cond:
                self._cond.notify_all()

    def _dispatch(self, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        method = msg.get("method")
        if method is None:  # response
            with self._lock:
                pending = self._pending.pop(msg.get("id"), None)  # type: ignore[arg-type]
            if pending is not None:
                pending.response = msg
                pending.received = now
                pending.event.set()
            return
        if "id" in msg:  # server -> client request
            self.server_requests.append((now, method, msg.get("params")))
            handler = self.handlers.get(method)
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": msg["id"]}
            try:
                reply["result"] = handler(msg.get("params")) if handler else None
            except Exception as exc:  # noqa: BLE001 - report to server, keep going
                reply["error"] = {"code": -32603, "message": str(exc)}
            try:
                self._send(reply)
            except OSError:
                pass
            return
        with self._cond:
            self.notifications.append((now, method, msg.get("params")))
            self._cond.notify_all()

    def _on_configuration(self, params: JSON) -> list[JSON]:
        out = []
        for item in (params or {}).get("items", []):
            section = item.get("section")
            value: JSON = self.settings if not section else None
            if section:
                value = self.settings
                for part in section.split("."):
                    value = value.get(part) if isinstance(value, dict) else None
                    if value is None:
                        break
            out.append(value)
        return out

    def _sample_loop(self) -> None:
        while not self._closed.wait(self.sample_every or 0.25):
            proc = self.proc
            if proc is None or proc.poll() is not None:
                return
            mem = tree_memory(proc.pid)
            self.peak_rss_kb = max(self.peak_rss_kb, mem["rss_kb"])

    # -- API -----------------------------------------------------------------------------------------
    def notify(self, method: str, params: JSON = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg)

    def send_request(self, method: str, params: JSON = None) -> int:
        """Send a request without waiting; returns its id (see :meth:`wait`)."""
        rid = next(self._ids)
        pending = _Pending(method)
        with self._lock:
            self._pending[rid] = pending
        self._by_id[rid] = pending
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        pending.sent = time.perf_counter()
        self._send(msg)
        return rid

    def wait(self, rid: int, timeout: float | None = 60.0) -> tuple[JSON, float]:
        """Wait for response *rid*; returns (result, seconds from send to receipt)."""
        pending = self._by_id.pop(rid)
        if not pending.event.wait(timeout):
            with self._lock:
                self._pending.pop(rid, None)
            self.cancel(rid)
            raise TimeoutError(f"{pending.method} timed out after {timeout}s")
        if pending.response is None:
            raise ServerExited(f"server exited while waiting for {pending.method}")
        if "error" in pending.response:
            raise LspError(pending.method, pending.response["error"])
        return pending.response.get("result"), pending.received - pending.sent

    def cancel(self, rid: int) -> None:
        try:
            self.notify("$/cancelRequest", {"id": rid})
        except OSError:
            pass

    def timed_request(self, method: str, params: JSON = None, timeout: float | None = 60.0) -> tuple[JSON, float]:
        return self.wait(self.send_request(method, params), timeout)

    def request(self, method: str, params: JSON = None, timeout: float | None = 60.0) -> JSON:
        return self.timed_request(method, params, timeout)[0]

    def wait_notification(
        self,
        method: str,
        predicate: Callable[[JSON], bool] | None = None,
        timeout: float = 60.0,
        since: int = 0,
    ) -> JSON:
        """Block until a notification *method* (index >= *since*) matching *predicate* arrives."""
        deadline = time.perf_counter() + timeout
        seen = since
        with self._cond:
            while True:
                for i in range(seen, len(self.notifications)):
                    _, m, params = self.notifications[i]
                    if m == method and (predicate is None or predicate(params)):
                        return params
                seen = len(self.notifications)
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"no {method} notification within {timeout}s")
                if self.proc is not None and self.proc.poll() is not None:
                    raise ServerExited(f"server exited while waiting for {method}")
                self._cond.wait(min(left, 0.5))

    def progress(self) -> list[tuple[float, JSON]]:
        """All ``$/progress`` notifications so far as (seconds since spawn, params)."""
        return [(t - self.t_start, p) for t, m, p in self.notifications if m == "$/progress"]

    def memory(self) -> dict[str, int]:
        """Server-tree memory now (kB): current RSS, summed VmHWM, and the sampled peak RSS."""
        mem = tree_memory(self.pid)
        self.peak_rss_kb = max(self.peak_rss_kb, mem["rss_kb"])
        mem["peak_sampled_rss_kb"] = self.peak_rss_kb
        return mem

    # -- LSP conveniences -----------------------------------------------------------------------------
    def initialize(
        self,
        root: str | os.PathLike[str],
        capabilities: dict[str, Any] | None = None,
        initialization_options: JSON = None,
        timeout: float = 120.0,
    ) -> JSON:
        """initialize + initialized for a single workspace folder; returns the server's result."""
        root_path = Path(root).resolve()
        uri = root_path.as_uri()
        self._folders = [{"uri": uri, "name": root_path.name}]
        params: dict[str, Any] = {
            "processId": os.getpid(),
            "clientInfo": {"name": "graphmind-lsp-client", "version": "0.1"},
            "rootUri": uri,
            "rootPath": str(root_path),
            "workspaceFolders": self._folders,
            "capabilities": capabilities if capabilities is not None else default_capabilities(),
        }
        if initialization_options is not None:
            params["initializationOptions"] = initialization_options
        result = self.request("initialize", params, timeout=timeout)
        self.notify("initialized", {})
        return result

    def did_open(self, path: str | os.PathLike[str], text: str | None = None,
                 language_id: str = "python", version: int = 1) -> str:
        p = Path(path)
        uri = path_to_uri(p)
        if text is None:
            text = p.read_text(encoding="utf-8", errors="replace")
        self.notify("textDocument/didOpen", {
            "textDocument": {"uri": uri, "languageId": language_id, "version": version, "text": text},
        })
        return uri

    def did_close(self, path: str | os.PathLike[str]) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": path_to_uri(path)}})

    def did_change_full(self, path: str | os.PathLike[str], text: str, version: int) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": path_to_uri(path), "version": version},
            "contentChanges": [{"text": text}],
        })


def default_capabilities(progress: bool = True) -> dict[str, Any]:
    """Client capabilities sufficient for call hierarchy, references and progress reporting."""
    return {
        "workspace": {
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": True},
            "didChangeWatchedFiles": {"dynamicRegistration": True},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": True, "didSave": True},
            "callHierarchy": {"dynamicRegistration": True},
            "references": {"dynamicRegistration": True},
            "definition": {"dynamicRegistration": True, "linkSupport": True},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            "publishDiagnostics": {"relatedInformation": False},
        },
        "window": {"workDoneProgress": progress},
        "general": {"positionEncodings": ["utf-16"]},
    }


def percentile(values: Iterable[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100) of *values*; nan when empty."""
    data = sorted(values)
    if not data:
        return float("nan")
    k = max(0, min(len(data) - 1, math.ceil(pct / 100.0 * len(data)) - 1))
    return data[k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Smoke-test an LSP server over stdio.")
    ap.add_argument("--root", type=Path, default=Path.cwd(), help="workspace folder (default: cwd)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER, help="server command (after --)")
    args = ap.parse_args(argv)
    cmd = [c for c in args.cmd if c != "--"] if args.cmd and args.cmd[0] == "--" else args.cmd
    if not cmd:
        ap.error("missing server command")
    with LspClient(cmd, cwd=args.root) as client:
        result, secs = client.timed_request("initialize", {
            "processId": os.getpid(), "rootUri": args.root.resolve().as_uri(),
            "workspaceFolders": [{"uri": args.root.resolve().as_uri(), "name": args.root.name}],
            "capabilities": default_capabilities(),
        }, timeout=args.timeout)
        client.notify("initialized", {})
        out = {
            "server": (result or {}).get("serverInfo"),
            "capabilities": sorted((result or {}).get("capabilities", {})),
            "initialize_seconds": round(secs, 4),
            "since_spawn_seconds": round(client.elapsed(), 4),
            "memory_kb": client.memory(),
        }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
