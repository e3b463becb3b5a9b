import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  QueryPatterns,
  type DiffExportRequest,
  type ExportReply,
  type ReportExportRequest,
} from '@memtrail/contracts';
import { ExportService } from './export.service.js';

/** Exports: a file (name, type, text) the gateway sends as an attachment. */
@Controller()
export class ExportsController {
  constructor(@Inject(ExportService) private readonly exportService: ExportService) {}

  @MessagePattern(QueryPatterns.reportExport)
  reportExport(@Payload() req: ReportExportRequest): Promise<ExportReply> {
    return this.exportService.report(req);
  }

  @MessagePattern(QueryPatterns.diffExport)
  diffExport(@Payload() req: DiffExportRequest): Promise<ExportReply> {
    return this.exportService.diff(req);
  }
}
