// <skin-lab>: Skinlab as an element for any page (Quarto, MkDocs, Jupyter's
// HTML, reveal.js), from this one module:
//
//   <script type="module" src="skinlab/skin-lab.js"></script>
//   <skin-lab example="y-junction" mode="weights" lang="de"></skin-lab>  (lang: en, de or zh)
//
// Each element is its own lab: a page instance (page.js) on its own copy of
// the page's markup (index.html's .skinlab, `ui=minimal` unless the `ui`
// attribute says otherwise) inside the element's shadow root, so neither
// the page's styles nor the host's leak across. There is no frame: all the
// labs on a page share one compiled core and one instance of it, one style
// sheet and one copy of the markup, and each keeps its own scene, view,
// modes, language, link and autosave record. A lab starts when its element
// first scrolls into view; off screen it draws nothing. Attributes are
// reflected as properties and may change at any time (example, mode, method
// and lang switch in place; the others start the lab again). The lab's API
// is on the element once it is ready: `await el.ready`, then
// `el.loadExample('tube')`, `el.lab`, … and the whole object as
// `el.skinlab`.
import { createPage } from './page.js';
import { addressOf } from './link.js';
import { languageOfTag } from './i18n.js';
import { assetText } from './assets.js';
import { remAsPixels } from './own-sizes.js';

/** Attributes that become the page's URL parameters. */
const PARAMETERS = ['example', 'mode', 'lesson', 'step', 'lang', 'method', 'tool', 'ui', 'projector', 'view', 'overlays', 'autosave'];

/** The lab's own page, beside this module: what an element's link and links point at. */
const PAGE = new URL('index.html', import.meta.url);

/**
 * The element's own box, around the lab: a block 16:10 (or the size its
 * width and height attributes give) from the moment the element is
 * defined, before its lab starts, so that a host lays it out once.
 */
const HOST_STYLE = `
  :host { display: block; position: relative; aspect-ratio: 16 / 10; min-height: 240px;
          background: #f3f4f6; border-radius: 6px; overflow: hidden; contain: content; }
  :host([hidden]) { display: none; }
  .waiting { position: absolute; inset: 0; display: grid; place-items: center;
             font: 14px system-ui, sans-serif; color: #6b7280; }
`;
const hostSheet = new CSSStyleSheet();
hostSheet.replaceSync(HOST_STYLE);

/** A width or height attribute as CSS: a number is pixels; a CSS length is taken as it is; else null. */
export function cssLength(value) {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return `${text}px`;
  if (/^\d+(\.\d+)?(px|em|rem|%|vw|vh|cm|mm|in|pt)$/.test(text)) return text;
  return null;
}

// A host lays its page out before this module defines the element (a deck
// at its start) or again when told its window resized (reveal.js does): an
// element whose size changed says so once a frame, for all of them.
let resizeTold = false;
function tellHostOfResize() {
  if (resizeTold) return;
  resizeTold = true;
  requestAnimationFrame(() => {
    resizeTold = false;
    window.dispatchEvent(new Event('resize'));
  });
}
const sizes = new WeakMap();
const sizeWatcher = new ResizeObserver((entries) => {
  for (const { target, contentRect } of entries) {
    const size = `${Math.round(contentRect.width)}×${Math.round(contentRect.height)}`;
    if (sizes.has(target) && sizes.get(target) !== size) tellHostOfResize();
    sizes.set(target, size);
  }
});

let shared = null;

/**
 * What every element on the page shares, fetched once: the page's markup
 * (index.html's .skinlab, our own file: its text is parsed, never a
 * stranger's) and its style sheet, constructed once and adopted by every
 * shadow root.
 */
function sharedParts() {
  shared ??= Promise.all([assetText('index.html'), assetText('style.css')]).then(([html, css]) => {
    const markup = new DOMParser().parseFromString(html, 'text/html').querySelector('.skinlab');
    if (!markup) throw new Error('index.html holds no .skinlab');
    withoutLandmarks(markup);
    // Links are the page's (the lecture notes beside index.html), not the
    // host page's, whose address a shadow root's links would resolve against.
    for (const link of markup.querySelectorAll('[href]')) link.setAttribute('href', new URL(link.getAttribute('href'), PAGE).href);
    const page = new CSSStyleSheet();
    // Sizes of the lab's own, not the host page's root font's.
    page.replaceSync(remAsPixels(css));
    return { markup, sheets: [page, hostSheet] };
  });
  return shared;
}

/**
 * The markup without landmarks of its own: on someone else's page the lab
 * is one region (the element), not a second banner, main and navigation.
 * Header, main and aside become plain blocks (their classes keep their
 * looks); the modes' navigation becomes a labelled group.
 */
function withoutLandmarks(markup) {
  for (const landmark of markup.querySelectorAll('header, main, aside, nav')) {
    const block = document.createElement('div');
    for (const { name, value } of landmark.attributes) block.setAttribute(name, value);
    if (landmark.localName === 'nav') block.setAttribute('role', 'group');
    block.append(...landmark.childNodes);
    landmark.replaceWith(block);
  }
  return markup;
}

/** How long an element taken off the page keeps its lab, in case it comes back (moved), ms. */
const RELEASE_MS = 1000;

// Elements numbered in the order they start: an element without an id
// keeps its autosave record under its number.
let started = 0;

/** Attributes of the element's box, not of its lab. */
const BOX_ATTRIBUTES = ['width', 'height'];

export class SkinLabElement extends HTMLElement {
  static observedAttributes = [...PARAMETERS, ...BOX_ATTRIBUTES];

  #page = null;
  #api = null;
  #releaseTimer = 0;
  // Fetching the shared markup, on the way to a lab.
  #starting = false;
  #observer = null;
  #number = 0;
  #resolveReady = null;
  /** Resolves to the lab's API once the lab has started. */
  ready = new Promise((resolve) => { this.#resolveReady = resolve; });

  #sizeSheet = new CSSStyleSheet();

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#sized();
    this.shadowRoot.adoptedStyleSheets = [hostSheet, this.#sizeSheet];
    this.#wait();
  }

  /**
   * The box from the width and height attributes (a number is pixels), as
   * :host rules, which the host page's own rules for the element override.
   * Both given, the box has that size; one given, 16:10 gives the other.
   */
  #sized() {
    const [width, height] = BOX_ATTRIBUTES.map((name) => cssLength(this.getAttribute(name)));
    const rules = [width && `width: ${width};`, height && `height: ${height};`, width && height && 'aspect-ratio: auto;'];
    this.#sizeSheet.replaceSync(`:host { ${rules.filter(Boolean).join(' ')} }`);
  }

  /** The placeholder shown until the lab starts. */
  #wait() {
    const waiting = document.createElement('div');
    waiting.className = 'waiting';
    waiting.textContent = 'Skinlab';
    this.shadowRoot.replaceChildren(waiting);
  }

  connectedCallback() {
    // Laid out by its host before it was defined, it has its size now.
    if (!sizes.has(this)) tellHostOfResize();
    sizeWatcher.observe(this);
    // Moved within the page: the lab goes on as it was.
    clearTimeout(this.#releaseTimer);
    if (this.#page || this.#observer || this.#starting) return;
    // Started the first time it is (nearly) on screen.
    this.#observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        this.#observer.disconnect();
        this.#observer = null;
        this.#start();
      }
    }, { rootMargin: '100px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    sizeWatcher.unobserve(this);
    sizes.delete(this);
    this.#observer?.disconnect();
    this.#observer = null;
    // Taken off the page (a site that swaps its content without a reload):
    // the lab is closed and its scene, viewer and GL context given back,
    // unless the element comes back at once (moved). Put back later, it
    // starts again from its attributes.
    if (this.#page) this.#releaseTimer = setTimeout(() => this.#release(), RELEASE_MS);
  }

  /** Closes the lab; the element waits to start again. */
  #release() {
    this.#page?.close();
    this.#page = null;
    this.#api = null;
    this.ready = new Promise((resolve) => { this.#resolveReady = resolve; });
    this.#wait();
  }

  /** The lab's API once started, else null. */
  get skinlab() {
    return this.#api;
  }

  /** Whether the lab is running (it starts when first scrolled into view). */
  get started() {
    return this.#page !== null;
  }

  /** The lab's page address with the element's attributes as its parameters. */
  #url() {
    const url = new URL(PAGE);
    const parameters = new URLSearchParams();
    for (const name of PARAMETERS) {
      const value = this.getAttribute(name);
      if (value !== null) parameters.set(name, value);
    }
    if (!parameters.has('ui')) parameters.set('ui', 'minimal');
    // Without a lang of its own, the lab speaks the host page's language
    // where it can (<html lang="de-AT"> gives German), else the browser's.
    const spoken = languageOfTag(this.closest('[lang]')?.getAttribute('lang'));
    if (!parameters.has('lang') && spoken) parameters.set('lang', spoken);
    // An element on someone's page saves nothing unless asked to.
    if (!parameters.has('autosave')) parameters.set('autosave', '0');
    url.search = parameters.toString();
    return url.href;
  }

  async #start() {
    this.#starting = true;
    if (!this.#number) {
      started += 1;
      this.#number = started;
    }
    // One region of the host page, named unless the page names it.
    if (!this.hasAttribute('role')) this.setAttribute('role', 'region');
    if (!this.hasAttribute('aria-label') && !this.hasAttribute('aria-labelledby')) {
      this.setAttribute('aria-label', this.getAttribute('title') ?? `Skinlab ${this.#number}`);
    }
    const root = this.shadowRoot;
    let parts;
    try {
      parts = await sharedParts();
    } catch (error) {
      this.#starting = false;
      root.querySelector('.waiting').textContent = `Skinlab: ${error.message}`;
      return;
    }
    this.#starting = false;
    // Taken off the page meanwhile: started when it is back on screen.
    if (!this.isConnected) return;
    root.adoptedStyleSheets = [...parts.sheets, this.#sizeSheet];
    this.#open(parts.markup);
  }

  /** A lab on a fresh copy of the markup, from the attributes as they are now. */
  #open(markup) {
    const root = this.shadowRoot;
    root.replaceChildren(document.importNode(markup, true));
    const page = createPage(root, {
      address: addressOf(this.#url()),
      embedded: true,
      remembersLanguage: false,
      autosaveKey: `element:${this.id || this.#number}`,
      ready: (api) => {
        if (this.#page !== page) return;
        this.#api = api;
        this.#forward(api);
        this.#resolveReady(api);
      },
    });
    this.#page = page;
    page.start();
  }

  /** Each of the API's names on the element, unless the element has it already. */
  #forward(api) {
    for (const name of Object.keys(api)) {
      if (name in this && !Object.hasOwn(this, name)) continue;
      Object.defineProperty(this, name, {
        configurable: true,
        get: () => {
          const value = this.#api?.[name];
          return typeof value === 'function' ? value.bind(this.#api) : value;
        },
      });
    }
  }

  attributeChangedCallback(name, old, value) {
    if (BOX_ATTRIBUTES.includes(name)) {
      this.#sized();
      return;
    }
    if (old === value || !this.#page) return;
    const api = this.#api;
    const inPlace = {
      example: (v) => api.loadExample(v),
      mode: (v) => api.setMode(v),
      method: (v) => api.setMethod(v),
      lang: (v) => api.setLanguage(v),
    };
    if (api && value !== null && inPlace[name]) {
      Promise.resolve(inPlace[name](value)).catch((error) => console.warn(`<skin-lab ${name}="${value}">: ${error.message}`));
      return;
    }
    // Anything else: the lab again with the new parameters.
    this.ready = new Promise((resolve) => { this.#resolveReady = resolve; });
    this.#api = null;
    this.#page.close();
    sharedParts().then((parts) => this.#open(parts.markup));
  }
}

// Reflected attributes: el.example = 'tube' is el.setAttribute('example', 'tube').
for (const name of PARAMETERS) {
  Object.defineProperty(SkinLabElement.prototype, name, {
    configurable: true,
    get() { return this.getAttribute(name); },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
  });
}

if (!customElements.get('skin-lab')) customElements.define('skin-lab', SkinLabElement);
