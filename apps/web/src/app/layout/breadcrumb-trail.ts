/** One step of the breadcrumb: a screen's name, with a link unless it is the current screen. */
export type Crumb = { label: string; to?: string };

const TEMPLATES: Crumb = { label: 'Templates', to: '/template' };
const BROADCASTS: Crumb = { label: 'Broadcasts', to: '/broadcast' };

/** The top-level screens, by their path's first segment. */
const SCREENS: Record<string, string> = {
  dashboard: 'Dashboard',
  customers: 'Customers',
  template: 'Templates',
  templates: 'Templates',
  broadcast: 'Broadcasts',
  number: 'WhatsApp Numbers',
  settings: 'Settings',
};

/**
 * The screens from Home to the current one, by name (not the raw path segments, 'templates › 1').
 * `names.template` is the name of the template being edited, once it has loaded.
 */
export function breadcrumbTrail(pathname: string, names: { template?: string } = {}): Crumb[] {
  const [first, second] = pathname.split('/').filter(Boolean);
  if (!first) return [];
  if (first === 'template' && second === 'create-template') return [TEMPLATES, { label: 'Create Template' }];
  if (first === 'templates' && second) return [TEMPLATES, { label: names.template || 'Template' }];
  if (first === 'broadcast' && second === 'new') return [BROADCASTS, { label: 'New Broadcast' }];
  if (first === 'broadcast' && second) return [BROADCASTS, { label: 'Delivery Report' }];
  if (first === 'customers' && second === 'segments')
    return [{ label: 'Customers', to: '/customers' }, { label: 'Segments' }];
  const screen = SCREENS[first];
  return screen ? [{ label: screen }] : [];
}
