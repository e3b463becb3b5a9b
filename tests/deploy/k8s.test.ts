import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { renderKustomize, validateManifest, type Manifest } from './manifests.js';
import { checkServiceEnv, SERVICE_CONFIGS, type ServiceName } from './service-configs.js';

const TREES = ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'];
const SERVICES = ['gateway', 'query', 'ingest-worker'];

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  envFrom?: unknown[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
}
const podSpec = (m: Manifest) => (m.spec as { template: { spec: PodSpec } }).template.spec;

const rendered = new Map(TREES.map((tree) => [tree, renderKustomize(tree)]));

describe.each(TREES)('kustomize %s', (tree) => {
  const manifests = rendered.get(tree)!;
  const memtrail = (kind: string) =>
    manifests.filter((m) => m.kind === kind && m.metadata.name.startsWith('memtrail-'));

  it('validates every object against the Kubernetes schemas', async () => {
    expect(manifests.length).toBeGreaterThan(15);
    for (const manifest of manifests) {
      await expect(validateManifest(manifest)).resolves.toBeUndefined();
    }
  });

  it('has a Deployment, HPA and PDB per service, and a migrate Job', () => {
    for (const service of SERVICES) {
      const name = `memtrail-${service}`;
      expect(memtrail('Deployment').map((m) => m.metadata.name)).toContain(name);
      expect(memtrail('HorizontalPodAutoscaler').map((m) => m.metadata.name)).toContain(name);
      expect(memtrail('PodDisruptionBudget').map((m) => m.metadata.name)).toContain(name);
    }
    const [job] = memtrail('Job');
    expect(podSpec(job!).containers[0]!.args).toEqual(['migrate']);
  });

  it('gives every Deployment probes, resources and a non-root security context', () => {
    for (const deployment of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const spec = podSpec(deployment);
      const where = `${tree} ${deployment.kind}/${deployment.metadata.name}`;
      for (const container of spec.containers) {
        expect({ where, resources: container.resources }).toMatchObject({
          resources: {
            requests: { cpu: expect.any(String), memory: expect.any(String) },
            limits: { cpu: expect.any(String), memory: expect.any(String) },
          },
        });
        expect({ where, ...container.securityContext }).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        if (deployment.kind === 'Deployment') {
          expect({ where, probe: container.livenessProbe?.httpGet?.path }).toEqual({
            where,
            probe: '/healthz',
          });
          expect({ where, probe: container.readinessProbe?.httpGet?.path }).toEqual({
            where,
            probe: '/readyz',
          });
        }
      }
      expect({ where, ...spec.securityContext }).toMatchObject({ runAsNonRoot: true });
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
    }
  });

  it('probes the side port of services without HTTP, and the HTTP port of the gateway', () => {
    for (const deployment of memtrail('Deployment')) {
      const [container] = podSpec(deployment).containers;
      const port = container!.readinessProbe!.httpGet!.port;
      const named = container!.ports!.find((p) => p.name === port);
      expect({ deployment: deployment.metadata.name, port: named?.containerPort }).toEqual({
        deployment: deployment.metadata.name,
        port: deployment.metadata.name === 'memtrail-gateway' ? 5000 : 9464,
      });
    }
  });

  it.each(Object.keys(SERVICE_CONFIGS) as ServiceName[])(
    'gives %s a ConfigMap and Secret that pass its config schema',
    (service) => {
      const byName = (kind: string, name: string) =>
        manifests.find((m) => m.kind === kind && m.metadata.name === name)!;
      const secret = byName('Secret', 'memtrail-secrets');
      const secretData = Object.fromEntries(
        Object.entries((secret['data'] ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v, 'base64').toString('utf8'),
        ]),
      );
      // Variables from the operator's memtrail-keys get random values, as the operator creates.
      const container = podSpec(byName('Deployment', `memtrail-${service}`)).containers[0]!;
      const fromKeys = Object.fromEntries(
        (container.env ?? [])
          .filter((v) => v.valueFrom?.secretKeyRef?.name === 'memtrail-keys')
          .map((v) => [v.name, randomBytes(32).toString('hex')]),
      );
      const env = {
        ...(byName('ConfigMap', 'memtrail-config')['data'] as Record<string, string>),
        ...secretData,
        ...((secret['stringData'] ?? {}) as Record<string, string>),
        ...fromKeys,
      };
      expect(checkServiceEnv(service, env)['METRICS_PORT']).toBe(9464);
    },
  );

  it('takes the keys from the operator-created memtrail-keys, never from a file here', () => {
    const container = (name: string) =>
      podSpec(manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === name)!)
        .containers[0]!;
    const fromKeys = (key: string) => ({
      name: key,
      valueFrom: { secretKeyRef: { name: 'memtrail-keys', key } },
    });
    expect(container('memtrail-gateway').env).toContainEqual(fromKeys('JWT_SECRET'));
    expect(container('memtrail-gateway').env).toContainEqual(fromKeys('QUERY_SECRET'));
    expect(container('memtrail-query').env).toContainEqual(fromKeys('QUERY_SECRET'));
    expect(manifests.some((m) => m.kind === 'Secret' && m.metadata.name === 'memtrail-keys')).toBe(
      false,
    );
    for (const secret of manifests.filter((m) => m.kind === 'Secret')) {
      const keys = Object.keys({ ...(secret['data'] ?? {}), ...(secret['stringData'] ?? {}) });
      expect(keys).not.toContain('JWT_SECRET');
      expect(keys).not.toContain('QUERY_SECRET');
    }
  });

  it('points every HPA and PDB at an existing Deployment', () => {
    const deployments = new Set(memtrail('Deployment').map((m) => m.metadata.name));
    for (const hpa of memtrail('HorizontalPodAutoscaler')) {
      expect(deployments).toContain(
        (hpa.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name,
      );
    }
    for (const pdb of memtrail('PodDisruptionBudget')) {
      const selector = (pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector;
      expect(deployments).toContain(selector.matchLabels['app.kubernetes.io/name']);
    }
  });
});

describe('overlays', () => {
  const config = (tree: string) =>
    rendered
      .get(tree)!
      .find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'memtrail-config')!.data as Record<
      string,
      string
    >;

  it('prod serves the gateway over TLS, dev over plain HTTP', () => {
    const ingress = (tree: string) =>
      rendered.get(tree)!.find((m) => m.kind === 'Ingress')!.spec as {
        tls?: { hosts: string[]; secretName: string }[];
        rules: { host: string }[];
      };
    const prod = ingress('k8s/overlays/prod');
    expect(prod.tls).toEqual([{ hosts: [prod.rules[0]!.host], secretName: 'memtrail-tls' }]);
    expect(ingress('k8s/overlays/dev').tls).toBeUndefined();
  });

  it('dev runs its own single-node ClickHouse, prod the cluster schema on external stores', () => {
    const dev = rendered.get('k8s/overlays/dev')!;
    const prod = rendered.get('k8s/overlays/prod')!;
    expect(
      dev
        .filter((m) => m.kind === 'StatefulSet')
        .map((m) => m.metadata.name)
        .sort(),
    ).toEqual(['clickhouse', 'postgres', 'redis']);
    expect(config('k8s/overlays/dev')['CLICKHOUSE_TOPOLOGY']).toBe('single');
    expect(prod.some((m) => m.kind === 'StatefulSet')).toBe(false);
    expect(config('k8s/overlays/prod')['CLICKHOUSE_TOPOLOGY']).toBe('cluster');
  });
});
