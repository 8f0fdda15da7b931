import { invalidParameter, missingParameter } from '../errors';

/**
 * The message types a business may send inside a customer service window (anything but a template), checked
 * as the Cloud API's send reference describes their objects. A check names the field it refuses.
 */
export const FREE_FORM_TYPES = [
  'text',
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'interactive',
  'reaction',
  'location',
] as const;

export type FreeFormType = (typeof FREE_FORM_TYPES)[number];

export const isFreeFormType = (value: unknown): value is FreeFormType =>
  typeof value === 'string' && (FREE_FORM_TYPES as readonly string[]).includes(value);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const TEXT_BODY_MAX = 4096;
const CAPTION_MAX = 1024;
const INTERACTIVE_BODY_MAX = 1024;
const BUTTON_TITLE_MAX = 20;
const REPLY_ID_MAX = 256;
const LIST_ROW_TITLE_MAX = 24;
const LIST_ROWS_MAX = 10;
const REPLY_BUTTONS_MAX = 3;
const CAPTIONED = new Set(['image', 'video', 'document']);

/** Form-encoded calls carry objects as JSON strings. */
function objectParam(params: Json, name: string): Json {
  let value = params[name];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw invalidParameter(`${name} must be an object`);
    }
  }
  if (value === undefined) throw missingParameter(name);
  if (!isObject(value)) throw invalidParameter(`${name} must be an object`);
  return value;
}

function requiredText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw missingParameter(field);
  if (value.length > max) throw invalidParameter(`${field} must be at most ${max} characters`);
  return value;
}

function optionalText(value: unknown, field: string, max: number): void {
  if (value !== undefined) requiredText(value, field, max);
}

function checkMedia(type: string, media: Json, mediaUploaded: (id: string) => boolean): void {
  const { id, link } = media;
  if (id === undefined && link === undefined) throw missingParameter(`${type}.id or ${type}.link`);
  if (id !== undefined && (typeof id !== 'string' || !mediaUploaded(id))) {
    throw invalidParameter(`${type}.id was not uploaded to this phone number`);
  }
  if (link !== undefined && (typeof link !== 'string' || !/^https?:\/\/\S+$/.test(link))) {
    throw invalidParameter(`${type}.link must be an http(s) URL`);
  }
  if (media.caption !== undefined) {
    if (!CAPTIONED.has(type)) throw invalidParameter(`${type} cannot have a caption`);
    optionalText(media.caption, `${type}.caption`, CAPTION_MAX);
  }
}

function checkInteractive(interactive: Json): void {
  const kind = interactive.type;
  if (kind !== 'button' && kind !== 'list' && kind !== 'cta_url') {
    throw invalidParameter('interactive.type must be button, list or cta_url');
  }
  const body = interactive.body;
  requiredText(isObject(body) ? body.text : undefined, 'interactive.body.text', INTERACTIVE_BODY_MAX);
  const action = interactive.action;
  if (!isObject(action)) throw missingParameter('interactive.action');
  if (kind === 'button') {
    const buttons = action.buttons;
    if (!Array.isArray(buttons) || buttons.length === 0 || buttons.length > REPLY_BUTTONS_MAX) {
      throw invalidParameter(`interactive.action.buttons must hold 1 to ${REPLY_BUTTONS_MAX} buttons`);
    }
    buttons.forEach((button: unknown, i) => {
      const reply = isObject(button) ? button.reply : undefined;
      if (!isObject(button) || button.type !== 'reply' || !isObject(reply)) {
        throw invalidParameter(
          `interactive.action.buttons[${i}] must be {"type":"reply","reply":{id,title}}`,
        );
      }
      requiredText(reply.id, `interactive.action.buttons[${i}].reply.id`, REPLY_ID_MAX);
      requiredText(reply.title, `interactive.action.buttons[${i}].reply.title`, BUTTON_TITLE_MAX);
    });
  } else if (kind === 'list') {
    requiredText(action.button, 'interactive.action.button', BUTTON_TITLE_MAX);
    const sections = action.sections;
    if (!Array.isArray(sections) || sections.length === 0) {
      throw missingParameter('interactive.action.sections');
    }
    let rows = 0;
    sections.forEach((section: unknown, i) => {
      const list = isObject(section) ? section.rows : undefined;
      if (!Array.isArray(list) || list.length === 0) {
        throw missingParameter(`interactive.action.sections[${i}].rows`);
      }
      list.forEach((row: unknown, j) => {
        const at = `interactive.action.sections[${i}].rows[${j}]`;
        if (!isObject(row)) throw invalidParameter(`${at} must be an object`);
        requiredText(row.id, `${at}.id`, REPLY_ID_MAX);
        requiredText(row.title, `${at}.title`, LIST_ROW_TITLE_MAX);
      });
      rows += list.length;
    });
    if (rows > LIST_ROWS_MAX) {
      throw invalidParameter(`interactive.action.sections hold at most ${LIST_ROWS_MAX} rows in all`);
    }
  } else {
    const parameters = action.parameters;
    if (action.name !== 'cta_url' || !isObject(parameters)) {
      throw invalidParameter('interactive.action must be {"name":"cta_url","parameters":{display_text,url}}');
    }
    requiredText(parameters.display_text, 'interactive.action.parameters.display_text', BUTTON_TITLE_MAX);
    const url = parameters.url;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) {
      throw invalidParameter('interactive.action.parameters.url must be an http(s) URL');
    }
  }
}

/**
 * Checks the object a free-form message of `type` carries (`text`, `image`, …) and answers it, compact, for
 * the accepted log. `mediaUploaded` says whether a media id was uploaded to the sending number.
 */
export function checkFreeFormContent(
  type: FreeFormType,
  params: Json,
  mediaUploaded: (id: string) => boolean,
): Json {
  const content = objectParam(params, type);
  switch (type) {
    case 'text':
      requiredText(content.body, 'text.body', TEXT_BODY_MAX);
      if (content.preview_url !== undefined && typeof content.preview_url !== 'boolean') {
        throw invalidParameter('text.preview_url must be true or false');
      }
      break;
    case 'interactive':
      checkInteractive(content);
      break;
    case 'reaction':
      requiredText(content.message_id, 'reaction.message_id', 256);
      if (typeof content.emoji !== 'string') throw missingParameter('reaction.emoji');
      break;
    case 'location':
      for (const axis of ['latitude', 'longitude'] as const) {
        const value = Number(content[axis]);
        const bound = axis === 'latitude' ? 90 : 180;
        if (content[axis] === undefined) throw missingParameter(`location.${axis}`);
        if (!Number.isFinite(value) || Math.abs(value) > bound) {
          throw invalidParameter(`location.${axis} must be a number from -${bound} to ${bound}`);
        }
      }
      break;
    default:
      checkMedia(type, content, mediaUploaded);
  }
  return content;
}
