/**
 * Violations of the OpenAPI document seen by the test server (openapiContract.ts), and the afterEach that fails
 * the test whose requests caused them (jest's setupFilesAfterEach). A server closed with violations left over
 * (requests of an afterAll) fails its close.
 */

const violations: string[] = [];

export function recordContractViolation(violation: string): void {
  violations.push(violation);
}

/** The violations seen since the last call (and forgets them). */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

export function contractError(found: string[]): Error {
  return new Error(`The service and its OpenAPI document disagree (${found.length}):\n${found.map((v) => `- ${v}`).join('\n')}`);
}

if (typeof afterEach === 'function') {
  afterEach(() => {
    const found = takeContractViolations();
    if (found.length) throw contractError(found);
  });
}
