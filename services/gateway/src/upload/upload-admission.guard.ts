import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GatewayConfig } from '../config.js';
import { uploaderOf } from './auth/uploader.js';
import { tooLarge } from './decode/decode-upload.js';
import { UploadAdmission, type AdmissionTicket } from './upload-admission.js';

type AdmittedRequest = Request & { uploadTicket?: AdmissionTicket };

/**
 * Admits an upload into the process's budget (UploadAdmission) from its headers alone, after its
 * uploader was authenticated and before a byte of its body is read; the budget comes back once the
 * answer is sent or the client is gone.
 */
@Injectable()
export class UploadAdmissionGuard implements CanActivate {
  constructor(
    @Inject(UploadAdmission) private readonly admission: UploadAdmission,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AdmittedRequest>();
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > this.config.UPLOAD_MAX_BYTES) throw tooLarge(this.config.UPLOAD_MAX_BYTES);
    // Tokenless uploads have nobody to count them by but their address.
    const subject =
      uploaderOf(req).rateLimit?.subject ?? `ip:${req.ip ?? req.socket.remoteAddress}`;
    const ticket = this.admission.admit(subject, Number.isSafeInteger(declared) ? declared : 0);
    context.switchToHttp().getResponse<Response>().once('close', ticket.release);
    req.uploadTicket = ticket;
    return true;
  }
}

/** The ticket UploadAdmissionGuard gave the request. */
export function admissionTicket(req: Request): AdmissionTicket {
  const ticket = (req as AdmittedRequest).uploadTicket;
  if (!ticket) throw new Error('admissionTicket: the route is not guarded by UploadAdmissionGuard');
  return ticket;
}
