/**
 * Runs Python snippets against the generated Python client (clients/python) with the machine's python3,
 * as a child process, and reads back what they report as JSON. Suites that need it are skipped, saying
 * so, when python3 is missing, and fail instead in CI.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PYTHON = process.env.PYTHON ?? 'python3';
const clientFolder = fileURLToPath(new URL('../../clients/python/', import.meta.url));

/** What every snippet can use: the client imported, a sleep that records instead of waiting, report() and failure(). */
const prelude = `
import json, sys
sys.path.insert(0, sys.argv[1])
import research_tools
from research_tools import *
from research_tools.tools import *

sleeps = []

def record_sleep(seconds):
    sleeps.append(seconds)

def report(**values):
    print(json.dumps(values))

def failure(run):
    try:
        run()
    except ResearchToolsError as error:
        return {
            "class": type(error).__name__,
            "code": error.code,
            "status": error.status,
            "message": error.message,
            "retry_after": error.retry_after,
        }
    raise AssertionError("no ResearchToolsError was raised")
`;

function pythonVersion(): string | undefined {
  const result = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** `describe` for suites that run python3: skipped with a plain message when it is missing, failing instead in CI. */
export function describeWithPython(title: string, body: () => void): void {
  describe(title, function () {
    if (!pythonVersion()) {
      before(function () {
        if (process.env.CI) throw new Error(`${PYTHON} is missing, and CI runs the Python client's tests: install python3 (3.9 or newer)`);
        console.log(`Skipped: ${title} needs ${PYTHON} (3.9 or newer) on the PATH, or PYTHON naming one.`);
        this.skip();
      });
    }
    body();
  });
}

/** Removes the indentation the snippet has in the test's source. */
function dedent(code: string): string {
  const lines = code.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.match(/^ */)![0].length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

/**
 * Runs `code` after the prelude with only `env` (and PATH) in its environment, importing the client
 * from `folder` (default: clients/python), and answers the JSON object its last report() printed. A
 * Python exception fails the test with its traceback.
 */
export function runPython(code: string, env: Record<string, string> = {}, folder = clientFolder): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      ['-I', '-B', '-c', `${prelude}\n${dedent(code)}`, folder],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`python3 failed (${error.message.split('\n')[0]}):\n${stderr}`));
          return;
        }
        const reports = stdout.trim().split('\n').filter(Boolean);
        if (reports.length === 0) reject(new Error(`the snippet reported nothing:\n${stderr}`));
        else resolve(JSON.parse(reports.at(-1)!));
      },
    );
  });
}
