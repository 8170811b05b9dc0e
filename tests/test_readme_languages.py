"""README's languages table names every language of ``languages.PLUGINS`` with its tier, and each
one's measured precision and recall is in the README: in its row (first class) or in the tag-level
hand-read table (tag level). A language added to PLUGINS without its README entry fails here."""

from __future__ import annotations

import re
from pathlib import Path

from graphmind import languages
from graphmind.languages.tags.specs import TABLE

README = Path(__file__).resolve().parents[1] / "README.md"
TAGS = {spec.name for spec in TABLE}
NOT_CODE = {"markdown", "gomod"}  # doc notes; go.mod, read for Go's module path
# how README names a language, where that is not the id capitalized
NAMES = {
    "typescript": "TypeScript", "tsx": "TSX", "javascript": "JavaScript", "c": "C", "cpp": "C++", "php": "PHP",
    "csharp": "C#", "r": "R", "ocaml": "OCaml", "fsharp": "F#", "objc": "Objective-C", "elisp": "Emacs Lisp",
    "commonlisp": "Common Lisp", "d": "D", "powershell": "PowerShell", "cuda": "CUDA", "gdscript": "GDScript",
    "purescript": "PureScript", "vim": "Vim script", "glsl": "GLSL", "hlsl": "HLSL", "pascal": "Pascal",
}
# first-class languages checked on fixtures by hand, with no measured P/R (README says so in the row)
HAND_CHECKED = {"rust", "java"}


def _name(lang: str) -> str:
    return NAMES.get(lang, lang.capitalize())


def _table(title: str) -> list[list[str]]:
    """The rows (cells) of the first table below the heading ``title``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{title}\n")
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
        elif rows:
            break
    return rows[2:]  # without the header and its rule


def _names(cell: str) -> set[str]:
    """The language names of a row's first cell: ``Pascal/Delphi (.pas .dpr .lpr)`` is Pascal."""
    return {n.split("/")[0].strip() for n in re.split(r"[,;]", re.sub(r"\s*\(.*?\)", "", cell))}


def test_every_language_has_its_tier_and_measure_in_the_readme() -> None:
    rows = [(_names(r[0]), r[1], r[-1]) for r in _table("## Languages")]
    hand = {r[0]: r for r in _table("### Tag-level languages: hand-read samples")}
    for lang in sorted({lang for p in languages.PLUGINS for lang in p.languages} - NOT_CODE):
        found = [(tier, measured) for names, tier, measured in rows if _name(lang) in names]
        assert len(found) == 1, f"{lang}: {_name(lang)!r} in {len(found)} rows of README's languages table"
        tier, measured = found[0]
        if lang in TAGS:
            assert tier.startswith("tag level"), lang
            row = hand.get(_name(lang))
            assert row is not None, f"{lang}: no row in the tag-level hand-read table"
            assert re.fullmatch(r"[01]?\.\d{3}", row[-2]) and re.fullmatch(r"[01]?\.\d{3}", row[-1]), row
        else:
            assert tier == "first class", lang
            if lang in HAND_CHECKED:
                assert "hand-checked" in measured, lang
            else:
                assert re.search(r"\bP \.\d{3}", measured) and re.search(r"\bR \.\d{3}", measured), (lang, measured)
