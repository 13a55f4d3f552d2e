/**
 * Whether a message has someone to go to. An anonymised user's address and phone are null (or
 * blank) in the read tables a job builds its message from: the message is then dropped, never
 * sent, whatever the builder's types say.
 */
export function nonBlank(to: string | null | undefined): to is string {
  return typeof to === 'string' && to.trim() !== '';
}
