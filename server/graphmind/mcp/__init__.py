"""``graphmind mcp``: the Model Context Protocol face (stdio), on the official ``mcp`` SDK.
The tools and their answers are :mod:`graphmind.agents.tools`; this package only translates."""
