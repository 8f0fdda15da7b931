import { describe, expect, it } from 'vitest';
import { automaticVerdict } from './review-rule';

const template = (name: string, text = 'Hello') => ({ name, components: [{ type: 'BODY', text }] });

describe('automaticVerdict', () => {
  it('approves an ordinary template', () => {
    expect(automaticVerdict(template('summer_sale'))).toEqual({ status: 'APPROVED', reason: null });
  });

  it('rejects a name containing "reject" with INVALID_FORMAT', () => {
    expect(automaticVerdict(template('please_reject_me'))).toEqual({
      status: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
  });

  it('rejects a body containing REJECT_ME', () => {
    expect(automaticVerdict(template('fine_name', 'Hi REJECT_ME there'))).toEqual({
      status: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
  });

  it('takes the reason named after "reject_"', () => {
    expect(automaticVerdict(template('promo_reject_scam')).reason).toBe('SCAM');
    expect(automaticVerdict(template('reject_incorrect_category')).reason).toBe('INCORRECT_CATEGORY');
    expect(automaticVerdict(template('reject_abusive_content_2')).reason).toBe('ABUSIVE_CONTENT');
  });
});
