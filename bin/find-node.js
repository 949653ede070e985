// Only on the failure path of bin/deadman.js: looks for a Node.js new enough to run deadman, so
// the one line it prints says where one is (a unit's ExecStart= must name it, since systemd's
// `env node` found the old one) or how to get one.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./deadman.js', import.meta.url));

function candidates() {
  const nvm = join(homedir(), '.nvm', 'versions', 'node');
  const nvmNodes = existsSync(nvm) ? readdirSync(nvm).map((v) => join(nvm, v, 'bin', 'node')) : [];
  return [
    fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url)),
    '/usr/local/bin/node',
    '/usr/bin/node',
    '/usr/bin/nodejs',
    '/opt/homebrew/bin/node',
    ...nvmNodes,
  ];
}

function versionOf(path) {
  try {
    return execFileSync(path, ['-p', 'process.versions.node'], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

function newEnough(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

export function suggestNode() {
  for (const path of candidates()) {
    if (path === process.execPath || !existsSync(path)) continue;
    const version = versionOf(path);
    if (version && newEnough(version)) {
      return `Node v${version} is at ${path}: start deadman with it (ExecStart=${path} ${entry} …; \`deadman install\` writes that path)`;
    }
  }
  return 'install Node.js 22.13 or newer (e.g. 24 LTS) and start deadman with it, or put it first in PATH';
}
