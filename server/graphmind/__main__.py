"""``python -m graphmind``: the CLI (``python -m graphmind serve`` runs the language server)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["serve"]))
