import { GraphError, invalidParameter, missingParameter } from '../errors';
import { parameterCountMismatch, parameterFormatMismatch } from './message-errors';
import type { TemplateShape } from './template-shape';
import { bsuidRecipient } from './bsuid';

/** A `POST /{phone-number-id}/messages` body, checked for everything that does not need the template. */
export interface SendRequest {
  /** `to` as given, echoed in `contacts[0].input`. */
  input: string;
  /** Its digits: `contacts[0].wa_id`, `recipient_id` in statuses; or the BSUID of a send with `recipient`. */
  digits: string;
  /** Sent with `recipient` to a BSUID (bsuid.ts). */
  toBsuid: boolean;
  templateName: string;
  languageCode: string;
  components: Record<string, unknown>[];
  bizOpaqueCallbackData: string | null;
}

/** Parameter values as sent, per component: `header`, `body`, `button_<index>`; compact for the log. */
export type SentParameters = Record<string, string[]>;

const TO = /^\+?[1-9]\d{6,14}$/;
const MAX_BIZ_OPAQUE_LENGTH = 512;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Form-encoded calls carry structured values as JSON strings. */
function decodeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** What every send names, whatever its type: who it goes to and the business's callback data. */
export interface SendEnvelope {
  input: string;
  digits: string;
  toBsuid: boolean;
  /** `type`, `text` when absent (Meta's default). */
  type: string;
  bizOpaqueCallbackData: string | null;
}

export function parseSendEnvelope(params: Json): SendEnvelope {
  const product = params.messaging_product;
  if (product === undefined) throw missingParameter('messaging_product');
  if (product !== 'whatsapp') throw invalidParameter(`messaging_product must be "whatsapp"`);
  if (params.recipient_type !== undefined && params.recipient_type !== 'individual') {
    throw invalidParameter('recipient_type must be "individual"');
  }
  const bsuid = bsuidRecipient(params);
  const to = bsuid ?? (typeof params.to === 'number' ? String(params.to) : params.to);
  if (to === undefined || to === '') throw missingParameter('to');
  if (bsuid === undefined && (typeof to !== 'string' || !TO.test(to))) {
    throw invalidParameter('to must be a phone number of 7 to 15 digits, optionally after a +');
  }
  const biz = params.biz_opaque_callback_data;
  if (biz !== undefined && (typeof biz !== 'string' || biz.length > MAX_BIZ_OPAQUE_LENGTH)) {
    throw invalidParameter(
      `biz_opaque_callback_data must be a string of at most ${MAX_BIZ_OPAQUE_LENGTH} characters`,
    );
  }
  return {
    input: to as string,
    digits: (to as string).startsWith('+') ? (to as string).slice(1) : (to as string),
    toBsuid: bsuid !== undefined,
    type: typeof params.type === 'string' ? params.type : 'text',
    bizOpaqueCallbackData: biz ?? null,
  };
}

export function parseSendRequest(params: Json): SendRequest {
  const envelope = parseSendEnvelope(params);
  if (envelope.type !== 'template') throw invalidParameter('type must be "template"');
  const template = decodeJson(params.template);
  if (template === undefined) throw missingParameter('template');
  if (!isObject(template)) throw invalidParameter('template must be an object');
  if (typeof template.name !== 'string' || template.name === '') throw missingParameter('template.name');
  const language = template.language;
  if (!isObject(language) || typeof language.code !== 'string' || language.code === '') {
    throw missingParameter('template.language.code');
  }
  const components = template.components ?? [];
  if (!Array.isArray(components) || !components.every(isObject)) {
    throw invalidParameter('template.components must be an array of objects');
  }
  return {
    input: envelope.input,
    digits: envelope.digits,
    toBsuid: envelope.toBsuid,
    templateName: template.name,
    languageCode: language.code,
    components,
    bizOpaqueCallbackData: envelope.bizOpaqueCallbackData,
  };
}

function missingValue(component: string): GraphError {
  return new GraphError(400, 131008, '(#131008) Required parameter is missing', {
    details: `${component}: a text parameter is empty`,
  });
}

// Meta refuses these in a text parameter since v23.0 (changelog 2025-05-29), with 132018.
const REFUSED_PARAMETER_TEXT = /[\n\t]| {5}/;

function refusedParameterText(component: string): GraphError {
  return new GraphError(400, 132018, "(#132018) There's an issue with the parameters in your template", {
    details: `${component}: Param text cannot have new-line/tab characters or more than 4 consecutive spaces`,
  });
}

/** The value a parameter carries, as one string (media by link or id). */
function parameterValue(parameter: Json, component: string): string {
  const type = typeof parameter.type === 'string' ? parameter.type.toLowerCase() : '';
  const typed = parameter[type];
  switch (type) {
    case 'text':
      if (typeof parameter.text !== 'string' || parameter.text.trim() === '') throw missingValue(component);
      if (REFUSED_PARAMETER_TEXT.test(parameter.text)) throw refusedParameterText(component);
      return parameter.text;
    case 'payload':
    case 'coupon_code':
      return String(typed ?? '');
    case 'image':
    case 'video':
    case 'document':
      if (!isObject(typed) || (typed.link === undefined && typed.id === undefined)) {
        throw invalidParameter(`${component}: a ${type} parameter needs "${type}": {"link"} or {"id"}`);
      }
      return String(typed.link ?? typed.id);
    case 'currency':
    case 'date_time':
      return isObject(typed) ? String(typed.fallback_value ?? '') : '';
    case 'location':
      return isObject(typed) ? `${String(typed.latitude)},${String(typed.longitude)}` : '';
    default:
      throw invalidParameter(`${component}: unknown parameter type "${String(parameter.type)}"`);
  }
}

function parametersOf(component: Json, name: string): Json[] {
  const list = component.parameters ?? [];
  if (!Array.isArray(list) || !list.every(isObject)) {
    throw invalidParameter(`${name}: parameters must be an array of objects`);
  }
  return list;
}

/**
 * Checks the send's components against what the template needs (parameter counts per component, media
 * type of a media header) and answers the values sent.
 */
export function checkParameters(shape: TemplateShape, components: Json[]): SentParameters {
  const sent: SentParameters = {};
  for (const component of components) {
    const type = typeof component.type === 'string' ? component.type.toLowerCase() : '';
    if (type === 'header' || type === 'body') {
      if (sent[type]) throw invalidParameter(`template.components has more than one ${type}`);
      const parameters = parametersOf(component, type);
      const expected = type === 'body' ? shape.bodyCount : (shape.header?.count ?? 0);
      if (parameters.length !== expected) throw parameterCountMismatch(type, parameters.length, expected);
      if (type === 'header' && shape.header && shape.header.kind !== 'text') {
        const given = String(parameters[0]?.type ?? '').toLowerCase();
        if (given !== shape.header.kind) {
          throw parameterFormatMismatch(`header: expected a ${shape.header.kind} parameter, got ${given}`);
        }
      }
      sent[type] = parameters.map((p) => parameterValue(p, type));
    } else if (type === 'button') {
      const index = Number(component.index);
      const name = `button at index ${String(component.index)}`;
      if (!Number.isInteger(index) || index < 0) throw invalidParameter(`${name}: index must be 0 or more`);
      const key = `button_${index}`;
      if (sent[key]) throw invalidParameter(`template.components has more than one ${name}`);
      const parameters = parametersOf(component, name);
      const button = shape.buttons[index];
      const subType = String(component.sub_type ?? '').toLowerCase();
      if (button && subType !== button.subType) {
        throw parameterFormatMismatch(`${name}: the template's button is ${button.subType}, not ${subType}`);
      }
      // A quick reply may carry its own payload, or not.
      const optional = button?.subType === 'quick_reply' && parameters.length <= 1;
      const expected = button?.count ?? 0;
      if (!optional && parameters.length !== expected) {
        throw parameterCountMismatch(name, parameters.length, expected);
      }
      sent[key] = parameters.map((p) => parameterValue(p, name));
    } else {
      throw invalidParameter(`template component type must be header, body or button, not "${type}"`);
    }
  }
  if (shape.header && !sent.header) throw parameterCountMismatch('header', 0, shape.header.count);
  if (shape.bodyCount > 0 && !sent.body) throw parameterCountMismatch('body', 0, shape.bodyCount);
  shape.buttons.forEach((button, index) => {
    if (button.count > 0 && !sent[`button_${index}`]) {
      throw parameterCountMismatch(`button at index ${index}`, 0, button.count);
    }
  });
  return sent;
}
