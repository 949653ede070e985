/**
 * Forward-only migrations, indexed by the `PRAGMA user_version` they produce. Never edit a
 * shipped migration: add the next one. JSON columns hold text that the store parses back.
 */
export const MIGRATIONS: readonly string[] = [
  /* 1 */ `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    argv TEXT NOT NULL,
    cwd TEXT NOT NULL,
    unit TEXT,
    invocation_id TEXT,
    pid INTEGER NOT NULL,
    adapter TEXT NOT NULL,
    session_id TEXT,
    revive_of TEXT,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    exit_code INTEGER,
    signal TEXT,
    outcome TEXT,
    reason TEXT
  );
  CREATE INDEX runs_name ON runs(name, started_at);
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    stream TEXT NOT NULL,
    kind TEXT NOT NULL,
    raw TEXT NOT NULL,
    truncated INTEGER NOT NULL DEFAULT 0,
    data TEXT
  );
  CREATE INDEX events_run ON events(run_id, id);
  CREATE TABLE observations (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    processes TEXT NOT NULL
  );
  CREATE INDEX observations_run ON observations(run_id, id);
  CREATE TABLE signals (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    evidence TEXT
  );
  CREATE TABLE incidents (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    message TEXT NOT NULL,
    opened_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    signal_id INTEGER REFERENCES signals(id)
  );
  CREATE INDEX incidents_opened ON incidents(opened_at);
  CREATE TABLE incident_transitions (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    from_state TEXT,
    to_state TEXT NOT NULL,
    reason TEXT NOT NULL,
    evidence TEXT
  );
  CREATE TABLE diagnoses (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    source TEXT NOT NULL,
    action TEXT NOT NULL,
    rationale TEXT NOT NULL
  );
  CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER REFERENCES incidents(id) ON DELETE CASCADE,
    job TEXT,
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    verdict TEXT NOT NULL,
    reason TEXT NOT NULL,
    who TEXT
  );
  CREATE TABLE actions (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER REFERENCES incidents(id) ON DELETE CASCADE,
    job TEXT,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    target TEXT,
    result TEXT NOT NULL,
    detail TEXT
  );
  CREATE TABLE verifications (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    detail TEXT NOT NULL
  );
  CREATE TABLE evidence_results (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    job TEXT,
    claim TEXT NOT NULL,
    at INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    reason TEXT NOT NULL
  );
  CREATE TABLE revives (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    session_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    budget INTEGER NOT NULL,
    source TEXT NOT NULL,
    argv TEXT NOT NULL,
    outcome TEXT NOT NULL
  );
  `,
  /* 2: recurring stalls — a restart that stalls again the same way adds to the open incident. */ `
  ALTER TABLE incidents ADD COLUMN fingerprint TEXT;
  CREATE INDEX incidents_fingerprint ON incidents(fingerprint, state);
  CREATE TABLE incident_recurrences (
    id INTEGER PRIMARY KEY,
    incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    at INTEGER NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX incident_recurrences_incident ON incident_recurrences(incident_id, at);
  `,
  /* 3: the diagnosis contract — an external answer in full (classification, confidence, evidence ids, guidance), or why it was refused. */ `
  ALTER TABLE diagnoses ADD COLUMN detail TEXT;
  `,
  /* 4: a stable error code per outcome (lib/core/incident/error-codes.ts), for callers to branch on. */ `
  ALTER TABLE runs ADD COLUMN error_code TEXT;
  ALTER TABLE incidents ADD COLUMN error_code TEXT;
  `,
  /* 5: the run's owner, checked live by readers (pid + start time), and a token that binds approvals to this one run. */ `
  ALTER TABLE runs ADD COLUMN pid_start_time INTEGER;
  ALTER TABLE runs ADD COLUMN token TEXT;
  `,
  /* 6: a run closed for a deadman that died says so here, so its signal can name what systemd saw end it (SIGKILL, oom-kill). Rows closed before said it with signal unknown or watchdog, which no recorded end holds. */ `
  ALTER TABLE runs ADD COLUMN lost INTEGER NOT NULL DEFAULT 0;
  UPDATE runs SET lost = 1 WHERE ended_at IS NOT NULL AND signal IN ('unknown', 'watchdog');
  `,
  /* 7: where the run keeps its [metrics] textfile, so the first reader to find its deadman dead rewrites that file, with or without the run's config. */ `
  ALTER TABLE runs ADD COLUMN metrics_textfile TEXT;
  `,
  /* 8: every child table indexed by the row it hangs off. Deleting a run (retention) cascades through them, and without these each delete scanned every table whole: 9,000 runs past max_runs took 640 s (issue 38). Readers join incidents to runs and to their rows the same way, and find a name's latest run by (name, id): `status` on 10,000 runs took 5 s of CPU in that one query. */ `
  CREATE INDEX IF NOT EXISTS signals_run ON signals(run_id);
  CREATE INDEX IF NOT EXISTS incidents_run ON incidents(run_id);
  CREATE INDEX IF NOT EXISTS incidents_signal ON incidents(signal_id);
  CREATE INDEX IF NOT EXISTS incident_transitions_incident ON incident_transitions(incident_id, at);
  CREATE INDEX IF NOT EXISTS diagnoses_incident ON diagnoses(incident_id, at);
  CREATE INDEX IF NOT EXISTS decisions_incident ON decisions(incident_id, at);
  CREATE INDEX IF NOT EXISTS actions_incident ON actions(incident_id, at);
  CREATE INDEX IF NOT EXISTS verifications_incident ON verifications(incident_id, at);
  CREATE INDEX IF NOT EXISTS evidence_results_run ON evidence_results(run_id);
  CREATE INDEX IF NOT EXISTS incident_recurrences_run ON incident_recurrences(run_id);
  CREATE INDEX IF NOT EXISTS runs_ended ON runs(ended_at);
  CREATE INDEX IF NOT EXISTS runs_name_id ON runs(name, id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
