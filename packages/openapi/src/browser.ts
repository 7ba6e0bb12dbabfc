/**
 * The package in a browser (the docs' request console, bundled by esbuild, which picks this entry
 * by the `browser` export condition): the document model and the schema validator, without the
 * bundle files the Node entry reads from disk.
 */
export type { OpenApiDocument } from './index.js';
export { createSchemaValidator, type SchemaValidator } from './validator.js';
export { documentedResponse, jsonContent, readOperations, type MediaContent, type Operation, type Response } from './operations.js';
