"""The editors open GraphMind for the first-class and tag-level languages: each one's VS Code language
id is in the extension's document selector and activation events, and its Neovim filetype in the
client's ``filetypes``; the server maps each to the language's plugin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from graphmind import languages
from graphmind.languages.tags.specs import TABLE

ROOT = Path(__file__).parents[2]
# language -> (VS Code language id, Neovim filetype)
EDITOR_IDS = {
    "csharp": ("csharp", "cs"), "kotlin": ("kotlin", "kotlin"),
    # tag level
    "swift": ("swift", "swift"), "scala": ("scala", "scala"), "lua": ("lua", "lua"), "bash": ("shellscript", "sh"),
    "elixir": ("elixir", "elixir"), "perl": ("perl", "perl"), "r": ("r", "r"), "julia": ("julia", "julia"),
    "zig": ("zig", "zig"), "haskell": ("haskell", "haskell"), "ocaml": ("ocaml", "ocaml"),
    "clojure": ("clojure", "clojure"), "erlang": ("erlang", "erlang"), "fsharp": ("fsharp", "fsharp"),
    "objc": ("objective-c", "objc"), "elisp": ("elisp", "lisp"), "commonlisp": ("commonlisp", "lisp"),
    "d": ("d", "d"), "nim": ("nim", "nim"), "odin": ("odin", "odin"), "gleam": ("gleam", "gleam"),
    "hack": ("hack", "hack"), "fortran": ("fortran", "fortran"), "pascal": ("pascal", "pascal"),
    "powershell": ("powershell", "ps1"), "cuda": ("cuda-cpp", "cuda"), "solidity": ("solidity", "solidity"),
    "tcl": ("tcl", "tcl"), "starlark": ("starlark", "bzl"), "luau": ("luau", "luau"),
    "gdscript": ("gdscript", "gdscript"), "elm": ("elm", "elm"), "purescript": ("purescript", "purescript"),
    "ada": ("ada", "ada"), "racket": ("racket", "racket"), "scheme": ("scheme", "scheme"),
    "fennel": ("fennel", "fennel"), "janet": ("janet", "janet"), "apex": ("apex", "apex"), "vim": ("viml", "vim"),
    "squirrel": ("squirrel", "squirrel"), "glsl": ("glsl", "glsl"), "hlsl": ("hlsl", "hlsl"), "pony": ("pony", "pony"),
}
# Neovim names one filetype for two languages: the server picks a file's language by its extension
SHARED_FILETYPES = {"lisp": "commonlisp"}


def test_every_tag_language_is_in_the_editors() -> None:
    assert {spec.name for spec in TABLE} <= set(EDITOR_IDS)


@pytest.mark.parametrize("lang", sorted(EDITOR_IDS))
def test_editors_open_the_language(lang: str) -> None:
    vscode_id, nvim_ft = EDITOR_IDS[lang]
    selector = re.findall(r"'([\w-]+)'", (ROOT / "client-vscode/src/languages.ts").read_text())
    assert vscode_id in selector
    manifest = json.loads((ROOT / "client-vscode/package.json").read_text())
    assert f"onLanguage:{vscode_id}" in manifest["activationEvents"]
    lua = (ROOT / "client-nvim/lsp/graphmind.lua").read_text()
    filetypes = re.search(r"filetypes = \{(.*?)\}", lua, re.S)
    assert filetypes is not None and f"'{nvim_ft}'" in filetypes.group(1)
    for language_id in (vscode_id, nvim_ft):
        plugin = languages.for_lsp_id(language_id)
        assert plugin is not None and plugin.name == SHARED_FILETYPES.get(language_id, lang), language_id
