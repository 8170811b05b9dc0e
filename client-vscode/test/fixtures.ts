import type { BlastItem, BlastRadiusResult, BlastSymbol, LspRange } from '../src/protocol';

export function range(line: number, start: number, end: number): LspRange {
  return { start: { line, character: start }, end: { line, character: end } };
}

export const target: BlastSymbol = {
  name: 'target',
  qualifiedName: 'a.target',
  kind: 12,
  uri: 'file:///ws/a.py',
  range: range(0, 0, 20),
  selectionRange: range(0, 4, 10),
  signature: 'def target()',
};

export function item(name: string, file: string, depth: number, siteLines: number[], extra: Partial<BlastItem> = {}): BlastItem {
  return {
    name,
    qualifiedName: `${file.replace('.py', '')}.${name}`,
    kind: 12,
    uri: `file:///ws/${file}`,
    range: range(2, 0, 30),
    selectionRange: range(2, 4, 4 + name.length),
    signature: `def ${name}()`,
    depth,
    confidence: 'inferred',
    chain: ['a.target', `${file.replace('.py', '')}.${name}`],
    callSites: siteLines.map((l) => ({ uri: `file:///ws/${file}`, range: range(l, 4, 10) })),
    ...extra,
  };
}

export function sampleResult(over: Partial<BlastRadiusResult> = {}): BlastRadiusResult {
  return {
    targets: [target],
    items: [
      item('caller2', 'c.py', 2, [4]),
      item('caller1', 'b.py', 1, [3]),
      item('helper', 'b.py', 1, [7, 9], { confidence: 'extracted' }),
    ],
    total: 3,
    truncated: false,
    complete: true,
    epoch: 1,
    ...over,
  };
}
