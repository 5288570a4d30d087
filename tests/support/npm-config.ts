/**
 * npm's configuration for the npm a test's code runs (the release asks and publishes through npm):
 * `npm_config_*` variables set for the time of `body`, then put back as they were.
 */
export async function withNpmConfig<T>(config: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const names = Object.keys(config).map((key) => `npm_config_${key}`);
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const [key, value] of Object.entries(config)) process.env[`npm_config_${key}`] = value;
  try {
    return await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
