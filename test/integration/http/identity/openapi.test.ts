import { expect } from 'chai';
import { builtConsoleDir } from '../../../../src/interfaces/http/console/console-host';
import SwaggerParser from '@apidevtools/swagger-parser';
import { api } from '../../../support/http-client';
import { describeApi } from '../../../../src/main/api-description';

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0, describing the routes and the error envelope', async () => {
    const response = await api('GET', '/openapi.json');
    expect(response.status).to.equal(200);
    const document = response.body;
    expect(document.openapi).to.equal('3.1.0');
    expect(document.info.version).to.equal('1.0.0');
    await SwaggerParser.validate(structuredClone(document));
    expect(document.paths['/api/users/{id}'].patch.responses['400'].description).to.include('lastAdminProtected');
    expect(document.paths['/api/auth/get-session'].get.responses['200'].content['application/json'].schema.$ref).to.equal(
      '#/components/schemas/Session',
    );
    expect(document.components.schemas.ErrorEnvelope.required).to.include.members([
      'error',
      'url',
      'statusCode',
      'statusMessage',
      'message',
    ]);
  });

  it('is the document npm run lint:openapi lints, with a server relative to the serving host (not PUBLIC_BASE_URL)', async () => {
    const served = (await api('GET', '/openapi.json')).body;
    expect(served.servers).to.deep.equal([{ url: '/' }]);
    expect(served).to.deep.equal(JSON.parse(JSON.stringify(describeApi())));
  });

  it('serves a rendered reference at /docs from local assets', async () => {
    const page = await api('GET', '/docs');
    expect(page.status).to.equal(200);
    expect(page.body).to.include('/docs/init.js').and.include('/docs/assets/swagger-ui-bundle.js').and.not.include('https://');
    expect((await api('GET', '/docs/init.js')).body).to.include("url: '/openapi.json'");
    expect((await api('GET', '/docs/assets/swagger-ui-bundle.js')).status).to.equal(200);
  });
});

describe('the root address', () => {
  it('points a browser to the console (302 /app; /docs when it was not built) and answers any other client where the reference, the description and health are', async () => {
    const browser = await api('GET', '/', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browser.status).to.equal(302);
    expect(browser.headers.get('location')).to.equal(builtConsoleDir() ? '/app' : '/docs');
    const client = await api('GET', '/', { headers: { accept: '*/*' } });
    expect(client.status).to.equal(200);
    expect(client.body).to.deep.include({ docs: '/docs', openapi: '/openapi.json', health: { live: '/livez', ready: '/readyz' } });
  });
});
