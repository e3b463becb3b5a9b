-- Public projects, the linked GitHub repository and keyless uploads (see schema.prisma).
ALTER TABLE "projects" ADD COLUMN "public" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "github_repository" TEXT,
ADD COLUMN "github_repository_id" BIGINT,
ADD COLUMN "tokenless_uploads" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "oidc_uploads" BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX "projects_github_repository_idx" ON "projects"("github_repository");
