import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { parseScript } from '../../../lib/core/shell/shell-words.ts';
import { commandProcesses } from '../../../lib/core/shell/command-processes.ts';
import { quoteWord, type QuoteStyle } from '../../../lib/core/shell/shell-quote.ts';

test('parseScript: quotes, escapes, operators, redirections, comments, here-documents', () => {
  const cases: Array<[string, unknown]> = [
    [`a 'b c' "d \\"e\\" \\$f \\x" g\\ h`, [['a', 'b c', 'd "e" $f \\x', 'g h']]],
    [`$'a\\tb\\x41\\101\\u00e9\\'' $"c d"`, [["a\tbAAé'", 'c d']]],
    ['cd x && make test; b || c | d & e\nf', [['cd', 'x'], ['make', 'test'], ['b'], ['c'], ['d'], ['e'], ['f']]],
    [`eval 'x' < /dev/null && pwd -P >| /tmp/f 2>&1; g 2> e &> f >> g`, [['eval', 'x'], ['pwd', '-P'], ['g']]],
    ['a # a comment\nb#not', [['a'], ['b#not']]],
    ["cat <<EOF\nline $x\nEOF\nnext\ncat <<-'E'\n\tbody\n\tE\nlast", [['cat'], ['next'], ['cat'], ['last']]],
    ['echo \\\nmore', [['echo', 'more']]],
    [
      'sleep $N "$HOME" ~/x *.ts `date` $(id -u) a{b,c} ok$',
      [['sleep', null, null, null, null, null, null, null, 'ok$']],
    ],
    ['(cd x; make) | tee log', [['cd', 'x'], ['make'], ['tee', 'log']]],
  ];
  for (const [script, words] of cases) assert.deepEqual(parseScript(script), words, script);
  assert.equal(parseScript(`a 'b`), null, 'an unclosed single quote');
  assert.equal(parseScript(`a "b`), null, 'an unclosed double quote');
  assert.equal(parseScript(`a $'b`), null, "an unclosed $'");
});

test('commandProcesses: the processes a command line can run as', () => {
  const show = (command: string) => commandProcesses(command).map((argv) => argv.join(' '));
  assert.deepEqual(show(`/bin/bash -lc 'cd x && make test'`), ['/bin/bash -lc cd x && make test', 'make test']);
  assert.deepEqual(show(`env -u X A=1 B='2 3' nice -n 5 python3 -c 'pass'`), [
    `env -u X A=1 B=2 3 nice -n 5 python3 -c pass`,
    'nice -n 5 python3 -c pass',
    'python3 -c pass',
  ]);
  assert.deepEqual(show(`A=1 exec make`), ['make']);
  assert.deepEqual(
    show(`source /s.sh && eval 'sleep 600' < /dev/null && pwd -P >| /tmp/c`),
    ['sleep 600'],
    "Claude's snapshot wrapper",
  );
  assert.deepEqual(show(`if true; then sleep 1; fi; for i in 1 2; do sleep $i; done`), ['sleep 1', 'sleep ']);
  assert.deepEqual(
    show(`sh -o pipefail -ec "zsh -c 'sleep 5'"`),
    [`sh -o pipefail -ec zsh -c 'sleep 5'`, `zsh -c sleep 5`, 'sleep 5'],
    'shells inside shells',
  );
  assert.deepEqual(show('echo hi; cd /; true'), [], 'builtins never run as a process');
});

// A corpus checked by a real bash: random words, each quoted in random styles (pieces of one word
// in different styles), put into a script; bash splits it (`printf '%s\0'`), and so does the parser.
const ALPHABET = [...'abcXYZ019 \t\n\'"\\$`;&|<>()#*?[]{},~=!%-_./é中😀'];
const STYLES: QuoteStyle[] = ['single', 'double', 'ansi-c', 'backslash'];

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function corpus(seed: number, cases: number): Array<{ words: string[]; quoted: string }> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const word = () => Array.from({ length: Math.floor(next() * 10) }, () => pick(ALPHABET));
  // A word in one or two pieces, each in its own style: adjacent quoted strings are one word.
  const quote = (w: string[]) => {
    const cut = Math.floor(next() * (w.length + 1));
    return [w.slice(0, cut), w.slice(cut)]
      .filter((piece, i) => piece.length > 0 || (i === 0 && w.length === 0))
      .map((piece) => quoteWord(piece.join(''), pick(STYLES)))
      .join('');
  };
  return Array.from({ length: cases }, () => {
    const words = Array.from({ length: 1 + Math.floor(next() * 6) }, word);
    return { words: words.map((w) => w.join('')), quoted: words.map(quote).join(pick([' ', '\t', '  ', ' \\\n'])) };
  });
}

/** What bash makes of each line: its words, as `printf '%s\0'` prints them. */
function bashWords(lines: string[]): string[][] {
  const script = lines.map((line) => `${line}; printf '\\1'`).join('\n');
  const out = spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
    maxBuffer: 64 << 20,
  });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout
    .split('\x01')
    .slice(0, -1)
    .map((chunk) => chunk.split('\0').slice(0, -1));
}

test('parseScript splits 2,000 randomly quoted word lists as bash does', () => {
  const seed = Number(process.env.SHELL_CORPUS_SEED ?? 32);
  const cases = corpus(seed, 2_000);
  const expected = bashWords(cases.map((c) => `printf '%s\\0' ${c.quoted}`));
  cases.forEach((c, i) => {
    assert.deepEqual(expected[i], c.words, `bash itself, seed ${seed}, case ${i}: ${c.quoted}`);
    assert.deepEqual(
      parseScript(`printf '%s\\0' ${c.quoted}`),
      [['printf', '%s\\0', ...c.words]],
      `seed ${seed}, case ${i}: ${c.quoted}`,
    );
  });
});

test('commandProcesses finds the command inside quoted shells, env and cd chains as bash runs it', () => {
  const seed = Number(process.env.SHELL_CORPUS_SEED ?? 32) + 1;
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const cases = corpus(seed, 200).map((c) => {
    const inner = `${pick(['', 'cd / && ', 'env A=1 ', 'true; '])}/usr/bin/printf '%s\\0' ${c.quoted}`;
    return {
      words: c.words,
      line: `${pick(['/bin/bash -ec', 'bash -c', 'env X=1 /bin/bash -c'])} ${quoteWord(inner, pick(STYLES))}`,
    };
  });
  const expected = bashWords(cases.map((c) => c.line));
  cases.forEach((c, i) => {
    assert.deepEqual(expected[i], c.words, `bash itself, seed ${seed}, case ${i}: ${c.line}`);
    const printf = commandProcesses(c.line).find((argv) => argv[0] === '/usr/bin/printf');
    assert.deepEqual(printf, ['/usr/bin/printf', '%s\\0', ...c.words], `seed ${seed}, case ${i}: ${c.line}`);
  });
});
