/**
 * Limits on the shape of a JSON body, checked on the raw text before `JSON.parse`: a body may be
 * small in bytes and still cost seconds downstream (class-transformer recursed through 500,000
 * nested arrays until the stack overflowed; class-validator listed 60,000 unknown keys one by
 * one). No honest body of this API comes near these numbers: the widest is the organisation
 * update (about 100 fields), the deepest a bulk body of objects holding `{ id }` references.
 */
export interface JsonLimits {
  readonly depth: number;
  readonly keys: number;
  readonly elements: number;
}

export const JSON_LIMITS: JsonLimits = {
  /** Nesting of objects and arrays; `{"a":{"b":1}}` is 2. */
  depth: 16,
  /** Keys of one object. */
  keys: 256,
  /** Elements of one array. */
  elements: 1000,
};

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Why the text breaks a limit, or null when it keeps them all. One pass, no allocation beyond a
 * stack as deep as the limit, and it stops at the first breach, so a hostile body costs
 * microseconds per kilobyte. Malformed JSON is left for `JSON.parse` to refuse; this only counts
 * brackets and commas outside strings.
 */
export function jsonShapeBreach(text: string, limits: JsonLimits = JSON_LIMITS): string | null {
  // isObject[d] and count[d] describe the open container at depth d (1-based).
  const isObject: boolean[] = [];
  const count: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    switch (c) {
      case QUOTE:
        if (depth > 0 && count[depth] === 0) count[depth] = 1;
        inString = true;
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (depth > 0 && count[depth] === 0) count[depth] = 1;
        if (++depth > limits.depth) return `The JSON body is nested deeper than ${limits.depth} levels.`;
        isObject[depth] = c === OPEN_OBJECT;
        count[depth] = 0;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        depth--;
        break;
      case COMMA:
        if (depth > 0 && ++count[depth]! > (isObject[depth] ? limits.keys : limits.elements)) {
          return isObject[depth]
            ? `A JSON object in the body has more than ${limits.keys} keys.`
            : `A JSON array in the body has more than ${limits.elements} elements.`;
        }
        break;
      case SPACE:
      case TAB:
      case LF:
      case CR:
        break;
      default:
        // A container's first value (a number, true, false, null): from here on `count` is the
        // number of values seen, commas + 1.
        if (depth > 0 && count[depth] === 0) count[depth] = 1;
    }
  }
  return null;
}
