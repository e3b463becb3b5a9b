import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateDeploy } from '../src/index.js';
import { createTempDatabase, withClient, type TempDatabase } from './database.js';

const migrationsDir = join(dirname(dirname(fileURLToPath(import.meta.url))), 'prisma/migrations');
const MIGRATION = /_organizations$/;

/**
 * The organisations migration on a database holding data written before it: every project lands
 * in a personal organisation of its owner and every member keeps exactly the access they had.
 */
describe('migration: organisations', () => {
  let db: TempDatabase;
  let before: string;

  beforeAll(async () => {
    db = await createTempDatabase();
    before = await mkdtemp(join(tmpdir(), 'memtrail-migrations-'));
    const names = (await readdir(migrationsDir)).sort();
    const index = names.findIndex((name) => MIGRATION.test(name));
    expect(index).toBeGreaterThan(0);
    for (const name of names.slice(0, index)) {
      await cp(join(migrationsDir, name), join(before, name), { recursive: true });
    }
    await migrateDeploy(db.url, { migrationsDir: before });
  });

  afterAll(async () => {
    await db?.drop();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('moves every project into its owner’s personal organisation and keeps every access', async () => {
    await withClient(db.url, async (client) => {
      const user = async (email: string, name: string | null) =>
        (
          await client.query<{ id: string }>(
            'INSERT INTO users (email, full_name) VALUES ($1, $2) RETURNING id',
            [email, name],
          )
        ).rows[0]!.id;
      const ada = await user('ada@example.com', 'Ada Lovelace');
      const bob = await user('bob@example.com', null);
      const eve = await user('eve@example.com', 'Eve');
      await user('nobody@example.com', 'Has no project');
      const project = async (name: string, owner: string) =>
        (
          await client.query<{ id: string }>(
            'INSERT INTO projects (name, owner_id) VALUES ($1, $2) RETURNING id',
            [name, owner],
          )
        ).rows[0]!.id;
      const engine = await project('Engine', ada);
      const loom = await project('Loom', ada);
      const radio = await project('Radio', bob);
      await client.query(
        `INSERT INTO project_members (project_id, user_id, role) VALUES
           ($1, $4, 'owner'), ($2, $4, 'owner'), ($1, $5, 'member'), ($3, $5, 'owner'),
           ($3, $6, 'owner'), ($3, $4, 'admin')`,
        [engine, loom, radio, ada, bob, eve],
      );
      await client.query(
        `INSERT INTO api_keys (project_id, public_id, secret_hash) VALUES ($1, 'aaaaaaaaaaaaaaaa', 'x')`,
        [engine],
      );

      await migrateDeploy(db.url, { migrationsDir });

      const orgs = await client.query<{ id: string; name: string; owner: string }>(
        'SELECT id, name, personal_owner_id AS owner FROM organizations ORDER BY name',
      );
      expect(orgs.rows.map((o) => [o.name, o.owner])).toEqual([
        ['Ada Lovelace', ada],
        ['bob@example.com', bob],
      ]);
      const orgOf = Object.fromEntries(orgs.rows.map((o) => [o.owner, o.id]));
      const projects = await client.query<{ id: string; organization_id: string }>(
        'SELECT id, organization_id FROM projects',
      );
      expect(Object.fromEntries(projects.rows.map((p) => [p.id, p.organization_id]))).toEqual({
        [engine]: orgOf[ada],
        [loom]: orgOf[ada],
        [radio]: orgOf[bob],
      });
      const orgMembers = await client.query(
        'SELECT organization_id, user_id, role::text FROM organization_members ORDER BY role',
      );
      expect(orgMembers.rows).toEqual(
        expect.arrayContaining([
          { organization_id: orgOf[ada], user_id: ada, role: 'owner' },
          { organization_id: orgOf[bob], user_id: bob, role: 'owner' },
        ]),
      );
      expect(orgMembers.rows).toHaveLength(2);
      // The owners' own rows became organisation roles; everybody else keeps a project override.
      const overrides = await client.query(
        'SELECT project_id, user_id, role::text FROM project_members ORDER BY role',
      );
      expect(overrides.rows).toEqual(
        expect.arrayContaining([
          { project_id: engine, user_id: bob, role: 'member' },
          { project_id: radio, user_id: eve, role: 'owner' },
          { project_id: radio, user_id: ada, role: 'admin' },
        ]),
      );
      expect(overrides.rows).toHaveLength(3);
      const key = await client.query(
        'SELECT name, scope::text, organization_id FROM api_keys WHERE project_id = $1',
        [engine],
      );
      expect(key.rows).toEqual([{ name: 'Default', scope: 'upload', organization_id: null }]);
      await expect(
        client.query(
          `INSERT INTO api_keys (public_id, secret_hash) VALUES ('bbbbbbbbbbbbbbbb', 'x')`,
        ),
      ).rejects.toThrow(/api_keys_one_owner_check/);
    });
  });
});
