import { coreUrl, deploymentMode } from '../config.ts';
import { createCloudAuth } from './cloudAuth.ts';
import { createOnpremAuth } from './onpremAuth.ts';
import type { AuthBackend } from './types.ts';

/** The one auth backend of this page, chosen by deployment mode (spec §1). */
export const authBackend: AuthBackend =
  deploymentMode === 'onprem'
    ? createOnpremAuth({ coreUrl, storage: window.localStorage })
    : createCloudAuth({ coreUrl, storage: window.localStorage });
