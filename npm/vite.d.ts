// Types of `skinlab/vite` (npm/vite.js), written without Vite's own types
// so that the package depends on nothing: the object is a Vite plugin.

/** Options of the plugin. */
export interface SkinlabPluginOptions {
  /** Where Skinlab's files go under Vite's `base`; default `skinlab/`. */
  folder?: string;
}

/** The Vite plugin that serves and copies Skinlab's files and keeps them out of the bundle. */
export default function skinlab(options?: SkinlabPluginOptions): {
  name: string;
  enforce: 'pre';
  [hook: string]: unknown;
};
