import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter } from '../errors';
import { isBsuid } from '../messages/bsuid';
import { requestParams } from '../request-params';

/** A recipient as sends name it: the number's digits (a leading + is dropped), or a BSUID. */
function recipientOf(raw: string): string {
  const digits = raw.replace(/^\+/, '');
  if (isBsuid(raw)) return raw;
  if (!/^[1-9]\d{6,14}$/.test(digits))
    throw invalidParameter('number must be a phone number of 7 to 15 digits, or a business-scoped user id');
  return digits;
}

/** `reachable`: a boolean (a form body carries it as "true" or "false"). */
function reachableParam(value: unknown): boolean {
  if (value === undefined) throw missingParameter('reachable');
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter('reachable must be a boolean');
}

/**
 * `POST /__sandbox/recipients/{number}` `{reachable}`: `false` turns the person's phone off for the sandbox, so
 * messages accepted for them from now on stay `sent` (no delivered, no read) and expire after their
 * time-to-live; `true` turns it back on for later messages. Kept in the state file, cleared by reset.
 */
export function registerRecipientControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: { number: string } }>('/__sandbox/recipients/:number', async (request) => {
    const params = requestParams(request);
    const recipient = recipientOf(request.params.number);
    const reachable = reachableParam(params.reachable);
    ctx.messaging.unreachable.set(recipient, reachable);
    const result = { to: recipient, reachable };
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/recipients/${recipient}`,
      body: params,
      result,
    });
    return result;
  });
}
