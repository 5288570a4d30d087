/** The part of Prism (prismjs 1.30, no bundled types) the docs build calls. */
declare module "prismjs" {
  interface Grammar {
    [token: string]: unknown;
  }
  const Prism: {
    languages: Record<string, Grammar | undefined>;
    highlight(text: string, grammar: Grammar, language: string): string;
  };
  export default Prism;
}
declare module "prismjs/components/prism-bash.js";
declare module "prismjs/components/prism-json.js";
declare module "prismjs/components/prism-typescript.js";
declare module "prismjs/components/prism-yaml.js";
