import { availableParallelism } from 'node:os';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import {
  BooleanEnv,
  CommonConfig,
  IsHttpUrl,
  IsPostgresUrl,
  IsRedisUrl,
  IsSecret,
} from '@memtrail/config';

/** Every variable the gateway reads; validated at start-up (see README "Configuration"). */
export class GatewayConfig extends CommonConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 5000;

  @IsString()
  HOST: string = '0.0.0.0';

  @IsPostgresUrl()
  DATABASE_URL!: string;

  @IsRedisUrl()
  REDIS_URL!: string;

  @IsString()
  QUEUE_PREFIX: string = 'memtrail';

  @IsString()
  QUERY_HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  QUERY_PORT: number = 5001;

  @IsInt()
  @Min(100)
  QUERY_TIMEOUT_MS: number = 10_000;

  /** Signs every message to the query service, which refuses the rest; the same on both. */
  @IsSecret()
  QUERY_SECRET!: string;

  @IsIn(['cloud', 'onprem'])
  DEPLOYMENT_MODE: 'cloud' | 'onprem' = 'cloud';

  @IsHttpUrl()
  CORE_URL: string = 'http://localhost:5000';

  /** Largest upload accepted, compressed and uncompressed alike (the default is 64 MiB). */
  @IsInt()
  @Min(1024)
  UPLOAD_MAX_BYTES: number = 64 * 1024 * 1024;

  /** Uploads one gateway process reads, decodes and stores at once (503 above; a key gets half). */
  @IsInt()
  @Min(2)
  UPLOAD_INFLIGHT_MAX: number = 64;

  /**
   * Request bytes the uploads in flight may hold together (503 above; a key gets half), so a
   * flood of uploads cannot exhaust the process's memory. Room for two of the largest uploads.
   */
  @IsInt()
  @ValidateBy({
    name: 'holdsTwoUploads',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && value >= 2 * (args?.object as GatewayConfig).UPLOAD_MAX_BYTES,
      defaultMessage: () => 'UPLOAD_INFLIGHT_MAX_BYTES must be at least twice UPLOAD_MAX_BYTES',
    },
  })
  UPLOAD_INFLIGHT_MAX_BYTES: number = 256 * 1024 * 1024;

  /** Seconds a client has to send a request's headers. */
  @IsInt()
  @Min(1)
  HTTP_HEADERS_TIMEOUT_S: number = 10;

  /**
   * Seconds a client has to send a whole request, body included; slower ones get 408 and their
   * connection closed (a client trickling bytes must not hold a connection and its memory).
   */
  @IsInt()
  @ValidateBy({
    name: 'notBelowHeadersTimeout',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' &&
        value >= (args?.object as GatewayConfig).HTTP_HEADERS_TIMEOUT_S,
      defaultMessage: () => 'HTTP_REQUEST_TIMEOUT_S must be at least HTTP_HEADERS_TIMEOUT_S',
    },
  })
  HTTP_REQUEST_TIMEOUT_S: number = 30;

  /**
   * Threads decoding uploads (decompress, parse, check), so one gateway process uses several
   * cores and its event loop stays free; 0 decodes on the event loop. Default: the cores, at
   * most 4.
   */
  @IsInt()
  @Min(0)
  UPLOAD_DECODE_THREADS: number = Math.min(4, availableParallelism());

  /** Uploads one API key may make per minute; 0 turns the limit off. */
  @IsInt()
  @Min(0)
  UPLOAD_RATE_LIMIT_PER_MINUTE: number = 600;

  /** `GET /summary` calls one API key may make per minute; 0 turns the limit off. */
  @IsInt()
  @Min(0)
  SUMMARY_RATE_LIMIT_PER_MINUTE: number = 120;

  /**
   * Whether upload answers list symbol changes. Off by default: it reads and diffs the parent's
   * stored report on the acknowledgement path; /summary always lists them.
   */
  @BooleanEnv()
  UPLOAD_SYMBOL_CHANGES: boolean = false;

  /** Bearer token of the operator endpoints (/api/admin/…); unset turns them off. */
  @IsOptional()
  @IsString()
  ADMIN_TOKEN?: string;

  /** The built web app; unset means web/dist next to the services in this repository. */
  @IsOptional()
  @IsString()
  WEB_DIST_DIR?: string;

  /** PostHog project key handed to the web app (spec §9 analytics); unset leaves it off. */
  @IsOptional()
  @IsString()
  WEB_POSTHOG_KEY?: string;

  /** Origin of the web app in mail links and OAuth redirects; unset means CORE_URL. */
  @IsOptional()
  @IsHttpUrl()
  PUBLIC_URL?: string;

  /**
   * Signs access tokens (HS256). Always required and never derived: a key computable from other
   * settings lets anyone forge sessions. `npm run up` generates one under .data/.
   */
  @IsSecret()
  JWT_SECRET!: string;

  /** Longer than the web's 45-minute refresh interval (spec §9), with room for a late tick. */
  @IsInt()
  @Min(2_820)
  @Max(24 * 3600)
  ACCESS_TOKEN_TTL_S: number = 3600;

  @IsInt()
  @Min(3600)
  REFRESH_TOKEN_TTL_S: number = 30 * 24 * 3600;

  /** smtp://user:pass@host:587 or smtps://…; unset means links are written to the log. */
  @IsOptional()
  @IsString()
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM: string = 'Memtrail <no-reply@localhost>';

  @IsOptional() @IsString() OAUTH_GITHUB_CLIENT_ID?: string;
  @IsOptional() @IsString() OAUTH_GITHUB_CLIENT_SECRET?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GITHUB_ISSUER?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GITHUB_AUTHORIZATION_URL?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GITHUB_TOKEN_URL?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GITHUB_USERINFO_URL?: string;
  @IsOptional() @IsString() OAUTH_GOOGLE_CLIENT_ID?: string;
  @IsOptional() @IsString() OAUTH_GOOGLE_CLIENT_SECRET?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GOOGLE_ISSUER?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GOOGLE_AUTHORIZATION_URL?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GOOGLE_TOKEN_URL?: string;
  @IsOptional() @IsHttpUrl() OAUTH_GOOGLE_USERINFO_URL?: string;

  /** Window of the sign-in, sign-up and reset limits below. */
  @IsInt()
  @Min(1)
  AUTH_RATE_WINDOW_S: number = 900;

  /** Attempts per client IP and action (sign-in, sign-up, reset) within the window. */
  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT_PER_IP: number = 30;

  /** Attempts per email address from one client IP and action within the window. */
  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT_PER_ACCOUNT: number = 10;

  /** Express `trust proxy`: hops of proxies whose X-Forwarded-For is believed (0: none). */
  @IsInt()
  @Min(0)
  TRUST_PROXY_HOPS: number = 0;

  /** Projects with more reports than this are deleted by a background job. */
  @IsInt()
  @Min(0)
  PROJECT_DELETE_SYNC_MAX_REPORTS: number = 500;

  /** Days audit events are kept when an organisation sets no retention of its own. */
  @IsInt()
  @Min(1)
  @Max(3650)
  AUDIT_RETENTION_DAYS: number = 365;

  /** Days an emailed invitation stays valid (a resend starts the period again). */
  @IsInt()
  @Min(1)
  @Max(90)
  INVITATION_TTL_DAYS: number = 7;

  /** GitHub's REST API, or GitHub Enterprise Server's (`https://host/api/v3`). */
  @IsHttpUrl()
  GITHUB_API_URL: string = 'https://api.github.com';

  /**
   * Token for the GitHub API lookups of keyless uploads: without one GitHub allows 60 requests
   * an hour per IP address; with one 5,000, and private repositories it can read.
   */
  @IsOptional()
  @IsString()
  GITHUB_API_TOKEN?: string;

  /** How long GitHub's answers about repositories and pull requests are reused. */
  @IsInt()
  @Min(0)
  @Max(3600)
  GITHUB_API_CACHE_S: number = 60;

  /**
   * Issuer of the OIDC tokens accepted for uploads: GitHub Actions'; on GitHub Enterprise Server
   * `https://host/_services/token`.
   */
  @IsHttpUrl()
  OIDC_ISSUER: string = 'https://token.actions.githubusercontent.com';

  /**
   * Tokenless uploads per minute, counted per client IP address and per project; 0 turns the
   * limit off.
   */
  @IsInt()
  @Min(0)
  UPLOAD_TOKENLESS_RATE_LIMIT_PER_MINUTE: number = 60;
}
