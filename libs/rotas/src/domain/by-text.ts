/**
 * Names compare case-insensitively: lower case, then code points, so both database modes and every
 * locale agree (the views, the rota lists, the hours report).
 */
export const byText = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};
