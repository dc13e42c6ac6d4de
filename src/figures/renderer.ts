/**
 * The renderer interface: a figure spec in, an image out. The built-in renderer draws the graph
 * itself (ELK layout, SVG, resvg PNG); a hosted image model could be plugged in behind the same
 * interface. `WorkerThreadRenderer` runs any renderer module in worker threads so rendering never
 * blocks the request loop.
 */
import { drawFigure } from './draw.ts';
import { PNG_SCALE, type FigureSpec } from './model.ts';
import { svgToPng } from './png.ts';

export interface RenderedFigure {
  png: Buffer;
  /** The vector original, when the renderer has one. */
  svg?: string;
  /** PNG size in pixels. */
  width: number;
  height: number;
}

export interface FigureRenderer {
  render(spec: FigureSpec): Promise<RenderedFigure>;
  /** Frees what the renderer holds (worker threads); called when the server stops. */
  close?(): Promise<void>;
}

/** Draws in the calling thread; use it inside a worker (see render-worker.ts) or in scripts. */
export class BuiltinRenderer implements FigureRenderer {
  async render(spec: FigureSpec): Promise<RenderedFigure> {
    const drawing = await drawFigure(spec);
    const width = drawing.width * PNG_SCALE;
    const height = drawing.height * PNG_SCALE;
    return { png: svgToPng(drawing.svg, width), svg: drawing.svg, width, height };
  }
}
