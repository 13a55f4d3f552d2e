import { afterAll, afterEach, expect } from '@jest/globals';
import { formatViolations, takeViolations } from './contract-violations.js';

/**
 * Jest setupFilesAfterEnv: a test during which the service broke its OpenAPI document fails,
 * naming each violation (openapi-contract.ts records them; the boot helpers of test-app.ts and
 * test-http.ts install the check on every app they boot). Violations recorded after the last test
 * (in an afterAll) fail the file.
 */
afterEach(() => {
  const violations = takeViolations();
  if (violations.length) throw new Error(formatViolations(violations));
});

afterAll(() => {
  const violations = takeViolations();
  if (violations.length)
    throw new Error(
      `${formatViolations(violations)}\n(recorded after the last test of ${expect.getState().testPath ?? 'this file'})`,
    );
});
