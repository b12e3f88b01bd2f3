/** The service's configuration, read from the environment by `loadConfig` (src/main/config.ts). */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  platformAdmin: { email: string; password: string } | undefined;
  signupOpen: boolean;
  logLevel: string;
  /** How long a stop lets the requests in flight finish before it cuts them (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** SERVICE_SCALE: the garbage-collector settings of a check process (src/main/gc-tuning.ts); auto: chosen at start by the monitors held. */
  serviceScale: 'auto' | 'small' | 'large';
  mongodbUrl: string | undefined;
  /** Hours between two data exports of an organization (EXPORT_COOLDOWN_HOURS). */
  exportCooldownHours: number;
  /** How long a generating export's claim holds without progress (EXPORT_LEASE_SECONDS, in ms). */
  exportLeaseMs: number;
  viesUrl: string;
  /** Upper-case discount code to percent (BILLING_DISCOUNT_CODES). */
  billingDiscountCodes: Readonly<Record<string, number>>;
  /** BILLING_RETURN_PAGE_URL. */
  billingReturnPageUrl: string | undefined;
  trustedOrigins: string[];
  /** Resolvers for target vetting; empty = the system's. */
  dnsServers: string[];
  checkPrivateAllowlist: string[];
  /** The catalogue monitors choose locations from (MONITOR_LOCATIONS). */
  checkLocations: string[];
  /** Locations this process runs checks for (CHECK_LOCATIONS); empty = no check worker. */
  servedLocations: string[];
  credentialsKey: Buffer | undefined;
  agentTrustedIssuers: Array<{ issuer: string; jwksUri?: string | undefined; jwks?: { keys: Array<Record<string, unknown>> } | undefined }>;
  agentKeyEncryptionKey: string | undefined;
  /** null = the built-in list. */
  dnsblZones: { zone: string; name: string; delistUrl: string }[] | null;
  rdapBootstrapUrl: string;
  whoisServer: string;
  results: {
    retentionDays: number;
    rollupRetentionDays: number;
    rawHours: number;
    dailyRollupAfterDays: number;
    detailSampleMinutes: number;
  };
  browserExecutablePath: string;
  /** Days an audit log entry is kept (AUDIT_LOG_RETENTION_DAYS). */
  auditLogRetentionDays: number;
  /** Most checks this process runs at once (CHECK_CONCURRENCY). */
  checkConcurrency: number;
  /** Prometheus /metrics: collected and served only when a token or a port is set (`metricsExposed`). */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Notification delivery: the platform's SMTP server and sender, retries, the deliverer's idle poll. */
  notifications: {
    smtpUrl: string | undefined;
    smtpFrom: string;
    retryBaseMs: number;
    retryMaxMs: number;
    maxAttempts: number;
    pollMs: number;
    leaseMs: number;
    /** Storms: openings sent alone per window, the window (ms; 0: no storms), the follow-up period and the quiet end (ms). */
    storm: { alone: number; windowMs: number; settleMs: number; followUpMs: number; quietMs: number };
    /** Deliveries in a row failed for good that make a channel failing. */
    failingAfter: number;
  };
  /**
   * Notification connections: DNS answers kept (names), kept-alive HTTP connections per receiver and
   * receivers kept, pooled SMTP connections per server and servers kept.
   */
  notificationConnections: {
    dnsCacheSize: number;
    httpSocketsPerOrigin: number;
    httpOrigins: number;
    smtpConnectionsPerServer: number;
    smtpServers: number;
  };
  /** The SMS provider's account (Twilio's Messages API); null: SMS deliveries fail with a clear reason. */
  sms: { providerUrl: string; accountSid: string; authToken: string; from: string } | null;
  /** Proxies (CIDRs, TRUST_PROXY) whose forwarded headers are believed (Express's trust proxy, custom-domain routing); empty: none. */
  trustProxy: string[];
  /** Public status pages: how long a built page is served before the service checks for changes. */
  statusPages: { refreshMs: number };
}
