import { createLogger, redactedLogger } from '../../io/log/log.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { RecordingStore } from '../../io/store/recording-store.ts';
import { StepRecords } from '../../supervise/records/step-records.ts';
import type { Context } from '../shared/command-context.ts';
import { openStore, redactorFor } from '../shared/open-store.ts';

/** Where one attached agent's supervision is recorded; the caller closes it. */
export interface AttachedRecording {
  logger: Logger;
  records: StepRecords;
  close(): void;
}

export function openAttachedRecording(context: Context): AttachedRecording {
  const logger = redactedLogger(createLogger(), redactorFor(context.config).text);
  const { clock } = context;
  const store = new RecordingStore({
    path: context.paths.database,
    open: () => openStore(context),
    logger,
    wall: () => clock.wall(),
    monotonic: () => clock.monotonic(),
  });
  const startedAt = clock.monotonic();
  return {
    logger,
    records: new StepRecords(
      store,
      () => clock.wall(),
      () => clock.monotonic() - startedAt,
    ),
    close: () => store.close(),
  };
}
