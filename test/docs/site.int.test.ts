/**
 * The reference site (`npm run docs`), as a person uses it, in a real browser: Debian's chromium
 * driven by playwright-core, the site served on loopback.
 * - The search box finds `messages.create`; its hit opens the method, with its signature, route
 *   and example.
 * - Every page, script, stylesheet and image the site links to is there (no 404), and every
 *   `#anchor` a link names is on its page (once the page's scripts ran); the crawl reaches every
 *   page TypeDoc wrote.
 * - A screenshot of the method page is kept for a person to look at:
 *   test-artifacts/site/messages-create.png (git ignores test-artifacts/).
 *
 * The site is the one in site/ (CI builds it just before the tests: `npm run docs`); the test
 * builds it there when it is missing. Debian's chromium is installed first where it is missing
 * (test/support/chromium.ts).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/site/build.ts';
import { ensureChromium } from '../support/chromium.ts';
import { serveFolder, type StaticSite } from '../support/static-site.ts';

const root = join(import.meta.dirname, '..', '..');
const siteDir = join(root, 'site');
const artifacts = join(root, 'test-artifacts', 'site');
/** More than the site has (about 500 pages and assets): a crawl that reaches it has gone astray. */
const MAX_CRAWL = 3000;

let browser: Browser;
let site: StaticSite;
let page: Page;

beforeAll(async () => {
  const executablePath = await ensureChromium();
  if (!existsSync(join(siteDir, 'index.html'))) {
    const built = await buildSite(root, siteDir);
    if (!built.ok) throw new Error(`site test: \`npm run docs\` failed: ${built.problem}`);
  }
  site = await serveFolder(siteDir);
  // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the reference site in a browser', () => {
  it("finds messages.create in the search box, and its hit shows the signature, the route, the example and the link to Discord's document", async () => {
    await page.goto(`${site.url}/index.html`);
    // The box searches once its index has loaded (its status, "Preparing search index...", then
    // empties); what is typed before that finds nothing until typed again.
    await page.waitForFunction(() => document.getElementById('tsd-search-status')?.textContent === '');
    await page.click('#tsd-search-trigger');
    await page.fill('#tsd-search-input', 'messages.create');
    const hit = page.locator('#tsd-search-results li a', { hasText: 'ChannelsMessagesApi' }).first();
    await hit.waitFor({ timeout: 10_000 });
    await hit.click();
    await page.waitForURL(/ChannelsMessagesApi\.html#create$/);

    const method = page.locator('section.tsd-member:has(> #create)');
    const signature = (await method.locator('.tsd-signature').first().innerText()).replace(/\s+/g, ' ');
    expect(signature).toBe(
      'create<T = APIMessage>( channelId: Snowflake, body: WithFiles<RESTPostAPIChannelMessageJSONBody> | FormData, options?: RequestOptions, ): ApiPromise<T>',
    );
    const text = await method.innerText();
    expect(text).toContain('POST /channels/{channel_id}/messages');
    expect(text).toContain("await client.channels.messages.create('81384788765712384', { content: 'Hello' });");
    // The link to Discord's document, beside the operation it follows there.
    const link = method.locator('a', { hasText: "Discord's OpenAPI document" }).first();
    expect(await link.getAttribute('href')).toBe(
      'https://github.com/discord/discord-api-spec/blob/main/specs/openapi.json',
    );
    expect(text).toContain("Discord's OpenAPI document: create_message");

    // The method from its name down to its example, below the page's fixed toolbar.
    await method.evaluate((section) => {
      section.scrollIntoView();
      window.scrollBy(0, -60);
    });
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'messages-create.png') });
  });

  it('links to nothing that is not there: every page, asset and anchor, and every page is reached', async () => {
    await page.goto(`${site.url}/index.html`);
    // Inside the page: the browser's own fetch, and its own parser to read each page's links.
    const crawl = await page.evaluate(async (max) => {
      const origin = location.origin;
      const queue = [`${origin}/index.html`];
      const seen = new Set(queue);
      const pages = new Map<string, Set<string>>();
      const anchors: { from: string; to: string; id: string }[] = [];
      const broken: { from: string; to: string; status: number }[] = [];
      const from = new Map<string, string>();
      while (queue.length > 0 && seen.size <= max) {
        const url = queue.shift()!;
        const response = await fetch(url);
        if (!response.ok) {
          broken.push({ from: from.get(url) ?? '(start)', to: url, status: response.status });
          continue;
        }
        if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) continue;
        const document = new DOMParser().parseFromString(await response.text(), 'text/html');
        pages.set(url, new Set([...document.querySelectorAll('[id]')].map((element) => element.id)));
        const targets = [
          ...[...document.querySelectorAll('a[href], link[href]')].map((element) => element.getAttribute('href')!),
          ...[...document.querySelectorAll('script[src], img[src]')].map((element) => element.getAttribute('src')!),
        ];
        for (const target of targets) {
          const resolved = new URL(target, url);
          if (resolved.origin !== origin) continue;
          const id = decodeURIComponent(resolved.hash.slice(1));
          resolved.hash = '';
          const bare = resolved.href;
          if (id !== '') anchors.push({ from: url, to: bare, id });
          if (!seen.has(bare)) {
            seen.add(bare);
            from.set(bare, url);
            queue.push(bare);
          }
        }
      }
      const missingAnchors = anchors.filter(({ to, id }) => pages.has(to) && !pages.get(to)!.has(id));
      return { fetched: seen.size, pages: [...pages.keys()], broken, missingAnchors, unfinished: queue.length };
    }, MAX_CRAWL);

    expect(crawl.unfinished, `the crawl stopped at ${MAX_CRAWL} URLs`).toBe(0);
    expect(crawl.broken).toEqual([]);
    // What the pages' own scripts asked for (the search index, the navigation) counts too; the
    // browser asks for /favicon.ico by itself, and the site names no icon.
    expect(site.missing.filter((path) => path !== '/favicon.ico')).toEqual([]);
    // A page may make an anchor with a script when the link is followed (hierarchy.html does):
    // such a link is followed, and its anchor looked for once the page's scripts ran.
    const missingAnchors = [];
    for (const anchor of crawl.missingAnchors) {
      await page.goto(`${anchor.to}#${anchor.id}`, { waitUntil: 'networkidle' });
      if ((await page.locator(`[id="${anchor.id}"]`).count()) === 0) missingAnchors.push(anchor);
    }
    expect(missingAnchors).toEqual([]);
    const written = readdirSync(siteDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.html'),
    );
    const reached = new Set(crawl.pages.map((url) => decodeURIComponent(new URL(url).pathname.slice(1))));
    expect(written.filter((file) => !reached.has(file.split('\\').join('/')))).toEqual([]);
  }, 900_000);
});
