/** The reference service answers binary and form-encoded operations as the service does. */
import { expect, it } from 'vitest';
import { createClient } from '../../src/index.ts';
import { ReferenceService } from '../../src/testing/index.ts';

const GUILD = '41771983423143937';

it('answers the widget image as PNG bytes and the target users as CSV', async () => {
  const service = await new ReferenceService({ api: 'v10' }).start();
  const live = createClient({ baseUrl: service.baseUrl, token: 'Bot reference' });
  try {
    const image = new Uint8Array(await live.guilds.widgetImage.get(GUILD));
    expect([...image.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const csv = new TextDecoder().decode(await live.invites.targetUsers.get('0vCdhLbwjZZTWZLD'));
    expect(csv).toMatch(/^user_id\n\d+\n$/);
    const token = await live.oauth2.token.create({ grant_type: 'client_credentials', scope: 'identify' });
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'identify' });
  } finally {
    await live.close();
    await service.stop();
  }
});
