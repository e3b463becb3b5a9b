import { describe, expect, it } from '@jest/globals';
import { LoadError, retryRender } from '../src/lib/loadError.ts';

describe('retrying an error screen', () => {
  it('reloads a failed load before rendering again', async () => {
    const steps: string[] = [];
    const error = new LoadError('Error: heads failed', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      steps.push('reload');
    });
    await retryRender(error, () => steps.push('render'));
    expect(steps).toEqual(['reload', 'render']);
    expect(error.message).toBe('Error: heads failed');
  });

  it('renders again when the reload fails, so the screen shows the new error', async () => {
    const steps: string[] = [];
    const error = new LoadError('first', () => Promise.reject(new Error('second')));
    await retryRender(error, () => steps.push('render'));
    expect(steps).toEqual(['render']);
  });

  it('only renders again after a render error that is not a load', async () => {
    const steps: string[] = [];
    await retryRender(new TypeError('x is undefined'), () => steps.push('render'));
    expect(steps).toEqual(['render']);
  });
});
