/** The link every synced method's JSDoc gives to Discord's OpenAPI document: the repository and path the pin follows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OPENAPI_DOCUMENT_URL } from '../../scripts/codegen/names.ts';

const source = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'catalog', 'discord-openapi', 'source.json'), 'utf8'),
) as { repository: string; path: string };

it('links the repository and path catalog/discord-openapi/source.json follows, on its newest build', () => {
  expect(OPENAPI_DOCUMENT_URL).toBe(`https://github.com/${source.repository}/blob/main/${source.path}`);
});

it('is in the JSDoc of a synced method, beside its operationId', () => {
  const channels = readFileSync(join(import.meta.dirname, '..', '..', 'generated', 'channels.ts'), 'utf8');
  expect(channels).toContain(`[Discord's OpenAPI document](${OPENAPI_DOCUMENT_URL}): \`create_message\`.`);
});
