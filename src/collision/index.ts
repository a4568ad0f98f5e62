export { ContactSystem, COLLIDER_CIRCLE, COLLIDER_SEGMENT, COLLIDER_POLYGON } from './contact';
export type { ContactEvent } from './contact';
export { SpatialHash } from './hash';
export { sweptPointSegment, sweptPointCircle, closestAlpha } from './geometry';
