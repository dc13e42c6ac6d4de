/** SVG → PNG with resvg, using only the font files the project ships (system fonts are never loaded). */
import { Resvg } from '@resvg/resvg-js';
import { FONT_FAMILY, fontFiles } from './font.ts';

export function svgToPng(svg: string, width: number): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: Object.values(fontFiles),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
    background: 'white',
    shapeRendering: 2,
    textRendering: 1,
  });
  return resvg.render().asPng();
}
