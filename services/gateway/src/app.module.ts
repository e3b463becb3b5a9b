import { Module, type DynamicModule } from '@nestjs/common';
import { GatewayConfig } from './config.js';
import { HealthModule } from './health/health.module.js';
import { InfraModule } from './infra/infra.module.js';

@Module({})
export class AppModule {
  static register(config: GatewayConfig): DynamicModule {
    return { module: AppModule, imports: [InfraModule.register(config), HealthModule] };
  }
}
