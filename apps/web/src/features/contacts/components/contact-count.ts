/** '1 contact', '1,204 contacts'. */
export function contactCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'contact' : 'contacts'}`;
}
