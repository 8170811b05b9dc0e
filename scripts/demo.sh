#!/usr/bin/env bash
# Sets up GraphMind in .venv, indexes this repository and prints a blast radius: the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
.venv/bin/graphmind index .
echo
.venv/bin/graphmind blast-radius graphmind.workspace.check_text --depth 3
