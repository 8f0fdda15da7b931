import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter } from '../errors';
import { requestParams } from '../request-params';

/** `advance_seconds`: a whole number of seconds, at least 1 (digits in a form body). */
function advanceSeconds(value: unknown): number {
  if (value === undefined || value === '') throw missingParameter('advance_seconds');
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
    throw invalidParameter('advance_seconds must be a whole number of seconds, at least 1');
  return n;
}

const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The TTL clock (messages/ttl-clock.ts): real time-to-live runs 12 hours to 30 days, so a test moves the
 * sandbox's time forward for expiry only. `POST /__sandbox/clock` `{advance_seconds}` → `{now, expired}`: every
 * undelivered message whose TTL has now passed gets its `failed` status at once. `GET` → `{now, offset_seconds}`.
 */
export function registerClockControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { expiry } = ctx.messaging;

  app.get('/__sandbox/clock', async () => ({
    now: unixSeconds(expiry.clock.now()),
    offset_seconds: expiry.clock.offsetSeconds,
  }));

  app.post('/__sandbox/clock', async (request) => {
    const params = requestParams(request);
    const expired = expiry.advance(advanceSeconds(params.advance_seconds));
    const result = { now: unixSeconds(expiry.clock.now()), expired };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/clock', body: params, result });
    return result;
  });
}
