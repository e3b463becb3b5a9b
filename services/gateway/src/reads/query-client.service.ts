import {
  BadRequestException,
  GatewayTimeoutException,
  HttpException,
  InternalServerErrorException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { isQueryErrorReply } from '@memtrail/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { GatewayConfig } from '../config.js';

/**
 * Sends one read to the query service and turns its failures into HTTP errors: its 400/404
 * replies keep their message; a timeout is a 504 and an unreachable service a 503, so an
 * outage never looks like an empty result.
 */
@Injectable()
export class QueryClient {
  private readonly logger = new Logger(QueryClient.name);

  constructor(
    @Inject(ClientProxy) private readonly query: ClientProxy,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async send<T>(pattern: string, payload: object): Promise<T> {
    try {
      return await firstValueFrom(
        this.query.send<T>(pattern, payload).pipe(timeout(this.config.QUERY_TIMEOUT_MS)),
      );
    } catch (error) {
      throw this.translate(pattern, error);
    }
  }

  private translate(pattern: string, error: unknown): HttpException {
    if (isQueryErrorReply(error)) {
      return error.status === 404
        ? new NotFoundException(error.message)
        : new BadRequestException(error.message);
    }
    if (error instanceof TimeoutError) {
      return new GatewayTimeoutException(
        `The query service did not answer ${pattern} within ${this.config.QUERY_TIMEOUT_MS} ms`,
      );
    }
    const message = (error as { message?: unknown })?.message;
    const code = (error as { code?: unknown })?.code;
    if (typeof code === 'string' && /^E(CONNREFUSED|CONNRESET|PIPE|HOSTUNREACH)$/.test(code)) {
      return new ServiceUnavailableException(`The query service is unreachable (${code})`);
    }
    this.logger.error(`${pattern} failed in the query service: ${String(message ?? error)}`);
    return new InternalServerErrorException(`The query service failed to answer ${pattern}`);
  }
}
