import { describe, expect, it } from 'vitest';
import type { GraphError } from '../errors';
import { TEMPLATE_SUBCODES } from './template-errors';
import type { HandleResolver } from './validate-template';
import { validateComponents, validateTemplateDefinition } from './validate-template';

const IMAGE_HANDLE = '4::aW1hZ2UvanBlZw==:abc';
const PDF_HANDLE = '4::pdf:abc';
const resolve: HandleResolver = (handle) =>
  ({
    [IMAGE_HANDLE]: { fileType: 'image/jpeg', fileLength: 1000 },
    [PDF_HANDLE]: { fileType: 'application/pdf', fileLength: 1000 },
  })[handle];

const body = (text: string, example?: string[]) => ({
  type: 'BODY',
  text,
  ...(example ? { example: { body_text: [example] } } : {}),
});

function summerSale(overrides: Record<string, unknown> = {}) {
  return {
    name: 'summer_sale',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [IMAGE_HANDLE] } },
      body('Hi {{1}}, sale ends {{2}}.', ['Ana', 'Friday']),
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
          { type: 'URL', text: 'Shop', url: 'https://ex.com/s/{{1}}', example: ['abc'] },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001111' },
        ],
      },
    ],
    ...overrides,
  };
}

function failure(fn: () => unknown): GraphError {
  try {
    fn();
  } catch (error) {
    return error as GraphError;
  }
  throw new Error('expected a GraphError');
}

const componentsError = (components: unknown[]) => failure(() => validateComponents(components, resolve));

describe('validateTemplateDefinition', () => {
  it("accepts Meta's documented example and upper-cases type names", () => {
    const definition = validateTemplateDefinition(
      summerSale({ components: [{ type: 'body', text: 'Hello' }] }),
      resolve,
    );
    expect(definition).toEqual({
      name: 'summer_sale',
      language: 'en_US',
      category: 'MARKETING',
      parameterFormat: 'POSITIONAL',
      components: [{ type: 'BODY', text: 'Hello' }],
    });
    expect(validateTemplateDefinition(summerSale(), resolve).components).toHaveLength(4);
  });

  it('takes components as a JSON string, as form-encoded Graph calls send them', () => {
    const definition = validateTemplateDefinition(
      summerSale({ components: JSON.stringify([body('Hi')]) }),
      resolve,
    );
    expect(definition.components).toEqual([{ type: 'BODY', text: 'Hi' }]);
  });

  it.each(['Summer_Sale', 'summer-sale', 'summer sale', 'soldes_été', 'a'.repeat(513)])(
    'rejects the name %j with code 100 and a user message',
    (name) => {
      const error = failure(() => validateTemplateDefinition(summerSale({ name }), resolve));
      expect(error).toMatchObject({ httpStatus: 400, code: 100 });
      expect(error.userMessage).toBeDefined();
    },
  );

  it('accepts a 512-character name of lower-case letters, digits and underscores', () => {
    expect(
      validateTemplateDefinition(summerSale({ name: 'a_1'.repeat(170) + 'ab' }), resolve).name,
    ).toHaveLength(512);
  });

  it('rejects a missing name, an unknown category and an unknown language', () => {
    expect(failure(() => validateTemplateDefinition(summerSale({ name: undefined }), resolve)).message).toBe(
      '(#100) The parameter name is required.',
    );
    expect(
      failure(() => validateTemplateDefinition(summerSale({ category: 'PROMO' }), resolve)).message,
    ).toMatch(/category must be one of AUTHENTICATION, MARKETING, UTILITY/);
    expect(
      failure(() => validateTemplateDefinition(summerSale({ language: 'xx_XX' }), resolve)).userTitle,
    ).toBe('Invalid Language');
  });

  it('refuses NAMED parameters, which the sandbox does not model', () => {
    const error = failure(() =>
      validateTemplateDefinition(summerSale({ parameter_format: 'NAMED' }), resolve),
    );
    expect(error.message).toMatch(/NAMED/);
  });
});

describe('body', () => {
  it('needs a BODY component', () => {
    expect(componentsError([{ type: 'FOOTER', text: 'x' }]).userTitle).toBe('Missing Body');
  });

  it('refuses more than 1024 characters with the length subcode', () => {
    expect(componentsError([body('x'.repeat(1025))])).toMatchObject({
      code: 100,
      subcode: TEMPLATE_SUBCODES.tooLong,
    });
    expect(validateComponents([body('x'.repeat(1024))], resolve)).toHaveLength(1);
  });

  it('refuses 11 variables', () => {
    const text = Array.from({ length: 11 }, (_, i) => `v{{${i + 1}}}`).join(' ');
    const error = componentsError([
      body(
        text,
        Array.from({ length: 11 }, () => 'x'),
      ),
    ]);
    expect(error).toMatchObject({
      subcode: TEMPLATE_SUBCODES.tooManyVariables,
      userTitle: 'Too Many Variables',
    });
  });

  it('accepts 10 variables with 10 samples', () => {
    const text = `${Array.from({ length: 10 }, (_, i) => `v{{${i + 1}}}`).join(' ')} end`;
    expect(
      validateComponents(
        [
          body(
            text,
            Array.from({ length: 10 }, () => 'x'),
          ),
        ],
        resolve,
      ),
    ).toHaveLength(1);
  });

  it.each([
    ['Hi {{1}} and {{3}}', 'Variables Are Not Sequential'],
    ['Hi {{2}}', 'Variables Are Not Sequential'],
    ['Hi {{0}}', 'Invalid Variable'],
    ['Hi {{name}}', 'Invalid Variable'],
  ])('refuses %j', (text, title) => {
    expect(componentsError([body(text, ['a', 'b'])]).userTitle).toBe(title);
  });

  it('needs example.body_text when there are variables, one sample per variable', () => {
    expect(componentsError([body('Hi {{1}}')])).toMatchObject({ subcode: TEMPLATE_SUBCODES.missingExample });
    expect(componentsError([body('Hi {{1}} {{2}}', ['only one'])])).toMatchObject({
      subcode: TEMPLATE_SUBCODES.missingExample,
      userTitle: 'Sample Values Do Not Match Variables',
    });
    expect(componentsError([body('Hi {{1}}', [''])]).subcode).toBe(TEMPLATE_SUBCODES.missingExample);
  });

  it('allows a variable to repeat', () => {
    expect(validateComponents([body('Hi {{1}} and {{1}} again', ['a'])], resolve)).toHaveLength(1);
  });

  it.each([
    ['{{1}}, your order is ready', 'start'],
    ['  \n{{1}}, your order is ready', 'start, after whitespace'],
    ['Your order is ready, {{1}}', 'end'],
    ['Your order is ready, {{1}} \n', 'end, before whitespace'],
  ])('refuses a variable at the %s (%s), with Meta’s subcode 2388299 and words', (text) => {
    const error = componentsError([body(text, ['Ana'])]);
    expect(error).toMatchObject({
      httpStatus: 400,
      code: 100,
      subcode: 2388299,
      userTitle: 'Leading or trailing params not allowed',
      userMessage: "Variables can't be at the start or end of the template.",
    });
  });

  it('accepts a variable with words on both sides', () => {
    expect(validateComponents([body('Hi {{1}}, your order is ready.', ['Ana'])], resolve)).toHaveLength(1);
  });
});

describe('header', () => {
  const text = (t: string, example?: string[]) => ({
    type: 'HEADER',
    format: 'TEXT',
    text: t,
    ...(example ? { example: { header_text: example } } : {}),
  });

  it('takes a text header of 60 characters with one variable and its sample', () => {
    expect(validateComponents([text('x'.repeat(52) + ' {{1}}', ['Ana']), body('b')], resolve)).toHaveLength(
      2,
    );
  });

  it('refuses a text header longer than 60 characters', () => {
    expect(componentsError([text('x'.repeat(61)), body('b')])).toMatchObject({
      subcode: TEMPLATE_SUBCODES.tooLong,
    });
  });

  it('refuses two header variables and a variable without its sample', () => {
    expect(componentsError([text('{{1}} {{2}}', ['a', 'b']), body('b')]).subcode).toBe(
      TEMPLATE_SUBCODES.headerFormat,
    );
    expect(componentsError([text('Hi {{1}}'), body('b')]).subcode).toBe(TEMPLATE_SUBCODES.missingExample);
  });

  it('refuses two headers', () => {
    expect(componentsError([text('a'), text('b'), body('b')]).userTitle).toBe('Duplicate Component');
  });

  it('needs a handle from a finished upload for media headers, of a matching type', () => {
    const media = (format: string, handle?: string) => ({
      type: 'HEADER',
      format,
      ...(handle ? { example: { header_handle: [handle] } } : {}),
    });
    expect(componentsError([media('IMAGE'), body('b')]).subcode).toBe(TEMPLATE_SUBCODES.headerFormat);
    expect(componentsError([media('IMAGE', '4::unknown'), body('b')]).userTitle).toBe('Invalid Media Handle');
    expect(componentsError([media('VIDEO', IMAGE_HANDLE), body('b')]).subcode).toBe(
      TEMPLATE_SUBCODES.headerFormat,
    );
    expect(validateComponents([media('DOCUMENT', PDF_HANDLE), body('b')], resolve)).toHaveLength(2);
    expect(validateComponents([media('location'), body('b')], resolve)[0]).toEqual({
      type: 'HEADER',
      format: 'LOCATION',
    });
  });

  it('refuses an unknown header format', () => {
    expect(componentsError([{ type: 'HEADER', format: 'AUDIO' }, body('b')]).subcode).toBe(
      TEMPLATE_SUBCODES.headerFormat,
    );
  });
});

describe('footer', () => {
  it('refuses more than 60 characters and any variable', () => {
    expect(componentsError([body('b'), { type: 'FOOTER', text: 'x'.repeat(61) }]).subcode).toBe(
      TEMPLATE_SUBCODES.tooLong,
    );
    expect(componentsError([body('b'), { type: 'FOOTER', text: 'Hi {{1}}' }]).userTitle).toBe(
      'Invalid Footer',
    );
  });
});

describe('buttons', () => {
  const withButtons = (buttons: unknown[]) => [body('b'), { type: 'BUTTONS', buttons }];
  const url = (n: number) => ({ type: 'URL', text: `Site ${n}`, url: 'https://ex.com' });
  const phone = { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001111' };
  const reply = (n: number) => ({ type: 'QUICK_REPLY', text: `Reply ${n}` });

  it('refuses 3 URL buttons, 2 phone buttons and 11 buttons', () => {
    expect(componentsError(withButtons([url(1), url(2), url(3)])).userMessage).toMatch(
      /at most 2 URL buttons/,
    );
    expect(componentsError(withButtons([phone, phone])).userMessage).toMatch(/at most 1 phone number button/);
    expect(componentsError(withButtons(Array.from({ length: 11 }, (_, i) => reply(i)))).userMessage).toMatch(
      /at most 10 buttons/,
    );
  });

  it('accepts 10 buttons with 2 URL and 1 phone button', () => {
    const buttons = [url(1), url(2), phone, ...Array.from({ length: 7 }, (_, i) => reply(i))];
    expect(validateComponents(withButtons(buttons), resolve)).toHaveLength(2);
  });

  it('refuses button text over 25 characters and an unknown type', () => {
    expect(componentsError(withButtons([{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }])).subcode).toBe(
      TEMPLATE_SUBCODES.tooLong,
    );
    expect(componentsError(withButtons([{ type: 'CALL_ME', text: 'x' }])).userTitle).toBe('Invalid Button');
  });

  it('needs a sample for a URL variable, which must be {{1}} at the end', () => {
    const button = (u: string, example?: string[]) => ({ type: 'URL', text: 'Go', url: u, example });
    expect(componentsError(withButtons([button('https://ex.com/{{1}}')])).subcode).toBe(
      TEMPLATE_SUBCODES.missingExample,
    );
    expect(componentsError(withButtons([button('https://ex.com/{{1}}/x', ['a'])])).userTitle).toBe(
      'Invalid URL',
    );
    expect(componentsError(withButtons([button('ftp://ex.com')])).userTitle).toBe('Invalid URL');
    expect(validateComponents(withButtons([button('https://ex.com/{{1}}', ['a'])]), resolve)).toHaveLength(2);
  });

  it('refuses a phone button without a phone number', () => {
    expect(componentsError(withButtons([{ type: 'PHONE_NUMBER', text: 'Call' }])).userTitle).toBe(
      'Invalid Phone Number',
    );
  });
});
