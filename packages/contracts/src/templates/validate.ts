import { buttonPhoneNumberError, buttonUrlError, isDynamicUrl } from './buttons';
import {
  BUTTON_TYPES,
  COMPONENT_TYPES,
  HEADER_FORMATS,
  MEDIA_HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
} from './constants';
import { isTemplateLanguage } from './languages';
import { documentNameError } from './media';
import { templateNameError } from './name';
import { previewSampleValue } from './preview';
import { distinctVariables, findVariables, hasIncompleteVariable, renumberBodyVariables } from './variables';
import { timeToLiveError } from './time-to-live';
import { maxPriceError } from './max-price';

/**
 * Field names of the errors: 'name', 'category', 'language', 'components', 'components.{i}', 'header.format',
 * 'header.text', 'header.variable', 'header.file', 'header.filename', 'header.location_name',
 * 'header.address', 'body.text', 'body.variables.{n}', 'footer.text', 'buttons', 'buttons.{i}.type',
 * 'buttons.{i}.text', 'buttons.{i}.url', 'buttons.{i}.example', 'buttons.{i}.phone_number'.
 */
export interface TemplateFieldError {
  field: string;
  message: string;
}

export interface ValidateTemplateOptions {
  /**
   * The media header already has a file: one arrives with this request (`header_file`) or, on edit, the stored
   * template keeps its media. Without it a media header needs `example.header_handle`.
   */
  hasHeaderFile?: boolean;
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function includes<T extends string>(list: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (list as readonly string[]).includes(v);
}

/**
 * Variable values or columns keyed by position, from any of the spec's shapes: `{"1": "a", "2": "b"}` or
 * `[{"1": "a"}, {"2": "b"}]` (later entries win). Numbers are read as text; other values as ''.
 */
export function readVariableMap(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const entries = Array.isArray(value) ? value : [value];
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    for (const key of Object.keys(entry)) {
      const v = entry[key];
      out.set(key.trim(), typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    }
  }
  return out;
}

interface VariableSources {
  staticHeader: Map<string, string>;
  dynamicHeader: Map<string, string>;
  staticBody: Map<string, string>;
  dynamicBody: Map<string, string>;
}

function variableSources(payload: Json): VariableSources {
  const dyn = own(payload, 'dynamic_variables');
  const stat = own(payload, 'static_variables');
  const d = isRecord(dyn) ? dyn : {};
  const s = isRecord(stat) ? stat : {};
  const dynamicHeader = readVariableMap(own(d, 'header_variables'));
  for (const [k, v] of readVariableMap(own(d, 'header_variable'))) dynamicHeader.set(k, v);
  return {
    staticHeader: readVariableMap(own(s, 'header_variable')),
    dynamicHeader,
    staticBody: readVariableMap(own(s, 'body_variable')),
    dynamicBody: readVariableMap(own(d, 'body_variable')),
  };
}

function componentsByType(payload: Json): Partial<Record<string, Json>> {
  const out: Partial<Record<string, Json>> = {};
  const components = own(payload, 'components');
  if (!Array.isArray(components)) return out;
  for (const c of components) {
    if (!isRecord(c)) continue;
    const type = own(c, 'type');
    if (includes(COMPONENT_TYPES, type) && out[type] === undefined) out[type] = c;
  }
  return out;
}

function exampleOf(component: Json): Json {
  const example = own(component, 'example');
  return isRecord(example) ? example : {};
}

/** `example.header_text[0]`, or undefined. */
function headerTextExample(header: Json): string | undefined {
  const list = own(exampleOf(header), 'header_text');
  return Array.isArray(list) ? str(list[0]) : undefined;
}

/** `example.body_text[0][n - 1]`, or undefined. */
function bodyTextExample(body: Json, n: number): string | undefined {
  const rows = own(exampleOf(body), 'body_text');
  const row: unknown = Array.isArray(rows) ? rows[0] : undefined;
  return Array.isArray(row) ? str(row[n - 1]) : undefined;
}

function hasHandle(header: Json): boolean {
  const handle = own(exampleOf(header), 'header_handle');
  if (typeof handle === 'string') return handle.trim().length > 0;
  return Array.isArray(handle) && handle.some((h) => typeof h === 'string' && h.trim().length > 0);
}

/**
 * Every rule of the template form and Meta's documented limits on the creation payload, for the form (to
 * show) and the server (400 naming the field). Pure; never throws, whatever JSON it is given. An empty list
 * means valid.
 */
export function validateTemplatePayload(
  payload: unknown,
  options: ValidateTemplateOptions = {},
): TemplateFieldError[] {
  const errors: TemplateFieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  if (!isRecord(payload)) {
    add('template_data', TEMPLATE_MESSAGES.payloadNotObject);
    return errors;
  }

  const nameError = templateNameError(str(own(payload, 'name')) ?? '');
  if (nameError) add('name', nameError);
  if (!includes(TEMPLATE_CATEGORIES, own(payload, 'category')))
    add('category', TEMPLATE_MESSAGES.categoryInvalid);
  if (!isTemplateLanguage(own(payload, 'language'))) add('language', TEMPLATE_MESSAGES.languageInvalid);
  const ttlError = timeToLiveError(own(payload, 'message_send_ttl_seconds'), own(payload, 'category'));
  if (ttlError) add('message_send_ttl_seconds', ttlError);
  const maxPriceProblem = maxPriceError(own(payload, 'max_price_bid_amount'), own(payload, 'category'));
  if (maxPriceProblem) add('max_price_bid_amount', maxPriceProblem);

  const components = own(payload, 'components');
  if (!Array.isArray(components)) {
    add('components', TEMPLATE_MESSAGES.componentsInvalid);
  } else {
    const seen = new Set<string>();
    components.forEach((c: unknown, i) => {
      const type = isRecord(c) ? own(c, 'type') : undefined;
      if (!includes(COMPONENT_TYPES, type)) add(`components.${i}`, TEMPLATE_MESSAGES.componentUnknown);
      else if (seen.has(type)) add(`components.${i}`, TEMPLATE_MESSAGES.componentDuplicate(type));
      else seen.add(type);
    });
  }

  const byType = componentsByType(payload);
  const vars = variableSources(payload);
  if (byType.HEADER) validateHeader(byType.HEADER, vars, options, add);
  validateBody(byType.BODY, vars, add);
  if (byType.FOOTER) validateFooter(byType.FOOTER, add);
  if (byType.BUTTONS) validateButtons(byType.BUTTONS, add);
  return errors;
}

type Add = (field: string, message: string) => void;

function validateHeader(
  header: Json,
  vars: VariableSources,
  options: ValidateTemplateOptions,
  add: Add,
): void {
  const format = own(header, 'format');
  if (!includes(HEADER_FORMATS, format)) {
    add('header.format', TEMPLATE_MESSAGES.headerFormatInvalid);
    return;
  }
  if (format === 'TEXT') {
    const text = str(own(header, 'text')) ?? '';
    if (text.trim().length === 0) add('header.text', TEMPLATE_MESSAGES.headerTextRequired);
    else if (text.length > TEMPLATE_LIMITS.headerTextMaxLength)
      add('header.text', TEMPLATE_MESSAGES.headerTextTooLong);
    if (hasIncompleteVariable(text)) add('header.text', TEMPLATE_MESSAGES.incompleteVariable);
    const markers = findVariables(text);
    if (markers.length > 1 || (markers.length === 1 && markers[0]?.raw !== '{{1}}'))
      add('header.text', TEMPLATE_MESSAGES.headerOneVariable);
    if (markers.length > 0) {
      if (vars.dynamicHeader.has('1')) {
        if ((vars.dynamicHeader.get('1') ?? '').trim().length === 0)
          add('header.variable', TEMPLATE_MESSAGES.customerParameterRequired);
      } else {
        const value = vars.staticHeader.get('1') ?? headerTextExample(header) ?? '';
        if (value.trim().length === 0) add('header.variable', TEMPLATE_MESSAGES.variableValueRequired);
      }
    }
    return;
  }
  if (includes(MEDIA_HEADER_FORMATS, format)) {
    if (!options.hasHeaderFile && !hasHandle(header)) add('header.file', TEMPLATE_MESSAGES.mediaRequired);
    if (format === 'DOCUMENT') {
      const problem = documentNameError(str(own(exampleOf(header), 'filename')) ?? '');
      if (problem) add('header.filename', problem);
    }
    return;
  }
  // LOCATION
  const location = own(exampleOf(header), 'location');
  const loc = isRecord(location) ? location : {};
  if ((str(own(loc, 'name')) ?? '').trim().length === 0)
    add('header.location_name', TEMPLATE_MESSAGES.locationNameRequired);
  if ((str(own(loc, 'address')) ?? '').trim().length === 0)
    add('header.address', TEMPLATE_MESSAGES.addressRequired);
}

function validateBody(body: Json | undefined, vars: VariableSources, add: Add): void {
  const text = body ? (str(own(body, 'text')) ?? '') : '';
  if (text.trim().length === 0) {
    add('body.text', TEMPLATE_MESSAGES.bodyRequired);
    return;
  }
  if (text.length > TEMPLATE_LIMITS.bodyMaxLength) add('body.text', TEMPLATE_MESSAGES.bodyTooLong);
  if (hasIncompleteVariable(text)) add('body.text', TEMPLATE_MESSAGES.incompleteVariable);
  if (/^\s*\{\{\d+\}\}|\{\{\d+\}\}\s*$/.test(text)) add('body.text', TEMPLATE_MESSAGES.bodyVariableAtEdge);
  const renumbered = renumberBodyVariables(text);
  if (renumbered.notice === TEMPLATE_MESSAGES.variablesExceedNotice)
    add('body.text', TEMPLATE_MESSAGES.bodyTooManyVariables);
  else if (renumbered.notice !== null) add('body.text', TEMPLATE_MESSAGES.bodyNotSequential);
  // Examples are checked for the variables as written, at most the first 10.
  const numbers = distinctVariables(text).slice(0, TEMPLATE_LIMITS.maxBodyVariables);
  for (const n of numbers) {
    const key = String(n);
    if (vars.dynamicBody.has(key)) {
      if ((vars.dynamicBody.get(key) ?? '').trim().length === 0)
        add(`body.variables.${key}`, TEMPLATE_MESSAGES.selectField);
    } else {
      const value = vars.staticBody.get(key) ?? (body ? bodyTextExample(body, n) : undefined) ?? '';
      if (value.trim().length === 0) add(`body.variables.${key}`, TEMPLATE_MESSAGES.variableValueRequired);
    }
  }
}

function validateFooter(footer: Json, add: Add): void {
  const text = str(own(footer, 'text')) ?? '';
  if (text.trim().length === 0) add('footer.text', TEMPLATE_MESSAGES.footerRequired);
  else if (text.length > TEMPLATE_LIMITS.footerMaxLength) add('footer.text', TEMPLATE_MESSAGES.footerTooLong);
  if (findVariables(text).length > 0 || hasIncompleteVariable(text))
    add('footer.text', TEMPLATE_MESSAGES.footerNoVariables);
}

function validateButtons(component: Json, add: Add): void {
  const buttons = own(component, 'buttons');
  if (!Array.isArray(buttons)) {
    add('buttons', TEMPLATE_MESSAGES.buttonsInvalid);
    return;
  }
  const types = buttons.map((b: unknown) => (isRecord(b) ? own(b, 'type') : undefined));
  if (buttons.length > TEMPLATE_LIMITS.maxButtons) add('buttons', TEMPLATE_MESSAGES.buttonLimit);
  if (types.filter((t) => t === 'PHONE_NUMBER').length > TEMPLATE_LIMITS.maxPhoneButtons)
    add('buttons', TEMPLATE_MESSAGES.phoneButtonLimit);
  if (types.filter((t) => t === 'URL').length > TEMPLATE_LIMITS.maxUrlButtons)
    add('buttons', TEMPLATE_MESSAGES.urlButtonLimit);
  const firstQuick = types.indexOf('QUICK_REPLY');
  const lastQuick = types.lastIndexOf('QUICK_REPLY');
  if (firstQuick >= 0 && types.slice(firstQuick, lastQuick + 1).some((t) => t !== 'QUICK_REPLY'))
    add('buttons', TEMPLATE_MESSAGES.quickRepliesGrouped);

  buttons.forEach((b: unknown, i) => {
    const button = isRecord(b) ? b : {};
    const type = own(button, 'type');
    if (!includes(BUTTON_TYPES, type)) {
      add(`buttons.${i}.type`, TEMPLATE_MESSAGES.buttonTypeInvalid);
      return;
    }
    const text = str(own(button, 'text')) ?? '';
    if (text.trim().length === 0) add(`buttons.${i}.text`, TEMPLATE_MESSAGES.buttonTextRequired);
    else if (text.length > TEMPLATE_LIMITS.buttonTextMaxLength)
      add(`buttons.${i}.text`, TEMPLATE_MESSAGES.buttonTextTooLong);
    if (type === 'URL') {
      const url = str(own(button, 'url')) ?? '';
      const problem = buttonUrlError(url);
      if (problem) add(`buttons.${i}.url`, problem);
      else if (isDynamicUrl(url)) {
        const example = own(button, 'example');
        const ok =
          Array.isArray(example) && example.some((e) => typeof e === 'string' && e.trim().length > 0);
        if (!ok) add(`buttons.${i}.example`, TEMPLATE_MESSAGES.urlExampleRequired);
      }
    } else if (type === 'PHONE_NUMBER') {
      const problem = buttonPhoneNumberError(str(own(button, 'phone_number')) ?? '');
      if (problem) add(`buttons.${i}.phone_number`, problem);
    }
  });
}

export interface VariableExamples {
  /** The header variable's example, or null when the header has no variable. */
  header: string | null;
  /** One example per body variable, {{1}} first (Meta's `example.body_text[0]`). */
  body: string[];
}

/**
 * The examples Meta needs for review, for a payload that passed `validateTemplatePayload`: the static value,
 * else the component's own example, else for a dynamic variable the preview sample of its
 * customer column.
 */
export function resolveVariableExamples(payload: unknown): VariableExamples {
  if (!isRecord(payload)) return { header: null, body: [] };
  const byType = componentsByType(payload);
  const vars = variableSources(payload);
  const pick = (stat: string | undefined, example: string | undefined, column: string | undefined) => {
    for (const v of [stat, example]) if (v !== undefined && v.trim().length > 0) return v;
    return column !== undefined && column.trim().length > 0 ? previewSampleValue(column.trim()) : '';
  };
  let header: string | null = null;
  const h = byType.HEADER;
  if (h && own(h, 'format') === 'TEXT' && findVariables(str(own(h, 'text')) ?? '').length > 0) {
    const dynamic = vars.dynamicHeader.get('1');
    header = pick(
      dynamic === undefined ? vars.staticHeader.get('1') : undefined,
      headerTextExample(h),
      dynamic,
    );
  }
  const b = byType.BODY;
  const text = b ? (str(own(b, 'text')) ?? '') : '';
  const count = Math.min(distinctVariables(text).length, TEMPLATE_LIMITS.maxBodyVariables);
  const body: string[] = [];
  for (let n = 1; n <= count; n++) {
    const key = String(n);
    const dynamic = vars.dynamicBody.get(key);
    body.push(
      pick(
        dynamic === undefined ? vars.staticBody.get(key) : undefined,
        b ? bodyTextExample(b, n) : undefined,
        dynamic,
      ),
    );
  }
  return { header, body };
}
