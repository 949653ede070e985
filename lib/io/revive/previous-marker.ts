import { adapterOptions } from '../../core/adapters/index.ts';
import type { Config } from '../../core/config/config.ts';
import type { Marker } from '../../core/revive/marker.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { reportFault } from '../log/log.ts';
import { markerIsCompleted, readMarker, removeStaleTempFiles } from './markers.ts';
import { settleEndedResume } from './revive-log.ts';

/**
 * The marker a `deadman run` decides from, read under the marker lock: temp files of writes a
 * SIGKILL cut short are removed first; a damaged marker is one warning; a refused one is one
 * warning and a record; a resume launched detached that has ended since is settled.
 */
export async function readPreviousMarker(
  markerDir: string,
  name: string,
  now: number,
  io: { config: Config; records: { refusedMarker(name: string, problem: string): void }; logger: Logger },
): Promise<Marker | null> {
  for (const file of removeStaleTempFiles(markerDir))
    io.logger.log('info', `removed ${file}, the temp file of a marker write cut short`);
  if (markerIsCompleted(markerDir, name)) return null;
  const read = await readMarker(markerDir, name, { now });
  if (read.status === 'problem') io.logger.log('warn', read.problem);
  if (read.status === 'refused') reportFault(io.logger, 'revive marker', markerDir, read.problem);
  if (read.status === 'refused') io.records.refusedMarker(name, read.problem);
  return read.status === 'ok' ? settleEndedResume(read.marker, now, adapterOptions(io.config.generic)) : null;
}
