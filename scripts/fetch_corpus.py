#!/usr/bin/env python3
"""Fetch a real-world Python corpus (an sdist from PyPI) into a cache outside the repo.

The sdist is downloaded with ``pip download --no-deps --no-binary :all:`` (falling back to
the PyPI JSON API on https://pypi.org if pip is unavailable or fails), extracted under

    ${GRAPHMIND_CACHE:-~/.cache/graphmind}/corpora/NAME-VERSION/

and the path of the extracted source tree is returned. Calls are idempotent: a completed
extraction (marked by a ``.complete`` file) is reused without touching the network.

CLI::

    python scripts/fetch_corpus.py django 5.1 [--subdir django] [--count-lines]

prints the extracted path (or ``<path>/<subdir>`` with ``--subdir``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

PYPI_JSON = "https://pypi.org/pypi/{name}/{version}/json"
COMPLETE_MARKER = ".complete"


def cache_root() -> Path:
    """Root of the corpus cache (``$GRAPHMIND_CACHE/corpora`` or ``~/.cache/graphmind/corpora``)."""
    base = os.environ.get("GRAPHMIND_CACHE") or str(Path.home() / ".cache" / "graphmind")
    return Path(base).expanduser() / "corpora"


def _normalize(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _download_with_pip(name: str, version: str, dest: Path) -> Path | None:
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
        "--disable-pip-version-check", "--quiet", f"{name}=={version}", "-d", str(dest),
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        sys.stderr.write(f"pip download failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}\n")
        return None
    archives = [p for p in dest.iterdir() if p.name.endswith((".tar.gz", ".tgz", ".zip", ".tar.bz2"))]
    return archives[0] if len(archives) == 1 else None


def _download_with_json_api(name: str, version: str, dest: Path) -> Path:
    url = PYPI_JSON.format(name=name, version=version)
    with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 - fixed https host
        meta = json.load(resp)
    sdists = [u for u in meta.get("urls", []) if u.get("packagetype") == "sdist"]
    if not sdists:
        raise RuntimeError(f"no sdist published for {name}=={version}")
    info = sdists[0]
    if not info["url"].startswith("https://files.pythonhosted.org/") and not info["url"].startswith(
        "https://pypi.org/"
    ):
        raise RuntimeError(f"unexpected download host in {info['url']}")
    target = dest / info["filename"]
    digest = hashlib.sha256()
    with urllib.request.urlopen(info["url"], timeout=300) as resp, open(target, "wb") as out:  # noqa: S310
        while chunk := resp.read(1 << 20):
            digest.update(chunk)
            out.write(chunk)
    expected = info.get("digests", {}).get("sha256")
    if expected and digest.hexdigest() != expected:
        target.unlink(missing_ok=True)
        raise RuntimeError(f"sha256 mismatch for {info['filename']}")
    return target


def _safe_extract(archive: Path, dest: Path) -> None:
    dest_resolved = dest.resolve()
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            for member in zf.namelist():
                if not (dest / member).resolve().is_relative_to(dest_resolved):
                    raise RuntimeError(f"unsafe path in archive: {member}")
            zf.extractall(dest)
        return
    with tarfile.open(archive) as tf:
        if hasattr(tarfile, "data_filter"):
            tf.extractall(dest, filter="data")
        else:  # pragma: no cover - very old Pythons
            for member in tf.getmembers():
                if not (dest / member.name).resolve().is_relative_to(dest_resolved):
                    raise RuntimeError(f"unsafe path in archive: {member.name}")
            tf.extractall(dest)


def _source_root(extracted: Path) -> Path:
    """An sdist normally holds exactly one top-level directory (NAME-VERSION/)."""
    entries = [p for p in extracted.iterdir() if not p.name.startswith(".")]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return extracted


def fetch_sdist(name: str, version: str) -> Path:
    """Download and extract ``name==version``'s sdist into the cache; return the source root.

    Idempotent: if the cache already holds a complete extraction it is returned directly.
    """
    slot = cache_root() / f"{_normalize(name)}-{version}"
    src = slot / "src"
    if (slot / COMPLETE_MARKER).is_file() and src.is_dir():
        return _source_root(src)

    slot.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=slot, prefix=".dl-") as tmp:
        tmp_path = Path(tmp)
        archive = _download_with_pip(name, version, tmp_path)
        if archive is None:
            archive = _download_with_json_api(name, version, tmp_path)
        staging = tmp_path / "extract"
        staging.mkdir()
        _safe_extract(archive, staging)
        if src.exists():
            shutil.rmtree(src)
        staging.rename(src)
        (slot / "archive-name").write_text(archive.name + "\n")
    (slot / COMPLETE_MARKER).write_text("ok\n")
    return _source_root(src)


def count_py_lines(root: Path) -> tuple[int, int]:
    """Return (files, lines) of all ``*.py`` files under *root*."""
    files = lines = 0
    for path in sorted(root.rglob("*.py")):
        files += 1
        with open(path, "rb") as fh:
            lines += sum(1 for _ in fh)
    return files, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", help="PyPI project name, e.g. django")
    ap.add_argument("version", help="exact version, e.g. 5.1")
    ap.add_argument("--subdir", help="print this subdirectory of the extracted sdist (e.g. django)")
    ap.add_argument("--count-lines", action="store_true", help="also report .py file/line counts on stderr")
    args = ap.parse_args(argv)

    root = fetch_sdist(args.name, args.version)
    out = root / args.subdir if args.subdir else root
    if not out.is_dir():
        ap.error(f"{out} does not exist in the sdist")
    if args.count_lines:
        files, lines = count_py_lines(out)
        sys.stderr.write(f"{out}: {files} .py files, {lines} lines\n")
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
