import nodemailer from "nodemailer";

// Email out through the operator's SMTP server (TRIBUTARY_SMTP_URL), with nodemailer: it speaks
// SMTP, STARTTLS and SMTPS and builds the MIME message, which is not ours to write.

export interface Mail {
  to: string;
  subject: string;
  text?: string;
  html?: string;
}

/** What became of one email: `permanent` when trying again can't help (the server said 5xx). */
export type MailOutcome = { ok: true } | { ok: false; reason: string; permanent: boolean };

export interface Mailer {
  send(mail: Mail): Promise<MailOutcome>;
  close(): void;
}

const TIMEOUT_MS = 10_000;

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 3,
  });
  return {
    async send(mail) {
      try {
        // the message is ours to build: nothing in it is read from files or URLs
        await transport.sendMail({ from, ...mail, disableFileAccess: true, disableUrlAccess: true });
        return { ok: true };
      } catch (e) {
        const err = e as Error & { responseCode?: number; code?: string };
        // the server refused this message (5xx to its envelope or data): sending it again won't
        // help. A refused login or TLS, a lost connection: the operator's to fix, tried again.
        const refused = typeof err.responseCode === "number" && err.responseCode >= 500 && (err.code === "EENVELOPE" || err.code === "EMESSAGE");
        return { ok: false, reason: err.message ?? String(e), permanent: refused };
      }
    },
    close: () => transport.close(),
  };
}
