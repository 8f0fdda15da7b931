import { describe, expect, it } from 'vitest';
import { maskSecretsInText } from './log-redaction';

describe('maskSecretsInText', () => {
  it('masks secret query values and credentials, keeping the rest of the text', () => {
    expect(
      maskSecretsInText(
        '/v21.0/oauth/access_token?client_id=app&client_secret=s&code=AQx&fb_exchange_token=EAA1',
      ),
    ).toBe(
      '/v21.0/oauth/access_token?client_id=app&client_secret=[REDACTED]&code=[REDACTED]&fb_exchange_token=[REDACTED]',
    );
    expect(maskSecretsInText('/debug_token?input_token=EAA2&access_token=EAA3#x')).toBe(
      '/debug_token?input_token=[REDACTED]&access_token=[REDACTED]#x',
    );
    expect(maskSecretsInText('Authorization: Bearer abc.def-ghi and OAuth EAAxyz')).toBe(
      'Authorization: Bearer [REDACTED] and OAuth [REDACTED]',
    );
  });

  it('leaves keys that only end like a secret key, and text without secrets, alone', () => {
    expect(maskSecretsInText('/contacts?zip_code=1000&page=2')).toBe('/contacts?zip_code=1000&page=2');
    expect(maskSecretsInText('/broadcast/create/?search=pin')).toBe('/broadcast/create/?search=pin');
  });
});
