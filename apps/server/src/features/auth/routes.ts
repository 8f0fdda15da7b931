import {
  AccountChangeRequestSchema,
  AccountChangeResponseSchema,
  ConnectAccountRequestSchema,
  ErrorResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MessageResponseSchema,
  PasswordResetRequestSchema,
  RefreshRequestSchema,
  RefreshResponseSchema,
  SignupConfigResponseSchema,
  SignupRequestSchema,
  SignupResponseSchema,
  WabaListResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { RequestHook } from '../../plugins/authentication';
import type { AccountChangeOutcome } from './account-change';
import { accountMailer } from './account-mailer';
import type { AuthService } from './auth-service';
import { deviceCookieValue, setDeviceCookie } from './device-cookie';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

export const ACCOUNT_UPDATED = 'Your account has been updated. Other sessions have been signed out.';

/** The same words whether a new e-mail is free or taken (decision 064): only the mail to it differs. */
function accountChangeMessage(outcome: AccountChangeOutcome): string {
  if (outcome.pendingEmail === undefined) return ACCOUNT_UPDATED;
  const sent = `We sent a confirmation to ${outcome.pendingEmail}. Your sign-in email changes once you enter its code.`;
  return outcome.passwordChanged
    ? `${sent} Your password has been updated; other sessions have been signed out.`
    : sent;
}

/** Auth calls, plus GET /api/auth/wabas/, the password reset and the Embedded Signup settings. */
export function authRoutes(deps: {
  auth: AuthService;
  authenticate: RequestHook;
  config: Pick<
    Config,
    'META_APP_ID' | 'META_CONFIG_ID' | 'embeddedSignup' | 'sandboxMode' | 'SMTP_URL' | 'SMTP_FROM'
  >;
}): FastifyPluginAsyncZod {
  const { auth, authenticate, config } = deps;
  return async (app) => {
    const mailer = accountMailer(config);
    if (mailer) app.addHook('onClose', () => mailer.close());

    app.post(
      '/api/auth/facebook/callback/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Sign up: link the first WhatsApp Business Account after Embedded Signup',
          body: SignupRequestSchema,
          response: { 200: SignupResponseSchema, ...errors, 429: ErrorResponseSchema },
        },
      },
      async (request) => {
        const { pin } = await auth.signUp(request.body, request.ip);
        return { message: 'Signup successful', data: { pin } };
      },
    );

    app.put(
      '/api/auth/facebook/callback/',
      {
        onRequest: authenticate,
        schema: {
          tags: ['auth'],
          summary: 'Connect a further WhatsApp Business Account to the signed-in user',
          body: ConnectAccountRequestSchema,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { code, account_data: data } = request.body.payload;
        await auth.connectAccount(request.user!.user_id, {
          code,
          wabaId: data.waba_id,
          phoneNumberId: data.phone_number_id,
          businessId: data.business_id,
        });
        return { message: 'WhatsApp account connected successfully!' };
      },
    );

    app.post(
      '/api/auth/login/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Sign in with e-mail (username) and password',
          body: LoginRequestSchema,
          response: { 200: LoginResponseSchema, 401: ErrorResponseSchema, 429: ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const { session, device } = await auth.login(request.body.username, request.body.password, {
          ip: request.ip,
          deviceToken: deviceCookieValue(request.headers.cookie),
        });
        setDeviceCookie(reply, request, device);
        return session;
      },
    );

    app.post(
      '/api/login/refresh/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Rotate the refresh token and get a new access token',
          body: RefreshRequestSchema,
          response: { 200: RefreshResponseSchema, 401: ErrorResponseSchema },
        },
      },
      async (request) => auth.refresh(request.body.refresh),
    );

    app.post(
      '/api/auth/logout/',
      {
        onRequest: authenticate,
        schema: { tags: ['auth'], summary: 'End this session', response: { 200: MessageResponseSchema } },
      },
      async (request) => {
        await auth.logout(request.user!.sid);
        return { message: 'Logged out' };
      },
    );

    app.get(
      '/api/auth/wabas/',
      {
        onRequest: authenticate,
        schema: {
          tags: ['auth'],
          summary: "The caller's WhatsApp Business Accounts, as in the login answer",
          response: { 200: WabaListResponseSchema },
        },
      },
      async (request) => ({ wabas: await auth.listWabas(request.user!.user_id) }),
    );

    app.post(
      '/api/auth/password/reset/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with the e-mail and the PIN given at sign-up',
          body: PasswordResetRequestSchema,
          response: { 200: MessageResponseSchema, 400: ErrorResponseSchema, 429: ErrorResponseSchema },
        },
      },
      async (request) => {
        const { email, pin, new_password: newPassword } = request.body;
        await auth.resetPassword(email, pin, newPassword, {
          ip: request.ip,
          deviceToken: deviceCookieValue(request.headers.cookie),
        });
        return { message: 'Your password has been updated. You can now sign in.' };
      },
    );

    app.put(
      '/api/auth/account/',
      {
        onRequest: authenticate,
        schema: {
          tags: ['auth'],
          summary:
            "Change the signed-in user's password, or e-mail once a code mailed to it is entered; other sessions end",
          body: AccountChangeRequestSchema,
          response: { 200: AccountChangeResponseSchema, ...errors, 429: ErrorResponseSchema },
        },
      },
      async (request) => {
        const outcome = await auth.changeAccount(
          { userId: request.user!.user_id, family: request.user!.sid },
          request.body,
          request.ip,
          mailer,
        );
        return {
          message: accountChangeMessage(outcome),
          email: outcome.email,
          pending_email: outcome.pendingEmail,
        };
      },
    );

    app.get(
      '/api/auth/signup-config/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Where the web loads the Embedded Signup SDK from, and whose messages it trusts',
          response: { 200: SignupConfigResponseSchema },
        },
      },
      async () => ({
        sdk_url: config.embeddedSignup.sdkUrl,
        app_id: config.META_APP_ID,
        config_id: config.META_CONFIG_ID,
        // The SDK is initialised with version v18.0.
        graph_version: 'v18.0',
        trusted_origins: config.embeddedSignup.trustedOrigins,
        sandbox: config.sandboxMode,
      }),
    );
  };
}
