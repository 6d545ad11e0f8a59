/** A project of many requests written through the real store, for tests of big trees. */
import { blankRequest } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

/** `requests` GET requests named "GET item 0000"... in three folders of one API, Items. */
export async function writeBigProject(dir: string, requests: number): Promise<void> {
  const writer = await ProjectStore.open(dir, { create: true, name: 'Big' });
  const api = await writer.createApi({ name: 'Items', baseUrl: 'http://127.0.0.1:9' });
  const reserved = writer.nameClaims();
  const request = (i: number) => blankRequest({ id: `r_${i}`, name: `GET item ${String(i).padStart(4, '0')}`, method: 'GET', url: `/items/${i}` });
  await writer.commit(Array.from({ length: requests }, (_, i) => writer.newRequestChange(api.id, `area-${i % 3}`, request(i), reserved)));
  await writer.close();
}
