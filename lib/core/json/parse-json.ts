/**
 * JSON.parse for text from outside (files, lines, replies) that may be cut short or not JSON
 * at all. JSON never yields `undefined`, so it stands for "not JSON" without ruling out a
 * document that is `null`. Pure; never throws.
 */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
