import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplatePayloadSchema } from './schemas';
import { readVariableMap, resolveVariableExamples, validateTemplatePayload } from './validate';

/** The end-to-end template: text header, two body variables (one dynamic), a URL button. */
function validPayload(): Record<string, unknown> {
  return {
    name: 'order_update',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ana'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order {{2}} is ready.',
        example: { body_text: [['Ana', 'A-42']] },
      },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
          { type: 'URL', text: 'Track', url: 'https://shop.example.com/o/{{1}}', example: ['A-42'] },
          { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550001111' },
        ],
      },
    ],
    dynamic_variables: { header_variable: { '1': 'name' }, body_variable: { '2': 'post_code' } },
    static_variables: { header_variable: [], body_variable: [{ '1': 'Ana' }] },
  };
}

type Components = Array<Record<string, unknown>>;

function withComponent(type: string, patch: Record<string, unknown> | null) {
  const p = validPayload();
  const components = p.components as Components;
  const i = components.findIndex((c) => c.type === type);
  if (patch === null) components.splice(i, 1);
  else components[i] = { ...components[i], ...patch };
  return p;
}

function fields(payload: unknown, options = {}) {
  return validateTemplatePayload(payload, options);
}

describe('validateTemplatePayload', () => {
  it('accepts the valid payload, which also parses with the schema', () => {
    expect(fields(validPayload())).toEqual([]);
    expect(TemplatePayloadSchema.safeParse(validPayload()).success).toBe(true);
  });

  it('refuses a non-object', () => {
    expect(fields(null)).toEqual([
      { field: 'template_data', message: 'The template data must be a JSON object' },
    ]);
    expect(fields([1])).toHaveLength(1);
  });

  it('checks name, category and language', () => {
    const p = { ...validPayload(), name: 'Order Update', category: 'PROMO', language: 'en-US' };
    expect(fields(p)).toEqual([
      { field: 'name', message: 'Only lowercase letters and underscores are allowed' },
      { field: 'category', message: 'Category must be AUTHENTICATION, MARKETING or UTILITY' },
      { field: 'language', message: 'Select a supported language' },
    ]);
    expect(fields({ ...validPayload(), name: undefined })).toEqual([
      { field: 'name', message: 'Template name is required' },
    ]);
  });

  it('checks the components list', () => {
    expect(fields({ ...validPayload(), components: 'x' })).toContainEqual({
      field: 'components',
      message: 'Components must be a list',
    });
    const p = validPayload();
    (p.components as Components).push({ type: 'BODY', text: 'again' }, { type: 'CAROUSEL' }, 7 as never);
    expect(fields(p)).toEqual([
      { field: 'components.4', message: 'Only one BODY component is allowed' },
      { field: 'components.5', message: 'Unknown component type' },
      { field: 'components.6', message: 'Unknown component type' },
    ]);
  });

  describe('header', () => {
    it('text: required, ≤ 60, complete variable, one {{1}}', () => {
      expect(fields(withComponent('HEADER', { text: ' ' }))).toContainEqual({
        field: 'header.text',
        message: 'Header text is required',
      });
      expect(fields(withComponent('HEADER', { text: 'x'.repeat(61) }))).toContainEqual({
        field: 'header.text',
        message: 'Header text cannot exceed 60 characters',
      });
      expect(fields(withComponent('HEADER', { text: 'Hello {{1' }))).toContainEqual({
        field: 'header.text',
        message: 'Please complete the variable format: {{1}}',
      });
      expect(fields(withComponent('HEADER', { text: 'Hi {{1}} {{2}}' }))).toContainEqual({
        field: 'header.text',
        message: 'Only one header variable ({{1}}) is allowed',
      });
      expect(fields(withComponent('HEADER', { text: 'Hi {{2}}' }))).toContainEqual({
        field: 'header.text',
        message: 'Only one header variable ({{1}}) is allowed',
      });
    });

    it('a dynamic header variable needs a customer parameter', () => {
      const p = validPayload();
      p.dynamic_variables = { header_variable: { '1': '' }, body_variable: { '2': 'post_code' } };
      expect(fields(p)).toEqual([{ field: 'header.variable', message: 'Customer parameter is required' }]);
    });

    it('the edit-read form header_variables is accepted', () => {
      const p = validPayload();
      p.dynamic_variables = { header_variables: [{ '1': 'name' }], body_variable: { '2': 'post_code' } };
      expect(fields(p)).toEqual([]);
    });

    it('a static header variable needs a value', () => {
      const p = withComponent('HEADER', { example: undefined });
      p.dynamic_variables = { body_variable: { '2': 'post_code' } };
      expect(fields(p)).toEqual([{ field: 'header.variable', message: 'Variable value is required' }]);
      p.static_variables = { header_variable: [{ '1': 'Ana' }], body_variable: [{ '1': 'Ana' }] };
      expect(fields(p)).toEqual([]);
    });

    it('media: needs a file or a handle', () => {
      const p = withComponent('HEADER', { format: 'IMAGE', text: undefined, example: undefined });
      expect(fields(p)).toContainEqual({
        field: 'header.file',
        message: 'Please upload a file for the header',
      });
      expect(fields(p, { hasHeaderFile: true })).toEqual([]);
      const q = withComponent('HEADER', {
        format: 'VIDEO',
        text: undefined,
        example: { header_handle: ['4::aW'] },
      });
      expect(fields(q)).toEqual([]);
      const r = withComponent('HEADER', {
        format: 'VIDEO',
        text: undefined,
        example: { header_handle: null },
      });
      expect(fields(r)).toHaveLength(1);
    });

    it('document: the name is required and without special characters', () => {
      const p = withComponent('HEADER', {
        format: 'DOCUMENT',
        text: undefined,
        example: { header_handle: 'h' },
      });
      expect(fields(p)).toEqual([{ field: 'header.filename', message: 'Document name is required' }]);
      const q = withComponent('HEADER', {
        format: 'DOCUMENT',
        example: { header_handle: 'h', filename: 'menu|v2.pdf' },
      });
      expect(fields(q)).toEqual([
        { field: 'header.filename', message: 'Cannot contain special characters like /:*?"<>|' },
      ]);
    });

    it('location: name and address are required', () => {
      const p = withComponent('HEADER', { format: 'LOCATION', text: undefined, example: undefined });
      expect(fields(p)).toEqual([
        { field: 'header.location_name', message: 'Location name is required' },
        { field: 'header.address', message: 'Address is required' },
      ]);
      const q = withComponent('HEADER', {
        format: 'LOCATION',
        example: { location: { name: 'HQ', address: '1 Main St' } },
      });
      expect(fields(q)).toEqual([]);
    });

    it('refuses an unknown format', () => {
      expect(fields(withComponent('HEADER', { format: 'text' }))).toEqual([
        { field: 'header.format', message: 'Header type must be TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION' },
      ]);
    });
  });

  describe('body', () => {
    it('is required', () => {
      expect(fields(withComponent('BODY', null))).toEqual([
        { field: 'body.text', message: 'Body text is required' },
      ]);
      expect(fields(withComponent('BODY', { text: '   ' }))).toEqual([
        { field: 'body.text', message: 'Body text is required' },
      ]);
    });

    it('is at most 1024 characters', () => {
      expect(fields(withComponent('BODY', { text: 'x'.repeat(1024) }))).toEqual([]);
      expect(fields(withComponent('BODY', { text: 'x'.repeat(1025) }))).toEqual([
        { field: 'body.text', message: 'Body text cannot exceed 1024 characters' },
      ]);
    });

    it('refuses incomplete, non-sequential and too many variables', () => {
      expect(fields(withComponent('BODY', { text: 'Hi {{1}} {{2' }))).toContainEqual({
        field: 'body.text',
        message: 'Please complete the variable format: {{1}}',
      });
      expect(fields(withComponent('BODY', { text: 'Hi {{1}} {{3}}' }))).toContainEqual({
        field: 'body.text',
        message: 'Variables must be numbered {{1}}, {{2}}, ... without gaps',
      });
      const eleven = `${Array.from({ length: 11 }, (_, i) => `v {{${i + 1}}}`).join(' ')} end`;
      const p = withComponent('BODY', { text: eleven, example: undefined });
      p.static_variables = {
        body_variable: Array.from({ length: 11 }, (_, i) => ({ [String(i + 1)]: 'x' })),
      };
      p.dynamic_variables = { header_variable: { '1': 'name' } };
      expect(fields(p)).toEqual([{ field: 'body.text', message: 'A body can have at most 10 variables' }]);
    });

    it('needs a value for every static variable and a field for every dynamic one', () => {
      const p = withComponent('BODY', { text: 'Hi {{1}}, {{2}} and {{3}}.', example: undefined });
      p.static_variables = { body_variable: [{ '1': '  ' }] };
      p.dynamic_variables = { header_variable: { '1': 'name' }, body_variable: { '2': '', '3': 'email' } };
      expect(fields(p)).toEqual([
        { field: 'body.variables.1', message: 'Variable value is required' },
        { field: 'body.variables.2', message: 'Select a field' },
      ]);
    });

    it('takes a static value from the component example', () => {
      const p = withComponent('BODY', { text: 'Hi {{1}}!', example: { body_text: [['Ana']] } });
      p.static_variables = {};
      expect(fields(p)).toEqual([]);
    });

    it('refuses a variable at the very start or end, as Meta does at creation (2388299)', () => {
      const edge = {
        field: 'body.text',
        message: "Body text can't start or end with a variable: add words before or after it",
      };
      expect(fields(withComponent('BODY', { text: '{{1}}, your order {{2}} is ready.' }))).toEqual([edge]);
      expect(fields(withComponent('BODY', { text: 'Hi {{1}}, your order is {{2}} \n' }))).toEqual([edge]);
      expect(fields(withComponent('BODY', { text: ' \n{{1}} ordered {{2}}' }))).toEqual([edge]);
      expect(fields(withComponent('BODY', { text: 'Hi {{1}}, your order {{2}} is ready' }))).toEqual([]);
      // Braces that are not a variable are text.
      expect(fields(withComponent('BODY', { text: '{x} Hi {{1}}, order {{2}} {y}' }))).toEqual([]);
    });
  });

  describe('footer', () => {
    it('≤ 60 characters, no variables', () => {
      expect(fields(withComponent('FOOTER', { text: 'x'.repeat(61) }))).toEqual([
        { field: 'footer.text', message: 'Footer text cannot exceed 60 characters' },
      ]);
      expect(fields(withComponent('FOOTER', { text: 'Bye {{1}}' }))).toEqual([
        { field: 'footer.text', message: 'Footer text cannot contain variables' },
      ]);
      expect(fields(withComponent('FOOTER', { text: '' }))).toEqual([
        { field: 'footer.text', message: 'Footer text is required' },
      ]);
      expect(fields(withComponent('FOOTER', null))).toEqual([]);
    });
  });

  describe('buttons', () => {
    const buttons = (list: unknown) => withComponent('BUTTONS', { buttons: list });
    const quick = (text = 'OK') => ({ type: 'QUICK_REPLY', text });
    const url = (u = 'https://example.com/a') => ({ type: 'URL', text: 'Open', url: u });
    const phone = { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001111' };

    it('at most 10, 1 phone number, 2 URLs', () => {
      expect(fields(buttons(Array.from({ length: 11 }, () => quick())))).toEqual([
        { field: 'buttons', message: 'Maximum 10 buttons allowed' },
      ]);
      expect(fields(buttons([phone, phone]))).toEqual([
        { field: 'buttons', message: 'Only one phone number button allowed' },
      ]);
      expect(fields(buttons([url(), url(), url()]))).toEqual([
        { field: 'buttons', message: 'Maximum 2 URL buttons allowed' },
      ]);
    });

    it('quick replies are grouped', () => {
      expect(fields(buttons([quick(), url(), quick()]))).toEqual([
        { field: 'buttons', message: 'Quick reply buttons must be grouped together' },
      ]);
      expect(fields(buttons([url(), quick(), quick(), phone]))).toEqual([]);
    });

    it('button text: required, ≤ 25', () => {
      expect(fields(buttons([quick(''), quick('x'.repeat(26)), quick('x'.repeat(25))]))).toEqual([
        { field: 'buttons.0.text', message: 'Button text is required' },
        { field: 'buttons.1.text', message: 'Button text cannot exceed 25 characters' },
      ]);
    });

    it('types, URLs, examples and phone numbers', () => {
      expect(
        fields(
          buttons([
            { type: 'COPY_CODE', text: 'x' },
            url('https://example.com/{{1}}/x'),
            url('https://example.com/{{1}}'),
            { type: 'PHONE_NUMBER', text: 'Call' },
            'junk',
          ]),
        ),
      ).toEqual([
        { field: 'buttons.0.type', message: 'Button type must be QUICK_REPLY, URL or PHONE_NUMBER' },
        { field: 'buttons.1.url', message: 'A dynamic URL can have one variable, {{1}}, at its end' },
        { field: 'buttons.2.example', message: 'An example value is required for a dynamic URL' },
        { field: 'buttons.3.phone_number', message: 'Phone number is required' },
        { field: 'buttons.4.type', message: 'Button type must be QUICK_REPLY, URL or PHONE_NUMBER' },
      ]);
    });

    it('refuses a non-list', () => {
      expect(fields(buttons({}))).toEqual([{ field: 'buttons', message: 'Buttons must be a list' }]);
    });
  });
});

describe('readVariableMap', () => {
  it('reads the object and list forms', () => {
    expect([...readVariableMap({ '1': 'a', '2': 3 })]).toEqual([
      ['1', 'a'],
      ['2', '3'],
    ]);
    expect([...readVariableMap([{ '1': 'a' }, { '2': 'b' }, null, { '1': 'c' }])]).toEqual([
      ['1', 'c'],
      ['2', 'b'],
    ]);
    expect(readVariableMap('x').size).toBe(0);
  });
});

describe('resolveVariableExamples', () => {
  it('uses static values, examples, then the preview sample of a dynamic column', () => {
    const p = validPayload();
    (p.components as Components)[1] = { type: 'BODY', text: 'Hi {{1}}, {{2}} and {{3}}' };
    p.dynamic_variables = {
      header_variable: { '1': 'name' },
      body_variable: { '2': 'post_code', '3': 'tier' },
    };
    expect(resolveVariableExamples(p)).toEqual({ header: 'Ana', body: ['Ana', '10001', 'tier example'] });
    expect(resolveVariableExamples(42)).toEqual({ header: null, body: [] });
  });
});

describe('validateTemplatePayload properties', () => {
  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(Array.isArray(validateTemplatePayload(value))).toBe(true);
        resolveVariableExamples(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on payload-shaped JSON with arbitrary parts', () => {
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const component = fc.record(
      {
        type: fc.oneof(fc.constantFrom('HEADER', 'BODY', 'FOOTER', 'BUTTONS'), anyJson),
        format: fc.oneof(fc.constantFrom('TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'), anyJson),
        text: fc.oneof(fc.string(), anyJson),
        example: anyJson,
        buttons: fc.oneof(
          fc.array(
            fc.record(
              {
                type: fc.oneof(fc.constantFrom('QUICK_REPLY', 'URL', 'PHONE_NUMBER'), anyJson),
                text: anyJson,
                url: fc.oneof(fc.constant('https://x.com/{{1}}'), anyJson),
                example: anyJson,
                phone_number: anyJson,
              },
              { requiredKeys: [] },
            ),
          ),
          anyJson,
        ),
      },
      { requiredKeys: ['type'] },
    );
    const payload = fc.record(
      {
        name: anyJson,
        language: anyJson,
        category: anyJson,
        components: fc.oneof(fc.array(component, { maxLength: 6 }), anyJson),
        dynamic_variables: anyJson,
        static_variables: anyJson,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(payload, fc.boolean(), (value, hasHeaderFile) => {
        const errors = validateTemplatePayload(value, { hasHeaderFile });
        for (const e of errors) {
          expect(typeof e.field).toBe('string');
          expect(typeof e.message).toBe('string');
        }
        resolveVariableExamples(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on JSON parsed from text, __proto__ keys included', () => {
    const parsed = JSON.parse(
      '{"__proto__":{"x":1},"name":"a","components":[{"type":"BODY","text":"{{1}}"}],' +
        '"static_variables":{"body_variable":{"__proto__":"v","constructor":"c"}}}',
    ) as unknown;
    expect(validateTemplatePayload(parsed)).toContainEqual({
      field: 'body.variables.1',
      message: 'Variable value is required',
    });
  });
});
