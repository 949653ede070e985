import { z } from 'zod';

/**
 * `container = "NAME"` on a `[jobs.NAME]`: its evidence lives inside that container and is read
 * there through `<engine> exec`, with deadman's own read-only commands only
 * (lib/core/evidence/container-commands.ts). So such a job's claims are file claims: a `command`
 * would run a command from the config inside someone else's container, and an `http` (or any
 * other) claim would be observed from the host, not where the job lives. Both are refused at load,
 * one line each, rather than quietly run in the wrong place.
 */

export const CONTAINER_ENGINES = ['podman', 'docker'] as const;

/**
 * What podman and docker accept as a name or an id. The first character is a letter or digit, so
 * the name can never be read as an option of `exec` (`--privileged`).
 */
const containerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,253}$/, {
  message: 'must be a container name or id: letters, digits, "_", "." and "-", starting with a letter or digit',
});

export const containerFields = {
  container: containerName.optional(),
  engine: z.enum(CONTAINER_ENGINES).optional(),
};

interface ContainerKeys {
  container?: string | undefined;
  engine?: string | undefined;
  evidence: ReadonlyArray<{ kind: string }>;
}

/** Problems of a job's container keys, as [path below the job, message]. */
export function containerProblems(job: ContainerKeys): Array<[PropertyKey[], string]> {
  if (job.container === undefined) {
    return job.engine === undefined
      ? []
      : [[['engine'], 'is read only with "container"; add container = "NAME" or remove engine']];
  }
  return job.evidence.flatMap((claim, index): Array<[PropertyKey[], string]> =>
    claim.kind === 'file'
      ? []
      : [
          [
            ['evidence', index, 'kind'],
            `"${claim.kind}" cannot be observed inside container ${job.container}: a container job's claims are file claims, read there with deadman's read-only commands; move this claim to a job without "container"`,
          ],
        ],
  );
}
