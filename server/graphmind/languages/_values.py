"""Moved to :mod:`graphmind.languages._toolkit.values`; kept until every plugin imports the toolkit."""

from ._toolkit.values import Value, ValueResolver, merge_values

__all__ = ["Value", "ValueResolver", "merge_values"]
