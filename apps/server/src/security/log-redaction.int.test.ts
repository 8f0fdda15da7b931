import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';
import { testConfig } from '../../../../test-support/test-config';
import { buildApp } from '../app';

// Herald's own logger, as built by buildApp, writing to a stream this test reads.
let db: TestDatabase;
let app: FastifyInstance;
let verifyToken: string;
const lines: string[] = [];
const logged = () => lines.join('');

beforeAll(async () => {
  db = await createTestDatabase();
  const config = testConfig({ LOG_LEVEL: 'info', WEB_DIST_DIR: '/nonexistent' });
  verifyToken = config.WEBHOOK_VERIFY_TOKEN;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await buildApp({ config, pool: db.pool, logger: stream });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

const BEARER = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoxfQ.c2lnbmF0dXJlLW5vdC1sb2dnZWQ';
const PASSWORD = 'Correct-Horse-Battery-9';

describe("Herald's logs", () => {
  it('hold neither the bearer token, the password nor secret query values of the requests they record', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { authorization: `Bearer ${BEARER}`, cookie: 'session=cookie-secret-1' },
      payload: { username: 'someone@herald.test', password: PASSWORD },
    });
    await app.inject({
      method: 'GET',
      url: `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`,
    });
    await app.inject({
      method: 'GET',
      url: '/api/nothing-here?access_token=EAAquerysecret123&code=AQcodesecret',
    });
    const text = logged();
    // The requests were logged, with their paths, so the absences below mean something.
    expect(text).toContain('/api/auth/login/');
    expect(text).toContain(
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[REDACTED]&hub.challenge=42',
    );
    expect(text).toContain('/api/nothing-here?access_token=[REDACTED]&code=[REDACTED]');
    for (const secret of [
      BEARER,
      PASSWORD,
      'cookie-secret-1',
      verifyToken,
      'EAAquerysecret123',
      'AQcodesecret',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('censor secret fields and credential headers in any object logged, and URLs in error messages', () => {
    app.log.info(
      {
        req: { headers: { authorization: `Bearer ${BEARER}` } },
        headers: { 'x-hub-signature-256': 'sha256=hubsignaturesecret', cookie: 'a=cookie-secret-2' },
        body: {
          password: PASSWORD,
          new_password: 'New-Password-secret-3',
          pin: '493817',
          refresh: 'refresh-token-secret-4',
          code: 'AQcode-secret-5',
        },
        account: { business: { access_token: 'EAAbusiness-secret-6' } },
      },
      'probe',
    );
    app.log.error(
      {
        err: new Error(
          'GET https://graph.facebook.com/v21.0/oauth/access_token?client_secret=s3cr3t-7&code=AQ8 failed',
        ),
      },
      'probe error',
    );
    const text = logged();
    expect(text).toContain('probe');
    expect(text).toContain('probe error');
    for (const secret of [
      BEARER,
      PASSWORD,
      'hubsignaturesecret',
      'cookie-secret-2',
      'New-Password-secret-3',
      '493817',
      'refresh-token-secret-4',
      'AQcode-secret-5',
      'EAAbusiness-secret-6',
      's3cr3t-7',
      'AQ8',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
