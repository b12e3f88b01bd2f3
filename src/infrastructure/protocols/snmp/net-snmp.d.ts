/** What the SNMP checker uses of net-snmp (the package ships no types). */
declare module 'net-snmp' {
  export interface Varbind {
    oid: string;
    type: number;
    value: unknown;
  }
  export interface SessionOptions {
    port?: number;
    retries?: number;
    timeout?: number;
    transport?: 'udp4' | 'udp6';
    version?: number;
    idBitsSize?: 16 | 32;
    backwardsGetNexts?: boolean;
  }
  export interface User {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  }
  export interface Session {
    get(oids: string[], callback: (error: Error | null, varbinds?: Varbind[]) => void): void;
    close(): void;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export function createSession(target: string, community: string, options?: SessionOptions): Session;
  export function createV3Session(target: string, user: User, options?: SessionOptions): Session;
  export function isVarbindError(varbind: Varbind): boolean;
  export const Version2c: number;
  export const Version3: number;
  export const ObjectType: Record<string | number, string | number>;
  export const SecurityLevel: Record<string, number>;
  export const AuthProtocols: Record<string, number>;
  export const PrivProtocols: Record<string, number>;
  export const ResponseInvalidCode: Record<string, number>;
}
