/** An e-mail address as mail servers and libraries quote them in their errors (`<ada@example.org>`, `ada@example.org`). */
const EMAIL = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[^\s<>()[\]"',;:]+/g;

/**
 * `text` with each e-mail address replaced by `<address>`: the log holds ids, never a user's
 * personal data (docs/privacy.md). For messages the service does not write itself (an SMTP
 * server's refusal names its recipient), before they are logged.
 */
export function withoutAddresses(text: string): string {
  return text.replace(EMAIL, '<address>');
}
