"""Workspaces of a chosen shape for the fault tests (written into a test's tmp_path)."""

from __future__ import annotations

from pathlib import Path


def recursion(root: Path) -> Path:
    """Two functions that call each other: a blast radius of any depth has one symbol."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "m.py").write_text("def a(n):\n    return b(n)\n\n\ndef b(n):\n    return a(n)\n")
    return root


def chain(root: Path, n: int) -> Path:
    """``f0`` ← ``f1`` ← … ← ``f{n-1}``: each calls the one before, in one file."""
    root.mkdir(parents=True, exist_ok=True)
    body = "def f0():\n    pass\n" + "".join(f"\n\ndef f{k}():\n    f{k - 1}()\n" for k in range(1, n))
    (root / "chain.py").write_text(body)
    return root


def wide(root: Path, files: int = 40, per_file: int = 150) -> Path:
    """``files * per_file`` functions across files: ``f{k}`` calls ``f{k-1}`` and ``f{k//2}``, so
    the callers of ``f0`` are every function, reached in a few hops."""
    root.mkdir(parents=True, exist_ok=True)

    def module(k: int) -> str:
        return f"m{k // per_file}"

    for f in range(files):
        defs: list[str] = []
        imports: set[str] = set()
        for i in range(per_file):
            k = f * per_file + i
            callees = ([k - 1] if k > 0 else []) + ([k // 2] if k > 1 else [])
            for j in callees:
                if module(j) != f"m{f}":
                    imports.add(f"from {module(j)} import f{j}\n")
            defs.append(f"def f{k}():\n    " + ("; ".join(f"f{j}()" for j in callees) or "pass") + "\n")
        (root / f"m{f}.py").write_text("".join(sorted(imports)) + "".join(defs))
    return root
