/**
 * What a template is made of, in a few words per component, in Meta's order: 'Header (image)', 'Body',
 * 'Footer', 'Buttons (2)'. The Templates list shows it under 'Components'. A component type Meta adds later
 * shows under its own name ('Carousel').
 */
export function summariseComponents(components: unknown): string[] {
  if (!Array.isArray(components)) return [];
  return components.flatMap((component: unknown) => {
    if (typeof component !== 'object' || component === null) return [];
    const { type, format, buttons, cards } = component as {
      type?: unknown;
      format?: unknown;
      buttons?: unknown;
      cards?: unknown;
    };
    if (typeof type !== 'string' || type === '') return [];
    const name = sentenceCase(type);
    if (typeof format === 'string' && format !== '') return [`${name} (${format.toLowerCase()})`];
    if (Array.isArray(buttons)) return [`${name} (${buttons.length})`];
    if (Array.isArray(cards)) return [`${name} (${cards.length})`];
    return [name];
  });
}

function sentenceCase(word: string): string {
  const spaced = word.replace(/_/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
