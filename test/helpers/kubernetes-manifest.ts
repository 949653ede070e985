import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { repoRoot } from './cli.ts';

function documents(file: string, kinds: string[]): unknown[] {
  const text = readFileSync(join(repoRoot, 'contrib', 'kubernetes', file), 'utf8');
  const docs = parseAllDocuments(text).map((doc) => doc.toJS() as { kind: string });
  assert.deepEqual(
    docs.map((doc) => doc.kind),
    kinds,
  );
  return docs;
}

/** The documents of contrib/kubernetes/deadman-job.yaml: the state's claim, then the Job. */
export function manifest(): { claim: IPersistentVolumeClaim; job: IJob } {
  const [claim, job] = documents('deadman-job.yaml', ['PersistentVolumeClaim', 'Job']);
  return { claim: claim as IPersistentVolumeClaim, job: job as IJob };
}

/** The documents of contrib/kubernetes/deadman-check-cronjob.yaml: the config, then the CronJob. */
export function checkManifest(): { config: IConfigMap; cronJob: ICronJob } {
  const [config, cronJob] = documents('deadman-check-cronjob.yaml', ['ConfigMap', 'CronJob']);
  return { config: config as IConfigMap, cronJob: cronJob as ICronJob };
}
