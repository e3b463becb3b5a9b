import { STORAGE_KEYS } from '../storageKeys.ts';
import type { AuthSession, AuthUser, StorageLike } from './types.ts';

/** On-premises session in three storage keys: access token, refresh token, user JSON (spec §3). */
export class TokenStore {
  constructor(private readonly storage: StorageLike) {}

  read(): AuthSession | null {
    const accessToken = this.storage.getItem(STORAGE_KEYS.accessToken);
    const userJson = this.storage.getItem(STORAGE_KEYS.user);
    if (!accessToken || !userJson) return null;
    let user: AuthUser;
    try {
      user = JSON.parse(userJson) as AuthUser;
    } catch {
      // A corrupt user entry cannot describe a session; drop it rather than fail every load.
      this.clear();
      return null;
    }
    const refreshToken = this.storage.getItem(STORAGE_KEYS.refreshToken) ?? undefined;
    return { user, access_token: accessToken, refresh_token: refreshToken };
  }

  refreshToken(): string | null {
    return this.storage.getItem(STORAGE_KEYS.refreshToken);
  }

  write(session: AuthSession): void {
    this.storage.setItem(STORAGE_KEYS.accessToken, session.access_token);
    if (session.refresh_token) {
      this.storage.setItem(STORAGE_KEYS.refreshToken, session.refresh_token);
    }
    this.storage.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  }

  clear(): void {
    this.storage.removeItem(STORAGE_KEYS.accessToken);
    this.storage.removeItem(STORAGE_KEYS.refreshToken);
    this.storage.removeItem(STORAGE_KEYS.user);
  }
}
