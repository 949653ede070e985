/**
 * Bumped when the marker's shape changes; a marker of another version is not revived. Its own
 * file so the schema (zod, loaded only when a marker exists) and the marker logic share it
 * without importing each other.
 */
export const MARKER_VERSION = 2;
