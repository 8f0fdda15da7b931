import { describe, expect, it } from 'vitest';
import { createLogFormatter } from './log-line';

describe('createLogFormatter', () => {
  const formatLogLine = createLogFormatter();

  it('passes plain text through', () => {
    expect(formatLogLine('sandbox listening on http://127.0.0.1:8787')).toBe(
      'sandbox listening on http://127.0.0.1:8787',
    );
  });

  it('shortens a pino line to its level and message', () => {
    expect(
      formatLogLine('{"level":30,"time":1,"pid":2,"msg":"Server listening at http://127.0.0.1:3000"}'),
    ).toBe('info Server listening at http://127.0.0.1:3000');
  });

  it('drops "incoming request" and summarises "request completed" with its method and URL', () => {
    expect(
      formatLogLine(
        '{"level":30,"msg":"incoming request","reqId":"req-7","req":{"method":"GET","url":"/healthz"}}',
      ),
    ).toBeNull();
    expect(
      formatLogLine(
        '{"level":30,"msg":"request completed","reqId":"req-7","res":{"statusCode":200},"responseTime":3.25}',
      ),
    ).toBe('info 200 GET /healthz (3.3 ms)');
  });

  it('keeps an error message', () => {
    expect(formatLogLine('{"level":50,"msg":"unhandled error","err":{"message":"boom"}}')).toBe(
      'error unhandled error: boom',
    );
  });

  it('leaves malformed JSON alone', () => {
    expect(formatLogLine('{not json')).toBe('{not json');
  });
});
