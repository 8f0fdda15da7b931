import { invalidParameter, missingParameter } from '../errors';
import { TEMPLATE_LANGUAGES } from './languages';
import { TEMPLATE_SUBCODES, templateError } from './template-errors';
import { checkPositionalVariables, variableMarkers } from './template-variables';
import { parseTimeToLive } from './time-to-live';
import { parseOptimizationSpec, refuseBidSpec } from './max-price';

const TEMPLATE_CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

const LIMITS = {
  name: 512,
  headerText: 60,
  body: 1024,
  footer: 60,
  buttons: 10,
  urlButtons: 2,
  phoneButtons: 1,
  copyCodeButtons: 1,
  buttonText: 25,
  bodyVariables: 10,
  url: 2000,
  phoneNumber: 20,
} as const;

/** Which upload a header handle names, as far as validation needs to know. */
interface UploadedMedia {
  fileType: string;
  fileLength: number;
}
export type HandleResolver = (handle: string) => UploadedMedia | undefined;

export type TemplateComponent = { type: string } & Record<string, unknown>;

export interface TemplateDefinition {
  name: string;
  language: string;
  category: TemplateCategory;
  parameterFormat: 'POSITIONAL';
  components: TemplateComponent[];
  /** The template's own time-to-live (time-to-live.ts); absent: its category's default. */
  messageSendTtlSeconds?: number;
  /** Its max price, Meta's `optimization_spec.bid_amount` (max-price.ts); absent: the rate card. */
  maxPriceBidAmount?: number;
}

const HEADER_MEDIA: Record<string, { types: string[]; maxBytes: number }> = {
  IMAGE: { types: ['image/jpeg', 'image/jpg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  VIDEO: { types: ['video/mp4'], maxBytes: 16 * 1024 * 1024 },
  DOCUMENT: { types: ['application/pdf'], maxBytes: 100 * 1024 * 1024 },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Form-encoded Graph calls send structured values as JSON strings. */
function decodeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function upper(value: unknown): string | undefined {
  return typeof value === 'string' ? value.toUpperCase() : undefined;
}

function tooLong(what: string, limit: number, length: number) {
  return templateError(
    'Character Limit Exceeded',
    `The ${what} can have at most ${limit} characters; it has ${length}.`,
    TEMPLATE_SUBCODES.tooLong,
  );
}

function missingExample(what: string) {
  return templateError(
    'Missing Sample Values',
    `The ${what} has variables, so it needs sample values for them in "example".`,
    TEMPLATE_SUBCODES.missingExample,
  );
}

function headerFormat(message: string) {
  return templateError('Message Header Format Is Incorrect', message, TEMPLATE_SUBCODES.headerFormat);
}

function nonEmptyStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '');
}

function requiredText(component: Json, what: string): string {
  const text = component.text;
  if (typeof text !== 'string' || text.trim() === '') {
    throw templateError('Missing Text', `The ${what} needs a non-empty "text".`);
  }
  return text;
}

export function validateName(raw: unknown): string {
  if (raw === undefined || raw === '') throw missingParameter('name');
  if (typeof raw !== 'string') throw invalidParameter('name must be a string');
  if (raw.length > LIMITS.name) throw tooLong('template name', LIMITS.name, raw.length);
  if (!/^[a-z0-9_]+$/.test(raw)) {
    throw templateError(
      'Invalid Template Name',
      'Template names can only contain lowercase letters, numbers and underscores.',
    );
  }
  return raw;
}

export function validateCategory(raw: unknown): TemplateCategory {
  if (raw === undefined || raw === '') throw missingParameter('category');
  const category = TEMPLATE_CATEGORIES.find((c) => c === raw);
  if (!category) {
    throw invalidParameter(`category must be one of ${TEMPLATE_CATEGORIES.join(', ')}`);
  }
  return category;
}

export function validateLanguage(raw: unknown): string {
  if (raw === undefined || raw === '') throw missingParameter('language');
  if (typeof raw !== 'string' || !TEMPLATE_LANGUAGES.has(raw)) {
    throw templateError('Invalid Language', `"${String(raw)}" is not a language that templates support.`);
  }
  return raw;
}

function validateTextHeader(header: Json): void {
  const text = requiredText(header, 'header');
  if (text.length > LIMITS.headerText) throw tooLong('header text', LIMITS.headerText, text.length);
  const markers = variableMarkers(text);
  if (markers.length > 1) throw headerFormat('A text header can have at most one variable.');
  if (markers.length === 0) return;
  if (markers[0]?.name !== '1') throw headerFormat('The header variable must be {{1}}.');
  const example = isObject(header.example) ? header.example.header_text : undefined;
  if (!nonEmptyStrings(example) || example.length !== 1) throw missingExample('header');
}

function validateMediaHeader(header: Json, format: string, resolveHandle: HandleResolver): void {
  const example = isObject(header.example) ? header.example.header_handle : undefined;
  if (!nonEmptyStrings(example) || example.length === 0) {
    throw headerFormat(`A ${format} header needs a sample file: example.header_handle from an upload.`);
  }
  const media = resolveHandle(example[0] as string);
  if (!media) {
    throw templateError(
      'Invalid Media Handle',
      'The header_handle does not name a finished upload of this app. Upload the file and use the "h" it answers.',
    );
  }
  const rule = HEADER_MEDIA[format] as { types: string[]; maxBytes: number };
  if (!rule.types.includes(media.fileType)) {
    throw headerFormat(
      `A ${format} header needs a file of type ${rule.types.join(', ')}, not ${media.fileType}.`,
    );
  }
  if (media.fileLength > rule.maxBytes) {
    throw headerFormat(`A ${format} header file can be at most ${rule.maxBytes} bytes.`);
  }
}

function validateHeader(header: Json, resolveHandle: HandleResolver): TemplateComponent {
  const format = upper(header.format);
  if (format === undefined) throw missingParameter('format');
  if (format === 'TEXT') validateTextHeader(header);
  else if (format in HEADER_MEDIA) validateMediaHeader(header, format, resolveHandle);
  else if (format !== 'LOCATION') {
    throw headerFormat(`Header format must be TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION, not ${format}.`);
  }
  return { ...header, type: 'HEADER', format };
}

function validateBody(body: Json): TemplateComponent {
  const text = requiredText(body, 'body');
  if (text.length > LIMITS.body) throw tooLong('body', LIMITS.body, text.length);
  const check = checkPositionalVariables(text);
  if (!check.ok && check.problem === 'not-numeric') {
    throw templateError(
      'Invalid Variable',
      `"{{${check.marker}}}" is not a valid variable: positional variables are numbers, {{1}}, {{2}} and so on.`,
    );
  }
  if (!check.ok) {
    throw templateError(
      'Variables Are Not Sequential',
      `Body variables must be numbered in sequence from {{1}} without gaps; found ${check.numbers.map((n) => `{{${n}}}`).join(', ')}.`,
    );
  }
  if (check.count > LIMITS.bodyVariables) {
    throw templateError(
      'Too Many Variables',
      `The body can have at most ${LIMITS.bodyVariables} variables; it has ${check.count}.`,
      TEMPLATE_SUBCODES.tooManyVariables,
    );
  }
  if (check.count > 0) {
    const rows = isObject(body.example) ? body.example.body_text : undefined;
    const first = Array.isArray(rows) ? (rows[0] as unknown) : undefined;
    if (!nonEmptyStrings(first) || first.length === 0) throw missingExample('body');
    if (first.length !== check.count) {
      throw templateError(
        'Sample Values Do Not Match Variables',
        `The body has ${check.count} variables but example.body_text gives ${first.length} sample values.`,
        TEMPLATE_SUBCODES.missingExample,
      );
    }
  }
  const markers = variableMarkers(text);
  const first = markers[0];
  const last = markers[markers.length - 1];
  // Meta's words and codes, as its API answers; only whitespace counts as outside the text.
  if ((first && text.slice(0, first.index).trim() === '') || (last && text.slice(last.end).trim() === '')) {
    throw templateError(
      'Leading or trailing params not allowed',
      "Variables can't be at the start or end of the template.",
      TEMPLATE_SUBCODES.variableAtEdge,
    );
  }
  return { ...body, type: 'BODY' };
}

function validateFooter(footer: Json): TemplateComponent {
  const text = requiredText(footer, 'footer');
  if (text.length > LIMITS.footer) throw tooLong('footer', LIMITS.footer, text.length);
  if (variableMarkers(text).length > 0) {
    throw templateError('Invalid Footer', 'The footer cannot contain variables.');
  }
  return { ...footer, type: 'FOOTER' };
}

function validateUrlButton(button: Json): void {
  const url = button.url;
  if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) {
    throw templateError('Invalid URL', 'A URL button needs a "url" starting with http:// or https://.');
  }
  if (url.length > LIMITS.url) throw tooLong('button URL', LIMITS.url, url.length);
  const markers = variableMarkers(url);
  if (markers.length === 0) return;
  const [only] = markers;
  if (markers.length > 1 || only?.name !== '1' || only.end !== url.length) {
    throw templateError('Invalid URL', 'A button URL can have one variable, {{1}}, at its end.');
  }
  if (!nonEmptyStrings(button.example) || button.example.length !== 1) {
    throw missingExample('URL button');
  }
}

function validateButton(raw: unknown): Json {
  if (!isObject(raw)) throw invalidParameter('each button must be an object');
  const type = upper(raw.type);
  if (type === undefined) throw missingParameter('type');
  if (!['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'].includes(type)) {
    throw templateError(
      'Invalid Button',
      `Buttons can be QUICK_REPLY, URL, PHONE_NUMBER or COPY_CODE, not ${type}.`,
    );
  }
  if (type !== 'COPY_CODE') {
    const text = requiredText(raw, `${type} button`);
    if (text.length > LIMITS.buttonText) throw tooLong('button text', LIMITS.buttonText, text.length);
  }
  if (type === 'URL') validateUrlButton(raw);
  if (type === 'PHONE_NUMBER') {
    const phone = raw.phone_number;
    if (typeof phone !== 'string' || !/^\+?\d{5,19}$/.test(phone.replace(/[\s-]/g, ''))) {
      throw templateError(
        'Invalid Phone Number',
        'A PHONE_NUMBER button needs a "phone_number" such as +15550001111.',
      );
    }
  }
  return { ...raw, type };
}

function validateButtons(component: Json): TemplateComponent {
  const buttons = decodeJson(component.buttons);
  if (!Array.isArray(buttons) || buttons.length === 0) {
    throw templateError('Missing Buttons', 'A BUTTONS component needs at least one button.');
  }
  if (buttons.length > LIMITS.buttons) {
    throw templateError('Too Many Buttons', `A template can have at most ${LIMITS.buttons} buttons.`);
  }
  const normalised = buttons.map(validateButton);
  const count = (type: string) => normalised.filter((b) => b.type === type).length;
  const caps: [string, number, string][] = [
    ['URL', LIMITS.urlButtons, 'URL buttons'],
    ['PHONE_NUMBER', LIMITS.phoneButtons, 'phone number button'],
    ['COPY_CODE', LIMITS.copyCodeButtons, 'copy code button'],
  ];
  for (const [type, cap, label] of caps) {
    if (count(type) > cap) {
      throw templateError('Too Many Buttons', `A template can have at most ${cap} ${label}.`);
    }
  }
  return { ...component, type: 'BUTTONS', buttons: normalised };
}

/** Meta's component rules; answers the components with their type names upper-cased. */
export function validateComponents(raw: unknown, resolveHandle: HandleResolver): TemplateComponent[] {
  const components = decodeJson(raw);
  if (components === undefined) throw missingParameter('components');
  if (!Array.isArray(components) || components.length === 0) {
    throw invalidParameter('components must be a non-empty array');
  }
  const seen = new Set<string>();
  const result = components.map((component: unknown) => {
    if (!isObject(component)) throw invalidParameter('each component must be an object');
    const type = upper(component.type);
    if (type === undefined) throw missingParameter('type');
    if (seen.has(type)) {
      throw templateError('Duplicate Component', `A template can have only one ${type} component.`);
    }
    seen.add(type);
    switch (type) {
      case 'HEADER':
        return validateHeader(component, resolveHandle);
      case 'BODY':
        return validateBody(component);
      case 'FOOTER':
        return validateFooter(component);
      case 'BUTTONS':
        return validateButtons(component);
      default:
        throw invalidParameter(`component type must be HEADER, BODY, FOOTER or BUTTONS, not ${type}`);
    }
  });
  if (!seen.has('BODY')) throw templateError('Missing Body', 'A template needs a BODY component.');
  return result;
}

/** A `POST /{waba-id}/message_templates` payload, checked in the order Meta reports problems. */
export function validateTemplateDefinition(
  params: Record<string, unknown>,
  resolveHandle: HandleResolver,
): TemplateDefinition {
  const name = validateName(params.name);
  const language = validateLanguage(params.language);
  const category = validateCategory(params.category);
  const format = params.parameter_format ?? 'POSITIONAL';
  if (format !== 'POSITIONAL') {
    throw invalidParameter('parameter_format NAMED is not modelled by the sandbox; use POSITIONAL');
  }
  const ttl =
    params.message_send_ttl_seconds === undefined
      ? null
      : parseTimeToLive(params.message_send_ttl_seconds, category);
  refuseBidSpec(params);
  const maxPrice =
    params.optimization_spec === undefined ? null : parseOptimizationSpec(params.optimization_spec, category);
  return {
    name,
    language,
    category,
    parameterFormat: 'POSITIONAL',
    components: validateComponents(params.components, resolveHandle),
    ...(ttl === null ? {} : { messageSendTtlSeconds: ttl }),
    ...(maxPrice === null ? {} : { maxPriceBidAmount: maxPrice }),
  };
}
