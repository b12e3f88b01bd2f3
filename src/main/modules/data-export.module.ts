import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR, type IdGenerator } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { SECRET_TOKENS, type SecretTokens } from '../../application/identity/ports';
import { DIRECT_DELIVERIES, type DirectDeliveries } from '../../application/notifications/ports';
import {
  DATA_EXPORT_REPOSITORY,
  DATA_EXPORT_SETTINGS,
  EXPORT_ARCHIVE_WRITER,
  EXPORT_FILES,
  EXPORT_JOB_TRIGGER,
  ORGANIZATION_MEMBERS,
  type DataExportRepository,
  type DataExportSettings,
  type ExportArchiveWriter,
  type ExportFiles,
  type ExportJobTrigger,
  type OrganizationMembers,
} from '../../application/data-export/ports';
import { RequestDataExport } from '../../application/data-export/request-data-export';
import { ListDataExports } from '../../application/data-export/list-data-exports';
import { DownloadDataExport } from '../../application/data-export/download-data-export';
import { GenerateDataExports } from '../../application/data-export/generate-data-exports';
import { SqlDataExportRepository } from '../../infrastructure/data-export/sql-data-export.repository';
import { ZipExportArchiveWriter } from '../../infrastructure/data-export/zip-export-archive-writer';
import { LocalExportFiles } from '../../infrastructure/data-export/local-export-files';
import { SqlOrganizationMembers } from '../../infrastructure/data-export/sql-organization-members';
import { JobTrigger } from '../../infrastructure/scheduling/job-trigger';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { DATA_EXPORT_JOB } from '../../interfaces/jobs/data-export.job';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { dataExportRouter } from '../../interfaces/http/data-export/data-export.router';
import { dataExportJob } from '../../interfaces/jobs/data-export.job';
import type { ContextModule } from './context-module';

/** Data export: requests, the leased generator writing zip archives under DATA_DIR, downloads, expiry. */
export const dataExportModule = bindings(({ single }) => {
  const config = (c: Ctx) => c.get<AppConfig>(CONFIG);
  const exports = (c: Ctx) => c.get<DataExportRepository>(DATA_EXPORT_REPOSITORY);
  const clock = (c: Ctx) => c.get<Clock>(CLOCK);

  single<DataExportRepository>(DATA_EXPORT_REPOSITORY, (c) => new SqlDataExportRepository(c.get(POOL_SQL)));
  single<ExportArchiveWriter>(EXPORT_ARCHIVE_WRITER, (c) => new ZipExportArchiveWriter(c.get<SqlRunner>(SQL)));
  single<ExportFiles>(EXPORT_FILES, (c) => new LocalExportFiles(config(c).dataDir));
  single<OrganizationMembers>(ORGANIZATION_MEMBERS, (c) => new SqlOrganizationMembers(c.get<SqlRunner>(SQL)));
  single(JobTrigger, () => new JobTrigger());
  single<ExportJobTrigger>(EXPORT_JOB_TRIGGER, (c) => ({ generateSoon: () => c.get(JobTrigger).runNow(DATA_EXPORT_JOB) }));
  single<DataExportSettings>(DATA_EXPORT_SETTINGS, (c) => ({
    cooldownHours: config(c).exportCooldownHours,
    publicBaseUrl: config(c).publicBaseUrl,
    leaseMs: config(c).exportLeaseMs,
  }));

  single(
    RequestDataExport,
    (c) =>
      new RequestDataExport(
        exports(c),
        c.get<OrganizationMembers>(ORGANIZATION_MEMBERS),
        c.get<ExportJobTrigger>(EXPORT_JOB_TRIGGER),
        c.get<DataExportSettings>(DATA_EXPORT_SETTINGS),
        c.get<IdGenerator>(ID_GENERATOR),
        clock(c),
        c.get<TransactionRunner>(TRANSACTION_RUNNER),
      ),
  );
  single(ListDataExports, (c) => new ListDataExports(exports(c)));
  single(
    DownloadDataExport,
    (c) => new DownloadDataExport(exports(c), c.get<ExportFiles>(EXPORT_FILES), c.get<SecretTokens>(SECRET_TOKENS), clock(c)),
  );
  single(
    GenerateDataExports,
    (c) =>
      new GenerateDataExports(
        exports(c),
        c.get<ExportArchiveWriter>(EXPORT_ARCHIVE_WRITER),
        c.get<ExportFiles>(EXPORT_FILES),
        c.get<DirectDeliveries>(DIRECT_DELIVERIES),
        c.get<SecretTokens>(SECRET_TOKENS),
        c.get<TransactionRunner>(TRANSACTION_RUNNER),
        c.get<DataExportSettings>(DATA_EXPORT_SETTINGS),
        clock(c),
      ),
  );
});

export const dataExportContext: ContextModule = {
  name: 'data-export',
  bindings: dataExportModule,
  routers: [dataExportRouter],
  jobs: [dataExportJob],
};
