// A module hook that tells, on stderr, every module a process loads (`node --import <this> …`): for tests that check
// what a command loads, not only what it prints.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        process.stderr.write('loaded: ' + resolved.url + '\\n');
        return resolved;
      }`),
);
