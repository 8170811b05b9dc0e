"""Incremental equals fresh, for snapshots: a chain of commits of random edits, each snapshot
made from its parent's, ends in a snapshot whose every row is shared with a fresh index of the
last commit — publishing the fresh index adds no file version and no resolution, and both map
every path to the same rows. Each job starts either from this machine's local copy of its
parent's snapshot (moved forward) or, its cache emptied, from the snapshot restored from the store;
both publish only what they changed."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from edit_sequences import apply_edits, edit_sequences, source_files
from graph_util import FIXTURES
from graphmind.commits import index_commit
from graphmind.engine import Engine
from graphmind.gitrepo import GitRepo
from graphmind.store.location import StoreLocation, check
from graphmind.store.snapshots import SnapshotStore
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_util import git, repository
from profiles import examples

SHOP = FIXTURES / "python" / "shop"
FILES = source_files({p.relative_to(SHOP).as_posix(): "" for p in SHOP.rglob("*.py")})
FRAGMENTS = [
    "", "\n", "    pass\n", "def make():\n    return None\n", "cancel(1)\n", "from shop.orders import make\n",
    "class Repo(Base):\n    def save(self, x):\n        log()\n", "refund", "Gateway", ".save(", "import shop.payments.base\n",
]
# (edits, deleted files, whether this machine's copy of the parent's snapshot is gone)
commits = st.lists(st.tuples(edit_sequences(FILES, FRAGMENTS, max_edits=4), st.sets(st.sampled_from(FILES), max_size=1),
                             st.booleans()),
                   min_size=1, max_size=3)


def _mapping(shared: SnapshotStore, snapshot: int) -> set[tuple[int, int | None]]:
    return set(shared.conn.execute("SELECT file_id, res_id FROM gm_snapshot_files WHERE snapshot_id = ?", (snapshot,)))


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(history=commits)
def test_a_chain_of_incremental_snapshots_equals_a_fresh_index(pg_url: str, snapshot_cache: Path, history: list) -> None:
    loc = check(pg_url, "test")
    with tempfile.TemporaryDirectory() as tmp:
        root = repository(SHOP, Path(tmp) / "shop")
        shutil.rmtree(snapshot_cache, ignore_errors=True)  # hypothesis runs every example in one test
        made = [index_commit(root, loc, "HEAD", jobs=1)]
        for i, (edits, deleted, cold) in enumerate(history, 1):
            apply_edits(root, edits, deleted)
            git(root, "add", "-A")
            git(root, "commit", "-q", "--allow-empty", "-m", f"C{i}")
            if cold:
                shutil.rmtree(snapshot_cache, ignore_errors=True)
            made.append(index_commit(root, loc, "HEAD", jobs=1))
        last = made[-1]
        assert last.snapshot is not None
        assert last.already or last.based_on == made[-2].commit  # each from its parent's snapshot

        assert_equals_fresh(root, loc, last.commit, last.snapshot.id, Path(tmp))


def assert_equals_fresh(root: Path, loc: StoreLocation, commit: str, snapshot: int, tmp: Path) -> None:
    """The snapshot shares every row with a fresh index of the commit, and maps every path alike."""
    tree = tmp / "fresh"
    repo = GitRepo(root)
    repo.write_files(repo.tree_files(commit), tree)
    engine = Engine(tree, db_path=tmp / "fresh.db", jobs=1)
    engine.index()
    shared = SnapshotStore(loc)
    try:
        fresh = shared.publish(f"fresh {commit}", engine.store, based_on=None, seconds=0.0)
        assert fresh.snapshot is not None
        assert (fresh.new_files, fresh.new_resolutions) == (0, 0)
        assert _mapping(shared, fresh.snapshot.id) == _mapping(shared, snapshot)
        shared.prune(commits=[f"fresh {commit}"])
    finally:
        shared.close()
        engine.close()
