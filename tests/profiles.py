"""Hypothesis profiles. ``GRAPHMIND_HYPOTHESIS=thorough`` runs every incremental == fresh
property (the live state machine included) with at least :data:`THOROUGH_EXAMPLES` examples;
the default profile keeps each test's own, short count so CI stays fast. The profiles are
registered and loaded in ``conftest.py``; a test asks for its count through :func:`examples`
(an explicit ``max_examples`` wins over a profile, so the floor is applied here)."""

from __future__ import annotations

import os

THOROUGH_EXAMPLES = 2_000
PROFILE = os.environ.get("GRAPHMIND_HYPOTHESIS", "default")


def examples(n: int, cases: int = 1) -> int:
    """The number of examples a property runs: ``n``, or at least THOROUGH_EXAMPLES when thorough.
    A property parametrized over ``cases`` (one per language) shares THOROUGH_EXAMPLES among them
    (still ``n`` each at least): the property as a whole gets its 2,000."""
    return max(n, -(-THOROUGH_EXAMPLES // cases)) if PROFILE == "thorough" else n
