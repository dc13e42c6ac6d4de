/** Entry point of `npm run admin -- <command>`; the commands live in commands.ts. */
import { runAdmin } from './commands.ts';

const result = await runAdmin(process.argv.slice(2));
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.exitCode;
