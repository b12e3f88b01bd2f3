import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { GetScreenshot } from '../../../application/checks/get-screenshot';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

const PATH = '/api/websites/{id}/screenshots/{screenshotId}';

/** GET /api/websites/{id}/screenshots/{screenshotId}: a scenario's failure screenshot (PNG). */
export const websiteScreenshotsRouter = defineRouter({ getScreenshot: GetScreenshot }, (deps, use) => {
  const router = new ApiRouter(deps).route({
    operationId: 'getWebsiteScreenshot',
    method: 'get',
    path: PATH,
    tags: ['Websites'],
    status: 200,
    summary: 'Failure screenshot of a scripted-browser scenario (PNG)',
    description:
      "When a scripted_browser check fails, the page is captured (1280x720 viewport) and the result's " +
      'evidence.browser.screenshotId (in check-history) names the capture. Answers the image/png bytes, private and ' +
      "immutable for caching. id is the website's publicId or legacy integer id; screenshotId must be a UUID " +
      '(invalidScreenshotId). A website the caller cannot see answers websiteNotFound, a screenshot that is not ' +
      "this website's screenshotNotFound. Screenshots are kept as long as raw check results (RESULTS_RETENTION_DAYS), " +
      'the newest 50 per website.',
    params: z.object({
      id: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }),
      screenshotId: z.string().meta({ description: 'UUID from evidence.browser.screenshotId' }),
    }),
    errors: ['invalidScreenshotId', 'websiteNotFound', 'screenshotNotFound'],
    handler: async ({ actor, params, res }) => {
      const screenshot = await use.getScreenshot.execute(actor, { websiteId: params.id, screenshotId: params.screenshotId });
      res
        .status(200)
        .set({
          'Content-Type': 'image/png',
          'Cache-Control': 'private, max-age=86400, immutable',
          'Last-Modified': screenshot.takenAt.toUTCString(),
          'X-Content-Type-Options': 'nosniff',
        })
        .end(Buffer.from(screenshot.png));
    },
  });
  const operation = (deps.paths[PATH] as Record<string, ZodOpenApiOperationObject>).get!;
  operation.responses = {
    ...operation.responses,
    200: { description: 'The PNG image', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
  };
  return router.router;
});
