-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "ingested_version" INTEGER;
