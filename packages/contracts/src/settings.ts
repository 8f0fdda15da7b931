import { z } from 'zod';
import { TEMPLATE_LANGUAGE_CODES, TEMPLATE_LANGUAGES, type TemplateLanguageCode } from './templates';

/**
 * Settings saved per business account. Every option of the Settings screen, with the
 * effect each has: the default language prefills new templates, approval keeps new templates as drafts, the
 * retention removes old per-recipient rows, the e-mail notice goes out when a broadcast completes, the dark
 * theme switches every screen, beta features are stored and shown. Account Settings (e-mail, password)
 * belong to the user, not the account: they have their own endpoint.
 */

/**
 * The Default Language select: the spec's three (English, Spanish, French) first, as the spec names them, then
 * every other template language Meta supports, under Meta's names.
 */
const SPEC_LANGUAGES = [
  { label: 'English', code: 'en_US' },
  { label: 'Spanish', code: 'es' },
  { label: 'French', code: 'fr' },
] as const satisfies ReadonlyArray<{ label: string; code: TemplateLanguageCode }>;
export const SETTINGS_LANGUAGES: ReadonlyArray<{ label: string; code: TemplateLanguageCode }> = [
  ...SPEC_LANGUAGES,
  ...TEMPLATE_LANGUAGES.filter(({ code }) => !SPEC_LANGUAGES.some((spec) => spec.code === code)).map(
    ({ code, name }) => ({ label: name, code }),
  ),
];

/** The spec's retention select, in years. */
export const RETENTION_YEARS = [1, 3, 5] as const;
export type RetentionYears = (typeof RETENTION_YEARS)[number];

/**
 * Replies that opt a contact out of broadcasts, and back in, in each language the settings offer (English,
 * Spanish, French): what an account uses until it sets its own lists. A reply counts when it is exactly one of
 * the words, whatever its case and accents (replyWordKey), typed or a button's or list row's text or id.
 */
export const DEFAULT_OPT_OUT_WORDS = [
  'stop',
  'unsubscribe',
  'stop promotions',
  'baja',
  'parar',
  'cancelar',
  'arrêt',
  'désabonner',
];
export const DEFAULT_OPT_IN_WORDS = ['start', 'subscribe', 'alta', 'suscribir', 'reprendre', 'abonner'];

/** How a reply and a listed word are compared: trimmed, spaces collapsed, lower case, accents dropped. */
export function replyWordKey(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

const replyWords = (name: string) =>
  z
    .array(
      z.string().trim().min(1, `${name} cannot be empty`).max(40, `${name} are at most 40 characters each`),
    )
    .max(30, `At most 30 ${name.toLowerCase()}`);

/** What the frequency cap may be set to: a window no longer than the touches Herald keeps (30 days). */
export const FREQUENCY_CAP_BOUNDS = {
  messages: { min: 1, max: 30 },
  days: { min: 1, max: 30 },
} as const;
const FREQUENCY_CAP_MESSAGES_ERROR = `Marketing messages per person must be a whole number from ${FREQUENCY_CAP_BOUNDS.messages.min} to ${FREQUENCY_CAP_BOUNDS.messages.max}`;
const FREQUENCY_CAP_DAYS_ERROR = `Days must be a whole number from ${FREQUENCY_CAP_BOUNDS.days.min} to ${FREQUENCY_CAP_BOUNDS.days.max}`;

/** The cap in words, as Settings, New broadcast and the report say it. */
export function frequencyCapText(messages: number, days: number): string {
  return `${messages} marketing ${messages === 1 ? 'message' : 'messages'} per person per ${days === 1 ? 'day' : `${days} days`}`;
}

export const accountSettingsSchema = z.object({
  default_language: z.enum(TEMPLATE_LANGUAGE_CODES, {
    error: 'Default language must be a template language WhatsApp supports',
  }),
  require_template_approval: z.boolean(),
  notify_by_email: z.boolean(),
  retention_years: z.union([z.literal(1), z.literal(3), z.literal(5)]),
  dark_theme: z.boolean(),
  beta_features: z.boolean(),
  /** Marketing templates of an account onboarded to Meta's Marketing Messages API go through it (else /messages). */
  marketing_via_mm_api: z.boolean(),
  /**
   * The frequency cap: at most this many marketing messages per person in any `frequency_cap_days` days, across
   * the account's broadcasts and numbers; null: no cap. A person over it is skipped, not sent (decision 098).
   */
  frequency_cap_messages: z
    .number({ message: FREQUENCY_CAP_MESSAGES_ERROR })
    .int(FREQUENCY_CAP_MESSAGES_ERROR)
    .min(FREQUENCY_CAP_BOUNDS.messages.min, FREQUENCY_CAP_MESSAGES_ERROR)
    .max(FREQUENCY_CAP_BOUNDS.messages.max, FREQUENCY_CAP_MESSAGES_ERROR)
    .nullable(),
  frequency_cap_days: z
    .number({ message: FREQUENCY_CAP_DAYS_ERROR })
    .int(FREQUENCY_CAP_DAYS_ERROR)
    .min(FREQUENCY_CAP_BOUNDS.days.min, FREQUENCY_CAP_DAYS_ERROR)
    .max(FREQUENCY_CAP_BOUNDS.days.max, FREQUENCY_CAP_DAYS_ERROR),
  /** Replies that opt a contact out of broadcasts (at least one: WhatsApp requires an opt-out). */
  opt_out_words: replyWords('Opt-out words').min(1, 'Keep at least one opt-out word'),
  /** Replies that opt a contact back in. */
  opt_in_words: replyWords('Opt-in words'),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** What a new account starts with (and what the migration's column defaults say). */
export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = {
  default_language: 'en_US',
  require_template_approval: false,
  notify_by_email: false,
  retention_years: 5,
  dark_theme: false,
  beta_features: false,
  marketing_via_mm_api: true,
  // Two a week: decision 098 says why.
  frequency_cap_messages: 2,
  frequency_cap_days: 7,
  opt_out_words: DEFAULT_OPT_OUT_WORDS,
  opt_in_words: DEFAULT_OPT_IN_WORDS,
};

/** PUT body: any subset; the answer is the whole stored settings. */
export const accountSettingsUpdateSchema = accountSettingsSchema.partial().superRefine((update, context) => {
  // A word in both lists would opt a contact out and in with the same reply.
  const out = new Set((update.opt_out_words ?? []).map(replyWordKey));
  const both = (update.opt_in_words ?? []).filter((word) => out.has(replyWordKey(word)));
  if (both.length > 0) {
    context.addIssue({
      code: 'custom',
      path: ['opt_in_words'],
      message: `${both.join(', ')} cannot be both an opt-out and an opt-in word`,
    });
  }
});
export type AccountSettingsUpdate = z.infer<typeof accountSettingsUpdateSchema>;

/** GET /settings/ answer: the stored settings and whether Herald can send e-mail at all (SMTP_URL set). */
export const accountSettingsResponseSchema = z.object({
  /** The account these settings belong to: a client applies them (the theme) only to that account. */
  waba_id: z.string(),
  settings: accountSettingsSchema,
  mail_server_configured: z.boolean(),
});
export type AccountSettingsResponse = z.infer<typeof accountSettingsResponseSchema>;
