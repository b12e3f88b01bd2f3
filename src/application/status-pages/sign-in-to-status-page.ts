import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { PasswordHasher } from '../identity/ports';
import type { PageAccessTokens, StatusPageRepository } from './ports';
import type { PublicPageRef } from './get-public-status-page';

/** A visitor gives a private page's password: answers the access token its cookie carries. */
export class SignInToStatusPage {
  constructor(
    private readonly pages: StatusPageRepository, private readonly hasher: PasswordHasher, private readonly tokens: PageAccessTokens,
    private readonly clock: Clock,
  ) {}

  async execute(ref: PublicPageRef, input: { password: string; ip: string | undefined }): Promise<{ slug: string; token: string }> {
    const page = 'slug' in ref ? await this.pages.findBySlug(ref.slug) : await this.pages.findById(ref.pageId);
    if (!page) throw new AppError('statusPageNotFound');
    if (!page.admitsAddress(input.ip)) throw new AppError('forbidden', {}, 'This status page is not shown to your network');
    if (page.passwordHash === null) return { slug: page.slug, token: '' };
    if (!(await this.hasher.verify(page.passwordHash, input.password))) throw new AppError('statusPagePasswordInvalid');
    return { slug: page.slug, token: this.tokens.issue(page, this.clock.now()) };
  }
}
