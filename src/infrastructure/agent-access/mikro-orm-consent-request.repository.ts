import { ConsentRequest } from '../../domain/agent-access/consent-request';
import type { ConsentRequestRepository } from '../../application/agent-access/ports';
import { OrmRepository } from '../persistence/orm-repository';

export class MikroOrmConsentRequestRepository extends OrmRepository implements ConsentRequestRepository {
  add(request: ConsentRequest): Promise<void> {
    return this.persist(request);
  }

  findByCode(code: string): Promise<ConsentRequest | null> {
    return this.em.findOne(ConsentRequest, { code });
  }

  findByRegistration(registrationId: string): Promise<ConsentRequest | null> {
    return this.em.findOne(ConsentRequest, { registrationId }, { orderBy: { createdAt: 'desc' } });
  }

  save(request: ConsentRequest): Promise<void> {
    return this.persist(request);
  }
}
