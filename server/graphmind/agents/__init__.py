"""The agent-facing questions, answered once for every face: the seven tools of ``graphmind mcp``
(:mod:`.tools`), each returning structured data plus a compact text within a budget, over the
live view of a workspace (:mod:`.view`); symbol specs and path arguments checked as untrusted
input (:mod:`.args`)."""
