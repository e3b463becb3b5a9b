import { Module, type DynamicModule } from '@nestjs/common';
import { QueryConfig } from './config.js';
import { PingController } from './health/ping.controller.js';
import { InfraModule } from './infra/infra.module.js';
import { ReadsModule } from './reads/reads.module.js';

@Module({})
export class AppModule {
  static register(config: QueryConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfraModule.register(config), ReadsModule],
      controllers: [PingController],
    };
  }
}
