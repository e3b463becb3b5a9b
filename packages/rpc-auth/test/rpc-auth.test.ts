import { describe, expect, it } from '@jest/globals';
import { MessageVerifier, signMessage, SIGNATURE_WINDOW_MS } from '@memtrail/rpc-auth';

const SECRET = 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(16);

describe('signed query messages', () => {
  const pattern = 'reads.report';
  const data = { projectId: 'p1', target: 'board', sha: 'abc' };

  it('accepts a message signed with the shared secret, once', () => {
    const verifier = new MessageVerifier(SECRET);
    const signature = signMessage(SECRET, pattern, data);
    expect(verifier.problem(pattern, data, signature)).toBeNull();
    expect(verifier.problem(pattern, data, signature)).toContain('replay');
    // The same message signed again is a new message.
    expect(verifier.problem(pattern, data, signMessage(SECRET, pattern, data))).toBeNull();
  });

  it('refuses unsigned, altered, foreign and stale messages', () => {
    const verifier = new MessageVerifier(SECRET);
    const signature = signMessage(SECRET, pattern, data);
    expect(verifier.problem(pattern, data, undefined)).toBe('the message is not signed');
    expect(verifier.problem(pattern, { ...data, projectId: 'p2' }, signature)).toContain(
      'does not match',
    );
    expect(verifier.problem('reads.commits', data, signature)).toContain('does not match');
    expect(verifier.problem(pattern, data, signMessage(`${SECRET}x`, pattern, data))).toContain(
      'does not match',
    );
    const old = signMessage(SECRET, pattern, data, Date.now() - SIGNATURE_WINDOW_MS - 1000);
    expect(verifier.problem(pattern, data, old)).toBe('the signature is too old');
    expect(
      verifier.problem(
        pattern,
        data,
        `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
      ),
    ).toContain('does not match');
  });
});
