"""The *brief* rendering of an impact answer (blast radius, changes): grouped by file, each file
naming the line ranges to read and, for each affected definition, the lines where it calls the
hop before it. Module-level callers (scripts, ``if __name__ == "__main__":`` demos, top-level
registrations) are rolled up per file into one count and a list of lines.

Entries come in rank order (the caller's); a file appears where its first entry ranks.
"""

from __future__ import annotations

from typing import Any

from .text import line_ranges, plural

Json = dict[str, Any]


def entry(item: Json) -> Json:
    """A blast item (``answers.blast_json`` shape) as a brief entry."""
    chain = item.get("chain") or []
    prev = chain[-2] if len(chain) >= 2 else None
    return {
        "qualifiedName": item["qualifiedName"],
        "kind": item["kind"],
        "path": item["path"],
        "lines": [item["startLine"], item["endLine"]],
        "depth": item["depth"],
        "confidence": item["confidence"],
        "calls": prev.rsplit(".", 1)[-1] if prev else None,
        "at": [[s["line"], s["column"]] for s in item.get("callSites", [])],
    } | ({"implements": item["via"]["key"]} if item.get("via", {}).get("kind") == "implements" else {})


def group(entries: list[Json]) -> list[Json]:
    """Brief entries grouped by file, in the order of their first entry."""
    files: dict[str, Json] = {}
    for e in entries:
        f = files.get(e["path"])
        if f is None:
            f = files[e["path"]] = {"path": e["path"], "read": "", "symbols": []}
        if e["kind"] == "module":
            ml = f.setdefault("moduleLevel", {"calls": 0, "lines": [], "of": []})
            ml["calls"] += len(e["at"])
            ml["lines"] = sorted({*ml["lines"], *(a[0] for a in e["at"])})
            if e["calls"] and e["calls"] not in ml["of"]:
                ml["of"].append(e["calls"])
            if e.get("inScriptBlock"):  # every one of them runs only as a script
                ml["in"] = "__main__"
        else:
            f["symbols"].append({k: v for k, v in e.items() if k not in ("path", "kind")} | {"kind": e["kind"]})
    for f in files.values():
        spans = [tuple(s["lines"]) for s in f["symbols"]]
        lines = [n for a, b in spans for n in range(a, b + 1)]
        lines += f.get("moduleLevel", {}).get("lines", [])
        f["read"] = line_ranges(lines, gap=2)  # a blank line or two between definitions: one read
        if not f["symbols"]:
            del f["symbols"]
    return list(files.values())


def text(files: list[Json]) -> list[str]:
    out: list[str] = []
    for f in files:
        out.append(f"{f['path']}  read {f['read']}")
        for s in f.get("symbols", []):
            at = ", ".join(f"{a[0]}" for a in s["at"])
            calls = f" calls {s['calls']} at {at}" if s["calls"] and at else ""
            if "implements" in s:  # reached from the declaration, not through a call site
                calls = f" implements {s['implements']}"
            out.append(f"  {s['lines'][0]}-{s['lines'][1]} {s['qualifiedName']} (d{s['depth']} {s['confidence']}){calls}")
        ml = f.get("moduleLevel")
        if ml:
            of = f" of {', '.join(ml['of'])}" if ml["of"] else ""
            where = f" in {ml['in']}" if ml.get("in") else ""
            out.append(f"  {plural(ml['calls'], 'module-level call')}{of}{where} at lines {line_ranges(ml['lines'])}")
    return out
