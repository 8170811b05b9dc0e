"""Answers sized for a context window: budgets (:mod:`.budget`), the *brief* rendering that groups
an impact answer by file (:mod:`.brief`), and the compact text of every agent-facing answer
(:mod:`.text`). Shared by the MCP server and the command line."""

from .budget import (
    CHARS_PER_TOKEN,
    CLI_DEFAULT_TOKENS,
    MCP_DEFAULT_TOKENS,
    Budget,
    Cursor,
    dumps,
    fit,
    omitted_counts,
)
from .text import incompleteness, indirect_notes, indirect_summary, plural

__all__ = [
    "CHARS_PER_TOKEN", "CLI_DEFAULT_TOKENS", "MCP_DEFAULT_TOKENS", "Budget", "Cursor", "dumps", "fit",
    "incompleteness", "indirect_notes", "indirect_summary", "omitted_counts", "plural",
]
