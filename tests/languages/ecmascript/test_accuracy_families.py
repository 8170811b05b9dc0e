"""The method families of ``scripts/accuracy_ts.py`` (the rule its "by method family" figures
apply to both tools' edges): methods of one name in classes / interfaces connected by
``extends`` / ``implements``, siblings included, and the methods of object literals typed by
one of them. Unrelated same-named methods stay apart. And how a raw edge only tsserver has
stands to what GraphMind links in its family (``raw_miss_class``)."""

from __future__ import annotations

import sys
from pathlib import Path

from graphmind.engine import Engine

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from accuracy_ts import Ours, method_families, raw_miss_class  # noqa: E402
from peer_tsserver import Key  # noqa: E402

SOURCE = """\
export interface Observer {
  next(v: number): void;
}
export class Subscriber implements Observer {
  next(v: number): void {}
}
export class Safe extends Subscriber {
  next(v: number): void {}
}
export class Consumer implements Observer {
  next(v: number): void {}
}
export const literal: Observer = {
  next(v: number) {},
};
export class Queue {
  next(): void {}
}
"""


def test_families_join_implementations_siblings_and_typed_literals(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "o.ts").write_text(SOURCE)
    eng = Engine(tmp_path / "ws", db_path=tmp_path / "index.db")
    eng.index()
    family, _ = method_families(eng, lambda path, name, nsl, nsc, rng: Key(path, nsl, nsc))
    eng.close()
    lines = SOURCE.splitlines()

    def key(line_text: str) -> Key:
        line = next(i for i, t in enumerate(lines) if t.startswith(line_text))
        return Key("o.ts", line + 1, lines[line + 1].index("next"))

    members = [key(t) for t in ("export interface Observer", "export class Subscriber", "export class Safe",
                                "export class Consumer", "export const literal")]
    assert {family[k] for k in members} == {min(members)}
    queue = key("export class Queue")
    assert family[queue] == queue  # an unrelated class's `next` is a family of its own


def test_raw_misses_are_classed_by_how_they_stand_to_the_linked_member(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "o.ts").write_text(SOURCE)
    eng = Engine(tmp_path / "ws", db_path=tmp_path / "index.db")
    eng.index()
    family, types = method_families(eng, lambda path, name, nsl, nsc, rng: Key(path, nsl, nsc))
    eng.close()
    lines = SOURCE.splitlines()

    def key(line_text: str) -> Key:
        line = next(i for i, t in enumerate(lines) if t.startswith(line_text))
        return Key("o.ts", line + 1, lines[line + 1].index("next"))

    observer, subscriber, safe, consumer, queue = (key(t) for t in (
        "export interface Observer", "export class Subscriber", "export class Safe", "export class Consumer",
        "export class Queue"))
    found = Ours({}, set(), [], 0.0, {}, {}, family, types)
    caller = Key("o.ts", 0, 0)
    ours = {(caller, subscriber)}  # GraphMind links Subscriber.next

    def cls(callee: Key) -> str:
        return raw_miss_class((caller, callee), ours, found)

    assert cls(observer) == "upward"  # the interface member Subscriber implements
    assert cls(safe) == "downward"  # an override below it
    assert cls(consumer) == "across"  # a sibling implementation
    assert cls(queue) == "family miss"  # another family: nothing of it is linked
    assert raw_miss_class((subscriber, subscriber), {(subscriber, observer)}, found) == "the override itself (super.m())"
