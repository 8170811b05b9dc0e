#!/usr/bin/env python3
"""The CPU time of edits that change a file's interface (the full path: the file and every file
that depends on what changed are re-resolved): a method added to a class of an open buffer, then
removed, ``N`` times each.

    PYTHONPATH=<tree>/server python scripts/perf_interface_edit.py WS FILE "CLASS HEADER" [N]

e.g. ``WS`` holding Django's ``django/``, ``django/db/models/fields/json.py`` and
``"class JSONField(CheckFieldDefaultMixin, Field):"``. ``WS`` is indexed in place (use a copy no
other run shares); run it for two trees one after the other, alternating, for a comparison.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    from graphmind.engine import Engine

    ws, rel, header = Path(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    text = (ws / rel).read_bytes()
    eng = Engine(ws)
    eng.index()
    eng.open_document(rel, text)
    # after the class's first method
    pos = text.index(b"\n\n", text.index(b"    def ", text.index(header))) + 1
    added = b"\n    def added_by_the_benchmark(self):\n        return self\n"
    ms: list[float] = []
    for _ in range(n):
        for edit in ((pos, pos, added), (pos, pos + len(added), b"")):
            t = time.process_time()
            eng.edit_document(rel, [edit])
            ms.append((time.process_time() - t) * 1000)
    print(f"{len(ms)} edits, CPU median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms, {eng.stats}")
    eng.close()


if __name__ == "__main__":
    main()
