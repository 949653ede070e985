#!/usr/bin/env bash
# Makes the local base image localhost/deadman-base:bookworm when it is not there (or when
# DEADMAN_CONTAINER_FRESH=1), and the podman settings this host needs, for contrib/container/test.sh
# and the container evidence test (test/io/evidence/container-evidence.test.ts), which share it.
#
# No image registry is needed: a Debian root filesystem from Debian's archive (debootstrap) with
# Node from the npm `node` package (this checkout's node_modules) and npm from the registry. Run
# as root after `npm ci`. Concurrent callers wait for one build (flock). Environment:
#   DEADMAN_CONTAINER_WORK    scratch directory (default: $TMPDIR/deadman-container); its
#                             containers.conf is what CONTAINERS_CONF must point at afterwards
#   DEADMAN_CONTAINER_FRESH=1 rebuild the base image even when it exists
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${DEADMAN_CONTAINER_WORK:-${TMPDIR:-/tmp}/deadman-container}
base=localhost/deadman-base:bookworm
t0=$(date +%s.%N)
say() { printf '%6.1fs  %s\n' "$(awk -v now="$(date +%s.%N)" -v t0="$t0" 'BEGIN { print now - t0 }')" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

for tool in podman runc debootstrap; do command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install podman runc debootstrap)"; done
[ "$(id -u)" = 0 ] || fail "run as root (podman with runc and host cgroups)"
node_bin=$(readlink -f "$root/node_modules/node/bin/node" 2>/dev/null || true)
[ -x "$node_bin" ] && "$node_bin" --version >/dev/null || fail "no Node in $root/node_modules/node (run npm ci first)"
mkdir -p "$work"

# crun refuses this host's hybrid cgroups and the default ulimits fail with EPERM.
cat > "$work/containers.conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
CONF
export CONTAINERS_CONF=$work/containers.conf
podman() { command podman --runtime runc "$@"; }

# The Debian mirror this machine uses (deb822 .sources or a classic .list), else Debian's own.
mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list /etc/apt/sources.list 2>/dev/null \
  | sed -n 's/^URIs: *\([^ ]*\).*/\1/p; s/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\) bookworm .*/\2/p' | grep -v security | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

build_base() {
  local rootfs=$work/rootfs npm_version
  rm -rf "$rootfs"
  say "debootstrap --variant=minbase bookworm from $mirror"
  debootstrap --variant=minbase --include=ca-certificates,git,procps bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log"; fail "debootstrap failed"; }
  say "root filesystem made ($(du -sm "$rootfs" | cut -f1) MB)"
  install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  npm_version=$(npm --version)
  (cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null)
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  tar -C "$rootfs" -c . | podman import --quiet - "$base" >/dev/null
  rm -rf "$rootfs"
  say "base image $base: Debian bookworm, Node $("$node_bin" --version), npm $npm_version"
}

# One build at a time: the two tests that need the base may start together.
exec 9>"$work/base.lock"
flock 9
if [ "${DEADMAN_CONTAINER_FRESH:-}" = 1 ] || ! podman image exists "$base"; then build_base; else say "base image $base exists (DEADMAN_CONTAINER_FRESH=1 rebuilds it)"; fi
