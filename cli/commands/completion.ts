import { Argument, Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { InvalidInput } from '../../src/domain/shared/errors.js';

/** Every command path of the tree (`forumctl`, `forumctl users`, `forumctl users create` …) with the words that may follow it. */
function completions(program: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const globals = program.options.map((option) => option.long!).filter((long) => long && long !== '--version');
  const walk = (command: Command, path: string) => {
    const words = [
      ...command.commands.map((sub) => sub.name()),
      ...command.options.map((option) => option.long!).filter(Boolean),
      ...(command === program ? [] : globals),
      '--help',
    ];
    table.set(path, [...new Set(words)]);
    for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
  };
  walk(program, 'forumctl');
  return table;
}

/**
 * A bash completion script generated from the command tree itself (as kubectl and gh generate theirs), so it
 * never falls behind the commands, and so it never runs forumctl: it completes however forumctl is started in a
 * checkout, where it is not on the PATH: `npx forumctl …`, `./bin/forumctl.js …`, or `forumctl …` once installed.
 * For `npx`, it completes only `npx forumctl …` (and offers `forumctl` after `npx`): every other `npx` command keeps
 * the completion it had before the script was sourced (npm's, or the shell's file names), which it hands on to.
 * zsh runs it through its bash compatibility layer.
 */
function bashScript(program: Command): string {
  const entries = [...completions(program)].map(([path, words]) => `  ["${path}"]="${words.join(' ')}"`).join('\n');
  return `# forumctl completion for bash: source <(npx forumctl completion bash)
declare -gA _forumctl_words=(
${entries}
)
_forumctl_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path=forumctl word first=1
  COMPREPLY=()
  # \`npx forumctl …\`: forumctl's words start after its name.
  [[ \${COMP_WORDS[0]##*/} == npx ]] && first=2
  for word in "\${COMP_WORDS[@]:first:COMP_CWORD-first}"; do
    [[ $word == -* ]] && continue
    [[ -n "\${_forumctl_words["$path $word"]+set}" ]] && path="$path $word"
  done
  COMPREPLY=($(compgen -W "\${_forumctl_words["$path"]}" -- "$cur"))
}
complete -F _forumctl_complete forumctl forumctl.js
# npx: forumctl's words after \`npx forumctl\`; any other npx command as before this script (once, if sourced again).
if [[ $(complete -p npx 2>/dev/null) != *_forumctl_npx* ]]; then
  # \`|| true\`: with no completion for npx, complete -p fails, which would stop a shell under set -e and pipefail.
  _forumctl_npx_before=$({ complete -p npx 2>/dev/null || true; } | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
fi
_forumctl_npx() {
  if (( COMP_CWORD >= 2 )) && [[ \${COMP_WORDS[1]} == forumctl ]]; then _forumctl_complete; return; fi
  COMPREPLY=()
  [[ -n $_forumctl_npx_before ]] && "$_forumctl_npx_before" "$@"
  if (( COMP_CWORD == 1 )) && [[ forumctl == "\${COMP_WORDS[1]}"* ]]; then COMPREPLY+=(forumctl); fi
  return 0
}
complete -o default -F _forumctl_npx npx
`;
}

function zshScript(program: Command): string {
  return `# forumctl completion for zsh: source <(npx forumctl completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(program).split('\n').slice(1).join('\n')}`;
}

export function completionCommand(runtime: CliRuntime, program: Command): Command {
  return new Command('completion')
    .description('print a shell completion script (bash or zsh)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ source <(npx forumctl completion bash)      # this shell; then: npx forumctl us<TAB>\n' +
        '  $ npx forumctl completion bash >> ~/.bashrc   # every bash to come\n' +
        '  $ npx forumctl completion zsh >> ~/.zshrc     # every zsh to come',
    )
    .action((shell: string) => {
      if (shell !== 'bash' && shell !== 'zsh') throw new InvalidInput('shell', 'shell must be bash or zsh');
      runtime.io.out((shell === 'bash' ? bashScript(program) : zshScript(program)).trimEnd());
    });
}
