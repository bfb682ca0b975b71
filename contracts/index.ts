// The contract core: one definition of every payload and every rule.
export * from './codes';
export * from './formats';
export * from './schemas/index';
export * from './validator';
export * from './reply-rules/index';
export * from './request-rules';
export * from './reply-check';
export * from './operation-of-service';
export * from './json-schema-documents';
export * from './contract-version';
export * from './production-replay';
