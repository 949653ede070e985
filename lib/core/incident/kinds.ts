/**
 * The incident vocabulary: the signals detectors raise and the typed actions deadman can take.
 * Each is defined by its row — the signal registry (lib/core/signals/registry.ts) and the action
 * table (lib/core/signals/actions.ts); this names them for the code that only passes them on.
 */
export type { SignalKind } from '../signals/registry.ts';
export type { RecoveryAction } from '../signals/actions.ts';
