/** Every line or paragraph break Unicode knows: CR LF (as one), LF, CR, VT, FF, NEL, LS, PS. */
const BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * A name (of a rota, a user, a team…) as an e-mail puts it inside one of its lines: each line
 * break becomes a space. Names are free text and may hold breaks; in the plain-text body one would
 * end the line there and start a new one the sender never wrote. Every mail builder interpolates
 * names through this.
 */
export function oneLine(name: string): string {
  return name.replace(BREAK, ' ');
}
