import type { TemplateListItem } from '@herald/contracts';

/** A list item as GET /meta/templates/ answers it. */
export function listItem(id: number, overrides: Partial<TemplateListItem> = {}): TemplateListItem {
  return {
    id,
    template_id: `meta-${id}`,
    template_name: `template_${id}`,
    category: 'MARKETING',
    language_code: 'en_US',
    status: 'APPROVED',
    rejected_reason: null,
    last_updated_time: '2025-01-15T10:30:00.000Z',
    quality_score: { score: 'GREEN', date: 1736937000 },
    components: ['Body'],
    ...overrides,
  };
}

export function listPage(results: TemplateListItem[], count = results.length, page = 1) {
  return {
    count,
    currentPage: page,
    next: page * 10 < count ? `http://localhost/meta/templates/?page=${page + 1}` : null,
    previous: page > 1 ? `http://localhost/meta/templates/?page=${page - 1}` : null,
    results,
  };
}
