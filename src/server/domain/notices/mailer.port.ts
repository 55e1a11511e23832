/** A mail to one person. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. `List-Unsubscribe`. */
  headers: Record<string, string>;
};

/** What the notices need of a mail server. Throws when the server refuses or cannot be reached. */
export type Mailer = {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};
