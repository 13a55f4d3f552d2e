import { type MailMessage, oneLine } from '#app/platform';

/** The outbox key of a user's warning for one due date: sent once per due_on, again for a new one. */
export const warningMailKey = (userId: number, dueOn: string) => `retention-warning-${userId}-${dueOn}`;

export interface WarningMailInput {
  readonly to: string;
  readonly userName: string;
  readonly organisationName: string;
  readonly dueOn: string;
}

/** Fourteen days ahead (docs/privacy.md#retention): the date, and how to keep the account. */
export function warningMail({ to, userName, organisationName, dueOn }: WarningMailInput): MailMessage {
  const text = [
    `Hello ${oneLine(userName)},`,
    '',
    `You have not used your account with ${oneLine(organisationName)} for a long time. Under the`,
    `organisation's data retention setting it will be anonymised on ${dueOn}: your name, e-mail`,
    'address, phone and the texts you wrote will be removed for good.',
    '',
    'To keep your account, log in before that date.',
    '',
  ].join('\n');
  return { to, subject: `Your account will be anonymised on ${dueOn}`, text };
}
