import type { CommandModule } from 'yargs';
import { buildReport } from '../core/incident/report.ts';
import { renderReportText } from '../core/incident/report-text.ts';
import { usageError } from '../exit-codes.ts';
import { latestIncidentId, loadIncidentRows } from '../io/store/incident-records.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import { openExistingStore, readRows, settleLost, withAbandoned } from './shared/open-existing-store.ts';
import { snakeCaseKeys } from '../core/status/snake-case.ts';
import { shippedTraceNames } from '../io/session/trace-file.ts';
import { scenarioReport } from './shared/report-scenario.ts';

/**
 * `deadman report <id|latest> [--name N] [--json]`: one incident in full. Also what
 * deadman-notify@.service runs when a unit fails, so "nothing recorded" is a normal answer
 * (exit 0), while an id that does not exist is a mistake on the command line.
 */

interface ReportArgs extends CommonArgs {
  incident: string;
  name?: string;
  json?: boolean;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <incident>',
  describe: 'show one incident: timeline, evidence, action, verification, advice',
  builder: (y) =>
    y
      .positional('incident', {
        type: 'string',
        describe: `an incident id (see deadman incidents), "latest", or a shipped scenario (${shippedTraceNames().join(', ')})`,
        demandOption: true,
      })
      .option('name', { type: 'string', describe: 'with "latest": the latest incident of runs with this name' })
      .option('json', { type: 'boolean', describe: 'print the report as JSON' })
      .options(stateOptions),
  handler: async (args) => {
    const scenario = await scenarioReport(args.incident);
    if (scenario) {
      process.stdout.write(
        args.json ? `${JSON.stringify(snakeCaseKeys(scenario), null, 2)}\n` : renderReportText(scenario),
      );
      return;
    }
    const wanted = parseIncidentArg(args.incident);
    const { store, database, context } = await openExistingStore(args);
    const redactor = redactorFor(context.config);
    try {
      const rows = readRows(database, () => {
        const id = store === null ? null : wanted === 'latest' ? latestIncidentId(store, args.name) : wanted;
        if (store === null || id === null) return null;
        const lost = settleLost(store, context, context.clock.wall());
        const loaded = loadIncidentRows(store, id);
        return loaded && { ...loaded, incident: withAbandoned([loaded.incident], lost)[0]! };
      });
      if (rows === null && wanted !== 'latest')
        throw usageError(`no incident #${wanted} in ${database}; list them with deadman incidents`);
      // Rows are stored redacted; this also hides what newer patterns know and older runs kept.
      const out = rows === null ? null : redactor.value(buildReport(rows));
      if (args.json) process.stdout.write(`${JSON.stringify(snakeCaseKeys(out), null, 2)}\n`);
      else
        process.stdout.write(
          out
            ? redactor.text(renderReportText(out))
            : `no incidents recorded${args.name ? ` for runs named ${args.name}` : ''} in ${database}\n`,
        );
    } finally {
      store?.close();
    }
  },
};

function parseIncidentArg(value: string): number | 'latest' {
  if (value === 'latest') return 'latest';
  if (/^[1-9]\d{0,15}$/.test(value)) return Number(value);
  throw usageError(
    `"${value}" is not an incident id; give a number from deadman incidents, "latest", or a shipped scenario (${shippedTraceNames().join(', ')})`,
  );
}
