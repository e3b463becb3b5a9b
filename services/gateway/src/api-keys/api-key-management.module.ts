import { Module } from '@nestjs/common';
import { KeyManagementService } from './key-management.service.js';

/** Listing, creating and revoking keys (the verifying side is the global ApiKeysModule). */
@Module({ providers: [KeyManagementService], exports: [KeyManagementService] })
export class ApiKeyManagementModule {}
