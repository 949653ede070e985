#!/usr/bin/env node
// Entry point only: checks the runtime, then hands over to the compiled CLI in dist/.
import module from 'node:module';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  const { suggestNode } = await import('./find-node.js');
  process.stderr.write(`deadman: needs Node.js >= 22.13 for node:sqlite, this is ${process.version} at ${process.execPath}; ${suggestNode()}\n`);
  // EX_CONFIG: the unit lists it in RestartPreventExitStatus=, so a wrong Node is not a crash loop.
  process.exit(78);
}

// node:sqlite still reports itself as experimental on some supported releases; that notice is
// not for deadman's users. Every other warning is printed as Node would.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)) return;
  process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

module.enableCompileCache?.();

const { main } = await import('../dist/lib/main.js');
await main(process.argv.slice(2));
