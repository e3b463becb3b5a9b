-- Reports are stored once per change: each upload becomes a report version (header + record of
-- blocks), and the symbol blocks it holds are stored once per target (docs/query.md). The ingest
-- batches of the former worker are gone.

-- DropIndex
DROP INDEX "reports_ingest_batch_id_idx";

-- AlterTable
ALTER TABLE "reports" DROP COLUMN "ingest_batch_id",
DROP COLUMN "ingest_batch_version",
ALTER COLUMN "payload" DROP NOT NULL;

-- CreateTable
CREATE TABLE "report_versions" (
    "report_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "target_id" UUID NOT NULL,
    "header" BYTEA NOT NULL,
    "record" BYTEA,
    "record_base_report_id" UUID,
    "record_base_version" INTEGER,
    "record_depth" INTEGER NOT NULL DEFAULT 0,
    "base_report_id" UUID,
    "base_version" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_versions_pkey" PRIMARY KEY ("report_id","version")
);

-- CreateTable
CREATE TABLE "symbol_blocks" (
    "target_id" UUID NOT NULL,
    "hash" BYTEA NOT NULL,
    "data" BYTEA NOT NULL,
    "symbol_count" INTEGER NOT NULL,
    "in_clickhouse" BOOLEAN NOT NULL DEFAULT false,
    "write_attempts" INTEGER NOT NULL DEFAULT 0,
    "copy_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "symbol_blocks_pkey" PRIMARY KEY ("target_id","hash")
);

-- CreateTable
CREATE TABLE "block_events" (
    "target_id" UUID NOT NULL,
    "block_hash" BYTEA NOT NULL,
    "report_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "block_events_pkey" PRIMARY KEY ("target_id","block_hash","report_id","version")
);

-- CreateIndex
CREATE INDEX "report_versions_target_id_idx" ON "report_versions"("target_id");

-- CreateIndex
CREATE INDEX "block_events_report_id_version_idx" ON "block_events"("report_id", "version");

-- AddForeignKey
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "symbol_blocks" ADD CONSTRAINT "symbol_blocks_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "targets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "block_events" ADD CONSTRAINT "block_events_report_id_version_fkey" FOREIGN KEY ("report_id", "version") REFERENCES "report_versions"("report_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;


-- The blocks not copied to ClickHouse yet: small indexes however many blocks are stored, for
-- the worker (oldest first) and for history reads (a target's).
CREATE INDEX "symbol_blocks_pending_idx" ON "symbol_blocks"("created_at") WHERE NOT "in_clickhouse";
CREATE INDEX "symbol_blocks_pending_target_idx" ON "symbol_blocks"("target_id") WHERE NOT "in_clickhouse";

-- Every stored value here is already compressed (gzip or deflate): skip TOAST's compression.
ALTER TABLE "report_versions" ALTER COLUMN "header" SET STORAGE EXTERNAL,
ALTER COLUMN "record" SET STORAGE EXTERNAL;
ALTER TABLE "symbol_blocks" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- Reports stored before: their ClickHouse rows are in the former tables, which the ClickHouse
-- migration of the same release drops. They become pending again; the worker's sweeper finds
-- them, and the worker turns each payload into a version and blocks, then ingests it
-- (docs/operations.md, "Upgrading"). Totals, series and commit pages stay readable meanwhile.
UPDATE "reports" SET "status" = 'pending', "ingested_version" = NULL, "updated_at" = now()
WHERE "status" = 'ingested';
