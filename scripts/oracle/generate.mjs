// Dev-only: Playwright as the oracle for the page engine (make oracle).
//
// It serves browser/testdata the way the Go tests do (/corpus/NAME and
// /oracle/NAME), runs real Playwright (playwright-core, pinned in
// package.json) with the Chromium the tests use, and writes what Playwright
// answers as golden files under browser/testdata/oracle:
//
//   selectors.golden.json  for every case of selectors.txt: the elements the
//                          selector matches (as paths, see pathOf) or the
//                          fact that Playwright refuses it
//   aria/KIND-NAME.yaml    page.ariaSnapshot() of every corpus and oracle page
//   VERSION                the Playwright and Chromium versions that wrote them
//
// The Go tests (browser/oracle_test.go) compare the engine with these files
// on every make test, without Node. CHROMIUM overrides the browser path.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = path.resolve(here, '../../browser/testdata');
const out = path.join(testdata, 'oracle');
const pageDirs = { corpus: path.join(testdata, 'corpus'), oracle: path.join(out, 'pages') };

// pathOf names an element by its position: tag:index from the document
// down, '#shadow' where the path enters a shadow root. The Go test names
// the engine's matches with the same function (oracle_test.go reads it from
// this file's PATH_OF block).
// PATH_OF begin
const PATH_OF = `(el) => {
  const parts = [];
  let n = el;
  while (n && n.nodeType === 1) {
    const parent = n.parentNode;
    const i = parent ? Array.prototype.indexOf.call(parent.children, n) : 0;
    parts.push(n.localName + ':' + i);
    if (parent && parent.nodeType === 11) { parts.push('#shadow'); n = parent.host; } else n = parent;
  }
  return parts.reverse().join('/');
}`;
// PATH_OF end

// The engine's own spellings of Playwright's getBy* locators, as Playwright
// writes them: label=, testid=, placeholder=, alt=, title= take the text
// forms of text= (unquoted: case-insensitive substring; quoted: exact;
// /re/flags).
const GET_BY = { label: 'internal:label', placeholder: 'internal:attr=[placeholder', alt: 'internal:attr=[alt',
  title: 'internal:attr=[title' };
function textArg(v) {
  if (/^\/.*\/[a-z]*$/.test(v)) return v;
  const m = /^(["'])(.*)\1(i?)$/.exec(v);
  if (m) return JSON.stringify(m[2]) + (m[3] ? 'i' : 's');
  return JSON.stringify(v) + 'i';
}
// A part that selects an <iframe> ("iframe[title=...]") is followed by
// Playwright's frame entry: the engine continues in the frame's document
// after such a part, where Playwright needs frameLocator() or this control.
function toPlaywright(selector, testIdAttr = 'data-testid') {
  const parts = selector.split(' >> ');
  return parts.map((part, i) => (/^iframe\b/.test(part) && i < parts.length - 1 ? part + ' >> internal:control=enter-frame' : part)).map((part) => {
    const m = /^(label|testid|placeholder|alt|title)=(.*)$/.exec(part);
    if (!m) return part;
    const [, engine, v] = m;
    if (engine === 'testid') return `internal:testid=[${testIdAttr}=${textArg(/^["']/.test(v) ? v : JSON.stringify(v)).replace(/i$/, 's')}]`;
    if (engine === 'label') return `internal:label=${textArg(v)}`;
    return `${GET_BY[engine]}=${textArg(v)}]`;
  }).join(' >> ');
}

function serve() {
  const server = http.createServer((req, res) => {
    const m = /^\/(corpus|oracle)\/([\w-]+)$/.exec(new URL(req.url, 'http://x').pathname);
    const file = m && path.join(pageDirs[m[1]], m[2] + '.html');
    if (!file || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// readCases parses selectors.txt: "# page KIND/NAME" switches the page,
// other lines starting with "# " (or only "#") are comments, every other
// line is a selector (so "#id" is a selector).
function readCases() {
  const cases = [];
  let page = '';
  for (const raw of fs.readFileSync(path.join(out, 'selectors.txt'), 'utf8').split('\n')) {
    const line = raw.trimEnd();
    const m = /^# page (\w+\/[\w-]+)$/.exec(line);
    if (m) { page = m[1]; continue; }
    if (!line || line === '#' || line.startsWith('# ')) continue;
    if (!page) throw new Error(`selectors.txt: ${JSON.stringify(line)} comes before any "# page" line`);
    cases.push({ page, selector: line });
  }
  return cases;
}

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const open = async (p) => {
    await page.goto(`${base}/${p}`);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  };

  const results = [];
  let at = '';
  for (const c of readCases()) {
    if (c.page !== at) { await open(c.page); at = c.page; }
    try {
      const match = await page.locator(toPlaywright(c.selector)).evaluateAll((els, src) => els.map((0, eval)(src)), PATH_OF);
      results.push({ page: c.page, selector: c.selector, playwright: toPlaywright(c.selector), match });
    } catch (e) {
      results.push({ page: c.page, selector: c.selector, playwright: toPlaywright(c.selector), error: String(e.message).split('\n')[0] });
    }
  }
  fs.writeFileSync(path.join(out, 'selectors.golden.json'), JSON.stringify(results, null, 1) + '\n');

  fs.rmSync(path.join(out, 'aria'), { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'aria'));
  let pages = 0;
  for (const [kind, dir] of Object.entries(pageDirs)) {
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort()) {
      const name = f.slice(0, -5);
      await open(`${kind}/${name}`);
      fs.writeFileSync(path.join(out, 'aria', `${kind}-${name}.yaml`), (await page.ariaSnapshot()) + '\n');
      pages++;
    }
  }
  const version = JSON.parse(fs.readFileSync(path.join(here, 'node_modules/playwright-core/package.json'), 'utf8')).version;
  fs.writeFileSync(path.join(out, 'VERSION'), `playwright-core ${version}\n${browser.version()}\n`);
  console.log(`oracle: ${results.length} selector cases, ${pages} pages, playwright-core ${version}, Chromium ${browser.version()}`);
} finally {
  await browser.close();
  server.close();
}
