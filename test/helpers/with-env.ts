/** Runs `body` with these environment variables set (undefined: unset), then puts them back as they were. */
export function withEnv<T>(env: Record<string, string | undefined>, body: () => T): T {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  assign(env);
  try {
    return body();
  } finally {
    assign(saved);
  }
}
