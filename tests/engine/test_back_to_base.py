"""A keystroke that leaves a buffer's interface the one other files were last resolved against
(``Document.base``) finds so symbol by symbol (``chunks.same_interface``), and the interface the
store then holds is known: the next keystroke that changes the interface again takes it as its
``base`` without reading the file's every symbol from the store, and nothing is resolved again
elsewhere. The graph once settled is a fresh index's."""

from __future__ import annotations

from pathlib import Path

from graph_util import assert_settled_equals_fresh, write_files
from graphmind.engine import Engine
from graphmind.store.store import Store

TS = (
    "export class Model {\n"
    "  save(): number {\n"
    "    return 1;\n"
    "  }\n"
    "}\n"
    "\n"
    "export function main() {\n"
    "  return new Model().save();\n"
    "}\n"
)
USER = 'import { Model } from "./model";\n\nexport function use() {\n  return new Model().save();\n}\n'


def test_an_interface_back_to_base_is_known_to_the_next_keystroke(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    write_files(tmp_path, {"model.ts": TS, "user.ts": USER})
    eng = Engine(tmp_path, db_path=tmp_path / "i.db", jobs=1)
    eng.index()
    doc = eng.open_document("model.ts", TS)
    assert doc is not None
    reads: list[str] = []  # the keys whose keystroke read the file's interface from the store
    interface = Store.interface
    typing: list[str] = [""]

    def spied(self, file_id):  # type: ignore[no-untyped-def]
        reads.append(typing[0])
        return interface(self, file_id)

    monkeypatch.setattr(Store, "interface", spied)
    at = TS.index("    return 1;\n  }\n") + len("    return 1;\n  }\n")
    # the signature alone is whole text with the interface as it was (an overload declares no
    # symbol); its body's ``{`` declares a method: the interface changes again
    typed = "\n  go(a: number) {\n    return a;\n  }\n"
    for i, ch in enumerate(typed):
        typing[0] = typed[: i + 1]
        eng.edit_document("model.ts", [(at + i, at + i, ch.encode())])
    typing[0] = ""
    back = typed.index(")") + 1
    assert not [t for t in reads if len(t) >= back], reads  # (the first change of the interface reads it)
    assert_settled_equals_fresh(eng, tmp_path / "fresh", {"model.ts": doc.text.decode(), "user.ts": USER}, jobs=1)
