
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'dsh-skills' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'dsh-skills'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'dsh-skills' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The ranked root scan, the winning skills, shadowed duplicates and every warning')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One skill, and the exact <skill_content> block the model receives for it')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'The exact catalog text the model sees for the working directory')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint skill files: every problem, with what the harness will do about it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dsh-skills;list' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print the harness''s exact log line behind every problem')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print the harness''s exact log line behind every problem')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;show' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--rendered', '--rendered', [CompletionResultType]::ParameterName, 'Print exactly what the `skill` tool returns to the model, and nothing else')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;catalog' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--update', '--update', [CompletionResultType]::ParameterName, 'Print the replacement wording a session that already had a catalog receives (with no model-invocable skills: the empty replacement)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Print only the catalog digest (SHA-256 of the entries, as the harness computes it)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not print the statistics (entries, size, cut descriptions) on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not print the statistics (entries, size, cut descriptions) on stderr')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;explain' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;lint' {
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Explain a rule (its id, default level, why it matters, how to fix it) and exit')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding reaches this level (default: error)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, '`--deny warnings`: exit 1 on warnings too (same as --fail-on warning)')
            [CompletionResult]::new('--compat', '--compat', [CompletionResultType]::ParameterName, 'Also check portability with another agent. Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this lint configuration file instead of looking for .dsh-skills-lint.yaml')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Apply the safe fixes (legacy key renames, quoting a value that breaks YAML, stripping a BOM, ...) in place, then report what is left')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Show the safe fixes as a unified diff (without --fix nothing is written)')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;completions' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session working directory to discover for (default: the current directory). Resolved lexically, like Node''s path.resolve; it need not exist')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'The harness home (`dshHome`); its `skills/` is the user-dsh root. Default: $DSH_HOME when not blank, else ~/.dsh. `~`, `~/` and `~\` are expanded')
            [CompletionResult]::new('--agents-home', '--agents-home', [CompletionResultType]::ParameterName, 'The agents home (`agentsHome`); its `skills/` is the user-agents root. Default: $DSH_AGENTS_HOME (even when empty), else ~/.agents. No tilde expansion')
            [CompletionResult]::new('--custom-dir', '--custom-dir', [CompletionResultType]::ParameterName, 'A custom skill root (`customSkillDirs`), rank 300. Repeatable; order matters. Relative paths resolve against the current directory')
            [CompletionResult]::new('--bundled-dir', '--bundled-dir', [CompletionResultType]::ParameterName, 'The bundled skill root (`bundledSkillDir`), rank 600, read the plain-Node way. Default: $DSH_BUNDLED_SKILL_DIR while default roots are on')
            [CompletionResult]::new('--description-max-length', '--description-max-length', [CompletionResultType]::ParameterName, 'Cut catalog descriptions longer than N UTF-16 units (`catalogDescriptionMaxLength`, default 500, at least 3)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The dsh profile to read: `web` (`dsh web`, default) or `headless`')
            [CompletionResult]::new('--preset', '--preset', [CompletionResultType]::ParameterName, 'The agent preset a web session mounts (default: `agent-presets.default` in $DSH_HOME/settings.yaml, else `standard`)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra patch layer, applied after the profile and home patch files, as `dsh --patch`. Repeatable; order matters')
            [CompletionResult]::new('--launch-dir', '--launch-dir', [CompletionResultType]::ParameterName, 'The directory dsh is launched from; relative paths in configuration files resolve against it (default: the current directory)')
            [CompletionResult]::new('--locale', '--locale', [CompletionResultType]::ParameterName, 'Collation locale for in-root entry order, read as a value of LC_ALL would be (sv_SE.UTF-8, de-DE-u-co-phonebk; empty = root). Default: the first of LC_ALL, LC_MESSAGES, LANG that is set, even empty; en-US when none is, or C or POSIX')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format. `lint` also takes github and sarif')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour. `auto` honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE and whether stdout is a terminal')
            [CompletionResult]::new('--no-cwd', '--no-cwd', [CompletionResultType]::ParameterName, 'Discover as the harness does with no session cwd: no project roots')
            [CompletionResult]::new('--no-default-roots', '--no-default-roots', [CompletionResultType]::ParameterName, 'Scan only custom dirs and an explicit --bundled-dir (`includeDefaultRoots: false`)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore the harness''s configuration files; only flags and environment count')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'dsh-skills;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The ranked root scan, the winning skills, shadowed duplicates and every warning')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One skill, and the exact <skill_content> block the model receives for it')
            [CompletionResult]::new('catalog', 'catalog', [CompletionResultType]::ParameterValue, 'The exact catalog text the model sees for the working directory')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Why this copy of a skill wins, why others are shadowed or skipped, and where it ends up')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint skill files: every problem, with what the harness will do about it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'dsh-skills;help;list' {
            break
        }
        'dsh-skills;help;show' {
            break
        }
        'dsh-skills;help;catalog' {
            break
        }
        'dsh-skills;help;explain' {
            break
        }
        'dsh-skills;help;lint' {
            break
        }
        'dsh-skills;help;completions' {
            break
        }
        'dsh-skills;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
