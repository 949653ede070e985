/**
 * The names deadman turns into file names and rows — runs (their marker files), jobs, claims:
 * only characters safe in a file name, a unit instance and a log line, and not too long.
 */
export const MAX_NAME_LENGTH = 100;
const NAME_CHARACTERS = 'A-Za-z0-9_.@-';
export const NAME_PATTERN = new RegExp(`^[${NAME_CHARACTERS}]{1,${MAX_NAME_LENGTH}}$`);
/** Every character a name may not hold, to replace when a name is made from something else. */
export const NOT_NAME_CHARACTERS = new RegExp(`[^${NAME_CHARACTERS}]`, 'g');
