/** The five visual styles: palette, strokes, corner radii and text treatment. */
import type { FigureStyle } from './model.ts';

export interface StyleSheet {
  background: string;
  /** Node colours, assigned by layer so the eye follows the flow. */
  palette: string[];
  /** How strongly a node's fill is its palette colour (1) versus white (0). */
  fillStrength: number;
  nodeStroke: 'palette' | string;
  nodeStrokeWidth: number;
  textColor: string | 'contrast';
  fontWeight: 400 | 500 | 600 | 700;
  edgeColor: string;
  edgeWidth: number;
  cornerRadius: number;
  shadow: boolean;
  accent: string;
  mutedText: string;
  groupFill: string;
  groupStroke: string;
}

export const STYLES: Record<FigureStyle, StyleSheet> = {
  // Nature-family figures: restrained palette, light tints, thin dark outlines.
  nature: {
    background: '#FFFFFF',
    palette: ['#3C5488', '#4DBBD5', '#00A087', '#E64B35', '#F39B7F', '#8491B4', '#91D1C2', '#7E6148'],
    fillStrength: 0.16,
    nodeStroke: 'palette',
    nodeStrokeWidth: 1.6,
    textColor: '#1B1B1B',
    fontWeight: 500,
    edgeColor: '#3A3A3A',
    edgeWidth: 1.8,
    cornerRadius: 10,
    shadow: false,
    accent: '#E64B35',
    mutedText: '#555555',
    groupFill: '#F5F7FA',
    groupStroke: '#C9D1DC',
  },
  // Cell Press-like: warmer, more saturated fills, bold outlines, soft shadows.
  cell: {
    background: '#FFFFFF',
    palette: ['#2A9D8F', '#E9C46A', '#F4A261', '#E76F51', '#264653', '#8AB17D', '#6D597A'],
    fillStrength: 0.42,
    nodeStroke: 'palette',
    nodeStrokeWidth: 2.8,
    textColor: '#111111',
    fontWeight: 600,
    edgeColor: '#264653',
    edgeWidth: 2.8,
    cornerRadius: 18,
    shadow: true,
    accent: '#E76F51',
    mutedText: '#3D3D3D',
    groupFill: '#FBF6EC',
    groupStroke: '#E2D3B5',
  },
  minimal_line: {
    background: '#FFFFFF',
    palette: ['#000000'],
    fillStrength: 0,
    nodeStroke: '#1F1F1F',
    nodeStrokeWidth: 1.3,
    textColor: '#1F1F1F',
    fontWeight: 400,
    edgeColor: '#1F1F1F',
    edgeWidth: 1.3,
    cornerRadius: 3,
    shadow: false,
    accent: '#000000',
    mutedText: '#5A5A5A',
    groupFill: 'none',
    groupStroke: '#9A9A9A',
  },
  flat_color: {
    background: '#FFFFFF',
    palette: ['#2E86DE', '#10AC84', '#8E44AD', '#EE5A24', '#C0392B', '#227093', '#F39C12'],
    fillStrength: 1,
    nodeStroke: 'none',
    nodeStrokeWidth: 0,
    textColor: 'contrast',
    fontWeight: 600,
    edgeColor: '#57606F',
    edgeWidth: 3.2,
    cornerRadius: 8,
    shadow: false,
    accent: '#F1C40F',
    mutedText: '#57606F',
    groupFill: '#F1F2F6',
    groupStroke: 'none',
  },
  textbook: {
    background: '#FFFDF6',
    palette: ['#5D4037', '#1565C0', '#2E7D32', '#AD1457', '#EF6C00'],
    fillStrength: 0.1,
    nodeStroke: 'palette',
    nodeStrokeWidth: 2.2,
    textColor: '#2B1D16',
    fontWeight: 600,
    edgeColor: '#3E2723',
    edgeWidth: 2.2,
    cornerRadius: 4,
    shadow: false,
    accent: '#C62828',
    mutedText: '#4E342E',
    groupFill: '#F7F0DE',
    groupStroke: '#BCAAA4',
  },
};

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`.toUpperCase();
}

/** `color` mixed with white: strength 1 is the colour itself, 0 is white. */
export function tint(color: string, strength: number): string {
  const [r, g, b] = channels(color);
  return toHex([255 + (r - 255) * strength, 255 + (g - 255) * strength, 255 + (b - 255) * strength]);
}

export function darken(color: string, amount: number): string {
  const [r, g, b] = channels(color);
  return toHex([r * (1 - amount), g * (1 - amount), b * (1 - amount)]);
}

/** Black or white, whichever reads better on `color`. */
export function contrastText(color: string): string {
  const [r, g, b] = channels(color).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.4 ? '#1B1B1B' : '#FFFFFF';
}

/** Colour names an edit may use. */
export const NAMED_COLORS: Record<string, string> = {
  red: '#D62728',
  blue: '#1F77B4',
  green: '#2CA02C',
  orange: '#FF7F0E',
  purple: '#9467BD',
  brown: '#8C564B',
  pink: '#E377C2',
  grey: '#7F7F7F',
  gray: '#7F7F7F',
  yellow: '#F2C500',
  teal: '#17A589',
  cyan: '#17BECF',
  navy: '#1F3A68',
  black: '#1B1B1B',
  magenta: '#C2185B',
  gold: '#D4A017',
};
