/**
 * What the client and the GraphMind server exchange beyond standard LSP (plain JSON, LSP shapes).
 * The server side of this contract is written down in issue15-server-contract.md; every field
 * marked "since issue 15" may be missing from an older server and the client copes without it.
 */

export const BLAST_RADIUS_METHOD = 'graphmind/blastRadius';
/** Request: the server's state (`ServerStatus`). */
export const STATUS_METHOD = 'graphmind/status';
/** Notification from the server when `ServerStatus.state` changes (since issue 15). */
export const STATUS_NOTIFICATION = 'graphmind/statusChanged';

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
  /** Most unresolved call sites to list in `unresolvedCalls` (since issue 15; server default 200). */
  unresolvedLimit?: number;
}

export interface BlastSymbol {
  name: string;
  qualifiedName: string;
  /** LSP SymbolKind (1-based); 2 (Module) for module-level code. */
  kind: number;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
  signature?: string | null;
  /** Display name of the enclosing class/module, e.g. "Console" (since issue 15). */
  container?: string | null;
}

export interface BlastItem extends BlastSymbol {
  depth: number;
  confidence: Confidence | string;
  /** Qualified names from the target to this item. */
  chain: string[];
  /** Where this item calls the previous hop. */
  callSites: LspLocation[];
  /**
   * Module-level code only: every call site of this item sits inside an
   * `if __name__ == "__main__":` block (a script/demo entry point) (since issue 15).
   */
  inMainGuard?: boolean;
}

/** A call site whose callee the server could not resolve, but whose name is a target's name. */
export interface UnresolvedCall extends LspLocation {
  /** The called name as written, e.g. "filter". */
  name: string;
  /** Qualified name of the function/method/module the call sits in. */
  caller?: string | null;
  /** The source line of the call, trimmed (for the tree row). */
  text?: string | null;
}

/** A Markdown note (an ADR, a design doc) that names a target or a caller (issue 12). */
export interface BlastNote {
  /** Workspace-relative, '/'-separated. */
  path: string;
  /** LSP answers only. */
  uri?: string;
  /** The first heading, else the file name. */
  title: string;
  /** 1-based line of the note's first mention of one of `symbols`. */
  line: number;
  /** Qualified names of the targets and items it names. */
  symbols: string[];
}

export interface BlastRadiusResult {
  targets: BlastSymbol[];
  items: BlastItem[];
  total: number;
  truncated: boolean;
  complete: boolean;
  /** Number of unresolved call sites that name a target (count; sent before issue 15 too). */
  unresolvedSites?: number;
  /** Those call sites, up to `unresolvedLimit` (since issue 15). */
  unresolvedCalls?: UnresolvedCall[];
  /**
   * How many more symbols the answer would hold (within maxDepth) with minConfidence "ambiguous";
   * 0 when minConfidence already is "ambiguous" (since issue 15).
   */
  possibleCallers?: number;
  /** The depth and confidence the server actually used (since issue 15). */
  maxDepth?: number;
  minConfidence?: Confidence;
  /** True while the workspace's first index is still being built: counts may be low (since issue 15). */
  indexing?: boolean;
  epoch?: number;
  /** Doc notes that name a target or a shown item, sorted by path (since issue 12). */
  notes?: BlastNote[];
}

/** `graphmind/status` (request) and `graphmind/statusChanged` (notification). */
export interface ServerStatus {
  ready: boolean;
  indexing: boolean;
  /** Files indexed so far and in total, while indexing (since issue 15, optional). */
  indexed?: number;
  totalFiles?: number;
  /** Per workspace folder (the request only). */
  folders?: Record<string, { store?: StoreStatus }>;
}

/**
 * With a shared store (issue 28): the snapshot that answers a folder's call questions and its
 * freshness, or why the local index answers.
 */
export interface StoreStatus {
  answeredFrom: 'snapshot' | 'local';
  /** One line: "snapshot 3 of 9faf80d39082 (2 commits behind HEAD, …) + overlay of 4 local files …", or "local index: <why>". */
  summary?: string;
  reason?: string;
  commit?: string;
  commitsBehind?: number;
  /** HEAD, the local files or the buffers moved: the snapshot answer is being made again. */
  updating?: boolean;
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

/** The settings with the view's "include possible callers" toggle applied. */
export function withPossibleCallers(settings: BlastRadiusSettings, includePossible: boolean): BlastRadiusSettings {
  return includePossible ? { ...settings, minConfidence: 'ambiguous' } : settings;
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

/** A module-level item (SymbolKind.Module): code at the top level of a file. */
export function isModuleLevel(sym: Pick<BlastSymbol, 'kind'>): boolean {
  return sym.kind === 2;
}

// ---------------------------------------------------------------------------------------------
// graphmind/changes (issue 11): the symbols changed since a git base (unsaved buffers included),
// their callers within the blast radius, and the tests in it. Lines are 1-based here, as in
// `graphmind changes --json`; entries carry a `uri`, call sites only a workspace-relative path.

export const CHANGES_METHOD = 'graphmind/changes';

export interface ChangesParams {
  /** Picks the workspace folder (the active editor's document). */
  textDocument?: { uri: string };
  /** A git ref; the server's default is the merge-base with the upstream or main branch, else HEAD. */
  base?: string;
  staged?: boolean;
  depth?: number;
  minConfidence?: Confidence;
  maxTokens?: number;
}

export interface ChangesBase {
  ref: string;
  commit: string;
  /** How the base was chosen, e.g. "HEAD (no upstream or main branch to compare with)". */
  how?: string;
}

/** A changed definition: added | removed | modified | signature. */
export interface ChangedSymbol {
  qualifiedName: string;
  kind: string;
  path: string;
  uri?: string;
  startLine: number;
  endLine?: number;
  change: string;
  signature?: string | null;
}

/** A test function within the radius (a changed test too, at depth 0). */
export interface AffectedTest {
  qualifiedName: string;
  path: string;
  uri?: string;
  startLine: number;
  /** pytest | unittest | go test | js test | rust test | junit … */
  kind: string;
  depth: number;
  chain: string[];
}

export interface ChangeSite {
  path: string;
  line: number;
  column?: number;
  kind?: string;
}

/** A caller in the radius (`confidence` "unresolved": it calls a removed definition). */
export interface AffectedSymbol {
  qualifiedName: string;
  name: string;
  kind: string;
  path: string;
  uri?: string;
  startLine: number;
  endLine?: number;
  signature?: string | null;
  container?: string | null;
  depth: number;
  confidence: string;
  chain: string[];
  callSites: ChangeSite[];
}

export interface ChangesResult {
  base: ChangesBase;
  staged?: boolean;
  depth?: number;
  files: string[];
  /** Open buffers whose unsaved text was compared. */
  buffers?: string[];
  root?: string;
  rootUri?: string;
  changed: ChangedSymbol[];
  tests: AffectedTest[];
  affected: AffectedSymbol[];
  complete: boolean;
  unresolvedSites?: number;
  weakEdges?: number;
  total?: number;
  shown?: number;
  truncated?: boolean;
}

export function buildChangesParams(uri: string | undefined, settings: BlastRadiusSettings): ChangesParams {
  return {
    ...(uri ? { textDocument: { uri } } : {}),
    depth: settings.depth,
    minConfidence: settings.minConfidence,
  };
}
