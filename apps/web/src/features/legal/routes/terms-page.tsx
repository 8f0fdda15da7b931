import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';
import { LegalText } from '../components/legal-text';

export function TermsPage() {
  return (
    <AuthCard
      title="Terms of Service"
      subtitle="The terms that apply when you use Herald with your WhatsApp Business accounts."
      footer={<TextLink to="/signup">Back to sign up</TextLink>}
    >
      <LegalText>
        <p>
          Herald lets you manage contacts and message templates and send broadcasts from your own WhatsApp
          Business accounts. Messages are sent through Meta&apos;s WhatsApp Cloud API on your behalf, so
          Meta&apos;s WhatsApp Business terms and messaging policies apply to everything you send.
        </p>
        <p>
          You may only message people who agreed to hear from you, and you must honour opt-outs. You are
          responsible for the contacts you import and for the content of your templates and broadcasts.
        </p>
        <p>
          Keep your password and your PIN private: together with your e-mail they give access to your account.
          You can disconnect a WhatsApp Business account from Meta&apos;s Business Manager at any time.
        </p>
        <p>
          Herald is provided as is. We may suspend an account that is used for spam or abuse of the WhatsApp
          platform.
        </p>
      </LegalText>
    </AuthCard>
  );
}
