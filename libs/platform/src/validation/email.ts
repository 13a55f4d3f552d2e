/** A local part of at most 64 characters, an @, a domain with a dot; no white space. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

/**
 * The service's one e-mail address check for text it stores or sends to (organisation settings,
 * the finance address a claim is submitted to): at most 254 characters, the shape above.
 */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
