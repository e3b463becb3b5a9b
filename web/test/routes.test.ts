import { describe, expect, it } from '@jest/globals';
import { pageTypeOf, projectPropsOf } from '../src/lib/pageType.ts';
import { paths, projectRouteOf } from '../src/lib/routes.ts';

describe('signed-in paths', () => {
  it('URL-encode target names and decode them back', () => {
    const dashboard = paths.dashboard('42', 'nrf52/dk board');
    expect(dashboard).toBe('/project/42/target/nrf52%2Fdk%20board');
    expect(paths.symbols('42', 'a b')).toBe('/project/42/target/a%20b/symbols');
    expect(projectRouteOf(`${dashboard}/compare`)).toEqual({
      projectId: '42',
      targetName: 'nrf52/dk board',
    });
    expect(projectRouteOf('/project/42/settings')).toEqual({
      projectId: '42',
      targetName: undefined,
    });
    expect(projectRouteOf('/tutorial')).toEqual({});
  });
});

describe('analytics page tagging', () => {
  it('follows the spec rules in order', () => {
    expect(pageTypeOf('/')).toBe('projects_list');
    expect(pageTypeOf('/tutorial')).toBe('tutorial');
    expect(pageTypeOf('/pricing')).toBe('pricing');
    expect(pageTypeOf('/auth')).toBe('auth');
    expect(pageTypeOf('/project/1/settings')).toBe('project_settings');
    expect(pageTypeOf('/project/1/target/t/symbols')).toBe('symbols');
    expect(pageTypeOf('/project/1/target/t/compare')).toBe('compare');
    expect(pageTypeOf('/project/1/target/t/region-config')).toBe('region_config');
    expect(pageTypeOf('/project/1/target/t')).toBe('dashboard');
    expect(pageTypeOf('/project/1/target/t/commit/abc')).toBe('dashboard');
    expect(pageTypeOf('/elsewhere')).toBeNull();
  });

  it('sets project_id and target_name only on project paths', () => {
    expect(projectPropsOf('/project/7/target/esp32%20c3/symbols')).toEqual({
      project_id: '7',
      target_name: 'esp32 c3',
    });
    expect(projectPropsOf('/project/7/settings')).toEqual({ project_id: '7' });
    expect(projectPropsOf('/pricing')).toEqual({});
  });
});
