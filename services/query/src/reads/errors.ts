import { RpcException } from '@nestjs/microservices';
import type { QueryErrorReply } from '@memtrail/contracts';

/** The gateway answers these with 404 / 400 in the envelope (see QueryErrorReply). */
export function notFound(message: string): RpcException {
  return new RpcException({
    status: 404,
    type: 'NotFoundError',
    message,
  } satisfies QueryErrorReply);
}

export function badRequest(message: string): RpcException {
  return new RpcException({
    status: 400,
    type: 'BadRequestError',
    message,
  } satisfies QueryErrorReply);
}
