"""The team commands: ``graphmind index --store URL --commit SHA`` (a commit's snapshot in a
shared PostgreSQL store) and ``graphmind snapshots list|prune``. The store URL is only ever
printed redacted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .gitrepo import GitError
from .store import IndexUnavailable
from .store.location import StoreURLError, resolve


class UsageError(Exception):
    """A team command asked for something it cannot do (exit 2)."""


def add_store_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=None, metavar="URL",
                   help="a shared PostgreSQL store (postgresql://user@host:port/db; default: $GRAPHMIND_STORE, "
                        "then [tool.graphmind] store; none: the local SQLite index). Passwords: ~/.pgpass or PGPASSWORD")


def add_commit_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--commit", default=None, metavar="REF",
                   help="with a store: the commit to snapshot (default HEAD), read from git, not the working tree")


def add_parsers(sub: Any, add_common: Any) -> None:
    p = sub.add_parser("snapshots", help="list or prune the commit snapshots of a shared store; let a role read them")
    p.add_argument("action", choices=["list", "prune", "grant-reader"])
    p.add_argument("--role", default=None, help="grant-reader: the editors' login role (made by the database's administrator)")
    p.add_argument("--keep", type=int, default=None, metavar="N", help="prune: keep the newest N snapshots")
    p.add_argument("--older-than", type=float, default=None, metavar="DAYS",
                   help="prune: snapshots made more than DAYS before the newest one")
    p.add_argument("--commit", action="append", default=[], metavar="SHA", help="prune: this commit's snapshot (repeatable)")
    add_common(p)


def failed_status(location: Any, exc: Exception) -> Any:
    from .team import StoreStatus

    return StoreStatus.failed(location, exc)


def wants_store(args: argparse.Namespace, root: Path) -> bool:
    """``index`` writes a snapshot when asked to: ``--store`` or ``--commit`` (then the URL may come
    from the environment or the configuration). Without either it is the local index, even where
    an editor's GRAPHMIND_STORE is set."""
    if args.command == "snapshots":
        return True
    return args.command == "index" and bool(args.commit or args.store)


def run(args: argparse.Namespace, root: Path) -> int:
    from . import cli_agent

    try:
        location = resolve(args.store, root)
        if location is None:
            print("graphmind: no store: pass --store postgresql://… (or set GRAPHMIND_STORE)", file=sys.stderr)
            return 2
        out = _index(args, root, location) if args.command == "index" else _snapshots(args, location)
    except (StoreURLError, UsageError) as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 2
    except (GitError, IndexUnavailable) as exc:
        print(f"graphmind: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(cli_agent.dump(out, args))
    return 0


def _index(args: argparse.Namespace, root: Path, location: Any) -> dict[str, Any]:
    from .commits import index_commit

    opts = {"max_file_size": args.max_file_size, "exclude": args.exclude}
    got = index_commit(root, location, args.commit or "HEAD", jobs=args.jobs, engine_options=opts)
    out = {
        "store": location.shown, "commit": got.commit, "snapshot": got.snapshot.id if got.snapshot else None,
        "alreadyIndexed": got.already, "basedOn": got.based_on, "filesChanged": got.changed, "files": got.files,
        "newFileVersions": got.new_files, "newResolutions": got.new_resolutions, "seconds": round(got.seconds, 3),
    }
    if not args.json:
        if got.already:
            print(f"{got.commit[:12]} is indexed already in {location.shown} (snapshot {out['snapshot']})")
        else:
            base = f"from {got.based_on[:12]} ({got.changed} files changed)" if got.based_on else f"whole ({got.changed} files)"
            print(f"Snapshot {out['snapshot']} of {got.commit[:12]} in {location.shown}: {got.files} files, "
                  f"{got.new_files} new file versions, {got.new_resolutions} new resolutions; indexed {base} "
                  f"in {got.seconds:.2f}s")
    return out


def _snapshots(args: argparse.Namespace, location: Any) -> dict[str, Any]:
    from .store.snapshots import SnapshotStore

    shared = SnapshotStore(location)
    try:
        if args.action == "grant-reader":
            if not args.role:
                raise UsageError("grant-reader: pass --role ROLE (the editors' login role)")
            shared.ensure_schema()
            shared.grant_reader(args.role)
            if not args.json:
                print(f"{args.role} may now read every snapshot of {location.shown} (and write none)")
            return {"store": location.shown, "reader": args.role}
        if args.action == "prune":
            if args.keep is None and args.older_than is None and not args.commit:
                raise UsageError("prune what? pass --keep N, --older-than DAYS or --commit SHA")
            if args.keep is not None and args.keep < 0:
                raise UsageError("--keep must not be negative")
            got = shared.prune(keep=args.keep, older_than_days=args.older_than, commits=args.commit)
            if not args.json:
                print(f"Pruned {len(got.snapshots)} snapshots from {location.shown} "
                      f"({got.files} file versions and {got.resolutions} resolutions no snapshot used)")
                for c in got.snapshots:
                    print(f"  {c[:12]}")
                if got.in_use:
                    print(f"Kept {len(got.in_use)} snapshots an editor or agent is reading (prune again later): "
                          + ", ".join(c[:12] for c in got.in_use))
            return {"store": location.shown, "pruned": got.snapshots, "fileVersions": got.files,
                    "resolutions": got.resolutions, "inUse": got.in_use}
        listed = shared.snapshots()
        rows = shared.row_counts()
    finally:
        shared.close()
    items = [{"snapshot": s.id, "commit": s.commit, "created": s.created.isoformat(timespec="seconds"),
              "basedOn": s.based_on, "files": s.files, "newFileVersions": s.new_files,
              "newResolutions": s.new_resolutions, "seconds": s.seconds} for s in listed]
    if not args.json:
        print(f"{len(items)} snapshots in {location.shown}  (rows: "
              + ", ".join(f"{k.removeprefix('gm_')} {v:,}" for k, v in rows.items()) + ")")
        for s in listed:
            base = f"from {s.based_on[:12]}" if s.based_on else "whole"
            print(f"  {s.id:>5}  {s.commit[:12]}  {s.created:%Y-%m-%d %H:%M:%S}  {s.files:>7} files  "
                  f"{s.new_files:>6} new  {s.new_resolutions:>6} re-resolved  {base}  {s.seconds:.2f}s")
    return {"store": location.shown, "snapshots": items, "rows": rows}
