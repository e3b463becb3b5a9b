-- The ingest batch a report version was written to ClickHouse in (see schema.prisma).
ALTER TABLE "reports" ADD COLUMN "ingest_batch_id" UUID,
ADD COLUMN "ingest_batch_version" INTEGER;

CREATE INDEX "reports_ingest_batch_id_idx" ON "reports"("ingest_batch_id");
