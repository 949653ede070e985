import type { Claim } from '../config/config.ts';
import { buildClaim } from './claim-draft.ts';
import { tokenize } from './claim-tokens.ts';
import { CONJUNCTIONS, FILE_NOUNS, FILLER_WORDS, TYPE_WORDS, WRITE_VERBS } from './claim-words.ts';
import { Cursor, phrase, quantity, unknownWord, type ClaimRefusal, type Outcome, type Rule } from './claim-cursor.ts';

/**
 * deadman's own reader of plain-English claims: "a non-empty CSV under /out/export, modified in
 * the last 6 hours" becomes the typed file claim a TOML author would write. Deterministic and
 * pure: the same sentence always gives the same plan. A word it does not know, or a phrase it
 * cannot place, is refused with that word and the nearest word it knows — never guessed.
 */

/** The typed claims a sentence became (the reader gives one file claim; an approved model plan may hold more). */
export type ClaimPlan = Claim[];

/** `inputs`: the plan as a TOML author would write it (spans in seconds), one object per claim. */
export type ClaimReading =
  { ok: true; plan: ClaimPlan; inputs: Array<Record<string, unknown>> } | { ok: false; refusal: ClaimRefusal };

export function readClaim(sentence: string): ClaimReading {
  const tokens = tokenize(sentence);
  if (!tokens.ok) return refuse(unknownWord(tokens.word));
  const cursor = new Cursor(tokens.tokens);
  while (!cursor.done()) {
    const start = cursor.at;
    const outcome = RULES.reduce<Outcome>((found, rule) => (found === 'no' ? rule(cursor) : found), 'no');
    if (outcome === 'no') return refuse(unknownWord(cursor.peek()!.text));
    if (outcome !== 'ok') return refuse(outcome);
    if (cursor.at === start) throw new Error('a claim rule matched without reading');
  }
  const built = buildClaim(cursor.draft);
  return built.ok
    ? { ok: true, plan: [built.claim], inputs: [built.input] }
    : refuse({ word: null, nearest: null, reason: built.reason });
}

function refuse(refusal: ClaimRefusal): ClaimReading {
  return { ok: false, refusal };
}

const AGE_ONLY = 'an age says how recent, e.g. "modified in the last 6 hours"';

/** in/within/during the last N units; within N units; newer/younger than; less than … old; no/not older than; at most … old. */
const age: Rule = (c) => {
  const start = c.at;
  const lead = c.word();
  let implicit = false;
  if (
    (lead === 'in' || lead === 'within' || lead === 'during') &&
    (c.take(lead, 'the', 'last') || c.take(lead, 'the', 'past') || c.take(lead, 'last') || c.take(lead, 'past'))
  )
    implicit = true;
  else if (!(
    c.take('within') ||
    c.take('newer', 'than') ||
    c.take('younger', 'than') ||
    c.take('less', 'than') ||
    c.take('no', 'older', 'than') ||
    c.take('not', 'older', 'than') ||
    c.take('at', 'most')
  ))
    return 'no';
  const q = quantity(c, implicit);
  if (q === null || q.kind !== 'age') {
    c.at = start;
    return lead === 'within' || lead === 'in' ? 'no' : phrase(lead!, `needs a span after it, e.g. "${lead} … 6 hours"`);
  }
  c.take('old') || c.take('ago');
  c.draft.maxAgeMs = q.amount;
  return 'ok';
};

const today: Rule = (c) =>
  c.take('today') || c.take('from', 'today') || c.take('since', 'midnight') ? ((c.draft.today = true), 'ok') : 'no';

/** at least N; more/over/larger/bigger/greater than N; N units (or more). */
const amount: Rule = (c) => {
  const lead = c.word();
  const strict =
    c.take('more', 'than') ||
    c.take('larger', 'than') ||
    c.take('bigger', 'than') ||
    c.take('greater', 'than') ||
    c.take('over');
  const atLeast = !strict && c.take('at', 'least');
  const q = quantity(c);
  if (q === null)
    return strict || atLeast
      ? phrase(lead!, 'needs a number and a unit after it, e.g. "at least 10 KB", "more than 100 lines"')
      : 'no';
  if (q.kind === 'age') return phrase(q.text, AGE_ONLY);
  c.take('or', 'more') || c.take('or', 'larger') || c.take('or', 'bigger');
  const floor = strict ? q.amount + 1 : q.amount;
  if (q.kind === 'size') c.draft.minBytes = floor;
  else if (q.kind === 'lines') c.draft.minLines = floor;
  else c.draft.minCount = floor;
  return 'ok';
};

const PLACE_FILLERS = new Set(['the', 'directory', 'folder', 'dir']);

/** under/in/inside/into/within/at /path, or a path alone (the claim's subject). */
const place: Rule = (c) => {
  const lead = c.word();
  const preposition =
    lead !== null && ['under', 'in', 'inside', 'into', 'within', 'at', 'below', 'beneath'].includes(lead);
  if (preposition) {
    c.at++;
    c.skip(PLACE_FILLERS);
  }
  const token = c.peek();
  if (token?.kind !== 'path')
    return preposition ? phrase(lead!, `needs a path after it, e.g. "${lead} /out/export"`) : 'no';
  c.at++;
  const d = c.draft;
  if (d.subject !== null || d.dir !== null)
    return phrase(token.text, `names a second place (first: ${d.subject ?? d.dir}); a claim is about one place`);
  if (lead === 'at' || !preposition) d.subject = token.text;
  else d.dir = token.text;
  return 'ok';
};

/** named/called X, or a file name or glob written as such (backup.tar.gz, export-*.csv). */
const fileName: Rule = (c) => {
  const named = c.take('named') || c.take('called');
  const token = c.peek();
  if (token === undefined || !(token.kind === 'name' || token.kind === 'quoted' || (named && token.kind === 'word')))
    return named ? phrase('named', 'needs a file name after it, e.g. named "report.csv"') : 'no';
  if (token.text.includes('/'))
    return phrase(token.text, 'a file name has no "/"; say the directory with "under /path"');
  c.at++;
  if (c.draft.name !== null) return phrase(token.text, `names a second file (first: ${c.draft.name})`);
  c.draft.name = token.text;
  return 'ok';
};

/** csv, json, tarball, .csv … */
const fileType: Rule = (c) => {
  const token = c.peek();
  const ending = token?.kind === 'ext' ? token.text : token?.kind === 'word' ? TYPE_WORDS[token.text] : undefined;
  if (ending === undefined) return 'no';
  c.at++;
  if (c.draft.ending !== null && c.draft.ending !== ending)
    return phrase(token!.text, `names a second file type (first: ${c.draft.ending})`);
  c.draft.ending = ending;
  return 'ok';
};

const QUOTE_NEEDED = 'put the text in double quotes, e.g. contains "DONE" or a header "id,name"';

/** contains "…"; a header "…"; starting with "…"; first line "…". */
const content: Rule = (c) => {
  const lead = c.word();
  const contains = c.take('contains') || c.take('containing') || c.take('contain');
  const header =
    !contains &&
    (c.take('header') ||
      c.take('headers') ||
      c.take('starting', 'with') ||
      c.take('starts', 'with') ||
      c.take('first', 'line'));
  if (!contains && !header)
    return c.peek()?.kind === 'quoted'
      ? phrase(c.peek()!.text, 'quoted text alone says nothing; write contains "…" or a header "…"')
      : 'no';
  c.skip(new Set(['line', 'row', 'is', 'reads', 'of', 'the', 'text', 'word', 'string']));
  const text = c.peek();
  if (text?.kind !== 'quoted' || text.text === '') return phrase(lead!, QUOTE_NEEDED);
  c.at++;
  const d = c.draft;
  if ((contains ? d.contains : d.header) !== undefined)
    return phrase(
      text.text,
      `a claim holds one ${contains ? 'contains' : 'header'}; write a second claim as [[jobs.NAME.evidence]]`,
    );
  if (contains) d.contains = text.text;
  else d.header = text.text;
  return 'ok';
};

const size: Rule = (c) =>
  c.take('non-empty') || c.take('nonempty') || c.take('not', 'empty') ? ((c.draft.nonEmpty = true), 'ok') : 'no';

const absence: Rule = (c) => (c.take('no') || c.take('nothing') ? ((c.draft.absent = true), 'ok') : 'no');

/** Words that join or fill, and a few that are refused for a reason rather than as unknown. */
const plain: Rule = (c) => {
  const token = c.peek()!;
  if (token.kind === 'comma') return (c.at++, 'ok');
  if (token.kind === 'number')
    return phrase(token.text, 'a number needs a unit after it: "6 hours", "10 MB", "100 lines", "3 files"');
  const word = c.word();
  if (word === 'or')
    return phrase(
      word,
      'a claim says what must hold, not alternatives; write one claim per alternative you would accept',
    );
  if (word === 'not') return phrase(word, 'only "not empty" and "not older than" are read');
  if (
    word !== null &&
    (FILLER_WORDS.has(word) || CONJUNCTIONS.has(word) || FILE_NOUNS.has(word) || WRITE_VERBS.has(word))
  )
    return (c.at++, 'ok');
  return 'no';
};

const RULES: Rule[] = [age, today, amount, place, fileName, fileType, content, size, absence, plain];
