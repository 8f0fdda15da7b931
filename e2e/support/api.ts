import type { StackView } from './stack';

/** Direct API calls for test setup, so each spec drives in the browser only the flow it is about. */
export async function apiLogin(stack: StackView, email: string, password: string): Promise<string> {
  const response = await fetch(`${stack.url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

export async function importContacts(stack: StackView, token: string, csv: string, tag: string) {
  const form = new FormData();
  form.append('tag', tag);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const response = await fetch(`${stack.url}/recipient/import/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`import failed: ${response.status} ${await response.text()}`);
}

/** Creates a template and waits until the sandbox's review webhook has approved it. */
export async function createApprovedTemplate(
  stack: StackView,
  token: string,
  payload: object,
): Promise<number> {
  const response = await fetch(`${stack.url}/meta/templates/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (response.status !== 201)
    throw new Error(`template failed: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: number };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const detail = (await (
      await fetch(`${stack.url}/meta/templates/${id}/`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { status: string };
    if (detail.status === 'APPROVED') return id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the template was not approved in time');
}
