import { signedInUser } from '../apps/server/src/features/auth/auth-test-helpers';
import type { TestApp } from './test-app';

/**
 * A business signed up and signed in (Embedded Signup against the sandbox), with `contacts` (E.164 numbers) in
 * its account as Person 1, Person 2…: the headers its requests carry, its account id and its number.
 */
export async function signedInBusiness(t: TestApp, email: string, contacts: string[] = []) {
  const owner = await signedInUser(t, email);
  const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const accountId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id as number;
  for (const [i, number] of contacts.entries()) {
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [accountId, `Person ${i + 1}`, number],
    );
  }
  return { owner, headers, accountId, phoneNumberId: owner.business.phone_number_id as string };
}
