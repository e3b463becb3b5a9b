import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  BooleanEnv,
  CommonConfig,
  ConfigError,
  IsPostgresUrl,
  IsRedisUrl,
  IsSecret,
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

  it('shows URLs in errors without their passwords', () => {
    expect(() =>
      loadConfig(SampleConfig, { DATABASE_URL: 'mysql://app:hunter2@db/x', PORT: 'x' }),
    ).toThrow('DATABASE_URL ("mysql://app:***@db/x")');
  });
});

class SecretConfig {
  @IsSecret()
  SIGNING_KEY!: string;
}

describe('IsSecret', () => {
  const refusal = (value?: string) => {
    try {
      loadConfig(SecretConfig, value === undefined ? {} : { SIGNING_KEY: value });
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('accepts random keys of 32 characters and more', () => {
    expect(refusal(randomBytes(16).toString('hex'))).toBe('accepted');
    expect(refusal('q8Zr1xV3tP0mLw9cK2sN7bYh4dJ6gF5e')).toBe('accepted');
  });

  it('refuses missing, short, placeholder and repetitive keys, never printing them', () => {
    expect(refusal()).toContain('SIGNING_KEY (unset): SIGNING_KEY must be set');
    expect(refusal('s3cr3t-but-short')).toContain(
      'SIGNING_KEY (16 characters): SIGNING_KEY must be at least 32 characters',
    );
    expect(refusal('CHANGE-ME-to-at-least-32-random-characters')).toContain(
      'is a published placeholder',
    );
    expect(refusal('ab'.repeat(20))).toContain('is too predictable');
    for (const value of ['s3cr3t-but-short', 'ab'.repeat(20)])
      expect(refusal(value)).not.toContain(value);
  });
});
