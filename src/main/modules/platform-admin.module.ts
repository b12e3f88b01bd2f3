import { CLOCK, type Clock } from '../../application/shared/clock';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { SESSION_REPOSITORY, USER_REPOSITORY, type SessionRepository, type UserRepository } from '../../application/identity/ports';
import {
  ADMIN_ORGANIZATION_VIEWS,
  ADMIN_USER_VIEWS,
  PLATFORM_USAGE_VIEWS,
  type AdminOrganizationViews,
  type AdminUserViews,
  type PlatformUsageViews,
} from '../../application/platform-admin/ports';
import { ListAdminOrganizations } from '../../application/platform-admin/list-admin-organizations';
import { GetAdminOrganization } from '../../application/platform-admin/get-admin-organization';
import { ListAdminUsers } from '../../application/platform-admin/list-admin-users';
import { GetAdminUser } from '../../application/platform-admin/get-admin-user';
import { GetPlatformUsage } from '../../application/platform-admin/get-platform-usage';
import { ChangeUserActivation } from '../../application/platform-admin/change-user-activation';
import { SqlAdminOrganizationViews } from '../../infrastructure/platform-admin/sql-admin-organization-views';
import { SqlAdminUserViews } from '../../infrastructure/platform-admin/sql-admin-user-views';
import { SqlPlatformUsageViews } from '../../infrastructure/platform-admin/sql-platform-usage-views';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { SQL } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { adminOrganizationsRouter } from '../../interfaces/http/platform-admin/admin-organizations.router';
import { adminUsersRouter } from '../../interfaces/http/platform-admin/admin-users.router';
import { adminUsageRouter } from '../../interfaces/http/platform-admin/admin-usage.router';
import type { ContextModule } from './context-module';

/** The platform staff's views (/api/admin/**): organizations, users and usage across every tenant. */
export const platformAdminModule = bindings(({ single }) => {
  const clock = (c: Ctx) => c.get<Clock>(CLOCK);
  const organizations = (c: Ctx) => c.get<AdminOrganizationViews>(ADMIN_ORGANIZATION_VIEWS);
  const users = (c: Ctx) => c.get<AdminUserViews>(ADMIN_USER_VIEWS);

  single<AdminOrganizationViews>(ADMIN_ORGANIZATION_VIEWS, (c) => new SqlAdminOrganizationViews(c.get<SqlRunner>(SQL)));
  single<AdminUserViews>(ADMIN_USER_VIEWS, (c) => new SqlAdminUserViews(c.get<SqlRunner>(SQL)));
  single<PlatformUsageViews>(PLATFORM_USAGE_VIEWS, (c) => new SqlPlatformUsageViews(c.get<SqlRunner>(SQL)));

  single(ListAdminOrganizations, (c) => new ListAdminOrganizations(organizations(c)));
  single(GetAdminOrganization, (c) => new GetAdminOrganization(organizations(c), clock(c)));
  single(ListAdminUsers, (c) => new ListAdminUsers(users(c)));
  single(GetAdminUser, (c) => new GetAdminUser(users(c), clock(c)));
  single(GetPlatformUsage, (c) => new GetPlatformUsage(c.get<PlatformUsageViews>(PLATFORM_USAGE_VIEWS), clock(c)));
  single(
    ChangeUserActivation,
    (c) =>
      new ChangeUserActivation(
        users(c),
        c.get<UserRepository>(USER_REPOSITORY),
        c.get<SessionRepository>(SESSION_REPOSITORY),
        c.get<TransactionRunner>(TRANSACTION_RUNNER),
        clock(c),
      ),
  );
});

export const platformAdminContext: ContextModule = {
  name: 'platform-admin',
  bindings: platformAdminModule,
  routers: [adminOrganizationsRouter, adminUsersRouter, adminUsageRouter],
};
