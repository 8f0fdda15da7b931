import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderRoute, signedIn } from '../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../test/fetch-stub';
import { breadcrumbTrail } from './breadcrumb-trail';

function crumbs(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
  return within(nav)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('breadcrumbTrail (screens by name, not path segments)', () => {
  it('names every screen of the app', () => {
    const labels = (path: string, names = {}) => breadcrumbTrail(path, names).map((c) => c.label);
    expect(labels('/dashboard')).toEqual(['Dashboard']);
    expect(labels('/customers')).toEqual(['Customers']);
    expect(labels('/customers/segments')).toEqual(['Customers', 'Segments']);
    expect(labels('/template')).toEqual(['Templates']);
    expect(labels('/template/create-template')).toEqual(['Templates', 'Create Template']);
    expect(labels('/templates/1')).toEqual(['Templates', 'Template']);
    expect(labels('/templates/1', { template: 'summer_sale' })).toEqual(['Templates', 'summer_sale']);
    expect(labels('/broadcast')).toEqual(['Broadcasts']);
    expect(labels('/broadcast/new')).toEqual(['Broadcasts', 'New Broadcast']);
    expect(labels('/broadcast/12')).toEqual(['Broadcasts', 'Delivery Report']);
    expect(labels('/number')).toEqual(['WhatsApp Numbers']);
    expect(labels('/settings')).toEqual(['Settings']);
    expect(breadcrumbTrail('/template/create-template')[0]).toEqual({ label: 'Templates', to: '/template' });
  });
});

describe('Breadcrumb in the layout', () => {
  it("shows 'Home › Templates › Create Template', the earlier screens as links", async () => {
    stubFetch(() => json({ detail: 'Not found' }, 404));
    renderRoute('/template/create-template', { preloadedState: signedIn });
    await screen.findByRole('heading', { level: 1 });
    expect(crumbs()).toEqual(['Home', 'Templates', 'Create Template']);
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(nav).getByRole('link', { name: 'Templates' }).getAttribute('href')).toBe('/template');
    expect(within(nav).getByText('Create Template').getAttribute('aria-current')).toBe('page');
  });

  it("shows the edited template's name once it has loaded, 'Template' before", async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch((request) => {
      if (pathOf(request) === '/meta/templates/7/')
        return new Promise<Response>((resolve) => (answer = resolve));
      if (pathOf(request) === '/recipient/cols') return json(['name']);
      return json({ detail: 'Not found' }, 404);
    });
    renderRoute('/templates/7', { preloadedState: signedIn });
    await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs()).toEqual(['Home', 'Templates', 'Template']);
    answer(
      json({
        id: 7,
        template_id: 'meta-7',
        status: 'APPROVED',
        rejected_reason: null,
        name: 'order_ready',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Your order is ready.' }],
        dynamic_variables: {},
        static_variables: {},
        media_url: null,
      }),
    );
    await screen.findByText('order_ready', { selector: '[aria-current="page"]' });
    expect(crumbs()).toEqual(['Home', 'Templates', 'order_ready']);
  });
});
