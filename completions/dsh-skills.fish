# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_dsh_skills_global_optspecs
    string join \n cwd= no-cwd dsh-home= agents-home= custom-dir= bundled-dir= no-default-roots description-max-length= no-config profile= preset= patch= launch-dir= locale= format= color= h/help V/version
end

function __fish_dsh_skills_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_dsh_skills_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_dsh_skills_using_subcommand
    set -l cmd (__fish_dsh_skills_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "list" -d 'The ranked root scan, the winning skills, shadowed duplicates and every warning'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "show" -d 'One skill, and the exact <skill_content> block the model receives for it'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "catalog" -d 'The exact catalog text the model sees for the working directory'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "explain" -d 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "lint" -d 'Lint skill files: every problem, with what the harness will do about it'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c dsh-skills -n "__fish_dsh_skills_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -s v -l verbose -d 'Also print the harness\'s exact log line behind every problem'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -s h -l help -d 'Print help'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand list" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l rendered -d 'Print exactly what the `skill` tool returns to the model, and nothing else'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -s h -l help -d 'Print help'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand show" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l update -d 'Print the replacement wording a session that already had a catalog receives (with no model-invocable skills: the empty replacement)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l digest -d 'Print only the catalog digest (SHA-256 of the entries, as the harness computes it)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -s q -l quiet -d 'Do not print the statistics (entries, size, cut descriptions) on stderr'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -s h -l help -d 'Print help'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand catalog" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -s h -l help -d 'Print help'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand explain" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l explain -d 'Explain a rule (its id, default level, why it matters, how to fix it) and exit' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l fail-on -d 'Exit 1 when a finding reaches this level (default: error)' -r -f -a "error\t''
warning\t''
info\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l deny -d '`--deny warnings`: exit 1 on warnings too (same as --fail-on warning)' -r -f -a "warnings\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l compat -d 'Also check portability with another agent. Repeatable' -r -f -a "agentskills\t'The Agent Skills specification and its validators'
claude-code\t'Claude Code and claude.ai uploads'
codex\t'OpenAI Codex'"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l config -d 'Read this lint configuration file instead of looking for .dsh-skills-lint.yaml' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l fix -d 'Apply the safe fixes (legacy key renames, quoting a value that breaks YAML, stripping a BOM, ...) in place, then report what is left'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l diff -d 'Show the safe fixes as a unified diff (without --fix nothing is written)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand lint" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l cwd -d 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node\'s path.resolve; it need not exist' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l dsh-home -d 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\\` are expanded' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l agents-home -d 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l custom-dir -d 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l bundled-dir -d 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l description-max-length -d 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l profile -d 'The dsh profile to read: `web` (`dsh web`, default) or `headless`' -r -f -a "web\t''
headless\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l preset -d 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l patch -d 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l launch-dir -d 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l locale -d 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX' -r
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l format -d 'Output format. `lint` also takes github and sarif' -r -f -a "human\t''
json\t''
github\t''
sarif\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l color -d 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal' -r -f -a "auto\t''
always\t''
never\t''"
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l no-cwd -d 'Discover as the harness does with no session cwd: no project roots'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l no-default-roots -d 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -l no-config -d 'Ignore the harness\'s configuration files; only flags and environment count'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -s h -l help -d 'Print help'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand completions" -s V -l version -d 'Print version'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "list" -d 'The ranked root scan, the winning skills, shadowed duplicates and every warning'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "show" -d 'One skill, and the exact <skill_content> block the model receives for it'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "catalog" -d 'The exact catalog text the model sees for the working directory'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "explain" -d 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "lint" -d 'Lint skill files: every problem, with what the harness will do about it'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c dsh-skills -n "__fish_dsh_skills_using_subcommand help; and not __fish_seen_subcommand_from list show catalog explain lint completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
