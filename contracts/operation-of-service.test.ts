import { describe, expect, it } from 'vitest';
import { OPERATION_OF_SERVICE, operationOfService } from './operation-of-service';
import { SERVICE_OF } from './schemas/index';

describe('the operation of a service', () => {
  it('is SERVICE_OF read backwards, for every service', () => {
    for (const [operation, service] of Object.entries(SERVICE_OF)) expect(operationOfService(service)).toBe(operation);
    expect(Object.keys(OPERATION_OF_SERVICE).sort()).toEqual(Object.values(SERVICE_OF).sort());
  });

  it('is undefined for a name no service has, a property of every object included', () => {
    for (const name of ['item-inquiry', 'users_create', '', 'toString', '__proto__', 'constructor'])
      expect(operationOfService(name), name).toBeUndefined();
  });
});
