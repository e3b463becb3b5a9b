import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GatewayConfig } from '../config.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitService } from './rate-limit.service.js';

@Module({
  providers: [RateLimitService, RateLimitGuard],
  exports: [RateLimitService, RateLimitGuard],
})
export class RateLimitModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** Per-IP limits need the client's address, which behind a proxy is in X-Forwarded-For. */
  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter?.getInstance() as
      { set?: (name: string, value: unknown) => void } | undefined;
    app?.set?.('trust proxy', this.config.TRUST_PROXY_HOPS);
  }
}
