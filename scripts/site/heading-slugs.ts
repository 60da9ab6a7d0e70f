/**
 * Headings keep their code in their anchors. TypeDoc 0.28 slugs a heading from its text tokens
 * alone, so `## The fastest transport on Node (\`tollgate/undici\`)` gets the anchor
 * `the-fastest-transport-on-node-` on the site while GitHub, where the guides are also read and
 * whose anchors their links use, says `the-fastest-transport-on-node-tollgateundici`; the heading
 * also shows without its code in the page's outline. Beside each code span of a heading this
 * adds a text token with the same words, which TypeDoc reads for the slug and the outline and the
 * renderer prints as nothing.
 */

/** What this needs of markdown-it's token (markdown-it ships no types; TypeDoc hands it over as `any`). */
interface Token {
  type: string;
  content: string;
  meta: unknown;
  children: Token[] | null;
}

type RenderRule = (tokens: Token[], index: number, options: unknown, env: unknown, self: unknown) => string;

/** What this needs of the markdown-it parser TypeDoc renders comments and documents with. */
export interface MarkdownParser {
  core: {
    ruler: {
      push(
        name: string,
        rule: (state: { tokens: Token[]; Token: new (type: string, tag: string, nesting: number) => Token }) => void,
      ): void;
    };
  };
  renderer: { rules: Record<string, RenderRule | undefined> };
}

/** Marks the added tokens: they are read for the slug, never printed. */
const SLUG_ONLY = 'tollgate:slug-only';

/** For TypeDoc's `markdownItLoader` option. */
export function headingCodeInSlugs(parser: MarkdownParser): void {
  parser.core.ruler.push('tollgate_heading_code_in_slugs', (state) => {
    state.tokens.forEach((token, index) => {
      const inline = state.tokens[index + 1];
      if (token.type !== 'heading_open' || inline?.type !== 'inline' || !inline.children) return;
      inline.children = inline.children.flatMap((child) => {
        if (child.type !== 'code_inline') return [child];
        const words = new state.Token('text', '', 0);
        words.content = child.content;
        words.meta = SLUG_ONLY;
        return [child, words];
      });
    });
  });
  const text = parser.renderer.rules.text;
  if (!text) throw new Error('headingCodeInSlugs: markdown-it has no text rule to wrap');
  parser.renderer.rules.text = (tokens, index, options, env, self) =>
    tokens[index]!.meta === SLUG_ONLY ? '' : text(tokens, index, options, env, self);
}
