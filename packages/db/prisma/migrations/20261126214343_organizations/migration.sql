-- Organisations own projects. Every existing project moves into a personal organisation of the
-- user who created it (its owner), who becomes that organisation's owner. The other members of a
-- project keep exactly the access they had, as project overrides (project_members), so nobody
-- gains access to a project they could not see before. Roles gain "viewer" and are ordered
-- weakest first, so SQL can compare them.

-- CreateEnum
CREATE TYPE "member_role" AS ENUM ('viewer', 'member', 'admin', 'owner');

-- CreateEnum
CREATE TYPE "api_key_scope" AS ENUM ('upload', 'read');

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "personal_owner_id" UUID,
    "audit_retention_days" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_members" (
    "organization_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "member_role" NOT NULL DEFAULT 'member',
    "source" TEXT NOT NULL DEFAULT 'manual',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_members_pkey" PRIMARY KEY ("organization_id","user_id")
);

-- Data: one personal organisation per project owner, named after them.
INSERT INTO "organizations" ("name", "personal_owner_id")
SELECT COALESCE(NULLIF(BTRIM(u."full_name"), ''), u."email"), u."id"
FROM "users" u
WHERE EXISTS (SELECT 1 FROM "projects" p WHERE p."owner_id" = u."id");

INSERT INTO "organization_members" ("organization_id", "user_id", "role", "source")
SELECT o."id", o."personal_owner_id", 'owner', 'created'
FROM "organizations" o;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN "organization_id" UUID,
ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
UPDATE "projects" p SET "organization_id" = o."id"
FROM "organizations" o WHERE o."personal_owner_id" = p."owner_id";
ALTER TABLE "projects" ALTER COLUMN "organization_id" SET NOT NULL;

-- AlterTable: the old roles map by name; the owner's own row is now the organisation role.
ALTER TABLE "project_members"
  ALTER COLUMN "role" DROP DEFAULT,
  ALTER COLUMN "role" TYPE "member_role" USING ("role"::text::"member_role"),
  ALTER COLUMN "role" SET DEFAULT 'member';
DELETE FROM "project_members" m USING "projects" p
WHERE p."id" = m."project_id" AND p."owner_id" = m."user_id" AND m."role" = 'owner';

-- DropEnum
DROP TYPE "project_role";

-- AlterTable: a key belongs to a project, or (CI tokens) to an organisation.
ALTER TABLE "api_keys" ADD COLUMN     "created_by" UUID,
ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_ip" TEXT,
ADD COLUMN     "last_user_agent" TEXT,
ADD COLUMN     "name" TEXT NOT NULL DEFAULT 'Default',
ADD COLUMN     "organization_id" UUID,
ADD COLUMN     "scope" "api_key_scope" NOT NULL DEFAULT 'upload',
ALTER COLUMN "project_id" DROP NOT NULL;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_one_owner_check"
  CHECK (num_nonnulls("project_id", "organization_id") = 1);

-- CreateTable
CREATE TABLE "invitations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "project_id" UUID,
    "email" TEXT NOT NULL,
    "role" "member_role" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_connections" (
    "organization_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_sealed" TEXT NOT NULL,
    "domains" TEXT[],
    "enforced" BOOLEAN NOT NULL DEFAULT false,
    "groups_claim" TEXT NOT NULL DEFAULT 'groups',
    "group_roles" JSONB NOT NULL DEFAULT '[]',
    "default_role" "member_role" DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_connections_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "api_key_addresses" (
    "api_key_id" UUID NOT NULL,
    "ip" TEXT NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_addresses_pkey" PRIMARY KEY ("api_key_id","ip")
);

-- CreateTable
CREATE TABLE "project_favourites" (
    "user_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_favourites_pkey" PRIMARY KEY ("user_id","project_id")
);

-- CreateTable
CREATE TABLE "target_favourites" (
    "user_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "target_favourites_pkey" PRIMARY KEY ("user_id","target_id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" UUID NOT NULL,
    "project_id" UUID,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "action" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_personal_owner_id_key" ON "organizations"("personal_owner_id");

-- CreateIndex
CREATE INDEX "organization_members_user_id_idx" ON "organization_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_organization_id_email_idx" ON "invitations"("organization_id", "email");

-- CreateIndex
CREATE INDEX "invitations_email_idx" ON "invitations"("email");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_created_at_idx" ON "audit_events"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_action_created_at_idx" ON "audit_events"("organization_id", "action", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");

-- CreateIndex
CREATE INDEX "projects_organization_id_name_idx" ON "projects"("organization_id", "name");

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_personal_owner_id_fkey" FOREIGN KEY ("personal_owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_fkey" FOREIGN KEY ("invited_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_addresses" ADD CONSTRAINT "api_key_addresses_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_favourites" ADD CONSTRAINT "project_favourites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_favourites" ADD CONSTRAINT "project_favourites_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "target_favourites" ADD CONSTRAINT "target_favourites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "target_favourites" ADD CONSTRAINT "target_favourites_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "targets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

