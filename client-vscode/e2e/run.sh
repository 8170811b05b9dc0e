#!/usr/bin/env bash
# End-to-end test of the GraphMind extension in a real VS Code (code-server 4.100.3,
# driven by playwright-core + Debian's Chromium), against the real GraphMind server.
#
#   bash client-vscode/e2e/run.sh          (or: cd client-vscode && npm run e2e)
#
# Environment:
#   GRAPHMIND_SERVER_CMD   command line that starts the server (default: `graphmind serve`,
#                          with graphmind from PATH, else the repo's .venv)
#   GRAPHMIND_E2E_CACHE    where code-server and playwright-core are installed
#                          (default ~/.cache/graphmind-e2e; reused when present)
#   GRAPHMIND_E2E_TIMEOUT  seconds allowed for building + running the scenarios (default 360)
#   GRAPHMIND_E2E_KEEP=1   keep the temporary folders (user data, workspace copy)
#
# Writes screenshots (and logs, on failure) to client-vscode/e2e/artifacts/.
# Exits non-zero on failure; always stops code-server.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXT_DIR="$(cd "$HERE/.." && pwd)"
REPO="$(cd "$EXT_DIR/.." && pwd)"
CACHE="${GRAPHMIND_E2E_CACHE:-$HOME/.cache/graphmind-e2e}"
TIMEOUT="${GRAPHMIND_E2E_TIMEOUT:-360}"
ARTIFACTS="$HERE/artifacts"
CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_VERSION=1.65.1
APT_PACKAGES=(build-essential python3 pkg-config libkrb5-dev ripgrep chromium)

log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
START=$(date +%s)

# --- 1. Debian packages (code-server builds native modules; Chromium drives it) ----------
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  [[ $(id -u) == 0 ]] || die "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})"
  log "installing Debian packages: ${missing[*]}"
  timeout 600 apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
CHROMIUM="$(command -v chromium || true)"
[[ -x "$CHROMIUM" ]] || die "chromium not found"

# --- 2. code-server + playwright-core in the cache (outside the repo) ---------------------
CODE_SERVER="$CACHE/node_modules/.bin/code-server"
cache_ok() {
  [[ -x "$CODE_SERVER" && -f "$CACHE/node_modules/playwright-core/package.json" ]] || return 1
  grep -q "\"version\": \"$PLAYWRIGHT_VERSION\"" "$CACHE/node_modules/playwright-core/package.json" || return 1
  XDG_CONFIG_HOME="$CACHE/tmp/xdg" "$CODE_SERVER" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION "
}
if ! cache_ok; then
  log "installing code-server@$CODE_SERVER_VERSION and playwright-core@$PLAYWRIGHT_VERSION into $CACHE (takes 1-3 min)"
  mkdir -p "$CACHE/tmp"
  [[ -f "$CACHE/package.json" ]] || echo '{"name":"graphmind-e2e-cache","private":true}' >"$CACHE/package.json"
  # @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache file exists:
  # give it Debian's rg, packed the way it expects (see lib/postinstall.js of @vscode/ripgrep).
  rgcache="$CACHE/tmp/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rgcache"
  tar -C "$(dirname "$(command -v rg)")" -czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" rg
  (cd "$CACHE" && TMPDIR="$CACHE/tmp" npm_config_yes=true XDG_CONFIG_HOME="$CACHE/tmp/xdg" \
    timeout 900 npm install --unsafe-perm --no-audit --no-fund --foreground-scripts \
    "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_VERSION") >"$CACHE/install.log" 2>&1 ||
    { tail -40 "$CACHE/install.log" >&2; die "installing code-server failed (log: $CACHE/install.log)"; }
  cache_ok || die "code-server installed but does not run (log: $CACHE/install.log)"
fi
log "code-server $CODE_SERVER_VERSION ready ($CACHE)"

# From here on the run is bounded.
SETUP_DONE=$(date +%s)
DEADLINE=$((SETUP_DONE + TIMEOUT))
remaining() { echo $((DEADLINE - $(date +%s))); }

# --- 3. The GraphMind server -------------------------------------------------------------
if [[ -n "${GRAPHMIND_SERVER_CMD:-}" ]]; then
  SERVER_CMD="$GRAPHMIND_SERVER_CMD"
elif command -v graphmind >/dev/null; then
  SERVER_CMD="$(command -v graphmind) serve"
elif [[ -x "$REPO/.venv/bin/graphmind" ]]; then
  SERVER_CMD="$REPO/.venv/bin/graphmind serve"
else
  die "no GraphMind server: put graphmind on PATH (pip install -e $REPO) or set GRAPHMIND_SERVER_CMD"
fi
log "server command: $SERVER_CMD"

# --- 4. Build and package the extension ---------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/graphmind-e2e.XXXXXX")"
CS_PID=""
cleanup() {
  local rc=$?
  if [[ -n "$CS_PID" ]]; then
    kill -TERM -- "-$CS_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$CS_PID" 2>/dev/null || break; sleep 0.3; done
    kill -KILL -- "-$CS_PID" 2>/dev/null || true
  fi
  if ((rc != 0)) && [[ -d "$WORK/ud/logs" ]]; then
    mkdir -p "$ARTIFACTS/logs" && cp -r "$WORK/ud/logs/." "$ARTIFACTS/logs/" 2>/dev/null || true
    [[ -f "$WORK/code-server.log" ]] && cp "$WORK/code-server.log" "$ARTIFACTS/logs/" || true
  fi
  if [[ "${GRAPHMIND_E2E_KEEP:-}" == 1 ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  log "$( ((rc == 0)) && echo PASSED || echo "FAILED (rc=$rc)") in $(($(date +%s) - START))s; artifacts: $ARTIFACTS"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rm -rf "$ARTIFACTS" && mkdir -p "$ARTIFACTS"
cd "$EXT_DIR"
if [[ ! -d node_modules ]]; then
  log "npm ci"
  timeout "$(remaining)" npm ci --no-audit --no-fund >"$WORK/npm-ci.log" 2>&1 || { tail -30 "$WORK/npm-ci.log" >&2; die "npm ci failed"; }
fi
log "packaging the extension"
timeout "$(remaining)" npx vsce package --no-dependencies -o "$WORK/graphmind.vsix" >"$WORK/vsce.log" 2>&1 ||
  { cat "$WORK/vsce.log" >&2; die "vsce package failed"; }

# --- 5. Throwaway VS Code profile, workspace copy, install the .vsix -----------------------
export XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" XDG_CACHE_HOME="$WORK/xdg/cache"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$WORK/ud/User" "$WORK/ext"
# The server command goes in the User settings (as a user would set it once for every project);
# the workspace settings override it in the last scenarios.
SERVER_CMD="$SERVER_CMD" node -e '
  const fs = require("fs");
  const user = {
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoUpdate": false,
    "extensions.autoCheckUpdates": false,
    "extensions.ignoreRecommendations": true,
    "workbench.enableExperiments": false,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "security.workspace.trust.enabled": false,
    "chat.disableAIFeatures": true,
    "window.restoreWindows": "none",
    "files.hotExit": "off",
    "editor.minimap.enabled": false,
    "git.enabled": false,
    "graphmind.server.command": process.env.SERVER_CMD,
  };
  fs.writeFileSync(process.argv[1], JSON.stringify(user, null, 2) + "\n");' "$WORK/ud/User/settings.json"
WS="$WORK/workspace"
cp -r "$HERE/fixture" "$WS"
mkdir -p "$WS/.vscode"
node -e '
  const fs = require("fs");
  fs.writeFileSync(process.argv[1], JSON.stringify({
    "graphmind.trace.server": "verbose",
    "graphmind.blastRadius.depth": 3,
  }, null, 2) + "\n");' "$WS/.vscode/settings.json"

log "installing the .vsix"
timeout "$(remaining)" "$CODE_SERVER" --user-data-dir "$WORK/ud" --extensions-dir "$WORK/ext" \
  --install-extension "$WORK/graphmind.vsix" --force >"$WORK/install-ext.log" 2>&1 ||
  { cat "$WORK/install-ext.log" >&2; die "installing the .vsix failed"; }
ls "$WORK/ext" | grep -q '^graphmind\.graphmind-' || { cat "$WORK/install-ext.log" >&2; die ".vsix not installed"; }

# --- 6. Start code-server --------------------------------------------------------------------
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
setsid "$CODE_SERVER" --bind-addr "127.0.0.1:$PORT" --auth none --user-data-dir "$WORK/ud" \
  --extensions-dir "$WORK/ext" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override --ignore-last-opened "$WS" >"$WORK/code-server.log" 2>&1 &
CS_PID=$!
healthy() { node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$PORT/healthz"; }
for _ in $(seq 1 100); do
  healthy && break
  kill -0 "$CS_PID" 2>/dev/null || { cat "$WORK/code-server.log" >&2; die "code-server exited"; }
  sleep 0.2
done
healthy || die "code-server did not become healthy"
log "code-server up on 127.0.0.1:$PORT (pid $CS_PID)"

# --- 7. The scenarios --------------------------------------------------------------------------
log "running scenarios ($(remaining)s left)"
E2E_SERVER_CMD="$SERVER_CMD" E2E_CODE_SERVER_PID="$CS_PID" E2E_LOGS="$WORK/ud/logs" E2E_CACHE="$CACHE" E2E_URL="http://127.0.0.1:$PORT/?folder=$WS" E2E_WORKSPACE="$WS" \
  E2E_ARTIFACTS="$ARTIFACTS" E2E_CHROMIUM="$CHROMIUM" E2E_PROFILE="$WORK/chromium-profile" \
  E2E_DEADLINE_MS="$((DEADLINE * 1000))" \
  timeout --kill-after=10 "$(remaining)" node "$HERE/scenarios.mjs"
