import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { repoRoot } from './helpers/cli.ts';

/**
 * One formatter, checked here so CI (`npm test`) fails on code `npm run format` would change.
 * The files are the ones `npm run format` writes: its quoted globs, read from package.json, so
 * the check and the formatter cannot disagree about which files count. The check calls prettier's
 * API in this one process rather than its CLI: the files share one warmed-up formatter, which
 * is most of what the check costs.
 */

const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** The globs `npm run format` formats, in the order the script names them. */
function formatGlobs(): string[] {
  return [...packageJson.scripts['format']!.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

/** Whether `text`, read from `file` (relative to the repository), is as `npm run format` writes it. */
async function isFormatted(file: string, text: string): Promise<boolean> {
  const options = await prettier.resolveConfig(join(repoRoot, file));
  assert.ok(options, `no prettier options apply to ${file}`);
  return prettier.check(text, { ...options, filepath: file });
}

test('the format globs cover the TypeScript and JavaScript of lib/, test/, bench/ and bin/', () => {
  const globs = formatGlobs();
  for (const dir of ['lib/', 'test/', 'bench/', 'bin/']) {
    assert.ok(
      globs.some((glob) => glob.startsWith(dir)),
      `npm run format leaves ${dir} out: ${globs.join(' ')}`,
    );
  }
});

test('a text prettier would change is not formatted, one written in the repo style is', async () => {
  assert.equal(await isFormatted('lib/messy.ts', 'export const a = {b:"c"}\n'), false);
  assert.equal(await isFormatted('lib/long.ts', `export const a = [${"'item', ".repeat(20)}];\n`), false);
  assert.equal(await isFormatted('lib/tidy.ts', "export const a = { b: 'c' };\n"), true);
});

test('every source is as `npm run format` writes it', async () => {
  const files = globSync(formatGlobs(), { cwd: repoRoot }).sort();
  assert.ok(files.length > 500, `checked ${files.length} files`);
  const offenders: string[] = [];
  for (const file of files) {
    if (!(await isFormatted(file, readFileSync(join(repoRoot, file), 'utf8')))) offenders.push(file);
  }
  assert.deepEqual(offenders, [], `run \`npm run format\`: ${offenders.length} files are not formatted`);
});
