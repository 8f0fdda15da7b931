import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';

export function ForgotPasswordPage() {
  return (
    <AuthCard
      title="Forgot password"
      subtitle="Reset your password with your e-mail and the PIN you saved at sign-up."
      footer={<TextLink to="/">Back to sign in</TextLink>}
    />
  );
}
