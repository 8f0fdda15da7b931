// What other features use of segments (features meet only through index.ts).
export { segmentWhereSql } from './segment-sql';
export { checkDefinition, findSegment, SegmentsService } from './segments-service';
export { segmentsRoutes } from './routes';
