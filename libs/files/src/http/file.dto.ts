import type { RawQuery } from '#app/platform';

/** The query of a signed download: each part of the signature, '' when missing (the signer refuses it). */
export class SignedContentQuery {
  readonly variant!: string;
  readonly expires!: string;
  readonly signature!: string;

  static fromQuery(query: RawQuery): SignedContentQuery {
    const part = (name: string) => (query[name] === undefined ? '' : String(query[name]));
    return { variant: part('variant'), expires: part('expires'), signature: part('signature') };
  }
}
