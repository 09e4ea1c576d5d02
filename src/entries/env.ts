/**
 * Training environments: one negotiation per episode, the trained side's turns given from outside as
 * the model's raw text, haggle's opponents and reward; in-process (`createEnvironment`) or served over
 * OpenEnv's WebSocket protocol (`EnvironmentServer`, `haggle env serve`). Node only.
 * @packageDocumentation
 * @module haggle/env
 */
export * from '../env/index.js';
