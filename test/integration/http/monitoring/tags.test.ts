import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitor, aMonitoredCustomer, aTag, aWebsite } from '../../../support/monitoring-fixtures';

describe('tags and monitor tags', () => {
  it('creates, lists, renames, recolours and deletes tags', async () => {
    const org = await anOrganization('tags');
    const customer = await aMonitoredCustomer(org.token);
    const created = await api('POST', '/api/tags', { token: org.token, body: { name: 'production', color: '#10b981', customerId: customer.id } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ name: 'production', color: '#10B981', customerId: customer.id });
    expectError(await api('POST', '/api/tags', { token: org.token, body: { name: 'Production', color: '#10B981', customerId: customer.id } }), 409, 'tagNameTaken');
    const patched = await api('PATCH', `/api/tags/${created.body.publicId}`, { token: org.token, body: { name: 'prod', color: '#EF4444' } });
    expect(patched.body).to.include({ name: 'prod', color: '#EF4444' });
    expect((await api('GET', '/api/tags', { token: org.token })).body.map((t: any) => t.name)).to.deep.equal(['prod']);
    expect((await api('DELETE', `/api/tags/${created.body.id}`, { token: org.token })).body).to.deep.equal({ success: true });
    expectError(await api('DELETE', `/api/tags/${created.body.id}`, { token: org.token }), 404, 'tagNotFound');
    expectError(await api('PATCH', `/api/tags/${created.body.publicId}`, { token: org.token, body: { name: 'x' } }), 404, 'tagNotFound');
  });

  it('answers invalidTagColor, tagCustomerRequired and invalidCustomer', async () => {
    const org = await anOrganization('tag-codes');
    const first = await aMonitoredCustomer(org.token);
    expectError(await api('POST', '/api/tags', { token: org.token, body: { name: 'x', color: 'hotpink', customerId: first.id } }), 400, 'invalidTagColor');
    const sole = await api('POST', '/api/tags', { token: org.token, body: { name: 'only customer', color: '#3B82F6' } });
    expect(sole.body.customerId).to.equal(first.id);
    const second = await aMonitoredCustomer(org.token);
    expectError(await api('POST', '/api/tags', { token: org.token, body: { name: 'which one', color: '#3B82F6' } }), 400, 'tagCustomerRequired');
    const stranger = await anOrganization('stranger');
    const foreign = await aMonitoredCustomer(stranger.token);
    expectError(await api('POST', '/api/tags', { token: org.token, body: { name: 'x', color: '#3B82F6', customerId: foreign.id } }), 400, 'invalidCustomer');
    const customerToken = await aCustomerToken(org.token, second.id);
    const own = await api('POST', '/api/tags', { token: customerToken, body: { name: 'mine', color: '#3B82F6' } });
    expect(own.body.customerId).to.equal(second.id);
    expectError(await api('POST', '/api/tags', { token: customerToken, body: { name: 'x', color: '#3B82F6', customerId: first.id } }), 400, 'invalidCustomer');
    expectError(await api('PATCH', `/api/tags/${sole.body.publicId}`, { token: customerToken, body: { name: 'x' } }), 404, 'tagNotFound');
  });

  it('attaches at most 5 tags per monitor; attaching an attached tag succeeds; detaching is idempotent', async () => {
    const org = await anOrganization('attach');
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: customer.id });
    const tags = [];
    for (let i = 0; i < 6; i++) tags.push(await aTag(org.token, { customerId: customer.id, name: `t${i}` }));
    for (const tag of tags.slice(0, 5)) {
      const attached = await api('POST', '/api/monitor-tags', { token: org.token, body: { tagId: tag.id, monitorId: website.publicId, monitorType: 'website' } });
      expect(attached.body).to.deep.equal({ success: true, alreadyAttached: false });
    }
    const again = await api('POST', '/api/monitor-tags', { token: org.token, body: { tagId: tags[0].publicId, monitorId: website.id, monitorType: 'website' } });
    expect(again.body).to.deep.equal({ success: true, alreadyAttached: true });
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: { tagId: tags[5].publicId, monitorId: website.publicId, monitorType: 'website' } }), 422, 'tagLimitReached');
    const shown = await api('GET', `/api/websites/${website.publicId}`, { token: org.token });
    expect(shown.body.tags.map((t: any) => t.name)).to.deep.equal(['t0', 't1', 't2', 't3', 't4']);
    const filtered = await api('GET', '/api/websites', { token: org.token, query: { tagId: tags[2].publicId } });
    expect(filtered.body.items.map((w: any) => w.publicId)).to.deep.equal([website.publicId]);
    for (let i = 0; i < 2; i++) {
      expect((await api('DELETE', '/api/monitor-tags', { token: org.token, body: { tagId: tags[0].publicId, monitorId: website.publicId, monitorType: 'website' } })).body).to.deep.equal({ success: true });
    }
    expect((await api('POST', '/api/monitor-tags', { token: org.token, body: { tagId: tags[5].publicId, monitorId: website.publicId, monitorType: 'website' } })).status).to.equal(200);
  });

  it('answers invalidMonitorType, tagNotFound, monitorNotFound and tagMonitorOrgMismatch', async () => {
    const org = await anOrganization('attach-codes');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const dns = await aMonitor(org.token, 'dns', { customerId: customer.id, hostname: 'monitor-fixture.com' });
    const tag = await aTag(org.token, { customerId: customer.id });
    const othersTag = await aTag(org.token, { customerId: other.id });
    const body = (over: Record<string, unknown>) => ({ tagId: tag.publicId, monitorId: dns.publicId, monitorType: 'dns', ...over });
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: body({ monitorType: 'dnsbl' }) }), 400, 'invalidMonitorType');
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: body({ tagId: 999999 }) }), 404, 'tagNotFound');
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: body({ monitorType: 'website' }) }), 404, 'monitorNotFound');
    expectError(await api('POST', '/api/monitor-tags', { token: org.token, body: body({ tagId: othersTag.publicId }) }), 400, 'tagMonitorOrgMismatch');
    const stranger = await anOrganization('stranger');
    expectError(await api('POST', '/api/monitor-tags', { token: stranger.token, body: body({}) }), 404, 'tagNotFound');
    expect((await api('POST', '/api/monitor-tags', { token: org.token, body: body({}) })).status).to.equal(200);
  });
});
