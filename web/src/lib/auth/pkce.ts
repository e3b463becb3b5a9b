// Proof Key for Code Exchange (RFC 7636) for the OAuth redirect of cloud mode.

const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** 64 random bytes give an 86-character verifier, inside the RFC's 43-128 range. */
export function createVerifier(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(64)));
}

export async function challengeFor(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}
