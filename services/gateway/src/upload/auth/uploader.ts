import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { StorePolicy } from '../report-store.js';
import type { ValidUpload } from '../validate-upload.js';

/** A project, and what an upload to it may do. */
export interface UploadGrant {
  projectId: string;
  /** The upload as it is stored: a pull request's upload carries what GitHub says of the PR. */
  upload: ValidUpload;
  policy: StorePolicy;
}

/**
 * Who is uploading, as UploadAuthGuard found before the body is decoded. Tokenless uploads
 * name their pull request inside the body, so what an upload may do is decided only once it
 * is decoded, by `authorize`, which throws the 4xx the client gets.
 */
export interface Uploader {
  /** Its counter of UPLOAD_RATE_LIMIT_PER_MINUTE; null when the uploader limits itself. */
  rateLimit: { subject: string; what: string } | null;
  authorize(upload: ValidUpload): Promise<UploadGrant>;
}

type RequestWithUploader = Request & { uploader?: Uploader };

export function setUploader(req: Request, uploader: Uploader): void {
  (req as RequestWithUploader).uploader = uploader;
}

/** The uploader UploadAuthGuard accepted; only valid on routes behind that guard. */
export function uploaderOf(req: Request): Uploader {
  const uploader = (req as RequestWithUploader).uploader;
  if (!uploader) throw new Error('uploaderOf: the route is not guarded by UploadAuthGuard');
  return uploader;
}

/** Parameter decorator: `@UploaderOf() uploader: Uploader`. */
export const UploaderOf = createParamDecorator((_: unknown, context: ExecutionContext) =>
  uploaderOf(context.switchToHttp().getRequest<Request>()),
);

/** A project key may do everything an upload can. */
export const KEY_HOLDER_POLICY: StorePolicy = { replace: true, createTarget: true };

/** Pull requests' uploads add reports to existing targets, nothing else. */
export const PULL_REQUEST_POLICY: StorePolicy = { replace: false, createTarget: false };
