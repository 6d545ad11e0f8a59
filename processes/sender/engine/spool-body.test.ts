import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpoolingSink } from './spool-body.js';

describe('SpoolingSink', () => {
  it('leaves no file behind when destroyed while the write that opens it is still under way', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'parley-spool-')), 'spool');
    const sink = new SpoolingSink(4, dir);
    sink.on('error', () => {});
    sink.write(Buffer.alloc(64, 1)); // past the limit: the sink starts opening its file
    const closed = new Promise((resolve) => sink.once('close', resolve));
    sink.destroy(new Error('body failed')); // same tick: the open has not resolved yet
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50)); // an open that outlived the destroy would show by now
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});
