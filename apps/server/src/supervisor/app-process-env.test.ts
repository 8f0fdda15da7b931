import { describe, expect, it } from 'vitest';
import { appSecretsFrom } from './local-secrets';
import { appProcessEnv } from './start';

describe('the environment herald start gives the server and worker', () => {
  const fileSecrets = appSecretsFrom({
    JWT_SECRET: 'from-file-jwt',
    ENCRYPTION_KEY: 'from-file-key',
    EMBEDDED_PG_OWNER_PASSWORD: 'owner-secret',
    EMBEDDED_PG_APP_PASSWORD: 'app-secret',
  });

  it("carries the app role's DATABASE_URL and never the owner's URL", () => {
    const env = appProcessEnv(
      {
        DATABASE_URL: 'postgres://herald_app:a@db/herald',
        DATABASE_OWNER_URL: 'postgres://owner:o@db/herald',
        PORT: '4000',
      },
      { secrets: fileSecrets, databaseUrl: 'postgres://herald_app:a@db/herald', graphApiBase: 'http://x' },
    );
    expect(env).not.toHaveProperty('DATABASE_OWNER_URL');
    expect(env.DATABASE_URL).toBe('postgres://herald_app:a@db/herald');
    expect(env.PORT).toBe('4000');
    expect(env.GRAPH_API_BASE).toBe('http://x');
  });

  it("replaces an embedded cluster's owner URL with the app role's, and the environment's secrets win", () => {
    const env = appProcessEnv(
      { JWT_SECRET: 'from-env-jwt' },
      {
        secrets: fileSecrets,
        databaseUrl: 'postgres://herald_app:p@127.0.0.1:54329/herald',
        graphApiBase: 'http://x',
      },
    );
    expect(env.DATABASE_URL).toBe('postgres://herald_app:p@127.0.0.1:54329/herald');
    expect(env.JWT_SECRET).toBe('from-env-jwt');
    expect(env.ENCRYPTION_KEY).toBe('from-file-key');
    expect(
      Object.keys(env).filter((key) => key.startsWith('EMBEDDED_PG_') && key.endsWith('PASSWORD')),
    ).toEqual([]);
  });
});
