"""The editors open GraphMind for every language it indexes (``languages.PLUGINS``): each one's VS Code
language id is in the extension's document selector and activation events, and its Neovim filetype in
the client's ``filetypes``; the VS Code extension also sends a file by its extension whatever id another
extension gives it; a real Neovim gives every extension a filetype the client attaches to. Adding a
language to PLUGINS without its editor entries fails here."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from graphmind import languages
from nvim_util import needs_nvim, nvim_path

ROOT = Path(__file__).parents[2]
VSCODE_LANGUAGES = ROOT / "client-vscode/src/languages.ts"
VSCODE_MANIFEST = ROOT / "client-vscode/package.json"
NVIM_CONFIG = ROOT / "client-nvim/lsp/graphmind.lua"

# language -> (VS Code language id, Neovim filetype)
EDITOR_IDS = {
    "python": ("python", "python"), "typescript": ("typescript", "typescript"),
    "tsx": ("typescriptreact", "typescriptreact"), "javascript": ("javascript", "javascript"), "go": ("go", "go"),
    "rust": ("rust", "rust"), "java": ("java", "java"), "c": ("c", "c"), "cpp": ("cpp", "cpp"), "php": ("php", "php"),
    "ruby": ("ruby", "ruby"), "csharp": ("csharp", "cs"), "kotlin": ("kotlin", "kotlin"),
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
# no call graph of their own: go.mod reaches the server as a file (the file watcher); doc notes too,
# and VS Code also sends open notes (their unsaved edits link symbols) without being activated by
# them, while Neovim does not attach to Markdown (it would start a server for any repository's README)
NOT_IN_EDITORS = {"markdown": "doc notes", "gomod": "go.mod, read for Go's module path"}
# Neovim names one filetype for two languages: the server picks a file's language by its extension
SHARED_FILETYPES = {"lisp": "commonlisp"}


def _plugin_languages() -> set[str]:
    return {lang for p in languages.PLUGINS for lang in p.languages}


def _extensions() -> list[str]:
    """Every extension an editor should send to the server, without the dot, in PLUGINS' order."""
    return [ext[1:] for p in languages.PLUGINS for lang, exts in p.languages.items() if lang not in NOT_IN_EDITORS
            for ext in exts]


def _ts_list(name: str) -> list[str]:
    """A ``export const NAME: readonly string[] = [...]`` of the extension's languages.ts."""
    m = re.search(rf"export const {name}: readonly string\[\] = \[(.*?)\];", VSCODE_LANGUAGES.read_text(), re.S)
    assert m is not None, name
    return re.findall(r"'([^']+)'", m.group(1))


def _nvim_filetypes() -> list[str]:
    m = re.search(r"filetypes = \{(.*?)\}", NVIM_CONFIG.read_text(), re.S)
    assert m is not None
    return re.findall(r"'([^']+)'", m.group(1))


def test_every_language_is_in_the_editors() -> None:
    assert set(EDITOR_IDS) == _plugin_languages() - set(NOT_IN_EDITORS)


@pytest.mark.parametrize("lang", sorted(EDITOR_IDS))
def test_editors_open_the_language(lang: str) -> None:
    vscode_id, nvim_ft = EDITOR_IDS[lang]
    assert vscode_id in _ts_list("LANGUAGES")
    manifest = json.loads(VSCODE_MANIFEST.read_text())
    assert f"onLanguage:{vscode_id}" in manifest["activationEvents"]
    assert nvim_ft in _nvim_filetypes()
    for language_id in (vscode_id, nvim_ft):
        plugin = languages.for_lsp_id(language_id)
        assert plugin is not None and plugin.name == SHARED_FILETYPES.get(language_id, lang), language_id


def test_vscode_sends_every_extension_whatever_its_language_id() -> None:
    """A file whose language id is none of ours (no extension for the language installed, or one
    naming it otherwise: Modern Fortran's ``FortranFreeForm``) is still sent by its extension,
    activates the extension, and has the blast radius in its context menu."""
    exts = _extensions()
    assert _ts_list("EXTENSIONS") == exts
    manifest = json.loads(VSCODE_MANIFEST.read_text())
    assert "workspaceContains:**/*.{" + ",".join(exts) + "}" in manifest["activationEvents"]
    (menu,) = [m for m in manifest["contributes"]["menus"]["editor/context"] if m["command"] == "graphmind.blastRadius"]
    by_id, by_ext = re.fullmatch(r"editorLangId =~ /(.*)/ \|\| resourceExtname =~ /(.*)/i", menu["when"]).groups()
    for vscode_id, _ in EDITOR_IDS.values():
        assert re.fullmatch(by_id, vscode_id), vscode_id
    for ext in exts:
        assert re.fullmatch(by_ext, "." + ext, re.I), ext
    assert not re.fullmatch(by_ext, ".md") and not re.fullmatch(by_id, "markdown")
    assert "{ scheme: 'file', language: 'markdown' }" in VSCODE_LANGUAGES.read_text()  # open notes are sent


def _samples() -> dict[str, str]:
    """A text per extension to open in Neovim (its detection reads the content for some: ``.h``,
    ``.cls``, ``.m``, ``.pl``): a fixture file of that extension, else one of its language's."""
    exts = {ext: lang for p in languages.PLUGINS for lang, es in p.languages.items() if lang not in NOT_IN_EDITORS
            for ext in es}
    by_ext: dict[str, str] = {}
    by_lang: dict[str, str] = {}
    for path in sorted((ROOT / "tests").rglob("*")):
        ext = path.suffix.lower()
        if "fixtures" in path.parts and path.is_file() and ext in exts:
            by_ext.setdefault(ext, path.read_text(encoding="utf-8"))
            by_lang.setdefault(exts[ext], path.read_text(encoding="utf-8"))
    return {ext: by_ext.get(ext, by_lang.get(lang, "")) for ext, lang in exts.items()}


# files of other formats under those extensions keep Neovim's own filetype; an Apex class opening
# with a doc comment is Apex (Neovim alone reads a leading /* as Rexx)
OTHER_FORMATS = {
    "report.cls": ("\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{report}\n", "tex"),
    "Account.cls": ("VERSION 1.0 CLASS\nBEGIN\n  MultiUse = -1\nEND\nPublic Sub Run()\nEnd Sub\n", "vb"),
    "talk.tpp": ("--author Someone\n--title A talk\n--newpage\n", "tpp"),
    "Logger.cls": ("/**\n * Logs.\n */\npublic with sharing class Logger {\n}\n", "apex"),
}


@needs_nvim
def test_neovim_gives_every_extension_a_filetype_the_client_attaches_to(tmp_path: Path) -> None:
    """Neovim as shipped with client-nvim on the runtimepath (its plugin adds the filetypes Neovim
    lacks: HLSL, Apex, .hhi, .h++, a C++ .tpp) opens a file of every extension with a filetype in
    the client's list."""
    nvim = nvim_path()
    assert nvim is not None
    ws = tmp_path / "ws"
    ws.mkdir()
    files = {}
    for ext, text in _samples().items():
        path = ws / f"sample{ext}"
        path.write_text(text, encoding="utf-8")
        files[ext] = str(path)
    for name, (text, _) in OTHER_FORMATS.items():
        (ws / name).write_text(text, encoding="utf-8")
        files[name] = str(ws / name)
    out = tmp_path / "out.json"
    lines = [f"vim.opt.runtimepath:prepend({json.dumps(str(ROOT / 'client-nvim'))})"]
    script = [
        "local out = {}",
        *(f"vim.cmd.edit(vim.fn.fnameescape({json.dumps(p)})); out[{json.dumps(e)}] = vim.bo.filetype"
          for e, p in files.items()),
        f"vim.fn.writefile({{vim.json.encode(out)}}, {json.dumps(str(out))})",
        "vim.cmd('qa!')",
    ]
    (tmp_path / "script.lua").write_text("\n".join(script))
    lines.append("vim.api.nvim_create_autocmd('VimEnter', { once = true, callback = function() vim.schedule(function() "
                 f"dofile({json.dumps(str(tmp_path / 'script.lua'))}) end) end }})")  # out of the autocmd: edits detect
    (tmp_path / "init.lua").write_text("\n".join(lines))
    env = {**os.environ, **{f"XDG_{d}_HOME": str(tmp_path / d.lower()) for d in ("CONFIG", "DATA", "STATE", "CACHE")}}
    proc = subprocess.run([nvim, "--headless", "-i", "NONE", "-u", str(tmp_path / "init.lua")], cwd=ws, env=env,
                          timeout=120, capture_output=True, text=True)
    assert out.exists(), f"nvim wrote nothing: rc={proc.returncode} {proc.stderr[-2000:]}"
    got = json.loads(out.read_text())
    filetypes = set(_nvim_filetypes())
    missing = {ext: got.get(ext) for ext in files if ext not in OTHER_FORMATS and got.get(ext) not in filetypes}
    assert missing == {}  # extension -> the filetype Neovim gave it, none the client lists
    assert {name: got.get(name) for name in OTHER_FORMATS} == {name: ft for name, (_, ft) in OTHER_FORMATS.items()}
