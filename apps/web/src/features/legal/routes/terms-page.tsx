import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';

export function TermsPage() {
  return (
    <AuthCard
      title="Terms of Service"
      subtitle="The terms that apply when you use Herald with your WhatsApp Business accounts."
      footer={<TextLink to="/signup">Back to sign up</TextLink>}
    />
  );
}
