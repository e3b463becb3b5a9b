import { describe, expect, it } from '@jest/globals';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  BooleanEnv,
  CommonConfig,
  ConfigError,
  IsPostgresUrl,
  IsRedisUrl,
  loadConfig,
} from '@memtrail/config';

class SampleConfig extends CommonConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 5000;

  @IsPostgresUrl()
  DATABASE_URL!: string;

  @IsOptional()
  @IsRedisUrl()
  REDIS_URL?: string;

  @BooleanEnv()
  VERBOSE: boolean = true;
}

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    const config = loadConfig(SampleConfig, {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/memtrail',
      PORT: '8080',
      UNRELATED: 'x',
    });
    expect(config.PORT).toBe(8080);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/memtrail');
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('reads booleans from their words, and refuses others', () => {
    const base = { DATABASE_URL: 'postgres://u@db/x' };
    expect(loadConfig(SampleConfig, { ...base, VERBOSE: 'false' }).VERBOSE).toBe(false);
    expect(loadConfig(SampleConfig, { ...base, VERBOSE: '1' }).VERBOSE).toBe(true);
    expect(loadConfig(SampleConfig, base).VERBOSE).toBe(true);
    expect(() => loadConfig(SampleConfig, { ...base, VERBOSE: 'maybe' })).toThrow(
      'VERBOSE ("maybe"): VERBOSE must be true or false',
    );
  });

  it('treats empty values as unset', () => {
    const config = loadConfig(SampleConfig, {
      DATABASE_URL: 'postgresql://u:p@db/memtrail',
      PORT: '',
    });
    expect(config.PORT).toBe(5000);
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig(SampleConfig, { PORT: 'abc', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT ("abc")');
    expect(message).toContain('DATABASE_URL (unset)');
    expect(message).toContain('REDIS_URL ("http://x"): must be a URL starting with redis://');
    expect(message).toContain('LOG_LEVEL ("loud")');
  });
});
