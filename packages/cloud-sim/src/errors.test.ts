import { describe, expect, it } from 'vitest';
import { GraphError, graphErrorBody, invalidAccessToken, pinMismatch, unsupportedRequest } from './errors';

describe('graphErrorBody', () => {
  it('builds Meta envelope without optional members when absent', () => {
    expect(graphErrorBody(new GraphError(400, 1, 'Error validating client secret.'), 'TRACE')).toEqual({
      error: {
        message: 'Error validating client secret.',
        type: 'OAuthException',
        code: 1,
        fbtrace_id: 'TRACE',
      },
    });
  });

  it('carries the subcode and WhatsApp error_data when given', () => {
    expect(graphErrorBody(pinMismatch(), 'T').error).toMatchObject({
      code: 133005,
      error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
    });
    expect(graphErrorBody(unsupportedRequest('POST', '42'), 'T').error).toMatchObject({
      code: 100,
      error_subcode: 33,
      type: 'GraphMethodException',
      message: expect.stringMatching(/^Unsupported post request\. Object with ID '42' does not exist/),
    });
  });

  it('gives each error a fresh random fbtrace_id', () => {
    const a = graphErrorBody(invalidAccessToken(false)).error.fbtrace_id;
    const b = graphErrorBody(invalidAccessToken(false)).error.fbtrace_id;
    expect(a).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(a).not.toBe(b);
  });

  it('answers token errors with HTTP 401 and code 190', () => {
    expect(invalidAccessToken(true)).toMatchObject({
      httpStatus: 401,
      code: 190,
      message: 'Malformed access token',
    });
  });

  it("adds Meta's user-facing title and message with is_transient when given", () => {
    const error = new GraphError(400, 100, 'Invalid parameter', {
      subcode: 2388024,
      userTitle: 'T',
      userMessage: 'M',
    });
    expect(graphErrorBody(error, 'X').error).toEqual({
      message: 'Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_subcode: 2388024,
      is_transient: false,
      error_user_title: 'T',
      error_user_msg: 'M',
      fbtrace_id: 'X',
    });
  });
});
