#!/usr/bin/env bash
# Installs the agent CLIs pinned in test/agents/clis.json into a cache outside the repository
# (reused when present), for the real-agent tests. They are never dependencies of deadman:
# `npm ci && npx deadman demo` does not need them. Claude Code's postinstall is skipped: the
# tests run its platform package's native binary directly, as they run Codex's vendor binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${DEADMAN_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/deadman/agents}
mkdir -p "$cache"
node -e 'for (const [name, version] of Object.entries(require(process.argv[1]))) console.log(`${name}@${version}`)' "$here/clis.json" |
while read -r spec; do
  dir="$cache/${spec//\//+}"
  if [ -f "$dir/.installed" ]; then echo "agents: $spec already in $dir"; continue; fi
  # Installed beside its final place and renamed in one step, so a cut install is never reused.
  partial=$(mktemp -d "$cache/.partial.XXXXXX")
  trap 'rm -rf "$partial"' EXIT
  echo "agents: installing $spec into $dir"
  npm install --prefix "$partial" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund --loglevel=error "$spec" >/dev/null
  touch "$partial/.installed"
  rm -rf "$dir" && mv "$partial" "$dir"
  trap - EXIT
done
