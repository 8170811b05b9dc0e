"""A hypothesis strategy shared by the languages' incremental-equals-fresh property tests: random
edits (file, offset, length, inserted fragment) of a small workspace, for
``graph_util.check_incremental``."""

from __future__ import annotations


def edit_sequences(initial: dict[str, str], fragments: list[str]):
    from hypothesis import strategies as st

    files = sorted(f for f in initial if not f.endswith(".toml"))
    edit = st.tuples(st.sampled_from(files), st.integers(0, 10_000), st.integers(0, 30), st.sampled_from(fragments))
    return st.lists(edit, min_size=1, max_size=10)
