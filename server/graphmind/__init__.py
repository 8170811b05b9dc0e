"""GraphMind: a code-graph language server with an exact, incremental call graph in SQLite."""

__version__ = "0.1.0"
