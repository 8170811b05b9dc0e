"""Go packages: the qualified name of a folder's package, and the usual name of an import path."""

from __future__ import annotations

import re

GOMOD = "<go.mod>"  # the module (binding namespace) every go.mod file's facts live in
ROOT_PACKAGE = "main"
_VERSION = re.compile(r"^v\d+$")


def package_of_dir(folder: str) -> str:
    return folder.replace("/", ".") if folder else ROOT_PACKAGE


def guess_name(path: str) -> str:
    """The usual package name of an import path: its last element, without a major-version
    suffix (``/v2``, ``.v3``) or a ``go-`` prefix / ``-go`` suffix."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _VERSION.match(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    last = re.sub(r"\.v\d+$", "", last)
    if last.startswith("go-"):
        last = last[3:]
    if last.endswith("-go") or last.endswith(".go"):
        last = last[:-3]
    return last.replace("-", "").replace(".", "")
