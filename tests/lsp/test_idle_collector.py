"""The server's cyclic collector (``lsp/collector.py``): off while messages come, the young
generations collected once the client is quiet, everything a little later, and a client that never
pauses still bounded (a full collection once enough objects were made since the last one)."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from graphmind.lsp import collector as collector_mod
from graphmind.lsp.collector import IdleCollector


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


@pytest.fixture
def held() -> Iterator[IdleCollector]:
    was = gc.isenabled()
    c = IdleCollector()
    c.hold()
    try:
        yield c
    finally:
        c.release()
        if not was:
            gc.disable()


def _cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


def test_hold_turns_automatic_collections_off_and_release_on(held: IdleCollector) -> None:
    assert not gc.isenabled()
    gc.enable()  # an update that began before hold turns it on at its end
    held.after_message(None)
    assert not gc.isenabled()
    held.release()
    assert gc.isenabled()


class Timer:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """A loop's ``call_later`` whose time passes only when the test says (a test of what quiet
    does, on a loaded machine, must not depend on how long a sleep lasts)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        self.timers.append(Timer(self.now + delay, callback))
        return self.timers[-1]

    def advance(self, seconds: float) -> None:
        self.now += seconds
        while due := sorted((t for t in self.timers if t.when <= self.now and not t.cancelled), key=lambda t: t.when):
            due[0].cancelled = True
            due[0].callback()


def test_quiet_client_gets_young_then_full_collection(held: IdleCollector) -> None:
    """Quiet for a moment: what the last messages made is collected and its survivors frozen; quiet
    for longer: everything, so a cycle among frozen objects is freed too."""
    clock = Clock()
    loop = cast(asyncio.AbstractEventLoop, clock)
    old = Node()  # alive at the young collection: frozen by it
    old_ref = weakref.ref(old)
    new_ref = _cycle()  # garbage already
    held.after_message(loop)
    for _ in range(collector_mod.EVERY - 2):  # messages keep coming: nothing is collected yet
        clock.advance(collector_mod.YOUNG_IDLE_S / 10)
        held.after_message(loop)
    assert (held.collections, new_ref() is not None) == ([0, 0], True)
    clock.advance(collector_mod.YOUNG_IDLE_S)
    assert (held.collections, new_ref() is None, gc.get_freeze_count() > 0) == ([1, 0], True, True)
    del old  # now garbage, but frozen: only the full collection frees it
    gc.collect()
    assert old_ref() is not None
    clock.advance(collector_mod.FULL_IDLE_S)
    assert (held.collections, old_ref() is None) == ([1, 1], True)


def test_quiet_is_counted_from_the_last_message_without_a_timer_per_message(held: IdleCollector) -> None:
    """Messages do not move the timers (a keystroke would cancel and make four): a timer that comes
    before the client was quiet long enough waits for the rest of the quiet, from the last message."""
    clock = Clock()
    loop = cast(asyncio.AbstractEventLoop, clock)
    ref = _cycle()
    for _ in range(collector_mod.EVERY - 2):
        held.after_message(loop)
        clock.advance(collector_mod.YOUNG_IDLE_S / 8)
    assert len(clock.timers) <= 4  # (the young one came once, and waits again)
    assert held.collections == [0, 0] and ref() is not None
    clock.advance(collector_mod.YOUNG_IDLE_S * 7 / 8 - collector_mod.YOUNG_IDLE_S / 100)  # just short of quiet
    assert held.collections == [0, 0] and ref() is not None
    clock.advance(collector_mod.YOUNG_IDLE_S / 50)
    assert held.collections == [1, 0] and ref() is None
    clock.advance(collector_mod.FULL_IDLE_S)
    assert held.collections == [1, 1]
    held.after_message(loop)  # quiet again: both come again
    clock.advance(collector_mod.FULL_IDLE_S)
    assert held.collections == [2, 2]


def test_a_client_that_never_pauses_sets_aside_what_is_new_and_is_bounded(
    held: IdleCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every EVERY messages, after a message that made LIMIT objects, or one that alone made
    BURST, what is new is set aside (frozen, not walked: a keystroke's survivors are alive); a
    cycle among them is freed by the collection after a second of quiet, or once UNWALKED objects
    were set aside (a client that never pauses: bounded all the same)."""
    monkeypatch.setattr(collector_mod, "LIMIT", 5_000)
    monkeypatch.setattr(collector_mod, "BURST", 3_000)
    monkeypatch.setattr(collector_mod, "UNWALKED", 40_000)
    gc.collect()
    held.after_message(None)
    refs = [_cycle() for _ in range(1_000)]  # (each Node and its __dict__: two tracked objects)
    held.after_message(None)
    assert (held.collections, held.set_aside) == ([0, 0], 0)
    refs += [_cycle() for _ in range(2_000)]  # past LIMIT (and BURST): set aside, not collected
    held.after_message(None)
    assert (held.collections, held.set_aside, gc.get_count()[0] < 100) == ([0, 0], 1, True)
    assert all(r() is not None for r in refs) and gc.get_freeze_count() >= 6_000  # (frozen, alive)
    ref = _cycle()
    for n in range(collector_mod.EVERY):
        assert held.set_aside == 1, n
        held.after_message(None)
    assert (held.set_aside, ref() is not None, held.collections) == (2, True, [0, 0])
    burst = [_cycle() for _ in range(1_600)]  # one message's BURST (under LIMIT)
    monkeypatch.setattr(collector_mod, "LIMIT", 100_000)
    held.after_message(None)
    assert (held.set_aside, held.collections, burst[0]() is not None) == (3, [0, 0], True)
    while held.collections[1] == 0:  # UNWALKED objects set aside: everything is walked
        refs += [_cycle() for _ in range(2_000)]
        held.after_message(None)
        assert held.set_aside < 20
    assert all(r() is None for r in refs + burst) and ref() is None and held.unwalked == 0


def test_an_open_and_a_settle_that_made_many_objects_are_collected_at_once(
    held: IdleCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A didOpen, and a settle that alone made BURST objects, leave garbage (a buffer's former tree
    and facts): they are followed by a collection, which their garbage is freed by."""
    monkeypatch.setattr(collector_mod, "BURST", 3_000)
    gc.collect()
    held.after_message(None)
    opened = [_cycle() for _ in range(10)]
    held.opened()
    held.after_message(None)
    assert held.collections == [1, 0] and all(r() is None for r in opened)
    settled = [_cycle() for _ in range(2_000)]
    held.after_work()  # a settle: no message
    assert held.collections == [2, 0] and all(r() is None for r in settled)
    held.after_work()
    assert held.collections == [2, 0]


def test_work_that_made_fewer_objects_is_collected_once_the_client_is_quiet(held: IdleCollector) -> None:
    """Work no message asked for (an opened buffer's site memo filled in idle steps) that made
    fewer than BURST objects is collected once the client has been quiet YOUNG_IDLE_S, not by the
    EVERY-th message after it (a keystroke)."""
    clock = Clock()
    loop = cast(asyncio.AbstractEventLoop, clock)
    held.after_message(None)
    made = _cycle()
    held.after_work(loop)
    assert (held.collections, made() is not None) == ([0, 0], True)
    clock.advance(collector_mod.YOUNG_IDLE_S)
    assert (held.collections, made() is None) == ([1, 0], True)
    # that timer is spent: the next message's quiet is collected as any message's is
    held.after_message(loop)
    made = _cycle()
    clock.advance(collector_mod.YOUNG_IDLE_S)
    assert (held.collections[0], made() is None) == (2, True)


async def _ready_server(root: Path) -> Any:
    """A language server on ``root``, initialized, its index made and the collector held (or 30 s passed)."""
    from graphmind.lsp.server import create_server

    server = create_server()
    server.rpc.writer = io.BytesIO()
    server.rpc.loop = asyncio.get_running_loop()
    for message in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": "w"}]}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ):
        server.rpc.receive(json.dumps(message).encode())
    for _ in range(600):
        if server.ready.is_set() and server.collector.held:
            break
        await asyncio.sleep(0.05)
    return server


def test_server_holds_the_collector_after_its_index_and_releases_it_at_shutdown(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n\ndef g():\n    return f()\n")
    was = gc.isenabled()

    async def run() -> tuple[bool, bool, bool]:
        server = await _ready_server(tmp_path)
        held = server.collector.held and not gc.isenabled()
        server.rpc.receive(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "graphmind/status", "params": {}}).encode())
        still = not gc.isenabled()
        server.shut_down()
        return held, still, gc.isenabled()

    try:
        assert asyncio.run(run()) == (True, True, True)
    finally:
        if was:
            gc.enable()


def test_an_open_is_followed_by_a_collection_however_few_objects_it_made(held: IdleCollector) -> None:
    """A didOpen's objects (its buffer's tree and facts: ~11K for yaml.v3's ``scannerc.go``, under
    BURST) are walked right after it, not by the EVERY-th message after it (a keystroke)."""
    gc.collect()
    held.after_message(None)
    opened = _cycle()
    held.opened()
    held.after_message(None)
    assert (held.collections, opened() is None) == ([1, 0], True)
    made = _cycle()
    held.after_message(None)  # (the hint is the one message's)
    assert (held.collections, made() is not None) == ([1, 0], True)


def test_server_collects_after_a_did_open(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n\ndef g():\n    return f()\n")
    was = gc.isenabled()

    async def run() -> tuple[int, int]:
        server = await _ready_server(tmp_path)
        server.rpc.receive(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "graphmind/status", "params": {}}).encode())
        before = server.collector.collections[0]
        uri = (tmp_path / "m.py").as_uri()
        server.rpc.receive(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": "def f():\n    return 2\n"}}}).encode())
        after = server.collector.collections[0]
        server.shut_down()
        return before, after

    try:
        before, after = asyncio.run(run())
        assert after == before + 1
    finally:
        if was:
            gc.enable()
