/**
 * The chain model: one model of the Bitflow DLMM contracts (pools, bins, shares, position NFTs, the
 * routers' functions with their asserts, list semantics, error codes, post-conditions). The simulator is a
 * server around it; the analyzer and the exporter execute transactions with it.
 */
export * from './state';
export * from './balances';
export * from './pool';
export * from './router';
export * from './costs';
