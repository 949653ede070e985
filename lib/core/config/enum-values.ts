/**
 * The values of the config keys that are a choice, defined once without zod: the schema
 * (config.ts) validates with them, and the flags of `deadman run` that name these keys offer
 * them to the shell completions (run-options.ts), on the start-up path that loads no zod.
 */
export const ADAPTER_VALUES = ['auto', 'codex', 'claude', 'generic'] as const;
export const ON_STALL_VALUES = ['withhold', 'exit'] as const;
export const STDIN_VALUES = ['null', 'inherit'] as const;
