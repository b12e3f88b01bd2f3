import { expect } from 'chai';
import { NOTIFIERS, secretFields } from '../../../src/domain/notifications/notifiers';
import { entryOfChannel, type Actual } from '../../../src/interfaces/cli/resources';

describe('monitoring as code: a channel’s secret fields exported as references (from the descriptors)', () => {
  it("writes every field a type's descriptor marks secret as a reference named after the field, the others as they are", () => {
    for (const n of NOTIFIERS) {
      const actual: Actual = {
        type: 'channel',
        key: 'ops-alerts',
        kind: n.type,
        customer: null,
        id: '0b7e9c1e-4a8f-4c53-9d2f-5f0e6f1a2b3c',
        fields: { name: 'Ops', type: n.type, config: n.sample, events: ['incident.opened'], enabled: true, isDefault: false },
      };
      const config = entryOfChannel(actual, null).config as Record<string, unknown>;
      const secrets: string[] = secretFields(n.type);
      for (const [field, value] of Object.entries(n.sample)) {
        const expected = secrets.includes(field)
          ? `\${env:WSM_OPS_ALERTS_${field.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}}`
          : field === 'headers'
            ? config[field]
            : value;
        expect(config[field], `${n.type}.${field}`).to.deep.equal(expected);
      }
    }
  });
});
