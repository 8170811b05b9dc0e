#!/usr/bin/env bash
# Sets up everything on a fresh machine and runs the whole test suite:
# ruff, pytest (engine, languages, LSP end to end, a real Neovim), the benchmark in smoke mode,
# the VS Code extension's build + unit tests, and the extension end to end in a real VS Code.
# Skip the VS Code end-to-end run with GRAPHMIND_SKIP_VSCODE_E2E=1.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
export PATH="$PWD/.venv/bin:$PATH"

# the store tests start a throwaway PostgreSQL cluster (tests/store): its server must be installed
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "== installing PostgreSQL (Debian's postgresql) for the store tests"
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi

echo "== ruff"
ruff check server tests scripts

echo "== pytest"
python -m pytest -q -p no:cacheprovider

echo "== benchmark (smoke)"
python scripts/bench.py --smoke --out "${TMPDIR:-/tmp}/graphmind-bench-smoke.json"

echo "== VS Code extension: build + unit tests"
(cd client-vscode && npm ci --no-audit --no-fund && npm run build && npm test)

if [ "${GRAPHMIND_SKIP_VSCODE_E2E:-0}" != "1" ]; then
  echo "== VS Code extension: end to end in code-server"
  GRAPHMIND_SERVER_CMD="$PWD/.venv/bin/graphmind serve" bash client-vscode/e2e/run.sh
fi
echo "== all tests passed"
