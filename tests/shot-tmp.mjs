// Quick look: serve www and screenshot the Animate panel parts.
import { chromium } from 'playwright-core';
import http from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
const root = '/work/main/www';
const types = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.gltf': 'model/gltf+json', '.bvh': 'text/plain' };
const server = http.createServer((req, res) => {
  let p = path.join(root, decodeURIComponent(req.url.split('?')[0]));
  if (existsSync(p) && statSync(p).isDirectory()) p = path.join(p, 'index.html');
  if (!existsSync(p)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(p)] ?? 'application/octet-stream' });
  res.end(readFileSync(p));
}).listen(8765);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--use-gl=swiftshader', '--enable-unsafe-swiftshader'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const url = process.argv[2] ?? '?e=path&mode=animate';
await page.goto(`http://localhost:8765/index.html${url}`);
await page.waitForFunction(() => window.skinlab?.lab);
await page.waitForTimeout(500);
const script = process.argv[3];
if (script) await page.evaluate(script);
await page.waitForTimeout(800);
await page.screenshot({ path: '/tmp/work/shot.png', fullPage: false });
const sel = process.argv[4];
if (sel) await (await page.$(sel)).screenshot({ path: '/tmp/work/part.png' });
console.log('errors:', errors);
await browser.close();
server.close();
