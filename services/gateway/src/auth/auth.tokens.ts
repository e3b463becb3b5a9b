/** Injection token of the HS256 key resolved by resolveJwtSecret(). */
export const JWT_SECRET = Symbol('JWT_SECRET');
