import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `kubectl kustomize <dir>` (kubectl 1.32 bundles kustomize 5.5), parsed into objects. */
export function renderKustomize(dir: string): Manifest[] {
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', join(repoRoot, dir)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT') {
      throw new Error('kubectl is not installed: the k8s tests render kustomize trees with it');
    }
    throw new Error(`kubectl kustomize ${dir} failed: ${e.stderr ?? e.message}`);
  }
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${dir}: ${doc.errors[0]!.message}`);
    return doc.toJS() as Manifest;
  });
}

/**
 * Validates one object against the Kubernetes OpenAPI schema of its kind, offline, with the
 * kubernetes-models classes (types, enums, required fields).
 */
export async function validateManifest(manifest: Manifest): Promise<void> {
  const module = (await import(
    `kubernetes-models/${manifest.apiVersion}/${manifest.kind}`
  )) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[manifest.kind];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest).validate();
}
