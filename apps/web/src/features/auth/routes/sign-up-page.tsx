import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';

export function SignUpPage() {
  return (
    <AuthCard
      title="Create your account"
      subtitle="Link your WhatsApp Business account to get started."
      footer={
        <>
          Already have an account? <TextLink to="/">Sign in</TextLink>
        </>
      }
    />
  );
}
