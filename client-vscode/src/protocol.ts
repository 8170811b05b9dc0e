/** The `graphmind/blastRadius` request, as the server specifies it (plain JSON, LSP shapes). */

export const BLAST_RADIUS_METHOD = 'graphmind/blastRadius';

export type Confidence = 'extracted' | 'inferred' | 'ambiguous';
export const CONFIDENCES: readonly Confidence[] = ['extracted', 'inferred', 'ambiguous'];

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface LspLocation {
  uri: string;
  range: LspRange;
}

export interface BlastRadiusParams {
  textDocument?: { uri: string };
  position?: LspPosition;
  symbol?: string;
  maxDepth?: number;
  direction?: 'incoming' | 'outgoing';
  minConfidence?: Confidence;
  limit?: number;
}

export interface BlastSymbol {
  name: string;
  qualifiedName: string;
  /** LSP SymbolKind (1-based). */
  kind: number;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
  signature?: string | null;
}

export interface BlastItem extends BlastSymbol {
  depth: number;
  confidence: Confidence | string;
  /** Qualified names from the target to this item. */
  chain: string[];
  /** Where this item calls the previous hop. */
  callSites: LspLocation[];
}

export interface BlastRadiusResult {
  targets: BlastSymbol[];
  items: BlastItem[];
  total: number;
  truncated: boolean;
  complete: boolean;
  epoch?: number;
}

export interface BlastRadiusSettings {
  depth: number;
  minConfidence: Confidence;
}

export function normalizeBlastRadiusSettings(depth: unknown, minConfidence: unknown): BlastRadiusSettings {
  let d = typeof depth === 'number' && Number.isFinite(depth) ? Math.floor(depth) : 3;
  if (d < 1) {
    d = 1;
  }
  const c = CONFIDENCES.includes(minConfidence as Confidence) ? (minConfidence as Confidence) : 'inferred';
  return { depth: d, minConfidence: c };
}

export function buildBlastRadiusParams(
  uri: string,
  position: LspPosition,
  settings: BlastRadiusSettings,
): BlastRadiusParams {
  return {
    textDocument: { uri },
    position: { line: position.line, character: position.character },
    maxDepth: settings.depth,
    direction: 'incoming',
    minConfidence: settings.minConfidence,
  };
}
