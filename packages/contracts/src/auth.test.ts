import { describe, expect, it } from 'vitest';
import {
  AccountChangeRequestSchema,
  ConnectAccountRequestSchema,
  LoginRequestSchema,
  PasswordResetRequestSchema,
  RefreshRequestSchema,
  SignupRequestSchema,
} from './auth';
import { TemplateDeleteRequestSchema } from './templates/schemas';

const huge = 'x'.repeat(100_000);

/** The path of the first issue, as the server's 400 names its field. */
function refusedField(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  body: unknown,
) {
  const result = schema.safeParse(body);
  expect(result.success).toBe(false);
  return (result.error as { issues: Array<{ path: PropertyKey[] }> }).issues.map((issue) =>
    issue.path.join('.'),
  );
}

describe('every string a client sends has a ceiling', () => {
  const signup = {
    code: 'abc',
    waba_id: '1',
    phone_number_id: '2',
    email: 'a@b.co',
    password: 'correct horse',
  };

  it.each([
    ['sign-up code', SignupRequestSchema, { ...signup, code: huge }, 'code'],
    [
      'sign-up account_data id',
      SignupRequestSchema,
      { ...signup, account_data: { business_id: huge } },
      'account_data.business_id',
    ],
    ['sign-up waba_id', SignupRequestSchema, { ...signup, waba_id: '1'.repeat(100_000) }, 'waba_id'],
    ['sign-up pin', SignupRequestSchema, { ...signup, pin: '1'.repeat(100_000) }, 'pin'],
    [
      'connect code',
      ConnectAccountRequestSchema,
      { payload: { code: huge, account_data: { waba_id: '1', phone_number_id: '2' } } },
      'payload.code',
    ],
    ['login password', LoginRequestSchema, { username: 'a@b.co', password: huge }, 'password'],
    ['refresh token', RefreshRequestSchema, { refresh: huge }, 'refresh'],
    [
      'reset pin',
      PasswordResetRequestSchema,
      { email: 'a@b.co', pin: huge, new_password: 'correct horse' },
      'pin',
    ],
    [
      'reset e-mail',
      PasswordResetRequestSchema,
      { email: `${huge}@b.co`, pin: '123456', new_password: 'correct horse' },
      'email',
    ],
    [
      'account email_code',
      AccountChangeRequestSchema,
      { current_password: 'x', email: 'a@b.co', email_code: huge },
      'email_code',
    ],
    [
      'template name to delete',
      TemplateDeleteRequestSchema,
      { template_id: '1', template_name: huge },
      'template_name',
    ],
  ])('refuses a 100,000-character %s, naming it', (_name, schema, body, field) => {
    expect(refusedField(schema, body)).toContain(field);
  });
});
