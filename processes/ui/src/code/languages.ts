/** The language modes the app's code editors know, by the names the request and mock models use. */
import type { Extension } from '@codemirror/state';
import { json } from '@codemirror/lang-json';
import { xml } from '@codemirror/lang-xml';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { graphqlLanguageSupport } from 'cm6-graphql';

export type CodeLanguage = 'json' | 'xml' | 'html' | 'javascript' | 'typescript' | 'graphql' | 'text';

export function languageSupport(language: CodeLanguage): Extension {
  switch (language) {
    case 'json':
      return json();
    case 'xml':
      return xml();
    case 'html':
      return html();
    case 'javascript':
      return javascript();
    case 'typescript':
      return javascript({ typescript: true });
    case 'graphql':
      return graphqlLanguageSupport();
    case 'text':
      return [];
  }
}
