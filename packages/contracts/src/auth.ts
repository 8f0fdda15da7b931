import { z } from 'zod';

/** The sign-up e-mail rule and its message. */
export const EMAIL_MESSAGE = 'Please enter a valid email address.';
export const PASSWORD_MESSAGE = 'Password must be at least 8 characters long.';
export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const EmailSchema = z.string().trim().toLowerCase().regex(EMAIL_PATTERN, EMAIL_MESSAGE).max(254);
export const PasswordSchema = z.string().min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGE).max(1024);
/**
 * A new user PIN: exactly 6 digits, not 4 to 6 (decision 015: a million possibilities, not ten thousand, and
 * the same PIN registers the number at Meta, whose two-step PIN has 6 digits).
 */
export const PIN_LENGTH = 6;
export const PIN_MESSAGE = 'PIN must be 6 digits';
export const PinSchema = z
  .string()
  .max(PIN_LENGTH, PIN_MESSAGE)
  .regex(/^\d{6}$/, PIN_MESSAGE);
/** A PIN presented at password reset: users who chose 4 or 5 digits before 6 became the rule keep theirs. */
export const ExistingPinSchema = z
  .string()
  .max(64, 'PIN must be 4 to 6 digits')
  .trim()
  .regex(/^\d{4,6}$/, 'PIN must be 4 to 6 digits');

/** Graph ids are numeric strings of at most 32 digits; a longer value is refused before the pattern runs. */
const GraphIdSchema = z
  .string()
  .max(32, 'must be a numeric id')
  .regex(/^\d{1,32}$/, 'must be a numeric id');
/** The ids account_data may carry, kept as the provider sent them but never longer than any id. */
const ProvidedIdSchema = z.string().max(64, 'is too long (at most 64 characters)');

/** What the WA_EMBEDDED_SIGNUP FINISH event carried (`account_data`); kept as the provider sent it. */
export const AccountDataSchema = z
  .object({
    waba_id: ProvidedIdSchema.optional(),
    phone_number_id: ProvidedIdSchema.optional(),
    business_id: ProvidedIdSchema.optional(),
  })
  .loose();

/**
 * Every string a client sends has a ceiling, so a megabyte of text is a 400 naming its field before any work
 * (Meta's code exchange, a hash, a database index). Embedded Signup codes are a few hundred characters.
 */
export const AUTHORIZATION_CODE_MAX_LENGTH = 2048;
const AuthorizationCodeSchema = z
  .string()
  .min(1, 'The authorization code is required')
  .max(
    AUTHORIZATION_CODE_MAX_LENGTH,
    `The authorization code is too long (at most ${AUTHORIZATION_CODE_MAX_LENGTH} characters)`,
  );
/** Herald's own JWTs are well under a kilobyte. */
const TOKEN_MAX_LENGTH = 4096;

export const SignupRequestSchema = z
  .object({
    code: AuthorizationCodeSchema,
    waba_id: GraphIdSchema,
    phone_number_id: GraphIdSchema,
    account_data: AccountDataSchema.optional(),
    email: EmailSchema,
    password: PasswordSchema,
    pin: PinSchema.optional(),
  })
  .meta({ id: 'SignupRequest' });

export const SignupResponseSchema = z
  .object({ message: z.string(), data: z.object({ pin: z.string() }) })
  .meta({ id: 'SignupResponse' });

/** PUT /api/auth/facebook/callback/: link a further account; ids come from account_data. */
export const ConnectAccountRequestSchema = z
  .object({
    payload: z.object({
      code: AuthorizationCodeSchema,
      account_data: AccountDataSchema.extend({ waba_id: GraphIdSchema, phone_number_id: GraphIdSchema }),
    }),
  })
  .meta({ id: 'ConnectAccountRequest' });

export const MessageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });

/** One entry of an account's `details` (the first item has display_name). One per phone number. */
export const WabaDetailSchema = z
  .object({
    display_name: z.string(),
    phone_number_id: z.string(),
    display_phone_number: z.string(),
  })
  .loose();

export const WabaAccountSchema = z
  .object({ waba_id: z.string(), details: z.array(WabaDetailSchema) })
  .meta({ id: 'WabaAccount' });

export const LoginRequestSchema = z
  .object({
    // No e-mail is longer (EmailSchema) and no password was allowed longer (PasswordSchema).
    username: z.string().trim().min(1, 'Username is required').max(254, 'Username is too long'),
    password: z.string().min(1, 'Password is required').max(1024, 'Password is too long'),
  })
  .meta({ id: 'LoginRequest' });

export const LoginResponseSchema = z
  .object({ accessToken: z.string(), refreshToken: z.string(), wabas: z.array(WabaAccountSchema) })
  .meta({ id: 'LoginResponse' });

export const RefreshRequestSchema = z
  .object({
    refresh: z
      .string()
      .min(1, 'The refresh token is required')
      .max(TOKEN_MAX_LENGTH, 'The refresh token is too long'),
  })
  .meta({ id: 'RefreshRequest' });

export const RefreshResponseSchema = z
  .object({ access: z.string(), refresh: z.string() })
  .meta({ id: 'RefreshResponse' });

export const WabaListResponseSchema = z
  .object({ wabas: z.array(WabaAccountSchema) })
  .meta({ id: 'WabaListResponse' });

export const PasswordResetRequestSchema = z
  .object({
    email: EmailSchema,
    pin: ExistingPinSchema,
    new_password: PasswordSchema,
  })
  .meta({ id: 'PasswordResetRequest' });

/** Claims of the access token (user_id and the e-mail; `sid` names the refresh family). */
export interface AccessTokenClaims {
  user_id: number;
  email: string;
  sid: string;
  exp: number;
}

/** What the web needs to run Embedded Signup: where the SDK is, with which ids, and whose messages to trust. */
export const SignupConfigResponseSchema = z
  .object({
    sdk_url: z.string(),
    app_id: z.string(),
    config_id: z.string(),
    graph_version: z.string(),
    trusted_origins: z.array(z.string()),
    sandbox: z.boolean(),
  })
  .meta({ id: 'SignupConfigResponse' });

export type SignupRequest = z.infer<typeof SignupRequestSchema>;
export type SignupResponse = z.infer<typeof SignupResponseSchema>;
export type ConnectAccountRequest = z.infer<typeof ConnectAccountRequestSchema>;
export type WabaAccount = z.infer<typeof WabaAccountSchema>;
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;
export type SignupConfigResponse = z.infer<typeof SignupConfigResponseSchema>;

/** The confirmation code mailed to a new sign-in e-mail (decision 064). */
export const EMAIL_CODE_LENGTH = 8;
export const EMAIL_CODE_MESSAGE = `The confirmation code has ${EMAIL_CODE_LENGTH} digits.`;

/**
 * PUT /api/auth/account/ (Account Settings): a new sign-in e-mail, a new password, or both. The current
 * password is required, so a session left open on someone else's screen cannot take the account over. A new
 * e-mail takes two calls (decision 064): the first mails a code to it, the second carries `email_code`.
 */
export const AccountChangeRequestSchema = z
  .object({
    current_password: z
      .string()
      .min(1, 'Current password is required')
      .max(1024, 'Current password is too long'),
    email: EmailSchema.optional(),
    new_password: PasswordSchema.optional(),
    email_code: z
      .string()
      .max(64, EMAIL_CODE_MESSAGE)
      .trim()
      .regex(new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`), EMAIL_CODE_MESSAGE)
      .optional(),
  })
  .refine((body) => body.email !== undefined || body.new_password !== undefined, {
    message: 'Enter a new email or a new password',
    path: ['email'],
  })
  .refine((body) => body.email_code === undefined || body.email !== undefined, {
    message: 'Enter the new email the code was sent to',
    path: ['email'],
  })
  .meta({ id: 'AccountChangeRequest' });

export const AccountChangeResponseSchema = z
  .object({
    message: z.string(),
    /** The sign-in e-mail now. */
    email: z.string(),
    /** A new e-mail waiting for its code; it is the sign-in e-mail only once confirmed. */
    pending_email: z.string().optional(),
  })
  .meta({ id: 'AccountChangeResponse' });

export type AccountChangeRequest = z.infer<typeof AccountChangeRequestSchema>;
export type AccountChangeResponse = z.infer<typeof AccountChangeResponseSchema>;
