import type { Request, Response } from 'express';
import { z } from 'zod';
import type { PublicPageRef } from '../../../application/status-pages/get-public-status-page';
import type { PublicPageUse } from './public-page-needs';
import { PublicSubscribeBody } from './schemas';
import { esc, renderMessage } from './public-html';
import { ACCESS_COOKIE } from './public-page';

export const TokenQuery = z.object({ token: z.string().min(1).max(200) }).strip();

/**
 * What a visitor does about news of a page, wherever the page answers: under /status/{slug} (`base`
 * is that path) or at the root of its custom domain (`base` is ''). Links in the answers stay
 * relative to `base`.
 */
export const publicSubscriptions = (use: PublicPageUse) => ({
  /** The form post or JSON body of "Get notified": sends the confirmation link (double opt-in). */
  async subscribe(req: Request, res: Response, ref: PublicPageRef): Promise<void> {
    const form = req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
    const body = PublicSubscribeBody.parse(req.body ?? {});
    await use.subscribeToStatusPage.execute(ref, { ip: req.ip, accessToken: req.cookies?.[ACCESS_COOKIE] }, body);
    // One answer whatever the address's state: the mail tells its owner the rest.
    if (form) {
      res
        .status(202)
        .type('html')
        .send(
          renderMessage(
            'Check your inbox',
            `If ${body.email} can receive mail, a message is on its way: follow its link to start receiving updates.`,
          ),
        );
    } else res.status(202).json({ status: 'checkYourInbox' });
  },

  /** The link of the confirmation message. */
  async confirm(req: Request, res: Response, ref: PublicPageRef): Promise<void> {
    const { token } = TokenQuery.parse(req.query);
    const { title } = await use.manageSubscription.confirm(ref, token);
    res
      .status(200)
      .type('html')
      .send(renderMessage('Subscribed', `You will be told of incidents and maintenance on ${title}.`));
  },

  /** The unsubscribe link's page: a button, since a GET alone must change nothing (link scanners follow links). */
  showUnsubscribe(req: Request, res: Response, base: string): void {
    const { token } = TokenQuery.parse(req.query);
    res
      .status(200)
      .type('html')
      .send(
        renderMessage('Unsubscribe', 'Stop receiving updates from this status page?').replace(
          '</main>',
          `<form method="post" action="${esc(base)}/unsubscribe?token=${encodeURIComponent(token)}">` +
            '<button type="submit">Unsubscribe</button></form></main>',
        ),
      );
  },

  /** The button's and List-Unsubscribe-Post's target (RFC 8058 one-click). */
  async unsubscribe(req: Request, res: Response, ref: PublicPageRef): Promise<void> {
    const { token } = TokenQuery.parse(req.query);
    const { title } = await use.manageSubscription.unsubscribe(ref, token);
    res
      .status(200)
      .type('html')
      .send(renderMessage('Unsubscribed', `You will no longer receive updates from ${title}.`));
  },
});
