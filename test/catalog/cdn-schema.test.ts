/** The catalog's CDN section is validated with the rest: every mistake names its endpoint. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import type { CdnCatalogEndpoint } from '../../catalog/cdn-schema.ts';
import { CatalogError, parseCatalog, type Catalog } from '../../catalog/schema.ts';

/** The problems of the catalog after `edit`, or [] when it is valid. */
function problemsOf(edit: (draft: Catalog) => void): string[] {
  const draft = structuredClone(catalog);
  edit(draft);
  try {
    parseCatalog(draft);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return [...(error as CatalogError).problems];
  }
}

const endpoint = (draft: Catalog, name: string): CdnCatalogEndpoint =>
  draft.cdn.endpoints.find((entry) => entry.name === name)!;

describe('the CDN section of the catalog', () => {
  it('is valid as committed', () => {
    expect(problemsOf(() => {})).toEqual([]);
  });

  it('shape mistakes name the endpoint and the field', () => {
    const problems = problemsOf((draft) => {
      (endpoint(draft, 'userAvatar').extensions as string[])[0] = 'bmp';
      (endpoint(draft, 'guildIcon') as { animated?: string }).animated = 'always';
      (endpoint(draft, 'teamIcon') as { colour?: string }).colour = 'red';
    });
    expect(problems.join('\n')).toMatch(/cdn endpoint "userAvatar" \(cdn\.endpoints\[7\]\)\.extensions\[0\]/);
    expect(problems.join('\n')).toMatch(/cdn endpoint "guildIcon" \(cdn\.endpoints\[1\]\)\.animated/);
    expect(problems.join('\n')).toMatch(/cdn endpoint "teamIcon" .*colour/);
  });

  it('names are unique; placeholders are declared and used once; paths carry no extension', () => {
    const problems = problemsOf((draft) => {
      endpoint(draft, 'userBanner').name = 'guildBanner';
      endpoint(draft, 'roleIcon').path = '/role-icons/{role}/{icon_hash}';
      endpoint(draft, 'teamIcon').path = '/team-icons/{team_id}/{team_id}';
      endpoint(draft, 'guildSplash').path = '/splashes/{guild_id}/{splash_hash}.png';
      endpoint(draft, 'applicationIcon').path = 'app-icons/{application_id}/{icon_hash}';
    });
    const text = problems.join('\n');
    expect(text).toMatch(
      /cdn endpoint "guildBanner" \(cdn\.endpoints\[5\]\): duplicate name, first listed at cdn\.endpoints\[4\]/,
    );
    expect(text).toMatch(/cdn endpoint "roleIcon" .*unknown parameter \{role\}/);
    expect(text).toMatch(/cdn endpoint "teamIcon" .*uses \{team_id\} twice/);
    expect(text).toMatch(/cdn endpoint "guildSplash" .*must not end in an extension/);
    expect(text).toMatch(/cdn endpoint "applicationIcon" .*must start with "\/"/);
  });

  it('animation needs GIF and WebP, and a hash to tell by; the media proxy serves listed extensions only', () => {
    const problems = problemsOf((draft) => {
      endpoint(draft, 'guildSplash').animated = 'hash';
      endpoint(draft, 'emoji').animated = 'hash';
      endpoint(draft, 'userAvatar').extensions = ['webp', 'png'];
      endpoint(draft, 'teamIcon').mediaProxy = ['gif'];
      endpoint(draft, 'userAvatar').extensions.push('png');
    });
    const text = problems.join('\n');
    expect(text).toMatch(/cdn endpoint "guildSplash" .*an animated endpoint serves gif and webp/);
    expect(text).toMatch(/cdn endpoint "emoji" .*animated 'hash' needs a hash as the path's last parameter/);
    expect(text).toMatch(/cdn endpoint "userAvatar" .*listed twice: png/);
    expect(text).toMatch(/cdn endpoint "teamIcon" .*mediaProxy names "gif"/);
  });

  it('a parameter kind is snowflake, hash or index', () => {
    const problems = problemsOf((draft) => {
      (draft.cdn.parameters as Record<string, string>).user_id = 'emoji';
    });
    expect(problems.join('\n')).toMatch(/cdn\.parameters\.user_id/);
  });
});
