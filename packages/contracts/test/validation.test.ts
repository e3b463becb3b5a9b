import { describe, expect, it } from '@jest/globals';
import {
  passwordStrength,
  sanitizeName,
  sanitizeText,
  validateConfirmPassword,
  validateEmail,
  validateField,
  validateFullName,
  validatePassword,
  validateProjectDescription,
  validateProjectName,
  validateSearchQuery,
  VALIDATION_MESSAGES as M,
} from '@memtrail/contracts';

describe('project name and description', () => {
  it('accepts 2-100 letters, digits, spaces, hyphens, underscores and periods', () => {
    expect(validateProjectName('ab')).toBeNull();
    expect(validateProjectName('Motor controller_v2.1-rc')).toBeNull();
    expect(validateProjectName('x'.repeat(100))).toBeNull();
  });

  it('rejects short, long and other characters with the spec message', () => {
    for (const bad of ['', 'a', ' a ', 'x'.repeat(101), 'fw/main', 'fw<script>', 'naïve']) {
      expect(validateProjectName(bad)).toBe(M.projectName);
    }
  });

  it('limits the optional description to 500 characters', () => {
    expect(validateProjectDescription(undefined)).toBeNull();
    expect(validateProjectDescription('d'.repeat(500))).toBeNull();
    expect(validateProjectDescription('d'.repeat(501))).toBe(
      'Project description cannot exceed 500 characters',
    );
  });
});

describe('email', () => {
  it('checks the shape after trimming and lowercasing, up to 254 characters', () => {
    expect(validateEmail('  Dev@Example.COM ')).toBeNull();
    expect(validateEmail(`${'a'.repeat(240)}@example.com`)).toBeNull();
    expect(validateEmail(`${'a'.repeat(243)}@example.com`)).toBe(M.email);
    for (const bad of ['', 'dev', 'dev@', 'dev@example', 'd ev@example.com', '@example.com']) {
      expect(validateEmail(bad)).toBe('Please enter a valid email address');
    }
  });
});

describe('password', () => {
  it('sign up needs 8-128 characters with each class and an allowed first character', () => {
    expect(validatePassword('Abcdefg1!', 'signup')).toBeNull();
    expect(validatePassword(`A1!${'a'.repeat(125)}`, 'signup')).toBeNull();
    expect(validatePassword(`A1!${'a'.repeat(126)}`, 'signup')).toBe(M.password);
    expect(validatePassword('Abcde1!', 'signup')).toBe(M.password);
    expect(validatePassword('abcdefg1!', 'signup')).toBe(M.password);
    expect(validatePassword('ABCDEFG1!', 'signup')).toBe(M.password);
    expect(validatePassword('Abcdefgh!', 'signup')).toBe(M.password);
    expect(validatePassword('Abcdefgh1', 'signup')).toBe(M.password);
    // Only the first character is restricted to the allowed set.
    expect(validatePassword(' Abcdefg1!', 'signup')).toBe(M.password);
    expect(validatePassword('Abc defg1!#', 'signup')).toBeNull();
    expect(validatePassword('', 'signup')).toBe('Password is required');
  });

  it('sign in only needs a password', () => {
    expect(validatePassword('x', 'signin')).toBeNull();
    expect(validatePassword('', 'signin')).toBe('Password is required');
  });

  it('confirmation must equal the password', () => {
    expect(validateConfirmPassword('Abcdefg1!', 'Abcdefg1!')).toBeNull();
    expect(validateConfirmPassword('Abcdefg1!', 'Abcdefg1')).toBe('Passwords do not match');
  });
});

describe('full name and search', () => {
  it('full name is required, trimmed, at most 100 characters', () => {
    expect(validateFullName('Ada Lovelace')).toBeNull();
    expect(validateFullName('   ')).toBe('Full name is required');
    expect(validateFullName('')).toBe('Full name is required');
    expect(validateFullName(` ${'n'.repeat(100)} `)).toBeNull();
    expect(validateFullName('n'.repeat(101))).toBe('Full name cannot exceed 100 characters');
  });

  it('search is optional, up to 200 plain characters', () => {
    expect(validateSearchQuery('')).toBeNull();
    expect(validateSearchQuery('motor_foc.step-2')).toBeNull();
    expect(validateSearchQuery('q'.repeat(201))).toBe(M.searchQuery);
    expect(validateSearchQuery('a*b')).toBe(
      'Search query must contain only letters, numbers, spaces, hyphens, underscores, and periods',
    );
  });

  it('generic rules give the generic messages', () => {
    expect(validateField('', { required: true })).toBe('This field is required');
    expect(validateField('', {})).toBeNull();
    expect(validateField('ab', { min: 3 })).toBe('Must be at least 3 characters');
    expect(validateField('abcd', { max: 3 })).toBe('Cannot exceed 3 characters');
    expect(validateField('abc', { pattern: /^\d+$/ })).toBe('Invalid format');
  });
});

describe('input cleaning', () => {
  it('removes script blocks, tags and angle brackets and trims', () => {
    expect(sanitizeText('  <script>alert(1)</script>Ada <b>L</b> >x< ')).toBe('Ada L x');
    expect(sanitizeText('<img src=x onerror=alert(1)>name')).toBe('name');
  });

  it('names keep only word characters, spaces, hyphens, underscores and periods', () => {
    expect(sanitizeName(' fw/main (v2.1)_rc-1! ')).toBe('fwmain v2.1_rc-1');
  });
});

describe('password strength', () => {
  it('scores one point per rule plus one for 12+ characters', () => {
    expect(passwordStrength('')).toEqual({
      score: 0,
      level: 'weak',
      feedback: ['Password is required'],
    });
    expect(passwordStrength('abc')).toEqual({
      score: 1,
      level: 'weak',
      feedback: [
        'Use at least 8 characters',
        'Include uppercase letters',
        'Include numbers',
        'Include special characters (@$!%*?&)',
      ],
    });
    expect(passwordStrength('abcdefgh').score).toBe(2);
    expect(passwordStrength('Abcdefgh').level).toBe('medium');
    expect(passwordStrength('Abcdefg1')).toMatchObject({ score: 4, level: 'medium' });
    expect(passwordStrength('Abcdefg1!')).toEqual({ score: 5, level: 'strong', feedback: [] });
    expect(passwordStrength('Abcdefg1!xyz')).toMatchObject({ score: 6, level: 'strong' });
    expect(passwordStrength('ABCDEFGHIJKL').feedback).toEqual([
      'Include lowercase letters',
      'Include numbers',
      'Include special characters (@$!%*?&)',
    ]);
  });
});
