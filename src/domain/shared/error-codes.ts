/**
 * Every stable error code the service produces. Codes are the spec's strings, verbatim
 * (mixed camelCase and snake_case as written there). Codes marked "design" are ours, for
 * conditions the spec names without a code. Only the HTTP layer knows their statuses.
 */
export const ERROR_CODES = [
  // generic
  'invalidRequestBody', 'validationFailed', 'unauthorized', 'forbidden', 'notFound', 'rateLimited',
  'internalError', 'conflict',
  // codeless answers the spec requires ("423 without code", "503 without code", "404 without code")
  'organizationLocked', 'agentAuthUnavailable', 'routeNotFound',
  // readiness of the host (design): GET /readyz
  'databaseUnavailable', 'migrationsPending',
  // identity (design)
  'emailAlreadyRegistered', 'invalidCredentials', 'signupClosed', 'twoFactorAlreadyEnabled',
  'twoFactorNotEnabled', 'invalidTwoFactorCode', 'twoFactorChallengeMissing', 'organizationNotFound',
  'apiTokenNotFound', 'invalidRole', 'platformAdminRequired', 'roleForbidden',
  // token, MFA, scope and account gates
  'customerScopedTokenForbidden', 'apiTokenCannotMintTokens', 'apiTokenPathAmbiguous', 'csrfOriginRejected',
  'mfa_enrollment_required', 'mfa_step_up_required', 'mfa_step_up_locked', 'nonUserSessionForbidden',
  'accountDeactivated', 'organizationSuspended', 'userSelfChangeForbidden', 'lastAdminProtected',
  'globalUserProtected', 'accountDeletionSoleOwner', 'accountDeletionNotRequested',
  'accountDeletionUserNotFound', 'accountDeletionNotRecorded', 'userNotFound',
  // monitor ownership and quota
  'managed_by_organization', 'selfServiceNotAllowed', 'selfServiceQuotaReached', 'managementTypeOrgOnly',
  'readonlyMayNotDelete', 'tooManyOpenRequests', 'monitorQuotaReached', 'monitorQuotaNoHigherTier',
  'paidQuotaUpgradeNotAuthorized',
  // customers, websites, monitors
  'invalidPackageType', 'checkIntervalTooLow', 'checkIntervalTooHigh', 'invalidCheckInterval',
  'invalidTimeout', 'invalidCheckConfig', 'invalidUrl', 'connectHostInvalid', 'connectHostNotPublic',
  'connectTlsInsecureWithoutHost', 'portRequiredForTcp', 'invalidCheckMode', 'invalidHostname',
  'noLocationsConfigured', 'invalidDateRange', 'invalidScreenshotId',
  'customerNotFound', 'customerIpNotFound', 'customerDomainNotFound', 'packageConfigNotFound',
  'packageConfigInUse', 'packageKeyTaken', 'customFieldNotFound', 'customFieldKeyTaken',
  'invalidCustomFields', 'websiteNotFound', 'changeRequestNotFound', 'changeRequestAlreadySettled',
  'incidentNotFound',
  // incidents, maintenance windows
  'notManualIncident', 'invalidWindow', 'endTimeBeforeStartTime', 'missingTargetId',
  'maintenanceWindowNotFound', 'maintenanceWindowTargetMissing',
  // reports and data export
  'invalidReportSchedule', 'invalidReportScope', 'reportRunNotFound', 'reportRunNoPdf', 'reportPdfNotFound',
  'invalidExportRecipient', 'exportAlreadyRunning', 'exportCooldown', 'exportNotReady', 'exportExpired',
  'missingExportId',
  // agent auth and claim
  'service_auth_not_enabled', 'issuer_not_enabled', 'invalid_request', 'unsupported_grant_type',
  'invalid_grant', 'invalid_claim_token', 'claimed_or_in_flight', 'claim_expired', 'authorization_pending',
  'slow_down', 'expired_token', 'login_required', 'interaction_required', 'agentTokenReadOnly',
  'agentTokenScopeForbidden',
  // incident management
  'imAccessDenied', 'imNotEnabled', 'payloadTooLarge', 'invalidJson', 'payloadTooDeep', 'imIncidentNotFound',
  'imIncidentInvalidStatusTransition', 'imIncidentAlreadyClosed', 'imIncidentStatusConflict',
  'imTeamWriteDenied', 'imTeamMembershipRequired', 'imTeamAdminRequired', 'imUserNotEligible',
  'imSnoozeRangeInvalid', 'imTeamNotFound', 'imScheduleNotFound', 'invalidTeamId', 'invalidCustomerId',
  'imRoutingInvalidPolicyId', 'imIngestRateLimited', 'imIngestByteBudgetExceeded',
  'imOutboundRetryRateLimited', 'unavailable',
  // incident management (design): the event-ingest 429, which the spec gives retryAfter and no code
  'imEventRateLimited',
  // incident management (design): on-call and escalation policies
  'escalationPolicyNotFound', 'calendarFeedNotFound',
  // incident management (design): manual retries of outbound pages
  'imOutboundNotFound', 'imOutboundNotFailed',
  // incident management (design): per-user contact methods for pages
  'imContactMethodNotFound', 'imContactMethodForbidden', 'imContactMethodTargetRefused',
  // tags, change requests, notification channels, custom domains, consent
  'authorizingUserUnresolved', 'invalidTagColor', 'tagCustomerRequired', 'invalidCustomer', 'tagNotFound',
  'monitorNotFound', 'invalidMonitorType', 'tagMonitorOrgMismatch', 'tagLimitReached',
  'configRequiredForTypeChange', 'notificationChannelRecipientExists', 'sourceChannelIdRequired',
  'invalidSourceChannelId', 'sourceChannelNotFound', 'websiteChannelOverrideExists', 'channelIdRequired',
  'invalidChannelId', 'channelNotFound', 'webhookHostHeaderForbidden', 'smtpHostNotPublic',
  'domainAlreadyClaimed', 'hostnameReserved', 'missingClientId', 'unknownOauthConnection',
  'invalidSubscriberId', 'subscriberNotFound', 'statusPageNotFound', 'vatIdMissing',
  'vatIdChangedDuringValidation', 'invalidConsentDecision', 'missingConsentCode', 'unknownConsentCode',
  'consentCodeNotOwned', 'consentAlreadySettled', 'emptyConsentSelection', 'consentScopeEscalation',
  'consentForwardRejected',
  // results and incidents (design)
  'incidentAlreadyResolved',
  // tenancy (design)
  'bulkRowsRejected', 'customerDomainExists', 'customerIpExists',
  // monitoring (design)
  'tagNameTaken',
  // checks (design)
  'screenshotNotFound',
  // notifications (design)
  'smtpVerificationFailed', 'smtpNotConfigured', 'noChannelsToNotify',
  // custom domains (design)
  'customDomainNotFound', 'customDomainExists', 'customDomainVerificationFailed',
  // status pages (design)
  'statusPageSlugTaken', 'pageIncidentNotFound', 'statusPagePasswordInvalid', 'statusPagePasswordRequired',
  // reports (design)
  'reportNotFound',
  // billing (design)
  'invalidQuotaTier', 'quotaTierBelowUsage', 'invalidDiscount', 'invalidDiscountCode', 'mandateNotFound', 'invalidCustomPrice',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
