import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../apps/server/src/config';

/**
 * The messaging limit a test portfolio starts with. Meta's (and the sandbox's) 250 a day is less than most suites
 * send to; the tests of the 250 start set it themselves.
 */
export const TEST_PORTFOLIO_TIER = 'TIER_2K';

/** A complete, valid configuration for tests: fresh secrets, silent logs, plus the given overrides. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}
