import { statSync } from 'node:fs';
import { processKey } from '../../core/process/process-info.ts';
import { RUN_TAG_ENV } from '../../core/process/run-tag.ts';
import type { Seed } from '../../core/process/owned-tree.ts';
import { readProcStat } from './process-identity.ts';
import { listAllPids } from './proc-read.ts';
import { readOrNull } from '../files/quiet-reads.ts';

/**
 * Ownership outside a cgroup: a process that left the PID chain before any poll saw it (a
 * `setsid sleep 100 &` of a shell that exits at once, a double fork) is still the run's when
 * it carries the run tag in its environment, started after the root, and runs as our uid.
 * Finding those needs a pass over every /proc/<pid> (the cost grows with the host), so the
 * observer does it at spawn, now and then, and on every poll once the root is gone. An
 * environment is fixed at exec, so the answer is kept per process (pid + start time + name).
 */
export class TaggedProcesses {
  readonly #needle: string;
  readonly #answers = new Map<string, boolean>();
  readonly #uid = process.getuid?.() ?? -1;

  constructor(
    tag: string,
    private readonly rootStartTime: number,
  ) {
    this.#needle = `${RUN_TAG_ENV}=${tag}`;
  }

  /** Seeds (pid + start time) of every live tagged process of ours, except `excluded`. */
  find(excluded: ReadonlySet<number>): Seed[] {
    const seeds: Seed[] = [];
    const seen = new Set<string>();
    for (const pid of listAllPids()) {
      if (excluded.has(pid)) continue;
      const stat = readProcStat(pid);
      if (!stat || stat.startTime < this.rootStartTime) continue;
      const key = `${processKey(stat)}:${stat.comm}`;
      seen.add(key);
      let tagged = this.#answers.get(key);
      if (tagged === undefined) {
        tagged = this.#ownedByUs(pid) && this.#carriesTag(pid);
        this.#answers.set(key, tagged);
      }
      if (tagged) seeds.push({ pid, startTime: stat.startTime });
    }
    for (const key of this.#answers.keys()) if (!seen.has(key)) this.#answers.delete(key);
    return seeds;
  }

  #ownedByUs(pid: number): boolean {
    try {
      return statSync(`/proc/${pid}`).uid === this.#uid;
    } catch {
      return false;
    }
  }

  #carriesTag(pid: number): boolean {
    const environ = readOrNull(`/proc/${pid}/environ`);
    return environ !== null && environ.split('\0').includes(this.#needle);
  }
}
