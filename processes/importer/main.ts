/**
 * The importer process: runs one import job or definition update with the importer engine.
 * The supervisor starts one per job and kills it on cancel, so a hung or crashing import
 * never touches the UI or the rest of the app. One more is kept running while curl commands are
 * read (Import cURL previews as the user types), killed when a read passes its deadline.
 */
import { connectToSupervisor } from '../runtime/child.js';
import { newId } from '../../protocol/ids.js';
import { runDefinitionApply, runDefinitionPreview, runImportJob } from './engine/index.js';
import { convertCurlCommand } from './engine/curl/convert-command.js';

const now = () => new Date();

connectToSupervisor({
  role: 'importer',
  handlers: {
    'importer.run': (job, { signal, chunk }) => runImportJob(job, { newId, now, signal, onProgress: chunk }),
    'importer.preview': (job, { signal, chunk }) => runDefinitionPreview(job, { now, signal, onProgress: chunk }),
    'importer.apply': (job, { signal, chunk }) => runDefinitionApply(job, { newId, now, signal, onProgress: chunk }),
    'importer.readCurl': ({ command, id, name }) => convertCurlCommand(command, { id, ...(name !== undefined ? { name } : {}) }),
  },
});
