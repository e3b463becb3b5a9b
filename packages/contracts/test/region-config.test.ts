import { describe, expect, it } from '@jest/globals';
import {
  RegionPlan,
  regionConfigDocument,
  regionConfigProblems,
  validateRegionConfig,
} from '@memtrail/contracts';

describe('region configuration schema', () => {
  it('accepts the first format and the document, and reads both as a document', () => {
    const legacy = {
      FLASH: { display_name: 'Flash', kind: 'flash', limit: 524288 },
      CCM: { hidden: true },
    };
    expect(validateRegionConfig(legacy)).toBeNull();
    expect(regionConfigDocument(legacy)).toEqual({ version: 2, regions: legacy });
    const document = {
      version: 2,
      regions: { flash: { merge_into: 'flash0' }, flash0: { order: 1 } },
      source_root: '/home/ci/fw',
    };
    expect(validateRegionConfig(document)).toBeNull();
    expect(regionConfigDocument(document)).toEqual(document);
    expect(regionConfigDocument(null)).toEqual({ version: 2, regions: {} });
  });

  it('names the region and field of every problem', () => {
    expect(
      regionConfigProblems({
        version: 2,
        regions: {
          a: { merge_into: 'a' },
          b: { merge_into: 'c' },
          c: { merge_into: 'd' },
          d: { order: 1.5, kind: 'rom' },
        },
        source_root: '',
        colour: 'red',
      }),
    ).toEqual([
      { message: 'region_config has an unknown field colour' },
      { field: 'source_root', message: 'source_root must be a path of 1-500 characters or null' },
      {
        region: 'a',
        field: 'merge_into',
        message: 'Region a: merge_into must name another region',
      },
      {
        region: 'b',
        field: 'merge_into',
        message: 'Region b: c is itself merged into another region; merge into that one',
      },
      { region: 'd', field: 'kind', message: 'Region d: kind must be flash, ram or other' },
      {
        region: 'd',
        field: 'order',
        message: 'Region d: order must be a whole number from 0 to 999',
      },
    ]);
    expect(validateRegionConfig({ version: 3, regions: {} })).toBe(
      'region_config version must be 2',
    );
    expect(validateRegionConfig([])).toBe('region_config must be an object keyed by region name');
  });
});

describe('region plan', () => {
  const plan = RegionPlan.of({
    version: 2,
    regions: {
      flash: { merge_into: 'flash0' },
      flash0: { display_name: 'Main flash', order: 2, limit: 2048 },
      ram0: { order: 1 },
      flash1: { hidden: false },
    },
  });

  it('folds a report: merged regions summed, limits overridden, ordered, presented', () => {
    const rows = plan.fold([
      { name: 'flash', used_size: 100, limit_size: 1024, free_size: 924, address: 0x0800_0000 },
      { name: 'flash0', used_size: 50, limit_size: 1024, free_size: 974, address: 0x0810_0000 },
      { name: 'flash2', used_size: 0, limit_size: 0, free_size: 0, address: 0 },
      { name: 'flash1', used_size: 0, limit_size: 0, free_size: 0, address: 0 },
      { name: 'ram0', used_size: 10, limit_size: 100, free_size: 90, address: 0x2000_0000 },
    ]);
    expect(
      rows.map((r) => [
        r.name,
        r.display_name,
        r.used_size,
        r.limit_size,
        r.free_size,
        r.address,
        r.hidden,
        r.placeholder,
      ]),
    ).toEqual([
      ['ram0', 'ram0', 10, 100, 90, 0x2000_0000, false, false],
      ['flash0', 'Main flash', 150, 2048, 1898, 0x0800_0000, false, false],
      ['flash1', 'flash1', 0, 0, 0, 0, false, true],
      ['flash2', 'flash2', 0, 0, 0, 0, true, true],
    ]);
  });

  it('merges a layout so a diff lines the renamed region up', () => {
    const region = (address: number, used: number) => ({
      address,
      limit_size: 1024,
      type: 'UNKNOWN',
      used_size: used,
      free_size: 1024 - used,
      utilization_percent: 0,
      sections: [{ name: '.text', address, size: used, type: 'code', end_address: address + used }],
    });
    const merged = plan.mergeLayout({ flash: region(0x0800_0000, 100) });
    expect(Object.keys(merged)).toEqual(['flash0']);
    expect(merged.flash0).toMatchObject({ limit_size: 2048, used_size: 100, free_size: 1948 });
    expect(merged.flash0!.sections.map((s) => s.name)).toEqual(['.text']);
  });
});
