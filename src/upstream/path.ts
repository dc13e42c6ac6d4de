/**
 * Paths of upstream requests, built from a connector's fixed route and the identifiers it looks up:
 * path`/works/${doi}`. Each identifier is percent-encoded as one path segment, so a `/`, `?`, `#`,
 * `%`, `\` or space in it is data, never structure; keepSlashes(doi) encodes each `/`-separated
 * part instead, for sources that take a DOI with its slash. A part that is empty, `.` or `..` is
 * refused: HTTP clients resolve such segments (even percent-encoded), which would leave the route.
 * So no input can reach another path, query or host (the client checks the base as well).
 */
import { ApiError } from '../errors.ts';

/** An identifier whose `/` separates path segments (a DOI where the source takes `10.1234/abc` as is). */
export class KeepSlashes {
  constructor(readonly value: string) {}
}

export const keepSlashes = (value: string): KeepSlashes => new KeepSlashes(value);

type Identifier = string | number | KeepSlashes;

export function path(route: TemplateStringsArray, ...identifiers: Identifier[]): string {
  let built = route[0]!;
  identifiers.forEach((identifier, index) => {
    built += encodeIdentifier(identifier) + route[index + 1]!;
  });
  return built;
}

function encodeIdentifier(identifier: Identifier): string {
  const text = identifier instanceof KeepSlashes ? identifier.value : String(identifier);
  const parts = identifier instanceof KeepSlashes ? text.split('/') : [text];
  return parts
    .map((part) => {
      if (part === '' || part === '.' || part === '..') throw notAnIdentifier(text);
      return encodeURIComponent(part);
    })
    .join('/');
}

function notAnIdentifier(text: string): ApiError {
  const shown = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  return new ApiError('invalid_input', `${JSON.stringify(shown)} is not an identifier that can be looked up: it is empty or has an empty, "." or ".." part`);
}
