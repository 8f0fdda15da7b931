import path from 'node:path';
import { z } from 'zod';
import { repoRoot } from './paths';

const port = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL');

/** Every setting Herald reads, checked once at start; `Config` is derived from it. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port(3000),
  SANDBOX_PORT: port(8787),
  EMBEDDED_PG_PORT: port(54329),
  DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  GRAPH_API_BASE: z.url({ message: 'must be a URL' }).optional(),
  GRAPH_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v21.0')
    .default('v21.0'),
  META_APP_ID: z.string().min(1).default('herald-sandbox-app'),
  META_APP_SECRET: z.string().min(1).default('herald-sandbox-secret'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
});

export type Config = z.infer<typeof EnvSchema> & {
  dataDir: string;
  graphApiBase: string;
  webDistDir: string;
};

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message is one line naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const got = env[name] === undefined ? '' : ` (got ${JSON.stringify(env[name])})`;
    throw new ConfigError(`invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${got}`);
  }
  const parsed = result.data;
  return {
    ...parsed,
    dataDir: path.resolve(parsed.DATA_DIR),
    graphApiBase: parsed.GRAPH_API_BASE ?? `http://127.0.0.1:${parsed.SANDBOX_PORT}`,
    webDistDir: path.resolve(parsed.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
  };
}
