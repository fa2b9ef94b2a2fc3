import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A bench script's options: `--help` prints `usage` and a mistyped option prints it with what was wrong,
 * both without a stack trace (exit 0 and 2).
 */
export function readArgs<T extends Options>(options: T, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, ...HELP } as T & typeof HELP });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed.values;
}
