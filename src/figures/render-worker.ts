/** Worker-thread entry: renders the specs it is sent with the built-in renderer, one at a time. */
import { parentPort } from 'node:worker_threads';
import type { FigureSpec } from './model.ts';
import { BuiltinRenderer } from './renderer.ts';

const renderer = new BuiltinRenderer();

parentPort!.on('message', async (message: { id: number; spec: FigureSpec }) => {
  try {
    const figure = await renderer.render(message.spec);
    const png = new Uint8Array(figure.png).buffer;
    parentPort!.postMessage({ id: message.id, ok: true, png, svg: figure.svg, width: figure.width, height: figure.height }, [png]);
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
