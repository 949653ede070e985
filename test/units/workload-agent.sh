#!/bin/sh
# What an agent and its tools do, for the workload tests of every unit deadman generates or ships
# (test/units/unit-workload-systemd.test.ts): write into HOME, the working directory, /tmp and
# /var/tmp, make a temp file with mktemp, start a tool in a session of its own, connect to a
# loopback port. Each step's result goes to ./workload-steps (the test reads it); then, unless
# WORKLOAD_RELEASE is empty, the agent waits (at most a minute) for that file so the test can see
# the unit running with deadman's Status: line, and finishes: 0 when every step worked.
failed=0
step() {
  name=$1
  shift
  if out=$("$@" 2>&1); then echo "ok $name" >> workload-steps; else echo "FAIL $name: $out" >> workload-steps; failed=1; fi
}
tag="deadman-workload-$$"
: > workload-steps
echo "agent started in $PWD as $(id -un)"
step home sh -c "echo home > \"\$HOME/.$tag\" && rm \"\$HOME/.$tag\""
step cwd sh -c "echo cwd > ./$tag && rm ./$tag"
step tmp sh -c "echo tmp > /tmp/$tag && rm /tmp/$tag"
step var-tmp sh -c "echo var-tmp > /var/tmp/$tag && rm /var/tmp/$tag"
step mktemp sh -c 'file=$(mktemp) && echo x > "$file" && rm "$file"'
step setsid setsid -w sh -c 'test "$(ps -o sid= -p $$ | tr -d " ")" = "$$" && echo tool > ./tool-output'
step loopback "$WORKLOAD_NODE" -e '
  const socket = require("node:net").connect(Number(process.argv[1]), "127.0.0.1", () => socket.end("hello from the unit\n"));
  socket.on("error", (error) => { console.error(error.message); process.exit(1); });
' "$WORKLOAD_PORT"
echo "steps done, failed=$failed"
if [ -n "${WORKLOAD_RELEASE:-}" ]; then
  i=0
  while [ ! -e "$WORKLOAD_RELEASE" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
fi
exit $failed
