import { describe, expect, it } from '@jest/globals';
import { serialized, success } from '@memtrail/contracts';
import { EnvelopeText } from '../src/reads/envelope-text.interceptor.js';

describe('a read answer in the success envelope', () => {
  const data = { heads: [{ branch: 'main', commit_sha: 'abcd1234', note: 'a "quoted" word' }] };

  it('is the same text whether the query service serialised it or sent the data itself', () => {
    // The data itself comes from a query service of an earlier release, during a rolling upgrade.
    const expected = JSON.stringify(success(data));
    expect(EnvelopeText.of(serialized(data)).text).toBe(expected);
    expect(EnvelopeText.of(data).text).toBe(expected);
  });
});
