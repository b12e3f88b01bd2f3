import type { SystemTool } from '../../../src/infrastructure/protocols/system-tools';

/**
 * Real servers from Debian that the monitor kinds' tests start on loopback ports of their own (the
 * service itself never runs them). Absolute paths, where Debian puts them (/usr/sbin is not on every
 * user's PATH).
 */
export const PEER_SERVERS = {
  redis: { program: '/usr/bin/redis-server', debianPackage: 'redis-server', neededFor: 'the Redis monitor tests' },
  mariadb: { program: '/usr/sbin/mariadbd', debianPackage: 'mariadb-server', neededFor: 'the MySQL/MariaDB monitor tests' },
  mosquitto: { program: '/usr/sbin/mosquitto', debianPackage: 'mosquitto', neededFor: 'the MQTT monitor tests' },
  snmpd: { program: '/usr/sbin/snmpd', debianPackage: 'snmpd', neededFor: 'the SNMP monitor tests' },
} as const satisfies Record<string, SystemTool>;

export const peerServers = (): SystemTool[] => Object.values(PEER_SERVERS);
