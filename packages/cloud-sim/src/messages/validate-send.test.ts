import { describe, expect, it } from 'vitest';
import type { GraphError } from '../errors';
import { computeTemplateShape } from './template-shape';
import { checkParameters, parseSendRequest } from './validate-send';

const shape = computeTemplateShape([
  { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } },
  { type: 'BODY', text: 'Hi {{1}}, see you {{2}}. {{1}}!' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Stop' },
      { type: 'URL', text: 'Open', url: 'https://ex.com/{{1}}' },
      { type: 'URL', text: 'Home', url: 'https://ex.com' },
    ],
  },
]);

const valid = [
  { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.ex.com/a.jpg' } }] },
  {
    type: 'body',
    parameters: [
      { type: 'text', text: 'Ana' },
      { type: 'text', text: 'Friday' },
    ],
  },
  { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'abc' }] },
  { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'STOP' }] },
];

function codeOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (e) {
    return (e as GraphError).code;
  }
  return undefined;
}

describe('computeTemplateShape', () => {
  it('counts distinct body variables, the header parameter and URL button variables', () => {
    expect(shape).toEqual({
      header: { kind: 'image', count: 1 },
      bodyCount: 2,
      buttons: [
        { subType: 'quick_reply', count: 0 },
        { subType: 'url', count: 1 },
        { subType: 'url', count: 0 },
      ],
    });
    expect(
      computeTemplateShape([
        { type: 'HEADER', format: 'TEXT', text: 'Plain' },
        { type: 'BODY', text: 'x' },
      ]),
    ).toEqual({ header: null, bodyCount: 0, buttons: [] });
  });
});

describe('checkParameters', () => {
  it('answers the values per component when every count matches', () => {
    expect(checkParameters(shape, valid)).toEqual({
      header: ['https://cdn.ex.com/a.jpg'],
      body: ['Ana', 'Friday'],
      button_1: ['abc'],
      button_0: ['STOP'],
    });
  });

  it('is 132000 for a wrong count or a missing component', () => {
    const body = { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] };
    expect(codeOf(() => checkParameters(shape, [valid[0]!, body, valid[2]!]))).toBe(132000);
    expect(codeOf(() => checkParameters(shape, [valid[0]!, valid[2]!]))).toBe(132000);
    expect(codeOf(() => checkParameters(shape, [valid[1]!, valid[2]!]))).toBe(132000);
    expect(codeOf(() => checkParameters(shape, [valid[0]!, valid[1]!]))).toBe(132000);
    const extra = { type: 'button', sub_type: 'url', index: 2, parameters: [{ type: 'text', text: 'x' }] };
    expect(codeOf(() => checkParameters(shape, [...valid, extra]))).toBe(132000);
  });

  it('is 132012 for a header of another media type, 131008 for a blank text', () => {
    const video = { type: 'header', parameters: [{ type: 'video', video: { id: '1' } }] };
    expect(codeOf(() => checkParameters(shape, [video, ...valid.slice(1)]))).toBe(132012);
    const blank = {
      type: 'body',
      parameters: [
        { type: 'text', text: ' ' },
        { type: 'text', text: 'x' },
      ],
    };
    expect(codeOf(() => checkParameters(shape, [valid[0]!, blank, valid[2]!]))).toBe(131008);
  });
});

describe('text parameters Meta refuses (132018)', () => {
  const withBody = (first: string, url = 'abc') => [
    valid[0]!,
    {
      type: 'body',
      parameters: [
        { type: 'text', text: first },
        { type: 'text', text: 'Friday' },
      ],
    },
    { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: url }] },
  ];
  const errorOf = (components: Record<string, unknown>[]) => {
    try {
      checkParameters(shape, components);
    } catch (e) {
      return e as GraphError;
    }
    return undefined;
  };

  it.each([
    ['a new-line', '12 High St\nLondon'],
    ['a tab', 'Ada\tLovelace'],
    ['five spaces in a row', 'Ada     Lovelace'],
  ])('refuses %s with HTTP 400 and Meta’s code, message and details', (_what, text) => {
    const error = errorOf(withBody(text));
    expect(error).toMatchObject({
      httpStatus: 400,
      code: 132018,
      message: "(#132018) There's an issue with the parameters in your template",
      details: 'body: Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
    });
  });

  it('checks button parameters too, and accepts up to four spaces in a row', () => {
    expect(errorOf(withBody('Ana', 'a\nb'))?.code).toBe(132018);
    expect(errorOf(withBody('Ada    Lovelace'))).toBeUndefined();
  });
});

describe('parseSendRequest', () => {
  const base = {
    messaging_product: 'whatsapp',
    to: '+15551234567',
    type: 'template',
    template: { name: 'summer_sale', language: { code: 'en_US' } },
  };

  it('keeps the input and its digits', () => {
    expect(parseSendRequest({ ...base, biz_opaque_callback_data: 'row-1' })).toEqual({
      input: '+15551234567',
      digits: '15551234567',
      toBsuid: false,
      templateName: 'summer_sale',
      languageCode: 'en_US',
      components: [],
      bizOpaqueCallbackData: 'row-1',
    });
  });

  it('is 100 for a bad `to`, product, type or template', () => {
    for (const bad of [
      { to: '555-1234' },
      { to: '12' },
      { to: '+1 555 123 4567' },
      { to: undefined },
      { messaging_product: 'sms' },
      { type: 'text' },
      { template: { name: 'x' } },
      { recipient_type: 'group' },
    ]) {
      expect(codeOf(() => parseSendRequest({ ...base, ...bad }))).toBe(100);
    }
  });
});
