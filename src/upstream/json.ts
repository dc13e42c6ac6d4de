/**
 * JSON.parse that keeps integers beyond JavaScript's safe range exact: such a literal (outside
 * strings) becomes a decimal string before parsing, so a 64-bit id such as Gaia's source_id
 * (6636090334814214528) arrives as "6636090334814214528" instead of a rounded number.
 */
const UNSAFE_DIGITS = 16; // Number.MAX_SAFE_INTEGER has 16 digits; longer literals are never safe

export function parseJsonKeepingBigIntegers(text: string): unknown {
  let out = '';
  let copiedUpTo = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      index += 1;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c /* \ */) index += 2;
        else if (inner === 0x22) {
          index += 1;
          break;
        } else index += 1;
      }
      continue;
    }
    if (char === 0x2d /* - */ || (char >= 0x30 && char <= 0x39)) {
      const start = index;
      index += 1;
      while (index < length && isNumberChar(text.charCodeAt(index))) index += 1;
      const literal = text.slice(start, index);
      const digits = literal.startsWith('-') ? literal.length - 1 : literal.length;
      if (/^-?\d+$/.test(literal) && digits >= UNSAFE_DIGITS && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(copiedUpTo, start)}"${literal}"`;
        copiedUpTo = index;
      }
      continue;
    }
    index += 1;
  }
  return JSON.parse(copiedUpTo === 0 ? text : out + text.slice(copiedUpTo));
}

function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d;
}
