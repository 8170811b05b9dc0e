"""Java resolution: the shared nominal resolver (:mod:`.._toolkit.nominal`) with Java's builtin
names (what every class inherits from ``java.lang.Object``, every enum from ``java.lang.Enum``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Facts, Override, Resolution, WorkspaceView
from .. import WholeFile
from .._toolkit import nominal
from .builtins import COMMON_METHODS, ENUM_METHODS, OBJECT_METHODS

POLICY = nominal.Policy("java", COMMON_METHODS, OBJECT_METHODS, ENUM_METHODS)


def resolve(facts: Facts, ws: WorkspaceView) -> Iterator[Resolution]:
    return nominal.resolve(POLICY, facts, ws)


def overrides(facts: Facts, ws: WorkspaceView, ids: list[int]) -> list[Override]:
    return nominal.overrides(POLICY, facts, ws, ids)


def resolve_file(facts: Facts, ws: WorkspaceView, ids: list[int]) -> WholeFile:
    return nominal.resolve_file(POLICY, facts, ws, ids)
