/** The part of sql.js (SQLite compiled to WebAssembly; the package ships no types) that wsm import uses. */
declare module 'sql.js' {
  interface QueryResults {
    columns: string[];
    values: unknown[][];
  }
  interface Database {
    exec(sql: string): QueryResults[];
    export(): Uint8Array;
    close(): void;
  }
  interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(): Promise<SqlJsStatic>;
}
