"""The editors open GraphMind for the first-class languages: each one's VS Code language id is in
the extension's document selector and activation events, and its Neovim filetype in the client's
``filetypes``; the server maps each to the language's plugin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from graphmind import languages

ROOT = Path(__file__).parents[2]
# language -> (VS Code language id, Neovim filetype)
EDITOR_IDS = {"csharp": ("csharp", "cs"), "kotlin": ("kotlin", "kotlin")}


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
        assert plugin is not None and plugin.name == lang
