export * from './auth';
export * from './errors';
export * from './health';
export * from './phone-numbers';
