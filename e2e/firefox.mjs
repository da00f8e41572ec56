// @ts-check
// Debian's Firefox ESR through puppeteer-core (over WebDriver BiDi), which downloads nothing:
// the tabs' driver and the browser's launch.
import puppeteer from 'puppeteer-core';
import { existsSync } from 'node:fs';
import { allowed, assert, Tab } from './tab.mjs';

/**
 * @typedef {import('./tab.mjs').Driver} Driver
 * @typedef {import('./tab.mjs').Download} Download
 * @typedef {import('./tab.mjs').TabOptions} TabOptions
 */

const FIREFOX = process.env.PGBOOK_FIREFOX || (existsSync('/usr/bin/firefox-esr') ? '/usr/bin/firefox-esr' : '/usr/bin/firefox');

/**
 * A tab's window size and checks: its console errors, page errors and requests outside what it
 * may load.
 * @param {import('puppeteer-core').Page} page @param {Tab} tab
 * @param {{ viewport: { width: number, height: number }, deviceScaleFactor: number, file?: string }} options
 */
async function watch(page, tab, { viewport, deviceScaleFactor, file }) {
  await page.setViewport({ ...viewport, deviceScaleFactor });
  page.on('console', (msg) => {
    if (msg.type() === 'error') tab.problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => tab.problems.push(`page error: ${err instanceof Error ? err.message : err}`));
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (allowed(request.url(), file)) return void request.continue();
    tab.problems.push(`request outside ${file ?? '127.0.0.1'}: ${request.url()}`);
    void request.abort();
  });
}

/**
 * @param {import('puppeteer-core').BrowserContext} context
 * @param {import('puppeteer-core').Page} page
 * @param {() => Promise<void>} close
 * @param {{ viewport: { width: number, height: number }, deviceScaleFactor: number, file?: string }} options
 * @returns {Driver}
 */
function firefoxDriver(context, page, close, options) {
  return {
    beside: async (url) => {
      const other = await context.newPage();
      const tab = new Tab(
        'firefox',
        firefoxDriver(context, other, () => other.close(), options),
      );
      await watch(other, tab, options);
      await other.goto(url);
      return tab;
    },
    goto: async (url, until = 'load') => void (await page.goto(url, { waitUntil: until })),
    url: () => page.url(),
    eval: (fn, arg) => page.evaluate(/** @type {any} */ (fn), arg),
    waitFor: async (fn, arg, timeout) => (await page.waitForFunction(/** @type {any} */ (fn), { timeout, polling: 100 }, arg)).jsonValue(),
    click: (selector) => page.click(selector),
    clickButton: async (scope, text) => {
      // An exact match on the button's text, as the Chromium side's :text-is().
      const handle = await page.evaluateHandle(
        ([s, t]) => [...document.querySelectorAll(`${s} button`)].find((b) => b.textContent === t) ?? null,
        [scope, text],
      );
      const button = handle.asElement();
      assert(button, `no button «${text}» in ${scope}`);
      await /** @type {import('puppeteer-core').ElementHandle<Element>} */ (button).click();
    },
    // As Playwright's fill: the field's text replaced in one edit (one input event, as a paste
    // makes). puppeteer's locator types it key by key, a BiDi round trip per character: lesson
    // 9's exercises took 32 s in Firefox against 10 s in Chromium.
    fill: async (selector, text) => {
      const field = await page.waitForSelector(selector, { visible: true });
      assert(field, `no ${selector} to fill`);
      await field.evaluate((e, t) => {
        /** @type {HTMLInputElement} */ (e).focus();
        document.execCommand('selectAll');
        document.execCommand(t ? 'insertText' : 'delete', false, t);
      }, text);
      await field.dispose();
    },
    select: async (selector, value) => void (await page.select(selector, value)),
    press: async (selector, key) => {
      await page.focus(selector);
      await page.keyboard.press(/** @type {import('puppeteer-core').KeyInput} */ (key));
    },
    screenshotTo: async (path, selector) => {
      const png = /** @type {`${string}.png`} */ (path);
      if (!selector) return void (await page.screenshot({ path: png, fullPage: true }));
      const target = await page.$(selector);
      assert(target, `no ${selector} to screenshot`);
      await target.screenshot({ path: png });
    },
    // WebDriver BiDi has no download events in this Firefox: catch the file the page hands to
    // the browser (an <a download> click on a blob URL) and read it in the page.
    download: async (selector) => {
      await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.pgbookDownload = null;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.download) w.pgbookDownload = fetch(this.href).then(async (r) => ({ name: this.download, text: await r.text() }));
          else click.call(this);
        };
      });
      await page.click(selector);
      return /** @type {Promise<Download>} */ (page.evaluate(() => /** @type {any} */ (window).pgbookDownload));
    },
    tasks: null, // no trace of the main thread's tasks over WebDriver BiDi
    close,
  };
}

/** @param {boolean} serviceWorkers @param {boolean} reducedMotion */
export async function launchFirefox(serviceWorkers, reducedMotion) {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      // No traffic of Firefox's own on a closed network.
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'dom.serviceWorkers.enabled': serviceWorkers,
      // The system's «reduce motion» (BiDi cannot emulate the media feature).
      ...(reducedMotion ? { 'ui.prefersReducedMotion': 1 } : {}),
    },
  });
  return {
    name: 'firefox',
    /** @param {string} url @param {TabOptions} [options] @returns {Promise<Tab>} */
    async open(url, { viewport = { width: 1100, height: 900 }, deviceScaleFactor = 2, file } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const tab = new Tab(
        'firefox',
        firefoxDriver(context, page, () => context.close(), { viewport, deviceScaleFactor, file }),
      );
      await watch(page, tab, { viewport, deviceScaleFactor, file });
      await page.goto(url);
      return tab;
    },
    close: () => browser.close(),
  };
}
