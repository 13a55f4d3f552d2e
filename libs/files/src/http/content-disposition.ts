/**
 * `Content-Disposition: inline` with the original name (RFC 6266): a plain-ASCII `filename` for
 * old clients, and the exact name in `filename*` (RFC 5987). Written here rather than taken from
 * the content-disposition package: its ESM-only v3 cannot be loaded both by @fastify/static's
 * require() and by our modules under Jest on Node 20.
 */
export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
