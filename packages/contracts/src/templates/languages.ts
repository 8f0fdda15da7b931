/**
 * The template languages Meta supports (developers.facebook.com/documentation/business-messaging/whatsapp/
 * templates/supported-languages). Codes are case-sensitive and use an underscore (`en_US`, never `en-US`).
 * Meta may extend this list; add the new code here and both the form and the server accept it.
 */
export const TEMPLATE_LANGUAGES = [
  { code: 'af', name: 'Afrikaans' },
  { code: 'sq', name: 'Albanian' },
  { code: 'ar', name: 'Arabic' },
  { code: 'ar_EG', name: 'Arabic (EGY)' },
  { code: 'ar_AE', name: 'Arabic (UAE)' },
  { code: 'ar_LB', name: 'Arabic (LBN)' },
  { code: 'ar_MA', name: 'Arabic (MAR)' },
  { code: 'ar_QA', name: 'Arabic (QAT)' },
  { code: 'az', name: 'Azerbaijani' },
  { code: 'be_BY', name: 'Belarusian' },
  { code: 'bn', name: 'Bengali' },
  { code: 'bn_IN', name: 'Bengali (IND)' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'ca', name: 'Catalan' },
  { code: 'zh_CN', name: 'Chinese (CHN)' },
  { code: 'zh_HK', name: 'Chinese (HKG)' },
  { code: 'zh_TW', name: 'Chinese (TAI)' },
  { code: 'hr', name: 'Croatian' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'prs_AF', name: 'Dari' },
  { code: 'nl', name: 'Dutch' },
  { code: 'nl_BE', name: 'Dutch (BEL)' },
  { code: 'en', name: 'English' },
  { code: 'en_GB', name: 'English (UK)' },
  { code: 'en_US', name: 'English (US)' },
  { code: 'en_AE', name: 'English (UAE)' },
  { code: 'en_AU', name: 'English (AUS)' },
  { code: 'en_CA', name: 'English (CAN)' },
  { code: 'en_GH', name: 'English (GHA)' },
  { code: 'en_IE', name: 'English (IRL)' },
  { code: 'en_IN', name: 'English (IND)' },
  { code: 'en_JM', name: 'English (JAM)' },
  { code: 'en_MY', name: 'English (MYS)' },
  { code: 'en_NZ', name: 'English (NZL)' },
  { code: 'en_QA', name: 'English (QAT)' },
  { code: 'en_SG', name: 'English (SGP)' },
  { code: 'en_UG', name: 'English (UGA)' },
  { code: 'en_ZA', name: 'English (ZAF)' },
  { code: 'et', name: 'Estonian' },
  { code: 'fil', name: 'Filipino' },
  { code: 'fi', name: 'Finnish' },
  { code: 'fr', name: 'French' },
  { code: 'fr_BE', name: 'French (BEL)' },
  { code: 'fr_CA', name: 'French (CAN)' },
  { code: 'fr_CH', name: 'French (CHE)' },
  { code: 'fr_CI', name: 'French (CIV)' },
  { code: 'fr_MA', name: 'French (MAR)' },
  { code: 'ka', name: 'Georgian' },
  { code: 'de', name: 'German' },
  { code: 'de_AT', name: 'German (AUT)' },
  { code: 'de_CH', name: 'German (CHE)' },
  { code: 'el', name: 'Greek' },
  { code: 'gu', name: 'Gujarati' },
  { code: 'ha', name: 'Hausa' },
  { code: 'he', name: 'Hebrew' },
  { code: 'hi', name: 'Hindi' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'id', name: 'Indonesian' },
  { code: 'ga', name: 'Irish' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'kn', name: 'Kannada' },
  { code: 'kk', name: 'Kazakh' },
  { code: 'rw_RW', name: 'Kinyarwanda' },
  { code: 'ko', name: 'Korean' },
  { code: 'ky_KG', name: 'Kyrgyz (Kyrgyzstan)' },
  { code: 'lo', name: 'Lao' },
  { code: 'lv', name: 'Latvian' },
  { code: 'lt', name: 'Lithuanian' },
  { code: 'mk', name: 'Macedonian' },
  { code: 'ms', name: 'Malay' },
  { code: 'ml', name: 'Malayalam' },
  { code: 'mr', name: 'Marathi' },
  { code: 'nb', name: 'Norwegian' },
  { code: 'ps_AF', name: 'Pashto' },
  { code: 'fa', name: 'Persian' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt_BR', name: 'Portuguese (BR)' },
  { code: 'pt_PT', name: 'Portuguese (POR)' },
  { code: 'pa', name: 'Punjabi' },
  { code: 'ro', name: 'Romanian' },
  { code: 'ru', name: 'Russian' },
  { code: 'sr', name: 'Serbian' },
  { code: 'si_LK', name: 'Sinhala' },
  { code: 'sk', name: 'Slovak' },
  { code: 'sl', name: 'Slovenian' },
  { code: 'es', name: 'Spanish' },
  { code: 'es_AR', name: 'Spanish (ARG)' },
  { code: 'es_CL', name: 'Spanish (CHL)' },
  { code: 'es_CO', name: 'Spanish (COL)' },
  { code: 'es_CR', name: 'Spanish (CRI)' },
  { code: 'es_DO', name: 'Spanish (DOM)' },
  { code: 'es_EC', name: 'Spanish (ECU)' },
  { code: 'es_HN', name: 'Spanish (HND)' },
  { code: 'es_MX', name: 'Spanish (MEX)' },
  { code: 'es_PA', name: 'Spanish (PAN)' },
  { code: 'es_PE', name: 'Spanish (PER)' },
  { code: 'es_ES', name: 'Spanish (SPA)' },
  { code: 'es_UY', name: 'Spanish (URY)' },
  { code: 'sw', name: 'Swahili' },
  { code: 'sv', name: 'Swedish' },
  { code: 'ta', name: 'Tamil' },
  { code: 'te', name: 'Telugu' },
  { code: 'th', name: 'Thai' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
  { code: 'ur', name: 'Urdu' },
  { code: 'uz', name: 'Uzbek' },
  { code: 'vi', name: 'Vietnamese' },
  { code: 'zu', name: 'Zulu' },
] as const satisfies ReadonlyArray<{ code: string; name: string }>;

export type TemplateLanguageCode = (typeof TEMPLATE_LANGUAGES)[number]['code'];

/** The codes alone, in the list's order (for z.enum and selects). */
export const TEMPLATE_LANGUAGE_CODES = TEMPLATE_LANGUAGES.map((l) => l.code) as unknown as readonly [
  TemplateLanguageCode,
  ...TemplateLanguageCode[],
];

const LANGUAGE_NAMES: ReadonlyMap<string, string> = new Map(TEMPLATE_LANGUAGES.map((l) => [l.code, l.name]));

/** en_US on the create screen; the edit screen falls back to en (both readings). */
export const DEFAULT_CREATE_LANGUAGE = 'en_US' satisfies TemplateLanguageCode;
export const DEFAULT_EDIT_LANGUAGE = 'en' satisfies TemplateLanguageCode;

export function isTemplateLanguage(code: unknown): code is TemplateLanguageCode {
  return typeof code === 'string' && LANGUAGE_NAMES.has(code);
}

/** The display name of a code ('English (US)'), or the code itself when it is not in the list. */
export function templateLanguageName(code: string): string {
  return LANGUAGE_NAMES.get(code) ?? code;
}
