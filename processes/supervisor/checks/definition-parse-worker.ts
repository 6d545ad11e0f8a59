/**
 * The supervisor's definition-reading thread (built to dist/definition-parse-worker.js): parses a
 * large cached YAML definition off the supervisor's event loop (definition-parser.ts).
 */
import { serveBudgetedTasks } from '../../runtime/budgeted-worker.js';
import { parseDefinitionText } from './definition-text.js';

serveBudgetedTasks((task: { text: string; name: string }) => parseDefinitionText(task.text, task.name));
