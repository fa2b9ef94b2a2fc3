/** oidc-provider ships no types: the tests' stand-in (identity-servers-main.ts) uses a few of its calls. */
declare module 'oidc-provider';
