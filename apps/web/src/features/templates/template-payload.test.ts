import { describe, expect, it } from 'vitest';
import { validateTemplatePayload } from '@herald/contracts';
import type { TemplateDetail } from '@herald/contracts';
import { formStateFromDetail, initialFormState } from './template-form-state';
import { buildTemplatePayload, templateFormData } from './template-payload';

function detailWith(
  components: TemplateDetail['components'],
  extra: Partial<TemplateDetail> = {},
): TemplateDetail {
  return {
    name: 'stored',
    language: 'fr',
    category: 'MARKETING',
    components,
    dynamic_variables: {},
    static_variables: {},
    media_url: null,
    ...extra,
  };
}

describe('template payload', () => {
  it('round-trips document, location and video headers through the form state', () => {
    const cases: TemplateDetail['components'][] = [
      [
        { type: 'HEADER', format: 'DOCUMENT', example: { filename: 'price list.pdf' } },
        { type: 'BODY', text: 'See attached' },
      ],
      [
        {
          type: 'HEADER',
          format: 'LOCATION',
          example: { location: { name: 'Store', address: '1 High St' } },
        },
        { type: 'BODY', text: 'Visit us' },
      ],
      [
        { type: 'HEADER', format: 'VIDEO' },
        { type: 'BODY', text: 'Watch' },
      ],
    ];
    for (const components of cases) {
      const payload = buildTemplatePayload(formStateFromDetail(detailWith(components)));
      expect(payload.components).toEqual(components);
      expect(payload.language).toBe('fr');
    }
  });

  it("keeps an edited marketing template's time-to-live, and drops it once the category is no longer marketing", () => {
    const state = formStateFromDetail(
      detailWith([{ type: 'BODY', text: 'Sale' }], { message_send_ttl_seconds: 43_200 }),
    );
    expect(state.timeToLiveSeconds).toBe(43_200);
    expect(buildTemplatePayload(state).message_send_ttl_seconds).toBe(43_200);
    expect(buildTemplatePayload({ ...state, selectedCategory: 'UTILITY' })).not.toHaveProperty(
      'message_send_ttl_seconds',
    );
    expect(formStateFromDetail(detailWith([{ type: 'BODY', text: 'Sale' }])).timeToLiveSeconds).toBeNull();
  });

  it("reads the header's format in any case and falls back to the edit defaults", () => {
    const state = formStateFromDetail(
      detailWith(
        [
          { type: 'HEADER', format: 'image' },
          { type: 'BODY', text: 'Hi' },
        ],
        {
          language: 'xx_YY',
          category: 'SOMETHING',
        },
      ),
    );
    expect(state.headerType).toBe('image');
    expect(state.selectedLanguage).toBe('en');
    expect(state.selectedCategory).toBe('MARKETING');
  });

  it('sends header_file only for a media header with a chosen file', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const state = { ...initialFormState(), headerContent: { ...initialFormState().headerContent, file } };
    expect(templateFormData(buildTemplatePayload(state), state).get('header_file')).toBeNull();
    const image = { ...state, headerType: 'image' as const };
    expect(templateFormData(buildTemplatePayload(image), image).get('header_file')).not.toBeNull();
  });

  it('builds payloads the shared rules accept once the form is complete', () => {
    const state = {
      ...initialFormState(),
      templateName: 'welcome',
      headerType: 'text' as const,
      headerText: 'Hi {{1}}',
      isDynamicHeader: true,
      headerColumn: 'name',
      bodyText: 'Welcome {{1}}, glad to have you',
      bodyParams: [
        { text: '', isDynamic: true, column: 'email', exampleMode: 'default' as const, example: '' },
      ],
    };
    const payload = buildTemplatePayload(state);
    expect(validateTemplatePayload(payload)).toEqual([]);
    expect(payload.components[0]).toEqual({
      type: 'HEADER',
      format: 'TEXT',
      text: 'Hi {{1}}',
      example: { header_text: ['John Doe'] },
    });
  });
});
