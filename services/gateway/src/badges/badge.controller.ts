import { createHash } from 'node:crypto';
import { Controller, Get, HttpException, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { operations } from '@memtrail/contracts/schemas';
import { parseInput } from '../http/input.js';
import { badgeJson, badgeSvg, errorJson, errorSvg } from './badge-content.js';
import { BadgeService } from './badge.service.js';

/** Short, so a README shows a new footprint within a minute; ETags make revalidation cheap. */
export const BADGE_MAX_AGE_S = 60;

const FILE = /^(.+)\.(svg|json)$/;

/**
 * `GET /badge/{project}/{target}.svg?region=FLASH[&branch=main]`: "FLASH | 44.1 % · 113 KiB",
 * coloured by the region's budgets; `.json` answers shields.io's endpoint schema. Public
 * projects only: any other project answers "not found", exactly as a missing one does.
 */
@Controller('badge')
export class BadgeController {
  constructor(private readonly badges: BadgeService) {}

  @Get(':project/:file')
  async badge(
    @Param('project') projectId: string,
    @Param('file') file: string,
    @Query() query: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const match = FILE.exec(file);
    const format = match?.[2] === 'json' ? 'json' : 'svg';
    let status = 200;
    let body: string;
    try {
      if (!match) throw new HttpException('not found', 404);
      // Parsed here, so a bad parameter is a badge saying so, like any other error.
      const q = parseInput(operations['GET /badge/{project}/{file}'].query, query);
      const region = await this.badges.region({
        projectId,
        target: match[1]!,
        region: q.region,
        branch: q.branch,
      });
      body =
        format === 'svg' ? badgeSvg(region) : JSON.stringify(badgeJson(region, BADGE_MAX_AGE_S));
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      status = error.getStatus();
      const message = error.message;
      body = format === 'svg' ? errorSvg(message) : JSON.stringify(errorJson(message));
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    res
      .status(status)
      .type(format === 'svg' ? 'image/svg+xml' : 'application/json')
      .set({
        // An error may be gone the next moment (a project made public, a first upload).
        'Cache-Control': status === 200 ? `public, max-age=${BADGE_MAX_AGE_S}` : 'no-store',
        ETag: etag,
        'X-Content-Type-Options': 'nosniff',
        // Opened on its own, the SVG may not run or load anything.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.send(body);
  }
}
