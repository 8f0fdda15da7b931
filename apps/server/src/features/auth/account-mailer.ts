import nodemailer, { type Transporter } from 'nodemailer';
import { HttpError } from '../../http-error';

/** Sends the account's own e-mails (the new-address confirmation, decision 064) through SMTP_URL. */
export class AccountMailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  /**
   * Sends at once, while the user waits: they are told a mail was sent, so that must be true. A refusing or
   * unreachable mail server is a 502 naming `email`, never a 500.
   */
  async send(to: string, subject: string, text: string): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to, subject, text });
    } catch {
      throw HttpError.field(
        502,
        'email',
        'The confirmation email could not be sent: the mail server did not accept it. Try again later.',
      );
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** The mailer when SMTP_URL is set; without one, no account e-mail can be sent (and none is promised). */
export function accountMailer(config: { SMTP_URL?: string; SMTP_FROM: string }): AccountMailer | null {
  return config.SMTP_URL ? new AccountMailer(config.SMTP_URL, config.SMTP_FROM) : null;
}
