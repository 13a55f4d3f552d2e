import type { FieldErrors } from '../errors/domain-error.js';

/**
 * Text PostgreSQL cannot store: NUL (text and jsonb refuse U+0000) and a surrogate without its
 * partner (not a character at all, so it has no UTF-8 form). Without the `u` flag the pattern
 * sees UTF-16 code units, which is what lets it find a lone half; a pair (an emoji) is fine.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

export const unstorableTextMessage = (path: string) =>
  `The ${path} field contains a NUL character or an unpaired surrogate, which cannot be stored.`;

/**
 * Every string (and object key) of a parsed JSON body or query that cannot be stored, by field
 * path (`name`, `type.id`, `expenses.1.id`). Walks with its own stack, so a deeply nested body
 * cannot exhaust the call stack.
 */
export function unstorableTextIn(value: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) errors[path || 'body'] = [unstorableTextMessage(path || 'body')];
    } else if (current && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) errors[childPath] = [unstorableTextMessage(childPath)];
        else stack.push([child, childPath]);
      }
    }
  }
  return errors;
}
