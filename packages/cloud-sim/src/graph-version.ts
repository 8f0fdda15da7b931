// Graph serves every version at once (/v18.0/…, /v21.0/…) and also accepts unversioned paths.
const VERSION_PREFIX = /^\/v\d+\.\d+(?=\/|\?|$)/;

/** The path routes are matched against: the URL without its Graph version prefix. */
export function stripGraphVersion(url: string): string {
  const stripped = url.replace(VERSION_PREFIX, '');
  return stripped === '' || stripped.startsWith('?') ? `/${stripped}` : stripped;
}
