import { RESOURCE_KEY, resourceKeyOf } from '../shared/resource-key';

/** A monitor's key: a stable name the client gives it (see RESOURCE_KEY), unique in the organization; null clears it. */
export const MONITOR_KEY = RESOURCE_KEY;

/** The key sent, checked: undefined when not sent, null to clear. */
export const monitorKeyOf = resourceKeyOf;
