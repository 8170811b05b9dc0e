"""Generated code a plugin may decline to index: minified bundles (``jquery.min.js``, a bundler's
output). Their names are mangled, a whole library sits on one line, and a vendored copy beside the
readable source defines every name twice, so indexing them adds edges nobody can check (Django's
admin: 3,711 call edges into or out of its 62 minified files, ``jquery.min.js`` beside ``jquery.js``
and the like) and answers that point an agent at an 87 KB line. The rule is GitHub Linguist's for JavaScript and CSS (``minified_files?``):
the average line is longer than 110 characters."""

from __future__ import annotations

MINIFIED_LINE = 110  # characters per line on average, as Linguist counts them


def minified(text: bytes) -> str | None:
    """Why ``text`` reads as minified ("minified (average line N characters)"), or None."""
    if len(text) <= MINIFIED_LINE:
        return None  # no line of it can be longer
    newlines = text.count(b"\n")
    lines = newlines + (0 if text.endswith(b"\n") else 1)
    average = (len(text) - newlines) // lines
    return f"minified (average line {average} characters)" if average > MINIFIED_LINE else None
