import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blankRequest } from '../../../protocol/model/request.js';
import { ImportStaging } from './import-staging.js';

const placed = (id: string) => ({ folder: '', request: blankRequest({ id, name: id, method: 'GET', url: `/${id}` }) });

describe('ImportStaging', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('makes every part added in one turn of the loop, one API after another (a HAR capture of two origins)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-staging-'));
    // Warmed first, so that the first part is made within one slice, as it is in a running supervisor.
    const warm = new ImportStaging(dir);
    warm.add({ part: 'requests', api: 0, items: [placed('w')] });
    await warm.finish();
    await warm.discard();
    const staging = new ImportStaging(dir);
    // Parts decoded from one read of the pipe arrive in the same turn: the second once came while
    // the first pump had finished but not yet said so, and API 1 was committed with no requests.
    staging.add({ part: 'requests', api: 0, items: [placed('r1'), placed('r2')] });
    staging.add({ part: 'requests', api: 1, items: [placed('r3')] });
    await staging.finish();
    expect([staging.requestCount(0), staging.requestCount(1)]).toEqual([2, 1]);
    expect(staging.requests[1]!.map((r) => r.name)).toEqual(['r3']);
    await expect(readFile(staging.requests[1]![0]!.file.moveFrom, 'utf8')).resolves.toContain('url: /r3');
    await staging.discard();
  });

  it('makes a part added after an earlier one was fully made', async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-staging-'));
    const staging = new ImportStaging(dir);
    staging.add({ part: 'requests', api: 0, items: [placed('a')] });
    await staging.finish();
    staging.add({ part: 'requests', api: 0, items: [placed('b')] });
    await staging.finish();
    expect(staging.requests[0]!.map((r) => r.name)).toEqual(['a', 'b']);
    await staging.discard();
  });
});
