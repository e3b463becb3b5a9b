import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { GatewayConfig } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link, logged instead of mailed when no SMTP server is configured. */
  link: string;
}

/**
 * Sends mail over SMTP (`SMTP_URL`). Without it, messages are not sent: their links are written
 * to the log so development and on-premises trials still work end to end.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | null;

  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {
    this.transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.warn(
        `SMTP_URL is not set, mail not sent. To ${message.to}: "${message.subject}" ${message.link}`,
      );
      return;
    }
    try {
      await this.transport.sendMail({
        from: this.config.MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    } catch (error) {
      throw new Error(
        `sending "${message.subject}" to ${message.to} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
