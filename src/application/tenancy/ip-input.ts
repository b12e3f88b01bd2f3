import { parseIpAddress, type IpAddress } from '../../domain/tenancy/ip-address';
import { assertNoIssues, issue } from '../../domain/tenancy/validation';

/** The canonical address, or 400 validationFailed on ipAddress. */
export function validIpAddress(input: string): IpAddress {
  const ip = parseIpAddress(input);
  if (!ip) assertNoIssues([issue(['ipAddress'], 'Must be an IPv4 or IPv6 address')]);
  return ip!;
}
