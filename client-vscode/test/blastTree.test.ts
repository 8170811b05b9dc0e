import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allCallSites,
  BlastRadiusTreeProvider,
  childNodes,
  groupByDepth,
  rootNodes,
  symbolKindIcon,
  toTreeItem,
  type BlastNode,
} from '../src/blastTree';
import type { BlastQuery } from '../src/blastTree';
import * as vscode from './vscode-stub';
import { item, sampleResult, target } from './fixtures';

const rel = (uri: string) => uri.replace('file:///ws/', '');
const query: BlastQuery = {
  uri: 'file:///ws/a.py',
  position: { line: 0, character: 5 },
  settings: { depth: 3, minConfidence: 'inferred' },
  word: 'target',
};

function labels(nodes: BlastNode[]): string[] {
  return nodes.map((n) => {
    const t = toTreeItem(n, rel);
    return t.description ? `${t.label} | ${t.description}` : String(t.label);
  });
}

describe('result -> tree', () => {
  it('puts the target with the total first, then callers grouped by depth', () => {
    const roots = rootNodes(sampleResult(), query);
    assert.deepEqual(labels(roots), [
      'target | 3 callers within 3 hops · a.py:1',
      'Depth 1 | 2 direct callers',
      'Depth 2 | 1 caller',
    ]);
    assert.deepEqual(labels(childNodes(roots[1])), [
      'caller1 | b.py:4 · inferred · def caller1()',
      'helper | b.py:8 (+1) · extracted · def helper()',
    ]);
    assert.deepEqual(labels(childNodes(roots[2])), ['caller2 | c.py:5 · inferred · def caller2()']);
  });

  it('depth groups are expanded, items with several call sites expand to them', () => {
    const roots = rootNodes(sampleResult(), query);
    const depth1 = toTreeItem(roots[1], rel);
    assert.equal(depth1.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const [caller1, helper] = childNodes(roots[1]);
    assert.equal(toTreeItem(caller1, rel).collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.equal(toTreeItem(helper, rel).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(labels(childNodes(helper)), ['b.py:8 | call 1 of 2', 'b.py:10 | call 2 of 2']);
    assert.deepEqual(childNodes(caller1), []);
  });

  it('clicking a caller opens its call site', () => {
    const roots = rootNodes(sampleResult(), query);
    const caller1 = toTreeItem(childNodes(roots[1])[0], rel);
    assert.equal(caller1.command?.command, 'vscode.open');
    const [uri, options] = caller1.command!.arguments!;
    assert.equal(uri.toString(), 'file:///ws/b.py');
    assert.deepEqual(options.selection, new vscode.Range(3, 4, 3, 10));
    const t = toTreeItem(roots[0], rel);
    assert.deepEqual(t.command!.arguments![1].selection, new vscode.Range(0, 4, 0, 10));
  });

  it('an item without call sites opens its definition', () => {
    const res = sampleResult({ items: [item('lonely', 'd.py', 1, [])], total: 1 });
    const row = toTreeItem(childNodes(rootNodes(res, query)[1])[0], rel);
    assert.equal(row.description, 'd.py:3 · inferred · def lonely()');
    assert.deepEqual(row.command!.arguments![1].selection, new vscode.Range(2, 4, 2, 10));
  });

  it('tooltips carry the signature, chain and confidence', () => {
    const row = toTreeItem(childNodes(rootNodes(sampleResult(), query)[1])[0], rel);
    const md = (row.tooltip as unknown as vscode.MarkdownString).value;
    assert.match(md, /def caller1\(\)/);
    assert.match(md, /Path: a\.target ← b\.caller1/);
    assert.match(md, /confidence \*\*inferred\*\*/);
    assert.equal(row.accessibilityInformation?.label, 'caller1, depth 1, b.py:4, inferred, def caller1()');
  });

  it('warns when truncated or incomplete', () => {
    const roots = rootNodes(sampleResult({ truncated: true, complete: false, total: 40 }), query);
    assert.deepEqual(labels(roots).slice(0, 3), [
      'target | 40 callers within 3 hops · a.py:1',
      'Truncated: showing 3 of 40 callers',
      'May be incomplete: unresolved calls could also reach this symbol',
    ]);
    const warn = toTreeItem(roots[1], rel);
    assert.equal((warn.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(roots[3].type, 'depth');
  });

  it('truncated with total equal to the items shown still warns', () => {
    const roots = rootNodes(sampleResult({ truncated: true }), query);
    assert.equal(labels(roots)[1], 'Truncated: the server stopped at its limit (3 shown)');
  });

  it('null result says there is no symbol at the cursor', () => {
    const roots = rootNodes(null, query);
    assert.equal(roots.length, 1);
    assert.equal(toTreeItem(roots[0], rel).label, 'No symbol found at the cursor "target".');
  });

  it('no callers says so, with the search settings', () => {
    const roots = rootNodes(sampleResult({ items: [], total: 0 }), query);
    assert.deepEqual(labels(roots), [
      'target | 0 callers within 3 hops · a.py:1',
      'No callers found | Searched 3 levels deep, confidence ≥ inferred.',
    ]);
  });

  it('several targets: each listed, then one total row', () => {
    const other = { ...target, name: 'target', qualifiedName: 'z.target', uri: 'file:///ws/z.py' };
    const roots = rootNodes(sampleResult({ targets: [target, other] }), query);
    assert.deepEqual(labels(roots).slice(0, 3), ['target | a.py:1', 'target | z.py:1', 'Total: 3 callers | of 2 targets']);
  });

  it('groups by ascending depth keeping server order inside a depth', () => {
    const groups = groupByDepth(sampleResult().items);
    assert.deepEqual([...groups.keys()], [1, 2]);
    assert.deepEqual(groups.get(1)!.map((i) => i.name), ['caller1', 'helper']);
  });

  it('ids are unique', () => {
    const ids: string[] = [];
    const walk = (nodes: BlastNode[]) => {
      for (const n of nodes) {
        ids.push(n.id);
        walk(childNodes(n));
      }
    };
    walk(rootNodes(sampleResult(), query, 7));
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every((id) => id.startsWith('7:')));
  });

  it('collects every call site once, in tree order, for the peek', () => {
    const res = sampleResult();
    res.items.push(item('caller1', 'b.py', 1, [3]));
    const sites = allCallSites(res).map((s) => `${rel(s.uri)}:${s.range.start.line + 1}`);
    assert.deepEqual(sites, ['b.py:4', 'b.py:8', 'b.py:10', 'c.py:5']);
    assert.deepEqual(allCallSites(null), []);
  });

  it('maps LSP symbol kinds to icons', () => {
    assert.equal(symbolKindIcon(12), 'symbol-function');
    assert.equal(symbolKindIcon(6), 'symbol-method');
    assert.equal(symbolKindIcon(5), 'symbol-class');
    assert.equal(symbolKindIcon(999), 'symbol-misc');
  });

  it('the provider fires a change and serves the roots, and clears', () => {
    const provider = new BlastRadiusTreeProvider(rel);
    let fired = 0;
    provider.onDidChangeTreeData(() => fired++);
    assert.deepEqual(provider.getChildren(), []);
    provider.setResult(query, sampleResult());
    assert.equal(fired, 1);
    assert.equal(provider.getChildren().length, 3);
    assert.equal(provider.getChildren(provider.getChildren()[1]).length, 2);
    assert.equal(provider.getTreeItem(provider.getChildren()[0]).label, 'target');
    assert.ok(provider.hasContent);
    provider.clear();
    assert.equal(fired, 2);
    assert.deepEqual(provider.getChildren(), []);
    assert.equal(provider.result, null);
  });
});
