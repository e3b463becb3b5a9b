import {
  normalizeEmail,
  sanitizeText,
  validateConfirmPassword,
  validateEmail,
  validateFullName,
  validatePassword,
} from '@memtrail/contracts';

// Form model of the auth screen: which fields each mode has and how they are checked (spec §5).

export type AuthMode = 'signin' | 'signup' | 'forgot';

export interface AuthFields {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type FieldName = keyof AuthFields;
export type FieldErrors = Partial<Record<FieldName, string>>;

export const EMPTY_FIELDS: AuthFields = {
  fullName: '',
  email: '',
  password: '',
  confirmPassword: '',
};

export const FIELDS_BY_MODE: Record<AuthMode, FieldName[]> = {
  signin: ['email', 'password'],
  signup: ['fullName', 'email', 'password', 'confirmPassword'],
  forgot: ['email'],
};

export function validateAuthField(mode: AuthMode, name: FieldName, fields: AuthFields) {
  switch (name) {
    case 'fullName':
      return validateFullName(fields.fullName);
    case 'email':
      return validateEmail(fields.email);
    case 'password':
      return validatePassword(fields.password, mode === 'signup' ? 'signup' : 'signin');
    case 'confirmPassword':
      return validateConfirmPassword(fields.password, fields.confirmPassword);
  }
}

export function validateAuthForm(mode: AuthMode, fields: AuthFields): FieldErrors {
  const errors: FieldErrors = {};
  for (const name of FIELDS_BY_MODE[mode]) {
    const error = validateAuthField(mode, name, fields);
    if (error) errors[name] = error;
  }
  return errors;
}

/** Values as sent: tags stripped, email lowercased and trimmed; passwords untouched. */
export function cleanAuthFields(fields: AuthFields): AuthFields {
  return {
    fullName: sanitizeText(fields.fullName),
    email: normalizeEmail(sanitizeText(fields.email)),
    password: fields.password,
    confirmPassword: fields.confirmPassword,
  };
}
