import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../apps/server/src/config';

/** A complete, valid configuration for tests: fresh secrets, silent logs, plus the given overrides. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}
