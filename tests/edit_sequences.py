"""A hypothesis strategy shared by the incremental-equals-fresh property tests: random edits
(file, offset, length, inserted fragment) of a small workspace, for
``graph_util.check_incremental``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def source_files(initial: dict[str, str]) -> list[str]:
    """A workspace's files to edit: all but its manifests (``Cargo.toml``, ``pyproject.toml``)."""
    return sorted(f for f in initial if not f.endswith(".toml"))


def edit_sequences(files: Iterable[str], fragments: list[str], *, max_length: int = 30, max_edits: int = 10):
    """1..``max_edits`` edits, each replacing up to ``max_length`` bytes at a random offset of one
    of ``files`` (offsets are taken modulo the text's length) with one of ``fragments``."""
    from hypothesis import strategies as st

    edit = st.tuples(
        st.sampled_from(list(files)), st.integers(0, 10_000), st.integers(0, max_length), st.sampled_from(fragments)
    )
    return st.lists(edit, min_size=1, max_size=max_edits)


def apply_edits(root: Path, edits: list[tuple[str, int, int, str]], deleted: Iterable[str] = ()) -> None:
    """Write ``edits`` (as :func:`edit_sequences` draws them) into the files under ``root`` (a
    file deleted meanwhile is skipped), then delete ``deleted``."""
    for rel, offset, length, fragment in edits:
        path = root / rel
        if not path.exists():
            continue
        text = path.read_text()
        at = offset % (len(text) + 1)
        path.write_text(text[:at] + fragment + text[at + length:])
    for rel in deleted:
        (root / rel).unlink(missing_ok=True)
