#!/usr/bin/env bash
# Builds contrib/Dockerfile with podman and runs the revive scenario in it (issue 24):
#   a stalled run exits 75 → the container restarts (--restart on-failure) → the revive marker on
#   the state volume resumes the same session → the run finishes 0; the image's HEALTHCHECK reads
#   healthy → unhealthy → healthy along the way. Prints the timeline; exits non-zero on a miss.
#
# The base image is contrib/container/base-image.sh's (made when missing). Run as root after
# `npm ci`. Environment:
#   DEADMAN_CONTAINER_WORK    scratch directory (default: $TMPDIR/deadman-container)
#   DEADMAN_CONTAINER_AGENTS  the Dockerfile's AGENTS (default: its own, Codex and Claude Code)
#   DEADMAN_CONTAINER_FRESH=1 rebuild the base image even when it exists
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${DEADMAN_CONTAINER_WORK:-${TMPDIR:-/tmp}/deadman-container}
base=localhost/deadman-base:bookworm
image=localhost/deadman-agent:test
container=deadman-scenario
session=01a23200-0000-7000-8000-00000000c0de
t0=$(date +%s.%N)
say() { printf '%6.1fs  %s\n' "$(awk -v now="$(date +%s.%N)" -v t0="$t0" 'BEGIN { print now - t0 }')" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

export DEADMAN_CONTAINER_WORK=$work
"$root/contrib/container/base-image.sh" | sed 's/^/        base: /' || fail "no base image"
export CONTAINERS_CONF=$work/containers.conf
podman() { command podman --runtime runc "$@"; }

# npm in the build trusts this host's CA bundle and reads its npm cache; neither goes into the image.
build_args=(--build-arg "BASE=$base" --build-arg NODE_EXTRA_CA_CERTS=/run/deadman-build/ca.crt --build-arg npm_config_cache=/run/deadman-build/npm-cache)
[ -n "${DEADMAN_CONTAINER_AGENTS+set}" ] && build_args+=(--build-arg "AGENTS=$DEADMAN_CONTAINER_AGENTS")
say "podman build -f contrib/Dockerfile (AGENTS=${DEADMAN_CONTAINER_AGENTS-default})"
# Docker's image format: the OCI one has no HEALTHCHECK (buildah drops it).
podman build --quiet --format docker --network host -f "$root/contrib/Dockerfile" -t "$image" "${build_args[@]}" \
  -v /etc/ssl/certs/ca-certificates.crt:/run/deadman-build/ca.crt:ro -v "$(npm config get cache):/run/deadman-build/npm-cache" \
  "$root" >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "podman build failed"; }
say "built $image ($(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%d MB", $1 / 1e6}'))"
podman run --rm --no-healthcheck "$image" sh -c 'echo "deadman $(deadman --version)"; for agent in codex claude; do command -v $agent >/dev/null && echo "$agent $($agent --version)"; done; true' | sed 's/^/        image: /'
[ -n "$(podman run --rm --no-healthcheck "$image" sh -c 'printenv NODE_EXTRA_CA_CERTS npm_config_cache || true')" ] && fail "a build-time setting is in the image's environment"
# The shipped traces replay and the docs are there.
podman run --rm --no-healthcheck "$image" sh -c 'test -f /opt/deadman/docs/revive.md && test -f /opt/deadman/README.md && deadman replay silence' \
  | grep -q 'would exit 75' || fail "the image does not replay its shipped trace or lacks the docs"

state=$work/state
podman rm --force --ignore "$container" >/dev/null
rm -rf "$state" "$work/work" && mkdir -p "$state" "$work/work"
trap 'podman rm --force --ignore "$container" >/dev/null 2>&1 || true' EXIT
# Timers for health checks need systemd on the host (podman says so on stderr, kept in run.err);
# the checks are run here instead.
podman run --detach --name "$container" --restart on-failure --health-interval disable \
  -v "$state:/var/lib/deadman" -v "$work/work:/work" \
  -e DEADMAN_NAME=fix-tests -e FAKE_AGENT_SESSION_ID=$session -e FAKE_AGENT_ARGV_LOG=/var/lib/deadman/agent-argv.jsonl \
  "$image" deadman run --name fix-tests --inactivity 5s --poll 250ms --stop-grace 12s \
  -- node /opt/deadman/contrib/container/stall-once-agent.mjs codex exec --json "Fix the flaky tests" >/dev/null 2>"$work/run.err" \
  || { cat "$work/run.err"; fail "podman run failed"; }
say "started $container: deadman run --name fix-tests --inactivity 5s -- (a fake Codex that stalls once)"

# Follow the container: its health (run here, as a timer would), restarts and the end.
health_seen='' last_health='' last_restarts=0
deadline=$(( $(date +%s) + 120 ))
while :; do
  read -r status code restarts < <(podman inspect --format '{{.State.Status}} {{.State.ExitCode}} {{.RestartCount}}' "$container")
  if [ "$restarts" != "$last_restarts" ]; then say "restarted (restart count $restarts)"; last_restarts=$restarts; fi
  if [ "$status" = exited ] && [ "$restarts" -ge 1 ]; then say "container exited $code"; break; fi
  if [ "$status" = running ]; then
    if podman healthcheck run "$container" >/dev/null 2>&1; then health=healthy; else health=unhealthy; fi
    # A check that ran as the container stopped says nothing: only a running container's verdict counts.
    [ "$(podman inspect --format '{{.State.Status}}' "$container")" = running ] || continue
    if [ "$health" != "$last_health" ]; then say "health check: $health"; health_seen="$health_seen $health"; last_health=$health; fi
  fi
  [ "$(date +%s)" -lt "$deadline" ] || { podman logs "$container" | tail -n 20; fail "the scenario did not end within 120 s"; }
done

podman logs "$container" > "$work/container.log" 2>&1
[ "$code" = 0 ] || { tail -n 20 "$work/container.log"; fail "the resumed run exited $code, not 0"; }
grep -q 'stalled: .*(exit 75)' "$work/container.log" || { tail -n 20 "$work/container.log"; fail "no stall with exit 75 in the container's log"; }
[ "$restarts" = 1 ] || fail "restarted $restarts times, not once"
case "$health_seen" in *"healthy unhealthy healthy"*) ;; *) fail "health checks read:$health_seen (want healthy → unhealthy → healthy)";; esac
resumed=$(sed -n 2p "$state/agent-argv.jsonl")
case "$resumed" in *'"resume","'$session'"'*) ;; *) fail "the second agent did not resume session $session: $resumed";; esac
say "PASS: stall → exit 75 → restart → session $session resumed → exit 0; health:$health_seen"
