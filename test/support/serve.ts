/** A server process for multi-process tests and the benchmark: the real server with the test handlers. */
import { exitOnStartupFailure, startFromEnvironment } from '../../src/main.ts';
import { stubHandlers } from './stub-handlers.ts';

startFromEnvironment(stubHandlers()).catch(exitOnStartupFailure);
