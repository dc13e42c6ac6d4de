import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SERVER_NODE_FLAGS } from '../src/node-flags.ts';

describe("the server's Node flags", function () {
  it('npm start passes every one of them to the server process (V8 takes them only on the command line)', function () {
    const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(packageJson.scripts.start).to.equal(`node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`);
  });
});
