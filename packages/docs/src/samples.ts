/**
 * The code samples: one curl script, one TypeScript program and one Python
 * script (standard library only) per operation, kept as real files under
 * samples/<version>/<operationId>.{sh,ts,py}, and the flows of the guides under
 * samples/guides/. The build embeds them (in the reference and the guides)
 * and the tests run them against the sandbox server, so what a reader copies
 * is what was run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PublishedOperation } from './document.js';

export const samplesDirectory = fileURLToPath(new URL('../samples/', import.meta.url));

export const sampleLanguages = [
  { key: 'curl', extension: 'sh', label: 'curl', highlight: 'bash' },
  { key: 'typescript', extension: 'ts', label: 'TypeScript', highlight: 'typescript' },
  { key: 'python', extension: 'py', label: 'Python', highlight: 'python' },
] as const;

export type SampleLanguage = (typeof sampleLanguages)[number];

export interface Sample {
  language: SampleLanguage;
  file: string;
  /** Relative to the package, for messages. */
  relativePath: string;
  source: string;
}

const readSample = (language: SampleLanguage, relativePath: string): Sample => {
  const file = `${samplesDirectory}${relativePath.replace(/^samples\//, '')}`;
  return { language, file, relativePath, source: `${readFileSync(file, 'utf8').trimEnd()}\n` };
};

/** The samples of an operation, one per language; throws naming the missing file, so an operation added to the document fails the build until it has samples. */
export function samplesOf(operation: Pick<PublishedOperation, 'version' | 'operationId'>): Sample[] {
  return sampleLanguages.map((language) => {
    const relativePath = `samples/${operation.version}/${operation.operationId}.${language.extension}`;
    if (!existsSync(`${samplesDirectory}${operation.version}/${operation.operationId}.${language.extension}`))
      throw new Error(`${operation.operationId} has no ${language.label} sample: write ${relativePath}`);
    return readSample(language, relativePath);
  });
}

/** Every language a sample is written in at `samples/<base>.*` (e.g. `guides/wait-for-order`); throws when there is none. */
export function samplesAt(base: string): Sample[] {
  const samples = sampleLanguages
    .filter((language) => existsSync(`${samplesDirectory}${base}.${language.extension}`))
    .map((language) => readSample(language, `samples/${base}.${language.extension}`));
  if (samples.length === 0)
    throw new Error(`no sample samples/${base}.{${sampleLanguages.map((language) => language.extension).join(',')}}`);
  return samples;
}
