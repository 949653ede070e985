import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { repoRoot } from './cli.ts';

/** The documents of contrib/kubernetes/deadman-job.yaml: the state's claim, then the Job. */
export function manifest(): { claim: IPersistentVolumeClaim; job: IJob } {
  const text = readFileSync(join(repoRoot, 'contrib', 'kubernetes', 'deadman-job.yaml'), 'utf8');
  const docs = parseAllDocuments(text).map((doc) => doc.toJS() as { kind: string });
  assert.deepEqual(docs.map((doc) => doc.kind), ['PersistentVolumeClaim', 'Job']);
  return { claim: docs[0] as IPersistentVolumeClaim, job: docs[1] as IJob };
}
