// What other features use of the segments feature (features meet only through index.ts): a saved segment's
// rules in words, with the names of its tags and broadcasts.
export { segmentLines, segmentNames } from './segment-names';
