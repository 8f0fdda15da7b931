import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../features/auth/auth-service';
import type { OwnedWaba } from '../owned-waba';
import { HttpError } from '../http-error';
import type { RequestHook } from './authentication';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered behind the business scope: tests walk it to prove none escapes the checks. */
    businessRoutes: Array<{ method: string; url: string }>;
  }
  interface FastifyRequest {
    /** The business account this request acts on: named by X-WABA-ID and owned by the caller. */
    waba?: OwnedWaba;
  }
}

export const WABA_HEADER = 'x-waba-id';

/**
 * Every business route is registered through this one function, so none can forget the checks: the caller
 * is signed in, and the account in `X-WABA-ID` is theirs (403 otherwise; no header → their first account).
 * Handlers then read `request.waba` and pass its id to every query.
 */
export async function registerBusinessRoutes(
  app: FastifyInstance,
  deps: { authenticate: RequestHook; auth: AuthService },
  register: (scope: FastifyInstance) => Promise<void> | void,
): Promise<void> {
  if (!app.hasDecorator('businessRoutes')) app.decorate('businessRoutes', []);
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.businessRoutes.push({ method, url: route.url });
      }
    });
    scope.addHook('onRequest', deps.authenticate);
    scope.addHook('onRequest', async (request) => {
      const header = request.headers[WABA_HEADER];
      const requested = Array.isArray(header) ? header[0] : header;
      const userId = request.user!.user_id;
      const waba = await deps.auth.findOwnedWaba(userId, requested?.trim() || undefined);
      if (!waba) {
        throw requested
          ? HttpError.field(403, 'X-WABA-ID', 'You do not have access to this WhatsApp Business Account')
          : HttpError.field(403, 'X-WABA-ID', 'No WhatsApp Business Account is linked to this user');
      }
      request.waba = waba;
    });
    await register(scope);
  });
}
