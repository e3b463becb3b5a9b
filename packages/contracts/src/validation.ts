/**
 * Input rules of product spec §5, shared by the web forms and the server so both reject the same
 * input with the same words. Pure functions only: no DOM, no dependencies.
 */

export const LIMITS = {
  projectNameMin: 2,
  projectNameMax: 100,
  projectDescriptionMax: 500,
  passwordMin: 8,
  passwordMax: 128,
  emailMax: 254,
  searchMax: 200,
  fullNameMax: 100,
} as const;

export const VALIDATION_MESSAGES = {
  projectName:
    'Project name must be 2-100 characters and contain only letters, numbers, spaces, hyphens, underscores, and periods',
  projectDescription: 'Project description cannot exceed 500 characters',
  email: 'Please enter a valid email address',
  password:
    'Password must be 8-128 characters with at least one lowercase, uppercase, number, and special character',
  passwordRequired: 'Password is required',
  passwordsDoNotMatch: 'Passwords do not match',
  fullNameRequired: 'Full name is required',
  fullNameTooLong: 'Full name cannot exceed 100 characters',
  searchQuery:
    'Search query must contain only letters, numbers, spaces, hyphens, underscores, and periods',
  required: 'This field is required',
  invalidFormat: 'Invalid format',
} as const;

export const minLengthMessage = (n: number) => `Must be at least ${n} characters`;
export const maxLengthMessage = (n: number) => `Cannot exceed ${n} characters`;

const NAME_PATTERN = /^[A-Za-z0-9 ._-]+$/;
// One local part, an @, and a dotted domain: the "{email} shape" of the spec, no spaces anywhere.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Spec §5 constrains only the first character to letters, digits and the special set; later
// characters may be anything (spaces, other symbols) as long as each class appears somewhere.
const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]/;

/** A failed rule yields its message; a passing value yields null. */
export type ValidationResult = string | null;

/** Generic rule for any field: required, length bounds, optional pattern (spec §5 "generic"). */
export function validateField(
  value: string,
  rules: { required?: boolean; min?: number; max?: number; pattern?: RegExp },
): ValidationResult {
  const trimmed = value.trim();
  if (!trimmed) return rules.required ? VALIDATION_MESSAGES.required : null;
  if (rules.min !== undefined && trimmed.length < rules.min) return minLengthMessage(rules.min);
  if (rules.max !== undefined && trimmed.length > rules.max) return maxLengthMessage(rules.max);
  if (rules.pattern && !rules.pattern.test(trimmed)) return VALIDATION_MESSAGES.invalidFormat;
  return null;
}

export function validateProjectName(name: string): ValidationResult {
  const trimmed = name.trim();
  const ok =
    trimmed.length >= LIMITS.projectNameMin &&
    trimmed.length <= LIMITS.projectNameMax &&
    NAME_PATTERN.test(trimmed);
  return ok ? null : VALIDATION_MESSAGES.projectName;
}

export function validateProjectDescription(description: string | undefined): ValidationResult {
  return (description ?? '').trim().length > LIMITS.projectDescriptionMax
    ? VALIDATION_MESSAGES.projectDescription
    : null;
}

/** Emails are compared after the cleaning the spec asks for: trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function validateEmail(email: string): ValidationResult {
  const normalized = normalizeEmail(email);
  const ok = normalized.length <= LIMITS.emailMax && EMAIL_PATTERN.test(normalized);
  return ok ? null : VALIDATION_MESSAGES.email;
}

/** Sign-up strength rule; sign in only needs a password to be present. */
export function validatePassword(password: string, purpose: 'signup' | 'signin'): ValidationResult {
  if (purpose === 'signin') return password ? null : VALIDATION_MESSAGES.passwordRequired;
  if (!password) return VALIDATION_MESSAGES.passwordRequired;
  const ok =
    password.length >= LIMITS.passwordMin &&
    password.length <= LIMITS.passwordMax &&
    PASSWORD_PATTERN.test(password);
  return ok ? null : VALIDATION_MESSAGES.password;
}

export function validateConfirmPassword(password: string, confirm: string): ValidationResult {
  return password === confirm ? null : VALIDATION_MESSAGES.passwordsDoNotMatch;
}

export function validateFullName(fullName: string): ValidationResult {
  const trimmed = fullName.trim();
  if (!trimmed) return VALIDATION_MESSAGES.fullNameRequired;
  if (trimmed.length > LIMITS.fullNameMax) return VALIDATION_MESSAGES.fullNameTooLong;
  return null;
}

/** An empty search is allowed (no filter); anything else must be a plain 1-200 char query. */
export function validateSearchQuery(query: string): ValidationResult {
  const trimmed = query.trim();
  if (!trimmed) return null;
  return trimmed.length <= LIMITS.searchMax && NAME_PATTERN.test(trimmed)
    ? null
    : VALIDATION_MESSAGES.searchQuery;
}

/** Removes script blocks, HTML tags and stray angle brackets, then trims (spec §5 cleaning). */
export function sanitizeText(input: string): string {
  return input
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/[<>]/g, '')
    .trim();
}

/** Project names and search queries keep only word characters, spaces, '-', '_' and '.'. */
export function sanitizeName(input: string): string {
  return sanitizeText(input).replace(/[^\w\s.-]/g, '');
}

export type PasswordStrengthLevel = 'weak' | 'medium' | 'strong';

export interface PasswordStrength {
  /** 0-6: one point per rule met, plus one for 12 or more characters. */
  score: number;
  level: PasswordStrengthLevel;
  /** Hints for the rules not yet met, in the spec's order. */
  feedback: string[];
}

export const STRENGTH_HINTS = {
  length: 'Use at least 8 characters',
  lowercase: 'Include lowercase letters',
  uppercase: 'Include uppercase letters',
  digit: 'Include numbers',
  special: 'Include special characters (@$!%*?&)',
} as const;

export function passwordStrength(password: string): PasswordStrength {
  if (!password) {
    return { score: 0, level: 'weak', feedback: [VALIDATION_MESSAGES.passwordRequired] };
  }
  const checks: Array<[boolean, string]> = [
    [password.length >= LIMITS.passwordMin, STRENGTH_HINTS.length],
    [/[a-z]/.test(password), STRENGTH_HINTS.lowercase],
    [/[A-Z]/.test(password), STRENGTH_HINTS.uppercase],
    [/\d/.test(password), STRENGTH_HINTS.digit],
    [/[@$!%*?&]/.test(password), STRENGTH_HINTS.special],
  ];
  const score = checks.filter(([met]) => met).length + (password.length >= 12 ? 1 : 0);
  const level: PasswordStrengthLevel = score <= 2 ? 'weak' : score <= 4 ? 'medium' : 'strong';
  return { score, level, feedback: checks.filter(([met]) => !met).map(([, hint]) => hint) };
}
