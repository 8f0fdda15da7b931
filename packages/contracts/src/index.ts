export * from './auth';
export * from './contacts';
export * from './errors';
export * from './health';
export * from './paging';
export * from './phone-numbers';
export * from './templates';
export * from './broadcasts';
