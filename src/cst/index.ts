export * from './nodes';
export * from './parser';
export * from './query';
export * from './edit';
export { quoteArg } from './tokens';
export type { Word } from './tokens';
export { holdsAny } from './name-index';
