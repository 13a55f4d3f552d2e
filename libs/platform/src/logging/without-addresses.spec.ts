import { describe, expect, it } from '@jest/globals';
import { withoutAddresses } from './without-addresses.js';

describe('withoutAddresses', () => {
  it('replaces every e-mail address in an error message, bracketed or bare', () => {
    expect(
      withoutAddresses(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <ada.l@example.org>: unknown; bob@x.example",
      ),
    ).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: unknown; <address>");
  });

  it('leaves a message without an address as it is', () => {
    expect(withoutAddresses('job identity-messages/12 failed: connect ECONNREFUSED 127.0.0.1:25')).toBe(
      'job identity-messages/12 failed: connect ECONNREFUSED 127.0.0.1:25',
    );
  });
});
