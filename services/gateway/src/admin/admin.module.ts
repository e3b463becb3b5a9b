import { Module } from '@nestjs/common';
import { UploadModule } from '../upload/upload.module.js';
import { AdminController } from './admin.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DeadLettersService } from './dead-letters.service.js';

@Module({
  imports: [UploadModule],
  controllers: [AdminController],
  providers: [AdminTokenGuard, DeadLettersService],
})
export class AdminModule {}
