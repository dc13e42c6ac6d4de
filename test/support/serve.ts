/**
 * A server process for multi-process tests and the benchmark: the real server with the test
 * handlers. TEST_RENDER_DELAY_MS makes each figure take that long to render, so a test can stop the
 * server mid-render.
 */
import { BuiltinRenderer, type FigureRenderer } from '../../src/figures/renderer.ts';
import { exitOnStartupFailure, startFromEnvironment } from '../../src/main.ts';
import { stubHandlers } from './stub-handlers.ts';

/** Waits, then draws in this thread; closing it abandons the renders still waiting. */
class SlowRenderer implements FigureRenderer {
  private readonly waiting = new Set<() => void>();

  constructor(private readonly delayMs: number) {}

  async render(spec: Parameters<FigureRenderer['render']>[0]): ReturnType<FigureRenderer['render']> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(abandon);
        resolve();
      }, this.delayMs);
      const abandon = (): void => {
        clearTimeout(timer);
        reject(new Error('renderer closed'));
      };
      this.waiting.add(abandon);
    });
    return new BuiltinRenderer().render(spec);
  }

  async close(): Promise<void> {
    for (const abandon of this.waiting) abandon();
    this.waiting.clear();
  }
}

const delayMs = Number(process.env.TEST_RENDER_DELAY_MS ?? 0);
startFromEnvironment(stubHandlers(), delayMs > 0 ? new SlowRenderer(delayMs) : undefined).catch(exitOnStartupFailure);
