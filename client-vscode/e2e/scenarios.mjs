// Drives code-server (started by run.sh) with playwright-core + Debian Chromium.
// Scenarios: Show Call Hierarchy, Go to Definition, Find All References (VS Code's
// standard providers), and "GraphMind: Blast radius of symbol" with its peek action.
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run e2e/run.sh)`);
  return v;
};
const CACHE = env('E2E_CACHE');
const URL = env('E2E_URL');
const ARTIFACTS = env('E2E_ARTIFACTS');
const WORKSPACE = env('E2E_WORKSPACE');
const CODE_SERVER_PID = Number(env('E2E_CODE_SERVER_PID'));
const LOGS = env('E2E_LOGS');
const DEADLINE = Number(process.env.E2E_DEADLINE_MS || Date.now() + 300_000);
const { chromium } = createRequire(join(CACHE, 'package.json'))('playwright-core');

mkdirSync(ARTIFACTS, { recursive: true });
const t0 = Date.now();
const log = (msg) => console.error(`[scenarios +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Retries `fn` until it returns a truthy value or `ms` pass (never past the deadline). */
async function until(what, fn, { ms = 30_000, every = 500 } = {}) {
  const end = Math.min(Date.now() + ms, DEADLINE - 10_000);
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${last.message.split('\n')[0]})` : ''}`);
    }
    await sleep(every);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

const browser = await chromium.launchPersistentContext(env('E2E_PROFILE'), {
  executablePath: env('E2E_CHROMIUM'),
  headless: true,
  viewport: { width: 1280, height: 720 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = browser.pages()[0] ?? (await browser.newPage());
page.setDefaultTimeout(15_000);

async function shot(name) {
  const file = join(ARTIFACTS, `${name}.png`);
  await page.mouse.move(1000, 600); // away from anything with a hover
  await sleep(300);
  await page.screenshot({ path: file });
  log(`screenshot ${file}`);
}

/** Rows of the side bar's tree(s): [{label (aria-label), level, text}]. */
async function sidebarRows() {
  return page.$$eval('.part.sidebar .monaco-list-row', (els) =>
    els.map((e) => ({
      label: (e.getAttribute('aria-label') ?? '').trim(),
      level: Number(e.getAttribute('aria-level') ?? 0),
      text: (e.textContent ?? '').trim(),
    })),
  );
}

async function sidebarTitle() {
  return (await page.locator('.part.sidebar .composite.title').first().textContent().catch(() => ''))?.trim() ?? '';
}

async function logRows(label) {
  const rows = await sidebarRows();
  log(`${label} [${await sidebarTitle()}]:\n    ${rows.map((r) => `L${r.level} ${r.label || r.text}`).join('\n    ')}`);
  return rows;
}

/**
 * Runs a palette command by its exact title. The palette snapshots the command list when it
 * opens and extension commands can arrive a moment later: close and reopen until it shows.
 */
async function runCommand(title, { attempts = 10 } = {}) {
  for (let i = 1; i <= attempts; i++) {
    // A key press can be lost while focus moves (a view closing): then try the other key.
    await page.keyboard.press(i % 2 ? 'F1' : 'Control+Shift+P');
    const input = page.locator('.quick-input-widget input');
    const opened = await input.waitFor({ state: 'visible', timeout: 4_000 }).then(() => true, () => false);
    if (!opened) {
      log(`palette: did not open for "${title}" (attempt ${i})`);
      await page.keyboard.press('Escape');
      continue;
    }
    if (!(await input.fill(`>${title}`, { timeout: 4_000 }).then(() => true, () => false))) {
      log(`palette: could not type "${title}" (attempt ${i})`);
      await page.keyboard.press('Escape');
      continue;
    }
    const row = page.locator('.quick-input-list .monaco-list-row').filter({
      has: page.locator('.label-name', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });
    try {
      await row.first().waitFor({ state: 'visible', timeout: 2_500 });
      await row.first().click();
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      return;
    } catch {
      log(`palette: "${title}" not listed yet (attempt ${i})`);
      await page.keyboard.press('Escape');
      await sleep(1_000);
    }
  }
  throw new Error(`command "${title}" never showed in the palette`);
}

/** The GraphMind server processes started under our code-server (from /proc). */
function serverProcesses() {
  const parent = new Map();
  const cmd = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(d), readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // gone
    }
  }
  const under = (pid) => {
    for (let p = parent.get(pid); p && p > 1; p = parent.get(p)) if (p === CODE_SERVER_PID) return true;
    return false;
  };
  return [...cmd.entries()].filter(([pid, c]) => /graphmind/.test(c) && /\bserve\b/.test(c) && under(pid)).map(([pid]) => pid);
}

/** The text of the GraphMind output channel, as VS Code saves it under the user data logs. */
function graphmindLog() {
  const found = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (/-GraphMind\.log$/.test(e.name)) found.push(join(dir, e.name));
    }
  };
  walk(LOGS);
  return found.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/** Clears the Blast Radius view, and checks that it is empty (so later checks can't pass on old rows). */
async function clearBlastRadius() {
  await runCommand('GraphMind: Focus on Blast Radius View');
  const targets = () => page.locator('.part.sidebar .monaco-list-row[aria-label^="Target "]').count();
  if (await until('the Blast Radius view', async () => /blast radius/i.test(await sidebarTitle()), { ms: 5_000 }).then(targets)) {
    await runCommand('GraphMind: Clear Blast Radius');
  }
  await until('an empty Blast Radius view', async () => (await targets()) === 0, { ms: 5_000 });
}

/**
 * Opens a workspace file from the Explorer and puts the cursor at line:col (1-based). The side bar
 * may switch back to the Blast Radius view while we do (the view reveals itself when an answer
 * arrives): then the Explorer's rows are detached, and we show the Explorer and try again.
 */
async function openAt(file, line, col) {
  const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${file}"]`);
  const active = async () => (await page.locator('.tabs-container .tab.active').getAttribute('aria-label'))?.startsWith(file);
  await until(`${file} opened from the Explorer`, async () => {
    if (!(await row.isVisible())) await page.keyboard.press('Control+Shift+e');
    await row.dblclick({ timeout: 3_000 });
    return until(`${file} to be the active editor`, active, { ms: 3_000 });
  });
  await goTo(line, col);
}

/**
 * Writes a top-level workspace file and waits until the Explorer lists it: its rows move, and a
 * double click on a file meanwhile would open the wrong one.
 */
async function createFile(file, text) {
  writeFileSync(join(WORKSPACE, file), text);
  await page.keyboard.press('Control+Shift+e');
  await until(`${file} in the Explorer`, async () =>
    (await page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${file}"]`).count()) > 0,
  );
}

/** Deletes a top-level workspace file and waits until the Explorer's rows stop moving. */
async function deleteFile(file) {
  rmSync(join(WORKSPACE, file), { force: true });
  await page.keyboard.press('Control+Shift+e');
  await until(`${file} gone from the Explorer`, async () =>
    (await page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${file}"]`).count()) === 0,
  );
}

async function goTo(line, col) {
  await page.keyboard.press('Control+g');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${col}`);
  // Enter before the quick input has parsed the text is ignored: wait for it first.
  await until('go-to-line to parse', async () => (await input.getAttribute('aria-label'))?.includes(`Go to line ${line} and character ${col}`), {
    ms: 5_000,
    every: 100,
  });
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 5_000 });
  await until(`cursor at ${line}:${col}`, async () => (await cursorText()) === `Ln ${line}, Col ${col}`, { ms: 5_000 });
}

async function cursorText() {
  return ((await page.locator('.statusbar-item[id="status.editor.selection"]').textContent().catch(() => '')) ?? '').trim();
}

async function activeTab() {
  return (await page.locator('.tabs-container .tab.active').getAttribute('aria-label').catch(() => '')) ?? '';
}

/** Drags the side bar's edge so tree rows (signatures) aren't cut off in the screenshots. */
async function widenSidebar(width = 520) {
  const sb = await page.locator('.part.sidebar').boundingBox();
  if (!sb || sb.width >= width) return;
  const y = sb.y + sb.height / 2;
  await page.mouse.move(sb.x + sb.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(sb.x + width, y, { steps: 5 });
  await page.mouse.up();
}

const results = [];
const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : undefined;
async function scenario(name, fn) {
  const start = Date.now();
  if (ONLY && !ONLY.test(name)) return;
  if (page.isClosed() || Date.now() > DEADLINE - 15_000) {
    results.push({ name, ok: false, s: 0, error: 'not run: out of time (GRAPHMIND_E2E_TIMEOUT)' });
    return;
  }
  log(`--- ${name}`);
  try {
    await fn();
    results.push({ name, ok: true, s: (Date.now() - start) / 1000 });
    log(`ok: ${name} (${((Date.now() - start) / 1000).toFixed(1)}s)`);
  } catch (err) {
    results.push({ name, ok: false, s: (Date.now() - start) / 1000, error: err.message });
    log(`FAILED: ${name}: ${err.stack ?? err}`);
    await logRows('side bar at failure').catch(() => {});
    await shot(`failure-${name.replace(/\W+/g, '-')}`).catch(() => {});
    writeFileSync(join(ARTIFACTS, `failure-${name.replace(/\W+/g, '-')}.html`), await page.content().catch(() => ''));
    await page.keyboard.press('Escape').catch(() => {});
  }
}

try {
  await page.goto(URL);
  await page.waitForSelector('.monaco-workbench', { timeout: 30_000 });
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 30_000 });
  log('workbench ready');
  await widenSidebar().catch((err) => log(`could not widen the side bar: ${err.message}`));

  await scenario('Show Call Hierarchy lists the callers', async () => {
    await openAt('a.py', 1, 6);
    // Retried until the server has indexed the workspace and answers.
    await until(
      'caller1 in the Callers view',
      async () => {
        await goTo(1, 6);
        await runCommand('Calls: Show Call Hierarchy');
        return until(
          'call hierarchy rows',
          async () => {
            const rows = await sidebarRows();
            if (rows.some((r) => /No results/i.test(r.text))) return 'none';
            return rows.find((r) => r.label.startsWith('caller1')) ? 'found' : undefined;
          },
          { ms: 5_000 },
        ).then((v) => v === 'found', () => false);
      },
      { ms: 90_000, every: 2_000 },
    );
    const title = await sidebarTitle();
    let rows = await logRows('call hierarchy');
    assert(/references|call/i.test(title), `side bar shows the call hierarchy (title "${title}")`);
    assert(/Callers Of/i.test(await page.locator('.part.sidebar').textContent()), 'the view says "Callers Of"');
    const root = rows.find((r) => /^target\b/.test(r.label));
    const caller1 = rows.find((r) => r.label.startsWith('caller1'));
    assert(root && root.level === 1, 'the hierarchy is rooted at target');
    assert(caller1.level === root.level + 1, 'caller1 is a direct caller of target');
    // Expand caller1: its caller caller2 appears one level deeper.
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'caller1' }).first().click();
    await page.keyboard.press('ArrowRight');
    rows = await until('caller2 under caller1', async () => {
      const r = await sidebarRows();
      return r.find((x) => x.label.startsWith('caller2')) ? r : undefined;
    });
    await logRows('call hierarchy expanded');
    const c2 = rows.find((r) => r.label.startsWith('caller2'));
    assert(c2.level === caller1.level + 1, 'caller2 is a caller of caller1');
    await shot('call-hierarchy');
  });

  await scenario('Indexing progress comes through work-done progress', async () => {
    // The fixture indexes in milliseconds, too fast to catch on screen: check the trace.
    const text = await until('the progress in the GraphMind log', async () => {
      const t = graphmindLog();
      return /"kind": "end"/.test(t) ? t : undefined;
    });
    assert(/Received request 'window\/workDoneProgress\/create/.test(text), 'the server asked for a progress token');
    assert(/Sending response 'window\/workDoneProgress\/create/.test(text), 'the client accepted it');
    assert(/"title": "GraphMind: indexing"/.test(text) && /"kind": "begin"/.test(text), 'an indexing progress began');
  });

  await scenario('Go to Definition jumps to the definition', async () => {
    await openAt('b.py', 5, 13);
    await until(
      'a.py to open at target',
      async () => {
        if (!(await activeTab()).startsWith('b.py')) await openAt('b.py', 5, 13);
        await runCommand('Go to Definition');
        return until('definition', async () => (await activeTab()).startsWith('a.py') && (await cursorText()).startsWith('Ln 1,'), {
          ms: 3_000,
        }).catch(() => false);
      },
      { ms: 30_000, every: 1_000 },
    );
  });

  await scenario('Find All References lists the call site', async () => {
    await openAt('a.py', 1, 6);
    await runCommand('References: Find All References');
    await until('b.py in the references view', async () => (await sidebarRows()).some((x) => /^b\.py/.test(x.text)));
    // The view expands only the first file: expand b.py to see the call site.
    const rows = await until('the call in b.py', async () => {
      const r = await sidebarRows();
      if (r.some((x) => /return target\(\) \+ 1/.test(x.label))) return r;
      await page.locator('.part.sidebar .monaco-list-row', { hasText: /^b\.py/ }).first().click();
      await page.keyboard.press('ArrowRight');
      return undefined;
    });
    await logRows('references');
    assert(!rows.some((x) => /^c\.py/.test(x.text)), 'c.py does not reference target');
  });

  await scenario('GraphMind: Blast radius of symbol', async () => {
    await openAt('a.py', 1, 6);
    await runCommand('GraphMind: Blast radius of symbol');
    const rows = await until('the Blast Radius tree', async () => {
      const r = await sidebarRows();
      return r.some((x) => x.label.startsWith('caller2,')) ? r : undefined;
    });
    await logRows('blast radius');
    const title = await sidebarTitle();
    assert(/blast radius/i.test(title), `side bar shows the Blast Radius view (title "${title}")`);
    const labels = rows.map((r) => r.label);
    const idx = (re) => labels.findIndex((l) => re.test(l));
    const iTarget = idx(/^Target target, 2 callers within 3 hops, a\.py:1$/);
    const iD1 = idx(/^Depth 1, 1 caller$/);
    const iC1 = idx(/^caller1, depth 1, b\.py:5, /);
    const iD2 = idx(/^Depth 2, 1 caller$/);
    const iC2 = idx(/^caller2, depth 2, c\.py:5, /);
    assert(iTarget === 0, 'the target with the total is the first row');
    assert(0 < iD1 && iD1 < iC1 && iC1 < iD2 && iD2 < iC2, `rows in order target, Depth 1, caller1, Depth 2, caller2: ${labels.join(' | ')}`);
    assert(rows[iC1].level === rows[iD1].level + 1 && rows[iC2].level === rows[iD2].level + 1, 'callers nest under their depth');
    assert(!labels.some((l) => /^Warning/.test(l)), 'no truncation/incompleteness warning for the fixture');
    await shot('blast-radius');

    // Clicking a caller opens its call site.
    await page.locator('.part.sidebar .monaco-list-row[aria-label^="caller2, depth 2"]').click();
    await until('c.py at the call site', async () => (await activeTab()).startsWith('c.py') && (await cursorText()).startsWith('Ln 5,'));
  });

  await scenario('Blast radius peek shows the call sites', async () => {
    await runCommand('GraphMind: Peek Blast Radius Call Sites');
    const peek = page.locator('.peekview-widget');
    await peek.first().waitFor({ state: 'visible' });
    await until('b.py and c.py in the peek', async () => {
      const text = (await peek.first().textContent()) ?? '';
      return /b\.py/.test(text) && /c\.py/.test(text);
    });
    assert((await activeTab()).startsWith('a.py'), 'the peek is anchored at the target in a.py');
    await shot('blast-radius-peek');
    await page.keyboard.press('Escape');
  });

  await scenario('Edit, then click a Blast Radius row: it lands on the call', async () => {
    await clearBlastRadius();
    await openAt('a.py', 1, 6);
    await runCommand('GraphMind: Blast radius of symbol');
    await until('caller1 at b.py:5', async () => (await sidebarRows()).some((x) => /^caller1, depth 1, b\.py:5, /.test(x.label)));
    // Three lines above the call in b.py, not saved: the row follows the unsaved text.
    await openAt('b.py', 1, 1);
    try {
      for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
      // Opening b.py showed the Explorer: the hidden view is stale and asks again when it shows.
      await runCommand('GraphMind: Focus on Blast Radius View');
      await until('caller1 moved to b.py:8', async () => (await sidebarRows()).some((x) => /^caller1, depth 1, b\.py:8, /.test(x.label)), {
        ms: 10_000,
      });
      await logRows('blast radius after the edit');
      await shot('blast-radius-after-edit');
      await page.locator('.part.sidebar .monaco-list-row[aria-label^="caller1, depth 1"]').click();
      await until('b.py at the moved call', async () => (await activeTab()).startsWith('b.py') && (await cursorText()).startsWith('Ln 8,'));
    } finally {
      // Leave b.py as it was for the scenarios after this one.
      // (code-server may have auto-saved it: delete the three lines and save.)
      await openAt('b.py', 1, 1);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Delete');
      await page.keyboard.press('Control+s');
    }
    await runCommand('GraphMind: Focus on Blast Radius View');
    await until('caller1 back at b.py:5', async () => (await sidebarRows()).some((x) => /^caller1, depth 1, b\.py:5, /.test(x.label)), {
      ms: 10_000,
    });
  });

  await scenario('The status bar says the server is ready', async () => {
    const item = page.locator('.statusbar-item', { hasText: /GraphMind/ }).first();
    await until('a ready GraphMind status bar item', async () => (await item.locator('.codicon-check').count()) > 0, { ms: 20_000 });
  });

  await scenario('The "N callers" code lens opens the blast radius', async () => {
    await clearBlastRadius();
    await openAt('a.py', 1, 6);
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /^1 (known )?caller\b/ });
    await until('the code lens on target', async () => (await lens.count()) > 0, { ms: 20_000 });
    await lens.first().click();
    await until('the Blast Radius tree from the lens', async () =>
      (await sidebarRows()).some((x) => /^Target target, 2 callers within 3 hops, a\.py:1$/.test(x.label)),
    );
  });

  await scenario('Include Possible Callers: the toggle asks for ambiguous calls too', async () => {
    await clearBlastRadius();
    await openAt('d.py', 2, 9); // Cat.speak: chorus calls animal.speak(), which is Cat's or Dog's
    await runCommand('GraphMind: Blast radius of symbol');
    await until('the target Cat.speak', async () => (await sidebarRows()).some((x) => /^Target speak, /.test(x.label)));
    let rows = await logRows('Cat.speak, known callers only');
    assert(!rows.some((x) => /^chorus, /.test(x.label)), 'chorus is not a known caller');
    const on = page.locator('.part.sidebar .action-label[aria-label^="Include Possible Callers"]');
    if (await on.count()) await on.first().click();
    else await runCommand('GraphMind: Include Possible Callers');
    rows = await until('chorus as a possible caller', async () => {
      const r = await sidebarRows();
      return r.some((x) => /^chorus, depth 1, d\.py:12, possible/.test(x.label)) ? r : undefined;
    });
    await logRows('Cat.speak, possible callers included');
    assert(rows.some((x) => /^Target speak, 2 callers within 3 hops \(0 known, 2 possible\)/.test(x.label)), 'the target row counts them as possible');
    // d.py calls chorus only inside `if __name__ == "__main__":` (the server says inMainGuard)
    assert(rows.some((x) => /^if __name__ == "__main__" blocks, 1 file$/.test(x.label)), 'the script entry point is grouped under __main__ blocks');
    assert(!rows.some((x) => /^Module-level code/.test(x.label)), 'not under ordinary module-level code');
    await until('the title bar offers to exclude them again', async () =>
      (await page.locator('.part.sidebar .action-label[aria-label^="Exclude Possible Callers"]').count()) > 0,
    );
    await shot('blast-radius-possible-callers');
    await runCommand('GraphMind: Exclude Possible Callers');
    await until('chorus gone again', async () => !(await sidebarRows()).some((x) => /^chorus, /.test(x.label)));
  });

  await scenario('Hide __main__ Blocks: the filter leaves script entry points out', async () => {
    // Continues from the toggle scenario's view (Cat.speak, possible callers excluded again).
    await runCommand('GraphMind: Include Possible Callers');
    await until('the __main__ blocks group', async () => (await sidebarRows()).some((x) => /^if __name__ == "__main__" blocks/.test(x.label)));
    await runCommand('GraphMind: Hide __main__ Blocks');
    const rows = await until('the group hidden, and counted on its depth', async () => {
      const r = await sidebarRows();
      return !r.some((x) => /^if __name__ == "__main__" blocks/.test(x.label)) && r.some((x) => /^Depth 2, 0 callers \(\+1 in __main__ blocks, hidden\)$/.test(x.label))
        ? r
        : undefined;
    });
    await logRows('Cat.speak, __main__ blocks hidden');
    assert(rows.some((x) => /^chorus, depth 1, /.test(x.label)), 'other callers stay');
    await shot('blast-radius-main-blocks-hidden');
    await runCommand('GraphMind: Show __main__ Blocks');
    await until('the group back', async () => (await sidebarRows()).some((x) => /^if __name__ == "__main__" blocks/.test(x.label)));
    await runCommand('GraphMind: Exclude Possible Callers');
  });

  await scenario('The lens counts possible callers, and opens a view that groups module-level code', async () => {
    await clearBlastRadius();
    await openAt('e.py', 2, 9);
    const lenses = async () =>
      (await page.locator('.monaco-editor .codelens-decoration a').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    // Bird.sing: solo() calls it, concert's performer.sing() may; Whale.sing: only may; bow: an
    // unresolved x.stage().bow() may; encore: nothing could ("0 callers" only then)
    const titles = await until('the lenses of e.py', async () => {
      const t = await lenses();
      return t.includes('1 caller · 1 possible') && t.includes('0 callers') ? t : undefined;
    }, { ms: 20_000 });
    log(`lenses of e.py: ${titles.join(' | ')}`);
    assert(titles.filter((t) => t === '0 known callers · 1 possible').length === 2, 'Whale.sing and bow read "0 known callers · 1 possible"');
    assert(!titles.some((t) => /indexing/.test(t)), 'the index is complete');
    await shot('lens-possible-callers');
    await page.locator('.monaco-editor .codelens-decoration a', { hasText: /^1 caller · 1 possible$/ }).first().click();
    const rows = await until('the Blast Radius tree from the lens', async () => {
      const r = await sidebarRows();
      return r.some((x) => /^Target sing, 2 callers within 3 hops · 1 more possible, e\.py:2$/.test(x.label)) && r.some((x) => /^Module-level code/.test(x.label))
        ? r
        : undefined;
    });
    await logRows('Bird.sing');
    assert(rows.some((x) => /^Warning: 1 possible caller not shown$/.test(x.label)), 'a row says a possible caller is left out');
    assert(rows.some((x) => /^Module-level code, 1 file$/.test(x.label)), "e.py's top-level solo() is module-level code");
    assert(rows.some((x) => /^module level of e\.py, depth 2, e\.py:27, extracted$/.test(x.label)), 'one row per file, labelled with its path');
    assert(!rows.some((x) => /__main__/.test(x.label)), 'no __main__ block here');
    await shot('blast-radius-module-level');
  });

  await scenario('Unresolved calls: the warning row lists the call sites, a click opens one', async () => {
    await clearBlastRadius();
    await openAt('e.py', 23, 6);
    await runCommand('GraphMind: Blast radius of symbol');
    const warning = page.locator('.part.sidebar .monaco-list-row[aria-label^="Warning: 1 unresolved call named \\"bow\\""]');
    await until('the unresolved warning row', async () => (await warning.count()) > 0);
    assert((await sidebarRows()).some((x) => /^No known callers/.test(x.label)), 'no caller is known, and the view does not say "No callers found"');
    await warning.first().click();
    const call = page.locator('.part.sidebar .monaco-list-row[aria-label="Unresolved call bow, e.py:20"]');
    await until('the unresolved call site listed', async () => (await call.count()) > 0);
    const text = ((await call.first().textContent()) ?? '').trim();
    assert(/in e\.encore/.test(text) && /return x\.stage\(\)\.bow\(\)/.test(text), `the row names the caller and quotes the line ("${text}")`);
    await logRows('unresolved calls of bow');
    await shot('blast-radius-unresolved-calls');
    await openAt('a.py', 1, 1);
    await runCommand('GraphMind: Focus on Blast Radius View');
    await call.first().click();
    await until('e.py at the unresolved call', async () => (await activeTab()).startsWith('e.py') && (await cursorText()).startsWith('Ln 20,'));
  });

  await scenario('Doc notes that name the target show at the top of the view', async () => {
    // At the top level: a file created with its folder is not always reported by the file watcher.
    await createFile('why.md', '# Why target returns 42\n\nSee `a.target`; `b.caller1` adds one.\n');
    try {
      await clearBlastRadius();
      await openAt('a.py', 1, 6);
      const found = await until(
        'the Notes group',
        async () => {
          await runCommand('GraphMind: Blast radius of symbol');
          return until('notes', async () => (await sidebarRows()).some((x) => /^Notes, 1 document names this code$/.test(x.label)), {
            ms: 3_000,
          }).catch(() => false);
        },
        { ms: 20_000, every: 1_000 },
      ).catch((err) => {
        if (/"notes":/.test(graphmindLog())) throw err;
        return 'unsupported';
      });
      if (found === 'unsupported') {
        log('skipped: this server sends no notes in graphmind/blastRadius');
        return;
      }
      const rows = await logRows('blast radius with notes');
      const labels = rows.map((r) => r.label);
      const iTarget = labels.findIndex((l) => /^Target target, /.test(l));
      const iNotes = labels.findIndex((l) => /^Notes, /.test(l));
      const iNote = labels.findIndex((l) => /^Note Why target returns 42, why\.md:3$/.test(l));
      const iD1 = labels.findIndex((l) => /^Depth 1/.test(l));
      assert(iTarget === 0 && iNotes === 1 && iNote === 2 && iD1 > iNote, `the note right under the target, above the callers: ${labels.join(' | ')}`);
      await shot('blast-radius-notes');
      await page.locator('.part.sidebar .monaco-list-row[aria-label^="Note Why target returns 42"]').click();
      await until('the note opened at its mention', async () => (await activeTab()).startsWith('why.md') && (await cursorText()).startsWith('Ln 3,'));
    } finally {
      await runCommand('View: Close All Editors');
      await deleteFile('why.md');
    }
    await clearBlastRadius();
  });

  await scenario('The editor context menu has Blast radius of symbol', async () => {
    await clearBlastRadius();
    await openAt('b.py', 1, 1);
    const word = page.locator('.monaco-editor .view-line span span', { hasText: /^caller1$/ }).first();
    const item = page.getByRole('menuitem', { name: /^Blast radius of symbol/ }).first();
    await until(
      'the Blast Radius tree for caller1 (from the context menu)',
      async () => {
        await page.keyboard.press('Escape');
        await word.click({ button: 'right' });
        await item.waitFor({ state: 'visible' });
        await sleep(300); // the menu ignores clicks while it is still opening
        await item.click();
        return until('the tree', async () => (await sidebarRows()).some((x) => /^Target caller1, 1 caller within 3 hops, b\.py:4$/.test(x.label)), {
          ms: 4_000,
        }).catch(() => false);
      },
      { ms: 40_000, every: 500 },
    );
    await logRows('blast radius of caller1 (context menu)');
  });

  await scenario('A crashed server is restarted and answers again', async () => {
    const pids = serverProcesses();
    assert(pids.length === 1, `one server process under code-server (found ${pids.join(', ') || 'none'})`);
    process.kill(pids[0], 'SIGKILL');
    log(`killed the server (pid ${pids[0]})`);
    await until('a new server process', async () => serverProcesses().some((p) => p !== pids[0]), { ms: 20_000 });
    await clearBlastRadius();
    await openAt('a.py', 1, 6);
    await until(
      'a blast radius from the new server',
      async () => {
        await runCommand('GraphMind: Blast radius of symbol');
        return until('the tree', async () => (await sidebarRows()).some((x) => /^caller2, depth 2/.test(x.label)), { ms: 4_000 }).catch(
          () => false,
        );
      },
      { ms: 40_000, every: 1_000 },
    );
  });

  await scenario('GraphMind: Restart Server, then it answers again', async () => {
    await runCommand('GraphMind: Restart Server');
    await clearBlastRadius();
    await openAt('c.py', 4, 6);
    await until(
      'a blast radius from the restarted server',
      async () => {
        await runCommand('GraphMind: Blast radius of symbol');
        return until('caller2 as the target', async () => (await sidebarRows()).some((x) => /^Target caller2, 0 callers within 3 hops, c\.py:4$/.test(x.label)), {
          ms: 5_000,
        }).catch(() => false);
      },
      { ms: 60_000, every: 1_000 },
    );
    await until('"No callers found" for caller2', async () => (await sidebarRows()).some((x) => /^No callers found/.test(x.label)));
    await logRows('blast radius of caller2');
  });

  // graphmind/changes (issue 11) comes with `graphmind changes`: skipped for a server without it.
  const serverHasChanges = (() => {
    try {
      const base = (process.env.E2E_SERVER_CMD ?? '').replace(/\s+serve\b.*$/, '');
      return !!base && /\bchanges\b/.test(execSync(`${base} --help`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return false;
    }
  })();
  await scenario('GraphMind: Impact of my changes lists the changed code, its callers and the tests to run', async () => {
    if (!serverHasChanges) {
      log('skipped: this server has no graphmind/changes');
      return;
    }
    // After the restart scenarios: let the server finish its index before files appear.
    const ready = page.locator('.statusbar-item', { hasText: /GraphMind/ }).first();
    await until('a ready server', async () => (await ready.locator('.codicon-check').count()) > 0, { ms: 30_000 });
    const git = (...args) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...args], { cwd: WORKSPACE, stdio: 'ignore' });
    // at the top level, as the note above
    await createFile('test_c.py', 'from c import caller2\n\n\ndef test_caller2():\n    assert caller2() == 86\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    try {
      await clearBlastRadius();
      await openAt('a.py', 2, 5);
      await page.keyboard.press('End');
      await page.keyboard.type(' + 0'); // unsaved: the server compares the buffer
      const rows = await until(
        'the impact of the change',
        async () => {
          await runCommand('GraphMind: Impact of my changes');
          return until('the rows', async () => {
            const r = await sidebarRows();
            return r.some((x) => /^Test test_caller2, pytest, test_c\.py:4, depth 3$/.test(x.label)) ? r : undefined;
          }, { ms: 5_000 }).catch(() => undefined);
        },
        { ms: 40_000, every: 1_000 },
      );
      await logRows('impact of my changes');
      const labels = rows.map((r) => r.label);
      const idx = (re) => labels.findIndex((l) => re.test(l));
      const iBase = idx(/^Changes against HEAD, [0-9a-f]{7} · 1 file changed \(unsaved text included\)$/);
      const iChanged = idx(/^Changed target, modified, a\.py:1$/);
      const iC1 = idx(/^caller1, depth 1, b\.py:5, extracted$/);
      const iC2 = idx(/^caller2, depth 2, c\.py:5, extracted$/);
      const iTests = idx(/^Tests, 1 test$/);
      const iTest = idx(/^Test test_caller2, /);
      assert(iBase === 0, `the base is the first row: ${labels.join(' | ')}`);
      assert(0 < iChanged && iChanged < iC1 && iC1 < iC2 && iC2 < iTests && iTests < iTest, `changed, then callers by depth, then tests: ${labels.join(' | ')}`);
      assert(!labels.some((l) => /^test_caller2, depth/.test(l)), 'the test is listed under Tests, not among the callers');
      await shot('impact-of-changes');
      await page.locator('.part.sidebar .monaco-list-row[aria-label^="Test test_caller2"]').click();
      await until('the test opened', async () => (await activeTab()).startsWith('test_c.py') && (await cursorText()).startsWith('Ln 4,'));
    } finally {
      // Leave a.py and the workspace as they were for the scenarios after this one.
      await openAt('a.py', 2, 1);
      await page.keyboard.press('Shift+End');
      await page.keyboard.type('    return 42');
      await page.keyboard.press('Control+s');
      await runCommand('View: Close All Editors'); // an open buffer would keep test_c.py in the index
      await deleteFile('test_c.py');
      rmSync(join(WORKSPACE, '.git'), { recursive: true, force: true });
    }
    await clearBlastRadius();
    await openAt('a.py', 1, 6);
    await until(
      'the deleted test gone from the blast radius',
      async () => {
        await runCommand('GraphMind: Blast radius of symbol');
        return until('2 callers', async () => (await sidebarRows()).some((x) => /^Target target, 2 callers within 3 hops, a\.py:1$/.test(x.label)), {
          ms: 3_000,
        }).catch(() => false);
      },
      { ms: 30_000, every: 1_000 },
    );
    await clearBlastRadius();
  });

  await scenario('A second window: the first keeps its server and answers', async () => {
    const before = serverProcesses();
    assert(before.length === 1, `one server process before (found ${before.join(', ') || 'none'})`);
    const page2 = await browser.newPage();
    try {
      await page2.goto(URL);
      await page2.waitForSelector('.monaco-workbench', { timeout: 30_000 });
      await page2.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 30_000 });
      // The extension starts with a source file: the second window may restore no editor (the
      // first holds the workspace's state lock, so it gets fresh state), so open one there.
      const row2 = page2.locator('.explorer-folders-view .monaco-list-row[aria-label="a.py"]');
      await row2.waitFor({ state: 'visible', timeout: 30_000 });
      await row2.dblclick();
      await until("the second window's server", async () => serverProcesses().length >= 2, { ms: 60_000 });
      await sleep(3_000); // configuration events from the second window arrive in this time
      assert(serverProcesses().includes(before[0]), "the first window's server still runs (was not restarted)");
      assert(!/restarting the server/.test(graphmindLog()), 'no window restarted its server');
      assert(!/Could not find/.test(graphmindLog()), 'the server command from the User settings was found');
    } finally {
      await page2.close().catch(() => {});
    }
    await page.bringToFront();
    await clearBlastRadius();
    await openAt('a.py', 1, 6);
    await runCommand('GraphMind: Blast radius of symbol');
    await until('the first window still answers', async () =>
      (await sidebarRows()).some((x) => /^Target target, 2 callers within 3 hops, a\.py:1$/.test(x.label)),
    );
    await runCommand('GraphMind: Restart Server');
    await until('a restarted server from the User settings', async () => {
      const now = serverProcesses();
      return !now.includes(before[0]) && now.length >= 1;
    });
    await sleep(1_000);
    assert(!/Could not find/.test(graphmindLog()), 'Restart Server finds the command from the User settings too');
  });

  // Last: breaks the server setting on purpose (the extension restarts the server on change).
  const setServerCommand = (command) => {
    const file = join(WORKSPACE, '.vscode', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    settings['graphmind.server.command'] = command;
    writeFileSync(file, JSON.stringify(settings, null, 2));
  };
  const toastWith = async (text) => {
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const message = ((await toast.locator('.notification-list-item-message').textContent()) ?? '').trim();
    log(`notification: ${message}`);
    for (const action of ['Open Settings', 'Show Log', 'Restart Server']) {
      assert((await toast.locator('.monaco-button', { hasText: action }).count()) === 1, `offers "${action}"`);
    }
    return { toast, message };
  };

  await scenario('A server that exits while starting gives an error quoting it', async () => {
    setServerCommand(`/bin/sh -c "echo 'graphmind: simulated start failure' >&2; exit 3"`);
    const { toast, message } = await toastWith('simulated start failure');
    assert(/^The GraphMind server failed to start \(\/bin\/sh -c .*\): graphmind: simulated start failure/.test(message), 'quotes stderr');
    assert(/Run ".*" in a terminal to see why/.test(message), 'says how to investigate');
    await toast.locator('.codicon-notifications-clear, .codicon-close').first().click().catch(() => {});
  });

  await scenario('A server that cannot be found gives an error with the fix', async () => {
    setServerCommand('/nonexistent/bin/graphmind serve');
    const { message } = await toastWith('/nonexistent/bin/graphmind');
    assert(/does not exist or is not executable/.test(message), 'says what is wrong');
    assert(/Fix the path in "graphmind\.server\.command"/.test(message), 'says how to fix it');
    assert(/\(tried graphmind\.server\.command = "\/nonexistent\/bin\/graphmind serve" \(Workspace settings\)\)/.test(message), 'names the command tried and where it came from');
    await shot('server-error');
    // With the server down the lenses go, and the status bar and the Blast Radius view say so.
    await page.keyboard.press('Escape');
    await openAt('a.py', 1, 6);
    await until('no code lens while the server is down', async () => (await page.locator('.monaco-editor .codelens-decoration a').count()) === 0, {
      ms: 10_000,
    });
    await until('"GraphMind: stopped" in the status bar', async () => (await page.locator('.statusbar-item', { hasText: /GraphMind: stopped/ }).count()) > 0);
    await runCommand('GraphMind: Focus on Blast Radius View');
    await until('the view says the server is not running', async () =>
      /server is not running/i.test((await page.locator('.part.sidebar').textContent()) ?? ''),
    );
    await shot('server-down');
  });
} catch (err) {
  results.push({ name: 'setup', ok: false, error: err.message });
  log(`FAILED: ${err.stack ?? err}`);
  await shot('failure').catch(() => {});
} finally {
  await browser.close().catch(() => {});
}

const failed = results.filter((r) => !r.ok);
writeFileSync(join(ARTIFACTS, 'results.json'), JSON.stringify(results, null, 2) + '\n');
for (const r of results) {
  console.log(`${r.ok ? 'ok' : 'not ok'} - ${r.name} (${r.s?.toFixed(1) ?? '?'}s)${r.ok ? '' : `: ${r.error}`}`);
}
console.log(`e2e: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length || results.length === 0 ? 1 : 0);
