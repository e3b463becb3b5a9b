import { describe, expect, it } from '@jest/globals';
import { isSerialized, serialized, success, successJson } from '../src/index.js';

describe('the success envelope around serialised data', () => {
  it.each([
    ['an object', { symbols: [{ name: 'main', size: 4 }], note: 'quote " and \u2028' }],
    ['an array', [1, 2.5, null]],
    ['a string', 'text'],
    ['null', null],
  ])('is the text of the envelope built from the data: %s', (_, data) => {
    const text = successJson(serialized(data).json);
    expect(text).toBe(JSON.stringify(success(data)));
    expect(JSON.parse(text)).toEqual(success(data));
  });

  it('tells a serialised answer from data sent as it is', () => {
    expect(isSerialized(serialized({ heads: [] }))).toBe(true);
    for (const data of [
      { heads: [] },
      { json: '{}' },
      { serialized: 'yes', json: '{}' },
      [],
      null,
      'text',
    ])
      expect(isSerialized(data)).toBe(false);
  });
});
