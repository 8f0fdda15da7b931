import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedTemplate, DEFAULT_TEMPLATE } from '../../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../../test-support/sending-scene';
import { signedInUser } from '../../auth/auth-test-helpers';

/**
 * A category change Meta announced (template_category_update, a day ahead) applies to a broadcast that starts at
 * or after its date: the estimate is at the coming category's rates and the US marketing rule follows it; a
 * broadcast starting before the date is estimated in the current category.
 */
let scene: SendingScene;
let headers: Record<string, string>;
let template: number;

beforeAll(async () => {
  scene = await startSendingScene();
  const owner = await signedInUser(scene.t, 'coming-category@herald.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const accountId = (
    await scene.t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [
      owner.business.waba_id,
    ])
  ).rows[0].id as number;
  for (const number of ['+447911126601', '+16285556602']) {
    await scene.t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [accountId, 'Person', number],
    );
  }
  template = await createApprovedTemplate(scene.t, headers, { ...DEFAULT_TEMPLATE, name: 'order_news' });
});

afterAll(() => scene?.close());

const estimate = async (extra: object = {}) =>
  (
    await scene.t.app.inject({
      method: 'POST',
      url: '/broadcast/estimate/',
      headers,
      payload: { template_id: template, recipients: { type: 'all', percentage: 100 }, ...extra },
    })
  ).json() as { template_category: string; recipients: number; us_numbers: number };

describe('a category change Meta announced', () => {
  it('prices a broadcast starting after its date in the coming category, one starting before in the current', async () => {
    const inTwoDays = Math.floor(Date.now() / 1000) + 2 * 86_400;
    expect(await estimate()).toMatchObject({ template_category: 'UTILITY', us_numbers: 0 });

    await scene.t.db.pool.query(
      `update templates set pending_category = 'MARKETING', pending_category_at = now() + interval '1 day'
        where id = $1`,
      [template],
    );
    // Before the date: the current category.
    expect(await estimate()).toMatchObject({ template_category: 'UTILITY', recipients: 2 });
    // After it: marketing rates, and the +1 number counted as one a marketing template does not reach.
    expect(await estimate({ scheduled_time: inTwoDays })).toMatchObject({
      template_category: 'MARKETING',
      us_numbers: 1,
    });
    expect(await estimate({ scheduled_time: inTwoDays, leave_out_us_numbers: true })).toMatchObject({
      template_category: 'MARKETING',
      recipients: 1,
    });

    // Meta gave no date: the change is coming now.
    await scene.t.db.pool.query('update templates set pending_category_at = null where id = $1', [template]);
    expect(await estimate()).toMatchObject({ template_category: 'MARKETING' });
  });

  it('refuses a scheduled time that is not Unix seconds, naming the field', async () => {
    const response = await scene.t.app.inject({
      method: 'POST',
      url: '/broadcast/estimate/',
      headers,
      payload: {
        template_id: template,
        recipients: { type: 'all', percentage: 100 },
        scheduled_time: 'soon',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('scheduled_time');
  });
});
