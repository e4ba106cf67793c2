import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";

// Storage faults are translated once, at the bottom: this dialect wraps the real one's driver
// so that every statement, BEGIN/COMMIT/ROLLBACK and connection checkout passes its error
// through `translate` (StoreHealth.translate). Every query of every store function and of the
// migrations goes through here, so nothing above needs to know. On success the only cost is
// one `.then` per call; the wrappers are made once per connection, not per query.

type Translate = (err: unknown) => unknown;

class FaultConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  /** set when a statement of the current transaction failed with a storage fault */
  faulted = false;
  readonly fail: (err: unknown) => never;
  cancelQuery?: DatabaseConnection["cancelQuery"];
  killSession?: DatabaseConnection["killSession"];
  collectSessionInfo?: DatabaseConnection["collectSessionInfo"];

  constructor(inner: DatabaseConnection, translate: Translate) {
    this.inner = inner;
    this.fail = (err) => {
      const out = translate(err);
      if (out !== err) this.faulted = true;
      throw out;
    };
    // optional capabilities: present here only when the real connection has them
    if (inner.cancelQuery) this.cancelQuery = (p) => inner.cancelQuery!(p);
    if (inner.killSession) this.killSession = (p) => inner.killSession!(p);
    if (inner.collectSessionInfo) this.collectSessionInfo = () => inner.collectSessionInfo!();
  }

  executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    return this.inner.executeQuery<R>(query, options).then(undefined, this.fail);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize, options);
    } catch (err) {
      this.fail(err);
    }
  }
}

class FaultDriver implements Driver {
  readonly #inner: Driver;
  readonly #translate: Translate;
  readonly #fail: (err: unknown) => never;
  readonly #connections = new WeakMap<DatabaseConnection, FaultConnection>();

  constructor(inner: Driver, translate: Translate) {
    this.#inner = inner;
    this.#translate = translate;
    this.#fail = (err) => {
      throw translate(err);
    };
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.init(options).then(undefined, this.#fail);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection(options).then(undefined, this.#fail);
    let conn = this.#connections.get(inner);
    if (!conn) {
      conn = new FaultConnection(inner, this.#translate);
      this.#connections.set(inner, conn);
    }
    return conn;
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as FaultConnection;
    c.faulted = false;
    return this.#inner.beginTransaction(c.inner, settings).then(undefined, c.fail);
  }

  commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as FaultConnection;
    return this.#inner.commitTransaction(c.inner).then(undefined, c.fail);
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as FaultConnection;
    try {
      await this.#inner.rollbackTransaction(c.inner);
    } catch (err) {
      // After a fault the rollback itself may fail: SQLite may already have rolled the
      // transaction back (SQLITE_FULL, SQLITE_IOERR: "no transaction is active"), or the
      // PostgreSQL connection is gone (the driver then discards it). Kysely would throw the
      // rollback's error instead of the fault; swallowing it lets the fault reach the caller.
      if (c.faulted) return;
      c.fail(err);
    }
  }

  savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    const c = conn as FaultConnection;
    return this.#inner.savepoint!(c.inner, name, compile).then(undefined, c.fail);
  }

  rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    const c = conn as FaultConnection;
    return this.#inner.rollbackToSavepoint!(c.inner, name, compile).then(undefined, c.fail);
  }

  releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    const c = conn as FaultConnection;
    return this.#inner.releaseSavepoint!(c.inner, name, compile).then(undefined, c.fail);
  }

  releaseConnection(conn: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.releaseConnection((conn as FaultConnection).inner, options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.destroy(options);
  }
}

/** `dialect` with every driver error passed through `translate` (see the top of this file). */
export function withFaultTranslation(dialect: Dialect, translate: Translate): Dialect {
  return {
    createDriver: () => new FaultDriver(dialect.createDriver(), translate),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
