import { expect } from 'chai';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { describeApi } from '../../../src/main/api-description';
import { API_TAGS, type ApiTag } from '../../../src/interfaces/http/shared/api-tags';
import { addOperation, type DocumentedOperation } from '../../../src/interfaces/http/shared/openapi-fragments';
import { ApiRouter } from '../../../src/interfaces/http/shared/api-router';
import { RouteTable } from '../../../src/interfaces/http/shared/route-table';
import type { AuthenticateCaller } from '../../../src/application/identity/authenticate-caller';

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
}
interface Document {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description?: string }>;
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
}

const document = describeApi() as Document;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, ...operation })),
);

const anOperation = (operationId: string, tags: readonly [ApiTag] = ['Websites']): DocumentedOperation => ({
  operationId,
  tags,
  summary: 'A route',
  responses: { 204: { description: 'Success' } },
});

describe('OpenAPI operations', () => {
  describe('the served document', () => {
    it('gives every operation a camelCase operationId that no other operation has', () => {
      expect(operations.length).to.be.greaterThan(100);
      const owners = new Map<string, string[]>();
      for (const { route, operationId } of operations) {
        expect(operationId, route)
          .to.be.a('string')
          .and.match(/^[a-z][a-zA-Z0-9]*$/);
        owners.set(operationId!, [...(owners.get(operationId!) ?? []), route]);
      }
      expect([...owners].filter(([, routes]) => routes.length > 1)).to.deep.equal([]);
    });

    it('gives every operation exactly one tag from the top-level tag list, and every listed tag is described and used', () => {
      const listed = document.tags.map((tag) => tag.name);
      expect(listed).to.deep.equal(API_TAGS.map((tag) => tag.name));
      expect(new Set(listed).size).to.equal(listed.length);
      for (const { route, tags } of operations) {
        expect(tags, route).to.have.lengthOf(1);
        expect(listed, route).to.include(tags![0]);
      }
      for (const tag of document.tags) {
        expect(tag.description, tag.name).to.be.a('string').and.not.equal('');
        expect(
          operations.some((operation) => operation.tags![0] === tag.name),
          `${tag.name} is used`,
        ).to.equal(true);
      }
    });

    it('names its server relative to the host serving it, so "Try it out" works from any address', () => {
      expect(document.servers).to.deep.equal([{ url: '/' }]);
    });

    it('reads well in generated clients: the ids of a resource follow one pattern', () => {
      const ids = new Set(operations.map((operation) => operation.operationId));
      for (const id of [
        'listWebsites',
        'createWebsite',
        'getWebsite',
        'updateWebsite',
        'deleteWebsite',
        'getWebsiteUptimeStats',
        'listImapPopMonitors',
        'createDnsMonitorChangeRequest',
        'getAccountDeletionRequest',
        'getUserDeletionRequest',
      ]) {
        expect(ids, id).to.include(id);
      }
    });
  });

  describe('declaring an operation', () => {
    it('refuses an operationId another route already has, naming both routes', () => {
      const paths: ZodOpenApiPathsObject = {};
      addOperation(paths, '/api/things', 'get', anOperation('listThings'));
      expect(() => addOperation(paths, '/api/other-things', 'get', anOperation('listThings'))).to.throw(
        'GET /api/other-things: operationId "listThings" is already GET /api/things\'s',
      );
    });

    it('refuses a missing or non-camelCase operationId', () => {
      for (const id of [undefined, '', 'ListThings', 'list-things', 'list_things', 'list things', '1list']) {
        expect(() => addOperation({}, '/api/things', 'get', anOperation(id as string)), String(id)).to.throw('is not camelCase');
      }
    });

    it('refuses a tag outside the tag list, and more than one tag', () => {
      expect(() => addOperation({}, '/api/things', 'get', anOperation('listThings', ['Things' as ApiTag]))).to.throw(
        'needs exactly one tag from API_TAGS',
      );
      const twoTags = { ...anOperation('listThings'), tags: ['Websites', 'Monitors'] } as unknown as DocumentedOperation;
      expect(() => addOperation({}, '/api/things', 'get', twoTags)).to.throw('needs exactly one tag from API_TAGS');
    });

    it('refuses the same method and path declared twice', () => {
      const paths: ZodOpenApiPathsObject = {};
      addOperation(paths, '/api/things', 'get', anOperation('listThings'));
      expect(() => addOperation(paths, '/api/things', 'get', anOperation('listAllThings'))).to.throw('GET /api/things is declared twice');
    });

    it('is refused when a router registers a duplicate, before the app serves anything', () => {
      const deps = { authenticate: {} as AuthenticateCaller, gates: [], paths: {}, routes: new RouteTable() };
      const router = new ApiRouter(deps).public({
        operationId: 'getThing',
        method: 'get',
        path: '/api/things/{id}',
        tags: ['Websites'],
        summary: 'One thing',
        params: z.object({ id: z.string() }),
        handler: async () => undefined,
      });
      expect(() =>
        router.public({
          operationId: 'getThing',
          method: 'delete',
          path: '/api/things/{id}',
          tags: ['Websites'],
          summary: 'Delete a thing',
          handler: async () => undefined,
        }),
      ).to.throw('operationId "getThing" is already GET /api/things/{id}\'s');
    });
  });
});
