import { Argument, Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Knex } from 'knex';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { sources as SOURCES } from '../../generated/tools.ts';
import type { SourceId } from '../../generated/types.ts';
import { LedgerError, PACK_IDS, addCredits, createAccount, createKey, deleteKey, getAccount, listKeys, setPackEnabled, usage } from '../ledger/index.ts';
import { DatabaseUrlError, migrateToLatest, openDatabase } from '../database/index.ts';

export interface AdminResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface AdminOptions {
  /** Environment to read DATABASE_URL from; process.env by default. */
  env?: NodeJS.ProcessEnv;
}

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const INVOCATION = 'npm run --silent admin --';

/**
 * Runs one admin command (`argv` without the node and script paths). Prints JSON on stdout;
 * failures are `{"error":{"code","message"}}` on stderr with exit code 1, or 2 when the command
 * line itself is wrong. Opens the database only for commands that need it, and closes it.
 */
export async function runAdmin(argv: readonly string[], options: AdminOptions = {}): Promise<AdminResult> {
  const output = { stdout: '', stderr: '' };
  let db: Knex | undefined;
  const ledger = async (): Promise<Knex> => {
    if (!db) {
      db = openDatabase(loadConfig(options.env ?? process.env).databaseUrl);
      await migrateToLatest(db);
    }
    return db;
  };
  const print = (value: unknown): void => {
    output.stdout += `${JSON.stringify(value, null, 2)}\n`;
  };

  const config = (): Config => loadConfig(options.env ?? process.env);
  const program = buildProgram(ledger, print, output, config);
  let exitCode = 0;
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    const failure = describeFailure(error);
    exitCode = failure.exitCode;
    if (failure.exitCode !== 0) {
      output.stderr += `${JSON.stringify({ error: { code: failure.code, message: failure.message } })}\n`;
    }
  } finally {
    await db?.destroy();
  }
  return { exitCode, ...output };
}

interface Failure {
  exitCode: number;
  code: string;
  message: string;
}

function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) return describeCommanderError(error);
  if (error instanceof LedgerError) {
    return { exitCode: error.code === 'invalid_input' ? EXIT_USAGE : EXIT_FAILURE, code: error.code, message: error.message };
  }
  if (error instanceof ConfigError || error instanceof DatabaseUrlError) {
    return { exitCode: EXIT_FAILURE, code: 'invalid_config', message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_FAILURE, code: 'internal', message };
}

function describeCommanderError(error: CommanderError): Failure {
  switch (error.code) {
    case 'commander.helpDisplayed':
    case 'commander.version':
      return { exitCode: 0, code: '', message: '' };
    case 'commander.help':
      // Reached when a command group is given without a command; the help text itself is dropped.
      return { exitCode: EXIT_USAGE, code: 'usage', message: 'a command is required; run with --help to list them' };
    case 'commander.invalidArgument':
      return { exitCode: EXIT_USAGE, code: 'invalid_input', message: stripErrorPrefix(error.message) };
    default:
      return { exitCode: EXIT_USAGE, code: 'usage', message: stripErrorPrefix(error.message) };
  }
}

function stripErrorPrefix(message: string): string {
  return message.replace(/^error: /, '');
}

function parseCredits(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new InvalidArgumentError('Expected a non-negative integer.');
  }
  return value;
}

function parseLimit(text: string): number {
  const value = parseCredits(text);
  if (value < 1) throw new InvalidArgumentError('Expected a positive integer.');
  return value;
}

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${INVOCATION} ${line}`).join('\n')}\n`;
}

function notFound(what: string, id: string): LedgerError {
  return new LedgerError('not_found', `no ${what} "${id}"`);
}

const SOURCE_IDS = Object.keys(SOURCES).sort();

function parseSource(text: string): SourceId {
  if (!SOURCE_IDS.includes(text)) throw new InvalidArgumentError(`Unknown source; the sources are ${SOURCE_IDS.join(', ')}.`);
  return text as SourceId;
}

function buildProgram(ledger: () => Promise<Knex>, print: (value: unknown) => void, output: { stdout: string; stderr: string }, config: () => Config): Command {
  const program = new Command('admin')
    .description('Operator tool for Research Tools API accounts, credits, API keys and packs. Prints JSON.')
    .usage('<command> [options]')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        output.stdout += text;
      },
      // Commander's own error text is replaced by the JSON error written by runAdmin.
      writeErr: () => {},
      outputError: () => {},
    })
    .addHelpText(
      'after',
      `${examples('accounts create --name "Lab A" --credits 1000', 'keys create acc_123 --name laptop', 'usage acc_123')}
Reads DATABASE_URL (mysql://user:pass@host:port/db or sqlite:<path>) and migrates the schema before each command.`,
    );

  const accounts = program.command('accounts').description('create and show accounts');
  accounts
    .command('create')
    .description('create an account → {"id","name","credits"}')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--credits <n>', 'initial credits (non-negative integer)', parseCredits)
    .addHelpText('after', examples('accounts create --name "Lab A" --credits 1000'))
    .action(async (opts: { name: string; credits: number }) => {
      print(await createAccount(await ledger(), { name: opts.name, credits: opts.credits }));
    });
  accounts
    .command('show')
    .description('show an account → {"id","name","credits","packs":{…}}')
    .argument('<account-id>')
    .addHelpText('after', examples('accounts show acc_123'))
    .action(async (accountId: string) => {
      const account = await getAccount(await ledger(), accountId);
      if (!account) throw notFound('account', accountId);
      print(account);
    });

  program
    .command('credits')
    .description('add credits to accounts')
    .command('add')
    .description('grant credits to an account → {"id","credits"} (the new balance)')
    .argument('<account-id>')
    .argument('<n>', 'credits to add (non-negative integer)', parseCredits)
    .addHelpText('after', examples('credits add acc_123 500'))
    .action(async (accountId: string, credits: number) => {
      print(await addCredits(await ledger(), accountId, credits));
    });

  const keys = program.command('keys').description('create, list and delete API keys');
  keys
    .command('create')
    .description('create an API key → {"id","key","prefix"}; the key is shown this once only')
    .argument('<account-id>')
    .option('--name <label>', 'label to tell keys apart')
    .addHelpText('after', examples('keys create acc_123', 'keys create acc_123 --name "CI runner"'))
    .action(async (accountId: string, opts: { name?: string }) => {
      const { id, key, prefix } = await createKey(await ledger(), accountId, opts.name);
      print({ id, key, prefix });
    });
  keys
    .command('list')
    .description('list the live keys of an account → [{"id","name","prefix","created_at","last_used_at"}]')
    .argument('<account-id>')
    .addHelpText('after', examples('keys list acc_123'))
    .action(async (accountId: string) => {
      print(await listKeys(await ledger(), accountId));
    });
  keys
    .command('delete')
    .description('delete (revoke) an API key at once → {"id","deleted":true}')
    .argument('<key-id>')
    .addHelpText('after', examples('keys delete key_456'))
    .action(async (keyId: string) => {
      if (!(await deleteKey(await ledger(), keyId))) throw notFound('key', keyId);
      print({ id: keyId, deleted: true });
    });

  const packs = program.command('packs').description('switch discipline packs on or off for an account');
  for (const enabled of [false, true]) {
    const verb = enabled ? 'enable' : 'disable';
    packs
      .command(verb)
      .description(`switch a pack ${enabled ? 'on' : 'off'} → {"id","pack","enabled"}`)
      .argument('<account-id>')
      .addArgument(new Argument('<pack>', 'pack id').choices(PACK_IDS))
      .addHelpText('after', examples(`packs ${verb} acc_123 chem`))
      .action(async (accountId: string, pack: string) => {
        await setPackEnabled(await ledger(), accountId, pack, enabled);
        print({ id: accountId, pack, enabled });
      });
  }

  program
    .command('sources')
    .description('upstream sources: budgets, circuit breakers, failures')
    .command('status')
    .description(
      'per source, its budget windows (used, left, when they reset: counted across all server processes), the last circuit-breaker change and the last failure any process recorded → [{"source","budget","breaker","lastFailure"}]',
    )
    .option('--source <id>', 'only this source', parseSource)
    .addHelpText('after', examples('sources status', 'sources status --source openalex'))
    .action(async (opts: { source?: SourceId }) => {
      // The upstream layer is loaded only for this command: the others start as fast as before.
      const [{ MemoryCache }, { UpstreamClient }, { openSharedUpstreamState }, { ALL_SOURCES, sourcesStatus }] = await Promise.all([
        import('../upstream/cache.ts'),
        import('../upstream/client.ts'),
        import('../server/upstream-state.ts'),
        import('../upstream/status.ts'),
      ]);
      const settings = config();
      const shared = await openSharedUpstreamState(await ledger(), settings.redisUrl);
      try {
        const upstream = new UpstreamClient({ sources: settings.sources, shared, cache: new MemoryCache() });
        print(await sourcesStatus(upstream, opts.source ? [opts.source] : ALL_SOURCES));
      } finally {
        await shared.close();
      }
    });

  program
    .command('usage')
    .description('list the calls of an account, newest first → [{"call_id","tool","status","credits","created_at"}]')
    .argument('<account-id>')
    .option('--limit <n>', 'most calls to list', parseLimit, 100)
    .addHelpText('after', examples('usage acc_123', 'usage acc_123 --limit 20'))
    .action(async (accountId: string, opts: { limit: number }) => {
      print(await usage(await ledger(), accountId, { limit: opts.limit }));
    });

  return program;
}
