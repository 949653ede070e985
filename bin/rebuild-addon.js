#!/usr/bin/env node
// postinstall: sd-notify is a raw V8 addon, so it only loads in the Node it was compiled for.
// `npm ci` compiles it with whatever Node ran npm (20 on these machines); deadman runs on the
// pinned Node 24 from the `node` devDependency. Rebuild it against that Node's own headers.
// Optional by design: without the addon deadman falls back to `systemd-notify`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(dirname(new URL(import.meta.url).pathname), '..');
const say = (line) => process.stderr.write(`deadman postinstall: ${line}\n`);

function loads() {
  try {
    createRequire(join(root, 'package.json'))('sd-notify');
    return true;
  } catch {
    return false;
  }
}

function pinnedNodeHeaders() {
  const dir = join(root, 'node_modules', 'node', 'node_modules');
  if (!existsSync(dir)) return null;
  for (const name of readdirSync(dir)) {
    if (existsSync(join(dir, name, 'include', 'node', 'node.h'))) return join(dir, name);
  }
  return null;
}

if (!existsSync(join(root, 'node_modules', 'sd-notify'))) {
  say('sd-notify not installed (optional); deadman will use the systemd-notify fallback');
} else if (loads()) {
  say(`sd-notify loads in Node ${process.version}`);
} else {
  const nodedir = pinnedNodeHeaders();
  try {
    const args = ['rebuild', 'sd-notify', ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
    execFileSync('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    say(
      `rebuilding sd-notify failed (${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .pop()})`,
    );
  }
  say(
    loads()
      ? `sd-notify rebuilt for Node ${process.version}`
      : 'sd-notify unavailable (needs libsystemd-dev to build); deadman will use the systemd-notify fallback',
  );
}
