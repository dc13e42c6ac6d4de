/** `npm run eval:references [-- --show-held-out]`: runs the verify_references evaluation offline and prints its figures. */
import { report, runEvaluation } from './evaluation.ts';

const result = await runEvaluation();
process.stdout.write(`${report(result, process.argv.includes('--show-held-out'))}\n`);
