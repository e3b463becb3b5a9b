import { BadRequestException } from '@nestjs/common';
import {
  normalizeEmail,
  validateEmail,
  validateFullName,
  validatePassword,
  VALIDATION_MESSAGES,
} from '@memtrail/contracts';

/**
 * Request bodies checked with the same rules and words as the web forms (spec §5). The first
 * failing rule answers 400 before anything is written.
 */
type Body = Record<string, unknown> | undefined;

const field = (body: Body, key: string): string => {
  const value = body?.[key];
  return typeof value === 'string' ? value : '';
};

function check(problem: string | null): void {
  if (problem) throw new BadRequestException(problem);
}

export function emailInput(body: Body): string {
  const email = field(body, 'email');
  check(validateEmail(email));
  return normalizeEmail(email);
}

export function newPasswordInput(body: Body): string {
  const password = field(body, 'password');
  check(validatePassword(password, 'signup'));
  return password;
}

/** The current password, as typed (passwords are never trimmed). */
export function currentPasswordInput(body: Body): string {
  const password = field(body, 'current_password');
  if (!password) throw new BadRequestException(`current_password: ${VALIDATION_MESSAGES.required}`);
  return password;
}

export function requiredInput(body: Body, key: string): string {
  const value = field(body, key).trim();
  if (!value) throw new BadRequestException(`${key}: ${VALIDATION_MESSAGES.required}`);
  return value;
}

export interface SignUpInput {
  email: string;
  password: string;
  fullName: string | null;
  metadata: Record<string, unknown>;
}

/** Full name is optional (the on-premises call sends none) but checked whenever it is sent. */
export function signUpInput(body: Body): SignUpInput {
  const email = emailInput(body);
  const password = newPasswordInput(body);
  const data = body?.data;
  const metadata =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  const rawName = body?.full_name ?? metadata.full_name;
  let fullName: string | null = null;
  if (rawName !== undefined) {
    const name = typeof rawName === 'string' ? rawName : '';
    check(validateFullName(name));
    fullName = name.trim();
  }
  const { full_name: _ignored, ...rest } = metadata;
  return { email, password, fullName, metadata: rest };
}

export function signInInput(body: Body): { email: string; password: string } {
  const email = emailInput(body);
  const password = field(body, 'password');
  check(validatePassword(password, 'signin'));
  return { email, password };
}
