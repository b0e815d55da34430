// <skin-lab>: Skinlab as an element for any page (Quarto, MkDocs, Jupyter's
// HTML, reveal.js), from this one module:
//
//   <script type="module" src="skinlab/skin-lab.js"></script>
//   <skin-lab example="y-junction" mode="weights" lang="de"></skin-lab>  (lang: en, de or zh)
//
// Each element is its own lab: a page instance (index.html beside this
// module, `ui=minimal` unless the `ui` attribute says otherwise) in a frame
// inside the element's shadow root, so neither the page's styles nor the
// host's leak across and several labs on one page share nothing. The lab
// starts when the element first scrolls into view; off screen it draws
// nothing. Attributes are reflected as properties and may change at any
// time (example, mode, method and lang switch in place; the others reload
// the lab). The page's API (window.skinlab) is on the element once it is
// ready: `await el.ready`, then `el.loadExample('tube')`, `el.lab`, … and
// the whole object as `el.skinlab`.

/** Attributes that become the page's URL parameters. */
const PARAMETERS = ['example', 'mode', 'lesson', 'step', 'lang', 'method', 'tool', 'ui', 'projector', 'view', 'overlays', 'autosave'];

const PAGE = new URL('index.html', import.meta.url);

const STYLE = `
  :host { display: block; position: relative; aspect-ratio: 16 / 10; min-height: 240px;
          background: #f3f4f6; border-radius: 6px; overflow: hidden; contain: content; }
  :host([hidden]) { display: none; }
  iframe { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; display: block; }
  .waiting { position: absolute; inset: 0; display: grid; place-items: center;
             font: 14px system-ui, sans-serif; color: #6b7280; }
`;

export class SkinLabElement extends HTMLElement {
  static observedAttributes = PARAMETERS;

  #frame = null;
  #observer = null;
  #resolveReady = null;
  /** Resolves to the page's API once the lab has started. */
  ready = new Promise((resolve) => { this.#resolveReady = resolve; });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    const waiting = document.createElement('div');
    waiting.className = 'waiting';
    waiting.textContent = 'Skinlab';
    root.append(style, waiting);
  }

  connectedCallback() {
    if (this.#frame || this.#observer) return;
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
    this.#observer?.disconnect();
    this.#observer = null;
  }

  /** The page's API once started, else null. */
  get skinlab() {
    try {
      return this.#frame?.contentWindow?.skinlab ?? null;
    } catch {
      return null;
    }
  }

  /** Whether the lab has started (it starts when first scrolled into view). */
  get started() {
    return this.#frame !== null;
  }

  #url() {
    const url = new URL(PAGE);
    const parameters = new URLSearchParams();
    for (const name of PARAMETERS) {
      const value = this.getAttribute(name);
      if (value !== null) parameters.set(name, value);
    }
    if (!parameters.has('ui')) parameters.set('ui', 'minimal');
    // An element on someone's page saves nothing unless asked to.
    if (!parameters.has('autosave')) parameters.set('autosave', '0');
    url.search = parameters.toString();
    return url.href;
  }

  #start() {
    const frame = document.createElement('iframe');
    frame.title = this.getAttribute('title') ?? 'Skinlab';
    frame.allow = 'fullscreen';
    frame.addEventListener('load', () => this.#whenReady(frame));
    frame.src = this.#url();
    this.#frame = frame;
    this.shadowRoot.querySelector('.waiting')?.remove();
    this.shadowRoot.append(frame);
  }

  /** Waits for the page's API, then puts it on the element. */
  #whenReady(frame) {
    const poll = () => {
      if (this.#frame !== frame) return;
      const api = this.skinlab;
      if (!api) {
        setTimeout(poll, 20);
        return;
      }
      this.#forward(api);
      this.#resolveReady(api);
    };
    poll();
  }

  /** Each of the API's names on the element, unless the element has it already. */
  #forward(api) {
    for (const name of Object.keys(api)) {
      if (name in this && !Object.hasOwn(this, name)) continue;
      Object.defineProperty(this, name, {
        configurable: true,
        get: () => {
          const value = this.skinlab?.[name];
          return typeof value === 'function' ? value.bind(this.skinlab) : value;
        },
      });
    }
  }

  attributeChangedCallback(name, old, value) {
    if (old === value || !this.#frame) return;
    const api = this.skinlab;
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
    this.#frame.src = this.#url();
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
