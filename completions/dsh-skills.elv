
use builtin;
use str;

set edit:completion:arg-completer[dsh-skills] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'dsh-skills'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'dsh-skills'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'The ranked root scan, the winning skills, shadowed duplicates and every warning'
            cand show 'One skill, and the exact <skill_content> block the model receives for it'
            cand catalog 'The exact catalog text the model sees for the working directory'
            cand explain 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up'
            cand lint 'Lint skill files: every problem, with what the harness will do about it'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dsh-skills;list'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand -v 'Also print the harness''s exact log line behind every problem'
            cand --verbose 'Also print the harness''s exact log line behind every problem'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;show'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --rendered 'Print exactly what the `skill` tool returns to the model, and nothing else'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;catalog'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --update 'Print the replacement wording a session that already had a catalog receives (with no model-invocable skills: the empty replacement)'
            cand --digest 'Print only the catalog digest (SHA-256 of the entries, as the harness computes it)'
            cand -q 'Do not print the statistics (entries, size, cut descriptions) on stderr'
            cand --quiet 'Do not print the statistics (entries, size, cut descriptions) on stderr'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;explain'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;lint'= {
            cand --explain 'Explain a rule (its id, default level, why it matters, how to fix it) and exit'
            cand --fail-on 'Exit 1 when a finding reaches this level (default: error)'
            cand --deny '`--deny warnings`: exit 1 on warnings too (same as --fail-on warning)'
            cand --compat 'Also check portability with another agent. Repeatable'
            cand --config 'Read this lint configuration file instead of looking for .dsh-skills-lint.yaml'
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --fix 'Apply the safe fixes (legacy key renames, quoting a value that breaks YAML, stripping a BOM, ...) in place, then report what is left'
            cand --diff 'Show the safe fixes as a unified diff (without --fix nothing is written)'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;completions'= {
            cand --cwd 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist'
            cand --dsh-home 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded'
            cand --agents-home 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion'
            cand --custom-dir 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory'
            cand --bundled-dir 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on'
            cand --description-max-length 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)'
            cand --profile 'The dsh profile to read: `web` (`dsh web`, default) or `headless`'
            cand --preset 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)'
            cand --patch 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters'
            cand --launch-dir 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)'
            cand --locale 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX'
            cand --format 'Output format. `lint` also takes github and sarif'
            cand --color 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal'
            cand --no-cwd 'Discover as the harness does with no session cwd: no project roots'
            cand --no-default-roots 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)'
            cand --no-config 'Ignore the harness''s configuration files; only flags and environment count'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'dsh-skills;help'= {
            cand list 'The ranked root scan, the winning skills, shadowed duplicates and every warning'
            cand show 'One skill, and the exact <skill_content> block the model receives for it'
            cand catalog 'The exact catalog text the model sees for the working directory'
            cand explain 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up'
            cand lint 'Lint skill files: every problem, with what the harness will do about it'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'dsh-skills;help;list'= {
        }
        &'dsh-skills;help;show'= {
        }
        &'dsh-skills;help;catalog'= {
        }
        &'dsh-skills;help;explain'= {
        }
        &'dsh-skills;help;lint'= {
        }
        &'dsh-skills;help;completions'= {
        }
        &'dsh-skills;help;help'= {
        }
    ]
    $completions[$command]
}
