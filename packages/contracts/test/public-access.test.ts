import { describe, expect, it } from '@jest/globals';
import { oidcAudience, parseGithubRepository, sameRepository } from '../src/public-access.js';

describe('parseGithubRepository', () => {
  it.each([
    ['octo/fw', 'octo/fw'],
    ['  Octo-Org/Fw.Core_2  ', 'Octo-Org/Fw.Core_2'],
    ['https://github.com/octo/fw', 'octo/fw'],
    ['https://github.com/octo/fw.git', 'octo/fw'],
    ['https://github.com/octo/fw/', 'octo/fw'],
    ['http://ghe.example.com/octo/fw.git', 'octo/fw'],
    ['git@github.com:octo/fw.git', 'octo/fw'],
    ['/octo/fw', 'octo/fw'],
  ])('reads %j as %j', (input, expected) => {
    expect(parseGithubRepository(input)).toBe(expected);
  });

  it.each([
    '',
    'octo',
    'octo/fw/extra',
    'https://github.com/octo',
    'https://github.com/octo/fw/tree/main',
    '-octo/fw',
    'octo-/fw',
    'oc--to/fw',
    `${'o'.repeat(40)}/fw`,
    `octo/${'f'.repeat(101)}`,
    'octo/..',
    'octo/.',
    'octo/f w',
    'octo/fw?x=1',
    'https://',
  ])('refuses %j', (input) => {
    expect(parseGithubRepository(input)).toBeNull();
  });
});

describe('repository names and audiences', () => {
  it('compares repositories without regard to case, as GitHub does', () => {
    expect(sameRepository('Octo/FW', 'octo/fw')).toBe(true);
    expect(sameRepository('octo/fw', 'octo/fw2')).toBe(false);
  });

  it('names the project in the OIDC audience', () => {
    expect(oidcAudience('0b5f6c2e-8a0e-4f7e-9d1a-2c3b4d5e6f70')).toBe(
      'memtrail:0b5f6c2e-8a0e-4f7e-9d1a-2c3b4d5e6f70',
    );
  });
});
