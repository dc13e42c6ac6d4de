import type { Knex } from 'knex';

/**
 * The schema, as knex migrations kept in code (no directory scan, so they run the same under tsx
 * and compiled). Valid on MySQL 8 / MariaDB 10.6+ and SQLite. Append new migrations; never edit
 * one that has shipped.
 *
 * Timestamps are written by the application as JS Dates: DATETIME(3) in UTC on MySQL, epoch
 * milliseconds on SQLite (knex's better-sqlite3 binding); `toDate` in time.ts reads both.
 */
export const LEDGER_ENTRY_KINDS = ['grant', 'debit', 'refund', 'hold', 'capture', 'release'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

interface NamedMigration extends Knex.Migration {
  name: string;
}

/** Creates a table; on MySQL with binary collation, so ids and key hashes compare case-sensitively. */
function createTable(db: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void): Knex.SchemaBuilder {
  return db.schema.createTable(name, (table) => {
    if (db.client.dialect === 'mysql') table.collate('utf8mb4_bin');
    build(table);
  });
}

const initialSchema: NamedMigration = {
  name: '001_accounts_keys_packs_ledger_calls',
  async up(db) {
    await createTable(db, 'accounts', (table) => {
      table.string('id', 32).primary();
      table.string('name', 255).notNullable();
      // Cached sum of the account's ledger entries, kept in step inside the same transactions.
      table.bigInteger('balance').notNullable().defaultTo(0);
      table.datetime('created_at', { precision: 3 }).notNullable();
    });

    await createTable(db, 'api_keys', (table) => {
      table.string('id', 32).primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('name', 255).nullable();
      table.string('prefix', 16).notNullable();
      table.string('key_hash', 64).notNullable().unique({ indexName: 'api_keys_key_hash_unique' });
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.datetime('last_used_at', { precision: 3 }).nullable();
      // Keys are soft-deleted so past calls still name the key that made them.
      table.datetime('deleted_at', { precision: 3 }).nullable();
      table.index(['account_id'], 'api_keys_account_id_index');
    });

    await createTable(db, 'account_packs', (table) => {
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('pack', 32).notNullable();
      table.boolean('enabled').notNullable();
      table.primary(['account_id', 'pack']);
    });

    await createTable(db, 'ledger_entries', (table) => {
      table.bigIncrements('id').primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('call_id', 64).nullable();
      table
        .string('kind', 16)
        .notNullable()
        .checkIn([...LEDGER_ENTRY_KINDS]);
      table.bigInteger('amount').notNullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      // A call is debited at most once and refunded at most once (NULL call_ids, i.e. grants, never collide).
      table.unique(['call_id', 'kind'], { indexName: 'ledger_entries_call_id_kind_unique' });
      table.index(['account_id'], 'ledger_entries_account_id_index');
    });

    await createTable(db, 'calls', (table) => {
      table.string('call_id', 64).primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('key_id', 32).nullable().references('id').inTable('api_keys');
      table.string('tool', 64).notNullable();
      table.string('status', 64).notNullable();
      table.integer('credits').notNullable();
      table.integer('duration_ms').notNullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.index(['account_id', 'created_at'], 'calls_account_id_created_at_index');
    });
  },
  async down(db) {
    for (const table of ['calls', 'ledger_entries', 'account_packs', 'api_keys', 'accounts']) {
      await db.schema.dropTableIfExists(table);
    }
  },
};

const figures: NamedMigration = {
  name: '002_figures',
  async up(db) {
    // One row per figure; the row is also its render job (status pending → rendering → finished | failed).
    await createTable(db, 'figures', (table) => {
      table.string('id', 40).primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('parent_id', 40).nullable().references('id').inTable('figures');
      // The call that asked for the figure; its ledger hold, capture and release carry this call_id.
      table.string('call_id', 64).notNullable();
      table.string('status', 16).notNullable().checkIn(['pending', 'rendering', 'finished', 'failed']);
      table.string('kind', 32).notNullable();
      table.string('style', 32).notNullable();
      table.string('aspect_ratio', 8).notNullable();
      table.text('description').notNullable();
      table.text('instruction').nullable();
      // The whole figure spec (parameters, labels and graph) as JSON: what the renderer draws and edits start from.
      table.text('spec', 'mediumtext').notNullable();
      table.integer('price').notNullable();
      table.integer('credits_charged').notNullable().defaultTo(0);
      table.integer('attempts').notNullable().defaultTo(0);
      table.string('claimed_by', 64).nullable();
      table.datetime('claimed_at', { precision: 3 }).nullable();
      table.string('file_token', 64).nullable();
      table.integer('width').nullable();
      table.integer('height').nullable();
      table.text('error').nullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.datetime('finished_at', { precision: 3 }).nullable();
      table.index(['status', 'created_at'], 'figures_status_created_at_index');
      table.index(['account_id'], 'figures_account_id_index');
      table.index(['parent_id'], 'figures_parent_id_index');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('figures');
  },
};

const figureQueues: NamedMigration = {
  name: '003_figure_queues',
  async up(db) {
    // Processes take figures only from their own queue (FIGURE_QUEUE), so separate deployments can share one database.
    await db.schema.alterTable('figures', (table) => {
      table.string('queue', 64).notNullable().defaultTo('default');
      table.index(['queue', 'status', 'created_at'], 'figures_queue_status_created_at_index');
    });
  },
  async down(db) {
    await db.schema.alterTable('figures', (table) => {
      table.dropIndex(['queue', 'status', 'created_at'], 'figures_queue_status_created_at_index');
      table.dropColumn('queue');
    });
  },
};

const figureFiles: NamedMigration = {
  name: '004_figure_files',
  async up(db) {
    // The figure images themselves, so every process on every machine serves them (FILES_DIR is only a local cache).
    await createTable(db, 'figure_files', (table) => {
      // `<32-character token>.<png|svg>`: the unguessable name in the file's URL.
      table.string('name', 40).primary();
      table.string('figure_id', 40).nullable();
      table.string('mime_type', 64).notNullable();
      table.integer('size').notNullable();
      if (db.client.dialect === 'mysql') table.specificType('content', 'mediumblob').notNullable();
      else table.binary('content').notNullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.index(['figure_id'], 'figure_files_figure_id_index');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('figure_files');
  },
};

const holdSettlements: NamedMigration = {
  name: '005_hold_settlements',
  async up(db) {
    // A capture or release names the call it settles in `settles`; the unique index lets a hold be
    // settled once, by whichever process gets there first, whatever its kind.
    await db.schema.alterTable('ledger_entries', (table) => {
      table.string('settles', 64).nullable();
      table.unique(['settles'], { indexName: 'ledger_entries_settles_unique' });
      // The reconciler looks for old holds without a settlement.
      table.index(['kind', 'created_at'], 'ledger_entries_kind_created_at_index');
    });
    await db('ledger_entries')
      .whereIn('kind', ['capture', 'release'])
      .update({ settles: db.ref('call_id') });
    await db.schema.alterTable('figures', (table) => {
      table.index(['call_id'], 'figures_call_id_index');
    });
  },
  async down(db) {
    await db.schema.alterTable('figures', (table) => {
      table.dropIndex(['call_id'], 'figures_call_id_index');
    });
    await db.schema.alterTable('ledger_entries', (table) => {
      table.dropIndex(['kind', 'created_at'], 'ledger_entries_kind_created_at_index');
      table.dropUnique(['settles'], 'ledger_entries_settles_unique');
      table.dropColumn('settles');
    });
  },
};

const idempotencyKeys: NamedMigration = {
  name: '006_idempotency_keys',
  async up(db) {
    // One row per (account, Idempotency-Key) for 24 hours: the first request's fingerprint, and its answer once stored.
    await createTable(db, 'idempotency_keys', (table) => {
      table.string('account_id', 64).notNullable();
      table.string('idempotency_key', 255).notNullable();
      // sha256 (hex) of the tool name and the canonical JSON body.
      table.string('fingerprint', 64).notNullable();
      // `running` while the first request is at work, `done` once its answer is stored.
      table.string('state', 16).notNullable();
      table.integer('status').nullable();
      table.text('headers').nullable();
      if (db.client.dialect === 'mysql') table.specificType('body', 'mediumtext').nullable();
      else table.text('body').nullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.primary(['account_id', 'idempotency_key']);
      table.index(['created_at'], 'idempotency_keys_created_at_index');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('idempotency_keys');
  },
};

const accountOwner: NamedMigration = {
  name: '007_account_changes_and_sessions',
  async up(db) {
    // Who changed what in an account's settings, and when: the owner (by the key they used) or the operator (admin CLI).
    await createTable(db, 'account_changes', (table) => {
      table.bigIncrements('id').primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('actor_key_id', 32).nullable();
      table.string('actor', 16).notNullable().checkIn(['owner', 'operator']);
      table.string('action', 32).notNullable();
      table.string('subject', 64).notNullable();
      table.string('detail', 255).nullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.index(['account_id', 'created_at'], 'account_changes_account_id_created_at_index');
    });
    // Sign-ins to the settings page: the cookie's token is kept only as its sha256, like API keys.
    await createTable(db, 'account_sessions', (table) => {
      table.string('token_hash', 64).primary();
      table.string('account_id', 32).notNullable().references('id').inTable('accounts');
      table.string('key_id', 32).notNullable();
      table.string('csrf_token', 64).notNullable();
      table.datetime('created_at', { precision: 3 }).notNullable();
      table.datetime('expires_at', { precision: 3 }).notNullable();
      table.index(['expires_at'], 'account_sessions_expires_at_index');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('account_sessions');
    await db.schema.dropTableIfExists('account_changes');
  },
};

const leases: NamedMigration = {
  name: '008_leases',
  async up(db) {
    // One row per server process, renewed every few seconds (leases.ts): while it is not expired, the holds naming it are its calls'.
    await createTable(db, 'leases', (table) => {
      table.string('id', 32).primary();
      table.datetime('started_at', { precision: 3 }).notNullable();
      table.datetime('expires_at', { precision: 3 }).notNullable();
      table.index(['expires_at'], 'leases_expires_at_index');
    });
    // The lease of the process whose call took the hold; null for holds that are no process's (a queued figure's) and for older holds.
    await db.schema.alterTable('ledger_entries', (table) => {
      table.string('lease_id', 32).nullable();
      table.index(['lease_id'], 'ledger_entries_lease_id_index');
    });
  },
  async down(db) {
    await db.schema.alterTable('ledger_entries', (table) => {
      table.dropIndex(['lease_id'], 'ledger_entries_lease_id_index');
      table.dropColumn('lease_id');
    });
    await db.schema.dropTableIfExists('leases');
  },
};

const migrations: NamedMigration[] = [initialSchema, figures, figureQueues, figureFiles, holdSettlements, idempotencyKeys, accountOwner, leases];

export const migrationSource: Knex.MigrationSource<NamedMigration> = {
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};
