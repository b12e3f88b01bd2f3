import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { TAG_COLORS } from '../../../../src/domain/monitoring/tag';
import { aMonitor, aMonitoredCustomer, aTag, aWebsite } from '../../../support/monitoring-fixtures';

describe('tags and monitor tags', () => {
  it('creates, lists, renames, recolours and deletes tags', async () => {
    const org = await anOrganization('tags');
    const customer = await aMonitoredCustomer(org.token);
    const created = await api('POST', '/api/tags', {
      token: org.token,
      body: { name: 'production', color: '#10b981', customerId: customer.id },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ name: 'production', color: '#10B981', customerId: customer.id });
    expectError(
      await api('POST', '/api/tags', { token: org.token, body: { name: 'Production', color: '#10B981', customerId: customer.id } }),
      409,
      'tagNameTaken',
    );
    const patched = await api('PATCH', `/api/tags/${created.body.publicId}`, {
      token: org.token,
      body: { name: 'prod', color: '#EF4444' },
    });
    expect(patched.body).to.include({ name: 'prod', color: '#EF4444' });
    expect((await api('GET', '/api/tags', { token: org.token })).body.items.map((t: any) => t.name)).to.deep.equal(['prod']);
    expect((await api('DELETE', `/api/tags/${created.body.id}`, { token: org.token })).body).to.deep.equal({ success: true });
    expectError(await api('DELETE', `/api/tags/${created.body.id}`, { token: org.token }), 404, 'tagNotFound');
    expectError(await api('PATCH', `/api/tags/${created.body.publicId}`, { token: org.token, body: { name: 'x' } }), 404, 'tagNotFound');
  });

  it('makes an organization-wide tag when an organization-wide caller omits the customer, even with several customers', async () => {
    const org = await anOrganization('org-wide-tags');
    const first = await aMonitoredCustomer(org.token);
    await aMonitoredCustomer(org.token);
    const created = await api('POST', '/api/tags', { token: org.token, body: { name: 'critical', color: '#ef4444' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.deep.equal({
      id: created.body.id,
      publicId: created.body.publicId,
      organizationId: org.user.organizationId,
      customerId: null,
      name: 'critical',
      color: '#EF4444',
      createdAt: created.body.createdAt,
      updatedAt: created.body.createdAt,
    });
    const explicit = await api('POST', '/api/tags', { token: org.token, body: { name: 'eu', color: '#3B82F6', customerId: null } });
    expect(explicit.body).to.include({ customerId: null, name: 'eu' });
    // Names are unique among the organization-wide tags; a customer may still have its own "critical".
    expectError(await api('POST', '/api/tags', { token: org.token, body: { name: 'CRITICAL', color: '#3B82F6' } }), 409, 'tagNameTaken');
    const customers = await api('POST', '/api/tags', {
      token: org.token,
      body: { name: 'critical', color: '#3B82F6', customerId: first.id },
    });
    expect(customers.body).to.include({ customerId: first.id });
    const all = await api('GET', '/api/tags', { token: org.token });
    expect(all.body.items.map((t: any) => [t.name, t.customerId])).to.deep.equal([
      ['critical', null],
      ['critical', first.id],
      ['eu', null],
    ]);
    const firsts = await api('GET', '/api/tags', { token: org.token, query: { customerId: String(first.id) } });
    expect(firsts.body.items.map((t: any) => t.id)).to.deep.equal([customers.body.id]);
  });

  it('answers tagCustomerRequired when a customer-scoped caller omits the customer of an organization with several', async () => {
    const org = await anOrganization('tag-customer');
    const first = await aMonitoredCustomer(org.token);
    const firstToken = await aCustomerToken(org.token, first.id);
    const sole = await api('POST', '/api/tags', { token: firstToken, body: { name: 'only customer', color: '#3B82F6' } });
    expect(sole.status, JSON.stringify(sole.body)).to.equal(201);
    expect(sole.body.customerId).to.equal(first.id);
    await aMonitoredCustomer(org.token);
    const refused = await api('POST', '/api/tags', { token: firstToken, body: { name: 'which one', color: '#3B82F6' } });
    expect(refused.body).to.deep.equal({
      error: true,
      url: '/api/tags',
      statusCode: 400,
      statusMessage: 'Name the customer: this caller serves several',
      message: 'Name the customer: this caller serves several',
      data: { code: 'tagCustomerRequired' },
    });
    const named = await api('POST', '/api/tags', {
      token: firstToken,
      body: { name: 'which one', color: '#3B82F6', customerId: first.publicId },
    });
    expect(named.status).to.equal(201);
    expect(named.body.customerId).to.equal(first.id);
    expect((await api('GET', '/api/tags', { token: firstToken })).body.items.map((t: any) => t.name)).to.deep.equal([
      'only customer',
      'which one',
    ]);
  });

  it('answers invalidTagColor for a colour outside the palette, whatever its length, and invalidCustomer', async () => {
    const org = await anOrganization('tag-codes');
    const first = await aMonitoredCustomer(org.token);
    const tag = await aTag(org.token, { customerId: first.id });
    for (const color of ['hotpink', '', '#3B82F6'.padEnd(40, '6'), 'x'.repeat(5000)]) {
      for (const [method, path] of [
        ['POST', '/api/tags'],
        ['PATCH', `/api/tags/${tag.publicId}`],
      ] as const) {
        const response = await api(method, path, { token: org.token, body: method === 'POST' ? { name: 'x', color } : { color } });
        expect(response.body, `${method} ${color.length} characters`).to.deep.equal({
          error: true,
          url: path,
          statusCode: 400,
          statusMessage: 'The colour is not in the tag palette (see data.palette)',
          message: 'The colour is not in the tag palette (see data.palette)',
          data: { code: 'invalidTagColor', palette: [...TAG_COLORS] },
        });
      }
    }
    const second = await aMonitoredCustomer(org.token);
    const stranger = await anOrganization('stranger');
    const foreign = await aMonitoredCustomer(stranger.token);
    expectError(
      await api('POST', '/api/tags', { token: org.token, body: { name: 'x', color: '#3B82F6', customerId: foreign.id } }),
      400,
      'invalidCustomer',
    );
    const customerToken = await aCustomerToken(org.token, second.id);
    expectError(
      await api('POST', '/api/tags', { token: customerToken, body: { name: 'x', color: '#3B82F6', customerId: first.id } }),
      400,
      'invalidCustomer',
    );
    expectError(await api('PATCH', `/api/tags/${tag.publicId}`, { token: customerToken, body: { name: 'x' } }), 404, 'tagNotFound');
  });

  it("attaches an organization-wide tag to monitors of several customers; a customer's tag stays with its customer", async () => {
    const org = await anOrganization('org-wide-attach');
    const first = await aMonitoredCustomer(org.token);
    const second = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: first.id });
    const dns = await aMonitor(org.token, 'dns', { customerId: second.id, hostname: 'monitor-fixture.com' });
    const everywhere = await aTag(org.token, { name: 'everywhere' });
    expect(everywhere.customerId).to.equal(null);
    const firsts = await aTag(org.token, { name: 'first only', customerId: first.id });
    for (const [monitor, monitorType] of [
      [website, 'website'],
      [dns, 'dns'],
    ] as const) {
      const attached = await api('POST', '/api/monitor-tags', {
        token: org.token,
        body: { tagId: everywhere.publicId, monitorId: monitor.publicId, monitorType },
      });
      expect(attached.body).to.deep.equal({ success: true, alreadyAttached: false });
    }
    const tagView = { id: everywhere.id, publicId: everywhere.publicId, name: 'everywhere', color: '#3B82F6' };
    expect((await api('GET', `/api/websites/${website.publicId}`, { token: org.token })).body.tags).to.deep.equal([tagView]);
    expect((await api('GET', `/api/monitors/dns/${dns.publicId}`, { token: org.token })).body.tags).to.deep.equal([tagView]);
    const mismatch = await api('POST', '/api/monitor-tags', {
      token: org.token,
      body: { tagId: firsts.publicId, monitorId: dns.publicId, monitorType: 'dns' },
    });
    expect(mismatch.body).to.deep.equal({
      error: true,
      url: '/api/monitor-tags',
      statusCode: 400,
      statusMessage: 'The tag and the monitor belong to different organizations',
      message: 'The tag and the monitor belong to different organizations',
      data: { code: 'tagMonitorOrgMismatch' },
    });
    // Customer-scoped callers see the organization-wide tag on their monitors, and cannot change it.
    const secondToken = await aCustomerToken(org.token, second.id);
    expect((await api('GET', '/api/tags', { token: secondToken })).body.items).to.deep.equal([]);
    expectError(
      await api('PATCH', `/api/tags/${everywhere.publicId}`, { token: secondToken, body: { name: 'mine now' } }),
      404,
      'tagNotFound',
    );
    expectError(
      await api('DELETE', '/api/monitor-tags', {
        token: secondToken,
        body: { tagId: everywhere.publicId, monitorId: dns.publicId, monitorType: 'dns' },
      }),
      404,
      'tagNotFound',
    );
    expect(
      (
        await api('DELETE', '/api/monitor-tags', {
          token: org.token,
          body: { tagId: everywhere.publicId, monitorId: dns.publicId, monitorType: 'dns' },
        })
      ).body,
    ).to.deep.equal({ success: true });
    expect((await api('GET', `/api/monitors/dns/${dns.publicId}`, { token: org.token })).body.tags).to.deep.equal([]);
  });

  it('attaches at most 5 tags per monitor; attaching an attached tag succeeds; detaching is idempotent', async () => {
    const org = await anOrganization('attach');
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: customer.id });
    const tags = [];
    for (let i = 0; i < 6; i++) tags.push(await aTag(org.token, { customerId: customer.id, name: `t${i}` }));
    for (const tag of tags.slice(0, 5)) {
      const attached = await api('POST', '/api/monitor-tags', {
        token: org.token,
        body: { tagId: tag.id, monitorId: website.publicId, monitorType: 'website' },
      });
      expect(attached.body).to.deep.equal({ success: true, alreadyAttached: false });
    }
    const again = await api('POST', '/api/monitor-tags', {
      token: org.token,
      body: { tagId: tags[0].publicId, monitorId: website.id, monitorType: 'website' },
    });
    expect(again.body).to.deep.equal({ success: true, alreadyAttached: true });
    expectError(
      await api('POST', '/api/monitor-tags', {
        token: org.token,
        body: { tagId: tags[5].publicId, monitorId: website.publicId, monitorType: 'website' },
      }),
      422,
      'tagLimitReached',
    );
    const shown = await api('GET', `/api/websites/${website.publicId}`, { token: org.token });
    expect(shown.body.tags.map((t: any) => t.name)).to.deep.equal(['t0', 't1', 't2', 't3', 't4']);
    const filtered = await api('GET', '/api/websites', { token: org.token, query: { tagId: tags[2].publicId } });
    expect(filtered.body.items.map((w: any) => w.publicId)).to.deep.equal([website.publicId]);
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await api('DELETE', '/api/monitor-tags', {
            token: org.token,
            body: { tagId: tags[0].publicId, monitorId: website.publicId, monitorType: 'website' },
          })
        ).body,
      ).to.deep.equal({ success: true });
    }
    expect(
      (
        await api('POST', '/api/monitor-tags', {
          token: org.token,
          body: { tagId: tags[5].publicId, monitorId: website.publicId, monitorType: 'website' },
        })
      ).status,
    ).to.equal(200);
  });

  it('answers invalidMonitorType, tagNotFound, monitorNotFound and tagMonitorOrgMismatch', async () => {
    const org = await anOrganization('attach-codes');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const dns = await aMonitor(org.token, 'dns', { customerId: customer.id, hostname: 'monitor-fixture.com' });
    const tag = await aTag(org.token, { customerId: customer.id });
    const othersTag = await aTag(org.token, { customerId: other.id });
    const body = (over: Record<string, unknown>) => ({ tagId: tag.publicId, monitorId: dns.publicId, monitorType: 'dns', ...over });
    expectError(
      await api('POST', '/api/monitor-tags', { token: org.token, body: body({ monitorType: 'dnsbl' }) }),
      400,
      'invalidMonitorType',
    );
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: body({ tagId: 999999 }) }), 404, 'tagNotFound');
    expectError(
      await api('POST', '/api/monitor-tags', { token: org.token, body: body({ monitorType: 'website' }) }),
      404,
      'monitorNotFound',
    );
    expectError(
      await api('POST', '/api/monitor-tags', { token: org.token, body: body({ tagId: othersTag.publicId }) }),
      400,
      'tagMonitorOrgMismatch',
    );
    const stranger = await anOrganization('stranger');
    expectError(await api('POST', '/api/monitor-tags', { token: stranger.token, body: body({}) }), 404, 'tagNotFound');
    expect((await api('POST', '/api/monitor-tags', { token: org.token, body: body({}) })).status).to.equal(200);
  });
});
