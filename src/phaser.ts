/**
 * `elastica/phaser`: the Phaser 4 scene plugin (Phaser >= 4.2 is a peer dependency).
 *
 *   import { ElasticaPlugin } from 'elastica/phaser';
 *   new Phaser.Game({ ..., plugins: { scene: [{ key: 'ElasticaPlugin', plugin: ElasticaPlugin, mapping: 'soft' }] } });
 *
 * Importing this module also brings the `this.soft: ElasticaPlugin` declaration for every Phaser.Scene
 * (a global augmentation in src/game/plugin.ts). The Phaser-free pieces it hands out (SoftSim, SoftBody,
 * the option types) are re-exported here so a game needs one import.
 */
export { ElasticaPlugin, elasticaScenePlugin } from './game/plugin';
export type { ElasticaPluginOptions } from './game/plugin';
export { SoftSim, SoftBody } from './game/sim';
export type {
  SoftSimOptions, JellyOptions, RopeOptions, SheetOptions, MaterialOptions, BodyKind, StepListener,
} from './game/sim';
export { Collider } from './game/colliders';
export type { ColliderShape, GameColliderOptions } from './game/colliders';
export type { CollisionFilter, FilterOptions, OneWay } from './systems/filters';
export type { SoftContact, ContactType, ContactListener, RaycastHit, SoftFailSafe, FailSafeListener } from './game/sim';
export type { SoftQueries } from './game/queries';
export { Attachment } from './game/sim';
export type { AttachTarget, AttachOptions } from './game/sim';
export { BodyControl } from './systems/bodies';
