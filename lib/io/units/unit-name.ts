import { readFileSync } from 'node:fs';

/**
 * The systemd unit deadman runs in, from its own cgroup path (`…/deadman@fix-tests.service`),
 * or null outside a service. Used as the default run name and recorded with each run.
 */
export function currentUnitName(cgroupFile = '/proc/self/cgroup'): string | null {
  let text: string;
  try {
    text = readFileSync(cgroupFile, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const path = line.split(':').slice(2).join(':');
    const unit = path
      .split('/')
      .reverse()
      .find((segment) => segment.endsWith('.service'));
    if (unit) return unit;
  }
  return null;
}
