import { Module } from '@nestjs/common';
import { ApiKeyManagementModule } from '../api-keys/api-key-management.module.js';
import { MailModule } from '../mail/mail.module.js';
import {
  InvitationsController,
  OrganizationInvitationsController,
} from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';
import { OrganizationTokensController } from './organization-tokens.controller.js';
import { OrganizationsController } from './organizations.controller.js';
import { OrganizationsService } from './organizations.service.js';

@Module({
  imports: [MailModule, ApiKeyManagementModule],
  controllers: [
    OrganizationsController,
    OrganizationInvitationsController,
    InvitationsController,
    OrganizationTokensController,
  ],
  providers: [OrganizationsService, InvitationsService],
  exports: [InvitationsService],
})
export class OrganizationsModule {}
