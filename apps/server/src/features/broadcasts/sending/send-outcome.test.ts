import { describe, expect, it } from 'vitest';
import type { Claimed } from './sender-batch';
import { classify } from './message-sender';
import { toResult } from './send-result';

const message: Claimed = {
  id: 7,
  broadcast_id: 3,
  whatsapp_number: '+447700900123',
  attempts: 1,
  contact: null,
  opted_out: false,
};

const ok = (messageStatus?: string) =>
  JSON.stringify({
    messaging_product: 'whatsapp',
    contacts: [{ input: '447700900123', wa_id: '447700900123' }],
    messages: [{ id: 'wamid.X', ...(messageStatus ? { message_status: messageStatus } : {}) }],
  });

const error = (code: number, message: string, details?: string) =>
  JSON.stringify({
    error: { message, type: 'OAuthException', code, error_data: details ? { details } : undefined },
  });

describe("classifying Meta's answer to a send", () => {
  it('tells accepted from held by template pacing (held_for_quality_assessment or paused)', () => {
    expect(classify(200, ok())).toEqual({ kind: 'accepted', wamid: 'wamid.X' });
    expect(classify(200, ok('accepted'))).toEqual({ kind: 'accepted', wamid: 'wamid.X' });
    expect(classify(200, ok('held_for_quality_assessment'))).toEqual({ kind: 'held', wamid: 'wamid.X' });
    expect(classify(200, ok('paused'))).toEqual({ kind: 'held', wamid: 'wamid.X' });
  });

  it('gives 131049 and 131026 outcomes of their own, neither failed nor retried', () => {
    const limited = classify(400, error(131049, 'This message was not delivered'));
    expect(limited).toEqual({ kind: 'limited', code: 131049, title: 'This message was not delivered' });
    expect(toResult(message, limited)).toEqual({
      id: 7,
      state: 'limited',
      code: 131049,
      title: 'This message was not delivered',
    });
    const nobody = classify(400, error(131026, 'Message undeliverable'));
    expect(toResult(message, nobody)).toMatchObject({ state: 'not_on_whatsapp', code: 131026 });
  });

  it('turns a paused or disabled template into a pause of the broadcast, with Meta’s words and no attempt spent', () => {
    const paused = classify(
      400,
      error(132015, '(#132015) Template is paused', 'Template summer_sale is paused due to low quality'),
    );
    expect(toResult(message, paused)).toEqual({
      id: 7,
      state: 'template_paused',
      broadcastId: 3,
      code: 132015,
      why: 'Template summer_sale is paused due to low quality',
    });
    // Without details, Meta's message without its "(#132016)".
    const disabled = classify(400, error(132016, '(#132016) Template is disabled'));
    expect(toResult(message, disabled)).toMatchObject({ code: 132016, why: 'Template is disabled' });
  });

  it('still retries what means "not now" and fails the rest', () => {
    expect(classify(400, error(130429, 'Rate limit hit'))).toMatchObject({ kind: 'retry', code: 130429 });
    expect(classify(400, error(132001, 'Template name does not exist'))).toMatchObject({
      kind: 'failed',
      code: 132001,
    });
  });

  it('tells WhatsApp’s servers not answering (5xx) from "not now" (130429), for the history’s reason', () => {
    expect(classify(500, error(131000, 'Something went wrong'))).toEqual({
      kind: 'retry',
      code: 131000,
      title: 'Something went wrong',
      unanswered: true,
    });
    expect(classify(503, 'Service Unavailable')).toMatchObject({ kind: 'retry', unanswered: true });
    expect(classify(400, error(130429, 'Rate limit hit'))).not.toHaveProperty('unanswered');
  });
});
