import { randomBytes } from 'node:crypto';
import { makeRunTag } from '../../core/process/run-tag.ts';

/** A fresh run tag (16 random bytes): one per `deadman run` or detached resume. */
export function newRunTag(): string {
  return makeRunTag(randomBytes(16).toString('hex'));
}
