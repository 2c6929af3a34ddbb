/*
 * The build takes redux-persist's ES modules build of its sessionStorage (src/app/store.ts: no
 * CommonJS wrappers in the start bundle); Jest runs CommonJS and does not compile node_modules,
 * so its tests get the same storage from the CommonJS build. Jest uses this file for every import
 * of 'redux-persist/es/storage/session' (a mock of a node module in a root's __mocks__).
 */
export { default } from 'redux-persist/lib/storage/session'
