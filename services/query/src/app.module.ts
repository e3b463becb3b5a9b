import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MessageVerifier } from '@memtrail/rpc-auth';
import { QueryConfig } from './config.js';
import { PingController } from './health/ping.controller.js';
import { InfraModule } from './infra/infra.module.js';
import { ReadsModule } from './reads/reads.module.js';
import { SignedMessagesGuard } from './signed-messages.guard.js';

@Module({})
export class AppModule {
  static register(config: QueryConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfraModule.register(config), ReadsModule],
      controllers: [PingController],
      providers: [
        {
          provide: APP_GUARD,
          useFactory: () => new SignedMessagesGuard(new MessageVerifier(config.QUERY_SECRET)),
        },
      ],
    };
  }
}
