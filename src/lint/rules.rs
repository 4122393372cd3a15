//! Every lint rule, once: id, default severity, what it checks, why, and how to fix it.
//!
//! Ids are stable kebab-case strings; the same string appears in human output
//! (`error[yaml-syntax]`), JSON (`"rule"`), SARIF (`ruleId`), the configuration file, the
//! frontmatter suppressions and `dsh-skills lint --explain <rule>`.

use super::{Compat, Severity};

/// Which group a rule belongs to (for the README table and `--explain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The harness skips the file, or discovery fails.
    Skipped,
    /// The skill loads but is probably not what the author meant.
    Suspicious,
    /// Portability with other agents; off unless `--compat` (or the configuration) enables it.
    Portability,
}

#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub id: &'static str,
    /// The default severity. A few rules use another one for some findings; `note` says when.
    pub severity: Severity,
    pub group: Group,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// One paragraph: why it matters and what the harness does.
    pub explanation: &'static str,
    /// How to fix it.
    pub fix: &'static str,
    /// When the severity differs from the default.
    pub note: Option<&'static str>,
    /// The agents this portability rule applies to (empty for harness rules).
    pub compat: &'static [Compat],
    /// `--fix` can fix some findings of this rule.
    pub fixable: bool,
}

const fn rule(
    id: &'static str,
    severity: Severity,
    group: Group,
    summary: &'static str,
    explanation: &'static str,
    fix: &'static str,
) -> Rule {
    Rule { id, severity, group, summary, explanation, fix, note: None, compat: &[], fixable: false }
}

const fn fixable(mut r: Rule) -> Rule {
    r.fixable = true;
    r
}

const fn noted(mut r: Rule, note: &'static str) -> Rule {
    r.note = Some(note);
    r
}

const fn compat(mut r: Rule, targets: &'static [Compat]) -> Rule {
    r.compat = targets;
    r
}

use Group::{Portability, Skipped, Suspicious};
use Severity::{Error, Warning};

pub static RULES: &[Rule] = &[
    // ── The harness skips the file, or discovery fails ───────────────────────────────────
    fixable(rule(
        "frontmatter-missing",
        Error,
        Skipped,
        "The file does not start with a `---` line.",
        "The harness reads frontmatter only when the very first line of the file is exactly `---` \
         (one trailing carriage return allowed) and the file contains a line break. A blank line or \
         any text before it, trailing spaces (`--- `), four dashes, `---yaml`, a file with \
         carriage-return-only line endings or a single-line file all count as \"missing YAML \
         frontmatter\", and the harness skips the skill with that warning. In the bundled root the \
         file is read the plain-Node way, which keeps a UTF-8 byte order mark, so a BOM there has \
         the same effect.",
        "Make the first line exactly `---`, followed by the YAML and a closing `---` line. \
         `--fix` strips a byte order mark.",
    )),
    rule(
        "not-a-skill",
        Warning,
        Skipped,
        "A Markdown file that is not a skill (`README.md`) sits in a skills root.",
        "The harness reads every `.md` file directly in a root as a flat skill. A file with no \
         frontmatter whose name could not be a skill's (capitals, underscores: `README.md`, \
         `CHANGELOG.md`) is documentation kept there: the harness skips it and logs `ignored: \
         missing YAML frontmatter` at every scan, and nothing else happens. (A file with a skill's \
         name and no frontmatter is `frontmatter-missing`, an error: it looks like a skill that \
         does not load.)",
        "Move it out of the root (beside it: `.agents/skills/README.md` to `.agents/README.md`). \
         Or keep it and accept the log line: list it under `not-skills` in `.dsh-skills-lint.yaml` \
         (paths relative to that file); an entry that matches no file is reported \
         (`config-unmatched`).",
    ),
    rule(
        "frontmatter-unclosed",
        Error,
        Skipped,
        "The opening `---` has no closing `---` line.",
        "After the opening fence the harness looks for the first line that is exactly `---` \
         (`...`, `--- ` with a trailing space, `----` and indented dashes do not count). Without \
         one, the file has \"missing YAML frontmatter\" and the harness skips the skill.",
        "Add a line with exactly `---` after the last frontmatter key.",
    ),
    rule(
        "frontmatter-not-mapping",
        Error,
        Skipped,
        "The frontmatter is empty, or its YAML is a scalar or a list rather than `key: value` pairs.",
        "The harness needs the YAML between the fences to be a mapping. Empty frontmatter, \
         comments only, a bare string or a list are all treated as \"missing YAML frontmatter\" \
         and the skill is skipped.",
        "Write `name: ...` and `description: ...` as top-level keys between the fences.",
    ),
    fixable(rule(
        "yaml-syntax",
        Error,
        Skipped,
        "The frontmatter is not valid YAML.",
        "The harness parses the frontmatter with the npm `yaml` package (YAML 1.2, core schema) \
         and skips the whole skill when it throws, logging \"invalid YAML frontmatter\". The \
         classic traps: an unquoted `: ` inside a plain value (`description: Triage bugs: use \
         when ...` is read as a nested mapping), a value that starts with `[` or `{` (read as a \
         list or mapping), `@` or a backtick at the start of a value, `*`, `&` or `!` at the start \
         of a value (alias, anchor, tag), and tabs used for indentation.",
        "Quote the value (`description: \"Triage bugs: use when ...\"`) or use a folded block \
         (`description: >-` and the text indented on the next lines); indent with spaces. `--fix` \
         quotes a single-line value when that makes the YAML valid and keeps its text.",
    )),
    rule(
        "yaml-duplicate-key",
        Error,
        Skipped,
        "A frontmatter key appears twice.",
        "The harness's YAML parser rejects duplicate keys (`Map keys must be unique`), even when \
         one spelling is quoted (`name:` and `\"name\":`), and skips the skill. Other tools keep the \
         last value silently, so the duplicate often goes unnoticed.",
        "Delete one of the two keys.",
    ),
    rule(
        "name-required",
        Error,
        Skipped,
        "`name` is missing, empty, or not a string.",
        "The harness takes a skill's name only from the frontmatter `name`, never from the folder \
         or file name, and requires a non-empty string. A number (`name: 2024`), a boolean \
         (`name: true`), null (`name:`), a list or a mapping does not count, and the harness skips \
         the skill with \"frontmatter requires name and description\".",
        "Add `name: <lowercase-slug>`; quote values YAML would read as numbers or booleans.",
    ),
    rule(
        "name-invalid",
        Error,
        Skipped,
        "`name` is not a lowercase slug (`^[a-z0-9]+(-[a-z0-9]+)*$`).",
        "Skill names must be lowercase ASCII letters and digits in hyphen-separated groups: no \
         capitals, underscores, spaces, dots, non-ASCII letters, leading, trailing or doubled \
         hyphens, and no trailing newline (a `|` block scalar keeps one). The harness skips any \
         other name with \"invalid skill name\".",
        "Use the suggested slug.",
    ),
    rule(
        "description-required",
        Error,
        Skipped,
        "`description` is missing, empty, or not a string.",
        "The harness requires `description` to be a non-empty string: it is the text the model \
         sees in the catalog to decide when to load the skill. Without it the harness skips the \
         skill with \"frontmatter requires name and description\". A value that starts with `[` \
         becomes a list, and `true`, `null` or a number are not strings either.",
        "Add `description: <what the skill does and when to use it>`; quote it if needed.",
    ),
    fixable(rule(
        "legacy-invocation-key",
        Error,
        Skipped,
        "`disableModelInvocation`, `modelInvocable` or `userInvocable` is present.",
        "Earlier harness versions used camelCase invocation keys. Since 0.1.0-rc (commit \
         5923a17910) the mere presence of any of them, whatever its value, makes the harness skip \
         the skill with \"invalid invocation frontmatter\". The replacements: \
         `disableModelInvocation: X` becomes `disable-model-invocation: X`; `userInvocable: X` \
         becomes `user-invocable: X`; `modelInvocable` has the inverted meaning: \
         `modelInvocable: false` becomes `disable-model-invocation: true`, and \
         `modelInvocable: true` is the default (delete it).",
        "Rename the key as the finding says. `--fix` does it when the value is a boolean, inverting \
         `modelInvocable`.",
    )),
    rule(
        "invocation-not-boolean",
        Error,
        Skipped,
        "`disable-model-invocation` or `user-invocable` has a value the harness does not accept.",
        "The harness accepts `true`/`false`, the numbers 1 and 0, and the strings `yes`/`no`, \
         `on`/`off`, `true`/`false` (any letter case) and `\"1\"`/`\"0\"`. Anything else, including \
         an empty value, `y`, `2`, `enabled` or a list, makes it skip the skill with \"must be a \
         boolean\".",
        "Write `true` or `false`.",
    ),
    noted(
        rule(
            "file-not-utf8",
            Error,
            Skipped,
            "The skill file is not valid UTF-8.",
            "Project, custom and user roots are read through the harness's filesystem service, \
             which decodes strictly: one invalid byte anywhere (Latin-1 or Windows-1252 text, a \
             file cut in the middle of a character) makes it skip the skill with \"invalid UTF-8 \
             text\". The bundled root is read the plain-Node way, which silently replaces invalid \
             bytes with U+FFFD.",
            "Re-save the file as UTF-8.",
        ),
        "a warning in the bundled root, where the harness loads the file with U+FFFD in place of \
         the invalid bytes",
    ),
    rule(
        "file-binary",
        Error,
        Skipped,
        "The skill file has a NUL byte in its first 8192 bytes.",
        "The harness's filesystem service treats a file with a NUL byte in its first 8192 bytes \
         as binary and skips the skill with \"binary file\" (UTF-16 text has NUL bytes too).",
        "Save the file as UTF-8 text.",
    ),
    rule(
        "skill-file-not-regular",
        Error,
        Skipped,
        "`SKILL.md` is a directory, a FIFO or a device.",
        "The harness opens `<folder>/SKILL.md` directly. When it is a directory it skips the skill \
         without a word (and in the bundled root, read the plain-Node way, the read fails with \
         EISDIR and the whole provider fails). A FIFO or device is never a skill file.",
        "Make `SKILL.md` a regular file.",
    ),
    rule(
        "symlink-loop",
        Error,
        Skipped,
        "A symbolic link loops (ELOOP), which makes the whole discovery fail.",
        "The harness resolves every entry of a root with `realpath`. A link that loops is not an \
         absence but a failure: the filesystem provider's `list()` throws, the harness logs `skill \
         provider \"filesystem\" skipped`, every skill from every root is lost, and the model gets \
         no catalog at all.",
        "Remove the link or point it at a real directory.",
    ),
    rule(
        "discovery-failed",
        Error,
        Skipped,
        "An I/O error other than \"not found\" makes the whole discovery fail.",
        "The harness treats only ENOENT and ENOTDIR as absence. Any other error while listing a \
         root or opening a skill file, such as permission denied, makes the filesystem provider's \
         `list()` throw: the harness logs `skill provider \"filesystem\" skipped`, loses every skill \
         of every root, and publishes no catalog.",
        "Fix the permissions (or remove the entry) so the harness can read it.",
    ),
    rule(
        "blank-entry-name",
        Error,
        Skipped,
        "An entry of a root whose name is only white space hides every skill of that root.",
        "While listing a root, the harness's filesystem service resolves each entry by name and \
         refuses a name that JavaScript's `trim()` empties (a space, a tab, U+3000, ...) with \
         `FS_NOT_FOUND`. The provider reads that code as \"the root does not exist\": every skill \
         of the root is lost, without a warning, while the other roots load as usual.",
        "Rename the entry to a name with a visible character, or remove it.",
    ),
    noted(
        rule(
            "dangling-symlink",
            Warning,
            Skipped,
            "A symbolic link in a root, or a `SKILL.md` link, points at nothing.",
            "In project, custom and user roots the harness drops an entry whose link dangles \
             without a word, so the skill silently disappears. In the bundled root it logs \"failed \
             to follow symbolic link\" and skips the entry.",
            "Fix or remove the link.",
        ),
        "an error in the bundled root, where the harness warns and skips the entry",
    ),
    rule(
        "harness-rejected",
        Error,
        Skipped,
        "The harness skips this file with a warning that no more specific rule explains.",
        "A safety net: dsh-skills reproduces the harness's checks, and whenever the harness would \
         skip a file with a warning, lint reports an error even if none of its specific rules \
         matched. The message is the harness's own log line.",
        "Read the harness's message; please report the case so a specific rule can cover it.",
    ),
    // ── Loads, but probably wrong ───────────────────────────────────────────────────────────
    noted(
        rule(
            "shadowed-skill",
            Warning,
            Suspicious,
            "A skill with the same name in a higher-ranked root wins, so this copy is ignored.",
            "Roots rank project `.dsh/skills` (100) over project `.agents/skills` (200), custom \
             dirs (300, in configured order), `~/.dsh/skills` (400), `~/.agents/skills` (500) and \
             the bundled dir (600). For each name the highest-ranked copy wins; the harness logs \
             \"skill \\\"x\\\" from <source> ignored because a higher-priority skill already exists\" \
             for every other copy, and edits to the losing copy have no effect.",
            "Rename one of the skills, or delete the stale copy.",
        ),
        "info when the winning copy is in another scope (a project skill over a personal one: the \
         harness working as designed) or both copies are the same file reached through two roots; a \
         warning within one scope (project `.dsh` vs project `.agents`, two custom dirs, `~/.dsh` vs \
         `~/.agents`)",
    ),
    rule(
        "duplicate-name",
        Warning,
        Suspicious,
        "Two skills in the same root declare the same `name`.",
        "Within one root the harness takes entries in ICU collation order for the process locale \
         (as JavaScript's `localeCompare`, not byte order): the entry that sorts first wins and \
         the other is ignored with the shadow warning. `foo_bar/` sorts before `foo-bar.md`, and \
         `a.md` before `B.md`. Which copy wins is easy to get wrong.",
        "Give each skill its own name, or delete one copy.",
    ),
    rule(
        "name-collision",
        Warning,
        Suspicious,
        "Two skills of one repository, outside the roots, declare the same `name`.",
        "A collection or marketplace is installed into skill roots. Two skills with one `name` \
         shadow each other there: in one root the entry that sorts first (ICU collation for the \
         process locale) wins, in two roots the higher-ranked root's copy, and the other is \
         ignored with the shadow warning. Two folders with one name cannot be installed into one \
         root at all.",
        "Give each skill its own name (and folder), or remove the stale copy.",
    ),
    rule(
        "manifest-invalid",
        Error,
        Suspicious,
        "A Claude Code plugin manifest (`.claude-plugin/marketplace.json` or `plugin.json`) is not \
         valid JSON of the expected shape.",
        "The harness does not read plugin manifests, but Claude Code and the skill installers \
         that install a repository's skills through them do: a file that is not JSON, a \
         marketplace without a `plugins` list, a plugin `source` that is neither a path nor a \
         source object, or `skills` that is neither a path nor a list of paths makes them fail, \
         and the skills are not installed. The finding names the line and column.",
        "Fix the JSON at the line the finding names.",
    ),
    rule(
        "manifest-missing-path",
        Error,
        Suspicious,
        "A plugin manifest names a plugin source or a skill path that does not exist or holds no \
         skill.",
        "A marketplace's local plugin `source` (relative to the marketplace root, after \
         `metadata.pluginRoot`) and a plugin's `skills` paths (relative to the plugin root, each a \
         skill folder or a folder of skill folders) must exist: installing the plugin fails or \
         installs no skill from the path.",
        "Correct the path (relative, starting with `./`) or remove the entry.",
    ),
    rule(
        "manifest-unlisted-skill",
        Warning,
        Suspicious,
        "A skill folder under a marketplace's plugins that no plugin's `skills` list names.",
        "When every local plugin of a marketplace lists its skills explicitly, a skill folder \
         under a plugin's root that no list names is installed by no plugin: it is in the \
         repository but never reaches a user.",
        "Add its path to the `skills` of the plugin that should ship it, or remove the folder.",
    ),
    rule(
        "name-mismatch",
        Warning,
        Suspicious,
        "`name` differs from the folder name (or the file name of a flat skill).",
        "The harness identifies a skill only by its frontmatter `name`: `/name`, the catalog and \
         the `skill` tool use it, and the folder name plays no part. Claude Code invokes skills by \
         folder name and the Agent Skills specification requires the two to match, so a mismatch \
         gives the same skill two identities.",
        "Rename the folder (or file) or the `name` so they match.",
    ),
    rule(
        "description-truncated",
        Warning,
        Suspicious,
        "The description is longer than the catalog limit, so the model sees it cut.",
        "The catalog shows each model-invocable skill's description with whitespace runs \
         collapsed, cut to `catalogDescriptionMaxLength` (500 by default) UTF-16 code units: the \
         first limit-3 units followed by `...`. Whatever comes after the cut, often the \"use \
         when\" clause that tells the model when to load the skill, never reaches the model.",
        "Shorten the description, or move detail into the body; put trigger phrases first.",
    ),
    rule(
        "description-blank",
        Warning,
        Suspicious,
        "The description is only whitespace.",
        "A whitespace-only string passes the harness's \"non-empty string\" check, so the skill \
         loads, but the catalog collapses it to nothing: the model sees the name and an empty \
         description.",
        "Write a description.",
    ),
    fixable(rule(
        "when-to-use-key",
        Warning,
        Suspicious,
        "`when_to_use`, `when-to-use` or another spelling is used instead of `whenToUse`.",
        "The harness reads only the exact camelCase key `whenToUse`; `when_to_use` (Claude Code's \
         spelling), `when-to-use`, `WhenToUse` and the like are ignored silently, so the text \
         never reaches the skill's summary.",
        "Rename the key to `whenToUse` (keep `when_to_use` as well if Claude Code reads the same \
         file). `--fix` renames it when no `whenToUse` exists.",
    )),
    rule(
        "ignored-field",
        Warning,
        Suspicious,
        "`whenToUse` is not a non-empty string, or `metadata` is not a mapping.",
        "The harness keeps `whenToUse` only when it is a non-empty string and `metadata` only when \
         it is a mapping; otherwise it drops them silently and the skill loads without them.",
        "Make `whenToUse` a string and `metadata` a mapping of keys to values.",
    ),
    noted(
        rule(
            "unknown-key",
            Warning,
            Suspicious,
            "A frontmatter key that neither the harness nor any other known agent reads.",
            "The harness reads `name`, `description`, `whenToUse`, `metadata`, \
         `disable-model-invocation` and `user-invocable`, and ignores every other key silently. \
         Keys of other agents (`license`, `allowed-tools`, `argument-hint`, `model`, ...) are \
         expected and not reported; anything else is usually a misspelling, and a misspelled \
         `user_invocable` or `Disable-Model-Invocation` means the setting never takes effect.",
            "Use the suggested spelling, move custom data under `metadata`, or list the team's own keys \
         under `extra-keys` in `.dsh-skills-lint.yaml`.",
        ),
        "info for a key that is not close to a key the harness reads (custom data, not a typo)",
    ),
    noted(
        rule(
            "broken-reference",
            Warning,
            Suspicious,
            "A relative link or path mentioned in the body points at a file that does not exist.",
            "The `skill` tool tells the model to resolve relative paths against the skill's base \
         directory (the skill folder, or the root for a flat `.md` file). A link or a \
         `scripts/...`, `references/...` or `assets/...` path that does not exist there sends the \
         model looking for a file it cannot find.",
            "Fix the path (the nearest existing file, or the same file in a neighbouring skill, is \
         suggested) or add the file.",
        ),
        "info for a path only mentioned in passing (no link, no instruction to read or run it); \
        illustrative paths (\"for example `scripts/x.py`\"), placeholders, `file:42` positions and \
        paths about the user's project are not references",
    ),
    noted(
        rule(
            "reference-escapes-bundle",
            Warning,
            Suspicious,
            "A relative reference leaves the skill's base directory (`..`), or is an absolute path.",
            "A skill is meant to be a self-contained folder that can be copied, packaged or installed \
         elsewhere. A reference through `..` or to an absolute path works only on the author's \
         machine.",
            "Copy the file into the skill folder and reference it relatively.",
        ),
        "info when the target exists (common and deliberate in project skills); a target through `..` \
        that does not exist is a `broken-reference`",
    ),
    rule(
        "symlink-escapes-bundle",
        Warning,
        Suspicious,
        "A symbolic link inside the skill folder points outside it and outside its repository, or \
         dangles.",
        "Packaging, copying or installing the skill folder breaks such links, and the model, told \
         to resolve paths against the skill's base directory, reaches a file that is not part of \
         the skill. Links that stay inside the skill's repository (the nearest folder above it \
         holding `.git`) are fine and not reported: a plugin's skills linking into a shared folder \
         of the same repository (`../../commands/x.md`, `../../agents/personas/README.md`), or a \
         mirror folder for another agent whose SKILL.md links to the canonical copy. Git keeps \
         them, the harness follows them, and Claude Code copies a link's target when it installs \
         a plugin. A skill outside any repository is held to its own folder.",
        "Replace the link with the file itself, or keep the target inside the repository.",
    ),
    rule(
        "body-too-long",
        Warning,
        Suspicious,
        "The body is over 500 lines.",
        "The harness sends the whole body to the model every time the skill is loaded. The Agent \
         Skills specification and Claude Code's guidance keep SKILL.md under 500 lines and move \
         detail into referenced files that are read only when needed.",
        "Move detail into `references/` files and link them.",
    ),
    rule(
        "unreachable-skill",
        Warning,
        Suspicious,
        "`disable-model-invocation: true` together with `user-invocable: false`.",
        "The harness loads the skill, but the model cannot call it (it is not in the catalog) and \
         the user cannot invoke it with `/name`: nothing can ever use it.",
        "Drop one of the two settings.",
    ),
    noted(
        rule(
            "skill-md-case",
            Error,
            Suspicious,
            "A skill folder has `skill.md` (or another spelling) instead of `SKILL.md`.",
            "The harness opens `<folder>/SKILL.md` by that exact name. On case-insensitive filesystems \
         (macOS, Windows) `skill.md` is found too, so the skill works there and silently \
         disappears on Linux, including CI and servers.",
            "Rename the file to `SKILL.md`.",
        ),
        "a warning when the file would not load anyway (its frontmatter is not a valid skill)",
    ),
    rule(
        "ignored-entry",
        Warning,
        Suspicious,
        "A file in a root that the harness passes over silently (`.markdown`, `.MD`, `.system`).",
        "Flat skills must end in exactly `.md` (case-sensitive): `.markdown`, `.MD` or `.mdx` files \
         are ignored. In `~/.dsh/skills` an entry named `.system` is skipped. Entries whose names \
         are not valid UTF-8 cannot be opened. None of these produce a warning in the harness.",
        "Rename the file to end in `.md`, or move the skill to its own folder.",
    ),
    noted(
        rule(
            "nested-too-deep",
            Error,
            Suspicious,
            "A `SKILL.md` more than one level below a root.",
            "The harness looks exactly one level deep: `<root>/<folder>/SKILL.md` and \
             `<root>/<file>.md`. A skill in `<root>/<group>/<folder>/SKILL.md` is never discovered, \
             without a warning. A well-formed skill there was evidently meant to load, so this is an \
             error. A `SKILL.md` inside a skill folder that has its own `SKILL.md` is that skill's \
             content (a template or an example) and is not reported; neither is a skill directly in \
             a root.",
            "Move the skill folder directly under the root (the finding gives the command).",
        ),
        "a warning when the nested file would not load anyway (its frontmatter is not a valid skill)",
    ),
    noted(
        rule(
            "unscanned-skill-folder",
            Warning,
            Suspicious,
            "Skills in a folder the harness does not scan for this working directory.",
            "The harness scans `.dsh/skills` and `.agents/skills` of the project root (the nearest \
             ancestor of the cwd with `.git`), custom dirs, `~/.dsh/skills`, `~/.agents/skills` and \
             the bundled dir, nothing else. Skills in another agent's folder (`.claude/skills`, \
             `.codex/skills`, `.github/skills`, ...), in a top-level `skills/`, in a monorepo \
             package's own `.agents/skills`, in an ancestor above the project root or in a parent \
             of the cwd that is not the project root are never loaded, without a warning. A \
             repository may keep such a folder for another agent on purpose: list it under \
             `unscanned-ok` in `.dsh-skills-lint.yaml` and lint stops reporting it. Any other folder \
             of the project that holds skill folders (a collection's `skills/`, a marketplace's \
             `plugins/<plugin>/skills/`, a category folder) is reported too, once per folder, with \
             one more note adding them all when there are several; its skills are linted as the \
             units they install as, without placement rules.",
            "Move the skills into the project's `.agents/skills` (or `~/.agents/skills` for a \
             personal folder), link them there, or add the folder to `customSkillDirs` (preview \
             with `--root` or `--custom-dir`); a collection's folder is added as a custom dir or its \
             skills linked. The finding gives the exact commands.",
        ),
        "a warning in a project that uses the harness (its root holds `.dsh/` or `.agents/skills/`); \
         a note (info) otherwise, in a collection or marketplace, where skills outside the roots \
         are the point",
    ),
    rule(
        "root-level-skill-md",
        Warning,
        Suspicious,
        "A file named `SKILL.md` directly in a root.",
        "The harness reads `<root>/SKILL.md` as a flat skill, so its base directory is the whole \
         root, not a skill folder: the model is told that every file in the root belongs to this \
         skill.",
        "Move it into a folder named after the skill.",
    ),
    rule(
        "yaml-warning",
        Warning,
        Suspicious,
        "The YAML parser warns about the frontmatter (for example an unknown tag).",
        "The harness's YAML parser resolves an unknown tag such as `!foo` to a plain string and \
         prints a warning on the process's stderr, where nobody reads it.",
        "Remove the tag or quote the value.",
    ),
    rule(
        "invalid-suppression",
        Warning,
        Suspicious,
        "A `# dsh-skills-lint:` comment names an unknown rule or is malformed.",
        "Suppression comments in the frontmatter must name existing rule ids; a misspelled id \
         suppresses nothing.",
        "Use an id from `dsh-skills lint --explain <rule>` or the README table.",
    ),
    rule(
        "config-unmatched",
        Warning,
        Suspicious,
        "An `unscanned-ok` or `not-skills` entry of `.dsh-skills-lint.yaml` matches nothing.",
        "An entry that matches nothing has no effect: a misspelt or moved folder is still reported \
         (or the entry outlived the folder), and a `not-skills` file added later under that name \
         would be silenced without review. Entries are paths relative to the folder of the \
         configuration file; globs are not supported (the file is refused when an entry has `*`, \
         `?` or `[`). `unscanned-ok` entries are checked when `lint` runs for the project (no \
         paths on the command line), where every unscanned folder is searched; a `not-skills` \
         entry whenever the file it names does not exist.",
        "Correct the path (as `dsh-skills list` prints the folder) or remove the entry.",
    ),
    rule(
        "unclosed-code-fence",
        Warning,
        Suspicious,
        "A code fence (```` ``` ```` or `~~~`) in the body is never closed.",
        "The body is read as CommonMark: a fence runs to a line of the same character, at least as \
         long, with nothing after it and indented at most three spaces from its container (a fence \
         line indented four spaces inside a block is part of the code). Reported when no such line \
         comes and the block runs to the end of the body: everything after the opening line is code, \
         and headings, links and instructions below it reach the model (and every Markdown renderer) \
         as the contents of a code block.",
        "Close the block with a line of the same fence characters (in a quote or a list item, \
         indented like the opening fence).",
    ),
    rule(
        "home-path",
        Warning,
        Suspicious,
        "The body has a hard-coded user home directory (`/Users/…`, `/home/<user>/…`, `C:\\Users\\…`).",
        "The harness passes the body to the model as written. A path into one person's home \
         directory exists only on that machine: the model on anyone else's machine looks for a file \
         that is not there. Placeholder names (`/home/user`, `/Users/you`, `<name>`) are not reported.",
        "Reference the skill's own files relatively (`scripts/x.py`), or write `~` or `$HOME`.",
    ),
    rule(
        "openai-yaml-invalid",
        Warning,
        Suspicious,
        "The skill's `agents/openai.yaml` (Codex's metadata) is not valid YAML or has a value of the wrong type.",
        "The harness does not read `agents/openai.yaml`; Codex does, and reads it fail open: a YAML error or a \
         value of the wrong type anywhere in it (a section that is not a mapping, a list where text belongs, \
         `allow_implicit_invocation: \"false\"`, `no` or `0` instead of a plain `false`) makes Codex log \
         `ignoring …: invalid openai.yaml` and ignore the whole file: no display name, icons, default prompt or \
         dependencies, and the skill is invoked implicitly whatever its policy says.",
        "Fix the value the message names: `interface`, `policy` and `dependencies` are mappings, text fields are \
         strings, `allow_implicit_invocation` is a plain `true` or `false`.",
    ),
    rule(
        "openai-yaml-ignored-field",
        Warning,
        Suspicious,
        "Codex drops one field of the skill's `agents/openai.yaml`, or does not know a key that is a slip of one it does.",
        "Codex checks each field of `agents/openai.yaml` on its own and drops one that fails, with a warning in its \
         log: an empty value, a `display_name` over 64 characters, a `short_description` or `default_prompt` over \
         1,024, a `brand_color` that is not `#RRGGBB`, an icon that is not a relative path under the skill's \
         `assets/`, a tool without `type` or `value`. A key it does not know (`displayName`, \
         `allow_implicit_invocations`) is ignored without a word, so that setting is lost. An icon path that names no \
         file is kept, and Codex shows no icon. The harness reads none of this file.",
        "Fix the field as the message says: rename the key, shorten the text, write the colour as `#RRGGBB`, put the \
         icon under `assets/`.",
    ),
    rule(
        "invocation-policy-mismatch",
        Warning,
        Suspicious,
        "`disable-model-invocation` and Codex's `policy.allow_implicit_invocation` disagree.",
        "`disable-model-invocation: true` in the frontmatter keeps a skill out of the model's catalog in the harness \
         (and in Claude Code, which reads the same key); Codex reads its own setting, \
         `policy.allow_implicit_invocation: false` in `agents/openai.yaml`. A skill that has `agents/openai.yaml` and \
         sets only one of them is invoked by the model in one agent and only on request in the other.",
        "Set both or neither: add `policy:` / `allow_implicit_invocation: false` to `agents/openai.yaml`, or \
         `disable-model-invocation: true` to the frontmatter (or drop the one you did not mean).",
    ),
    rule(
        "invisible-unicode",
        Warning,
        Suspicious,
        "The file has invisible or bidirectional-control characters.",
        "Zero-width spaces, word joiners, Unicode tag characters, bidirectional embeddings, \
         overrides and isolates and terminal escapes are invisible in editors and code review, but \
         the harness passes them to the model unchanged: they can hide instructions or make text \
         read differently from what a reviewer sees. Joiners inside emoji and non-Latin words and \
         direction marks in right-to-left text are not reported.",
        "Delete the characters.",
    ),
    rule(
        "embedded-secret",
        Warning,
        Suspicious,
        "Something in the file looks like an API key, a token or a private key.",
        "The harness sends the whole body to the model, and skill folders are committed, shared and \
         packaged. Tokens with a known shape (AWS, GitHub, OpenAI, Anthropic, Slack, Google, GitLab, \
         Stripe, PEM private keys) are reported; documented examples and placeholders (`EXAMPLE`, \
         `xxxx`, `your-key`, `...`, short or low-variety strings) are not.",
        "Remove and revoke the credential; have the model read it from an environment variable.",
    ),
    // ── Portability (off unless --compat) ───────────────────────────────────────────────────
    compat(
        rule(
            "name-too-long",
            Warning,
            Portability,
            "`name` is longer than 64 characters.",
            "The harness has no length limit, but the Agent Skills specification caps names at 64 \
             characters, Claude Code documents the same limit, and Codex skips such a skill.",
            "Shorten the name.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode, Compat::Codex],
    ),
    rule(
        "description-too-long",
        Warning,
        Suspicious,
        "The description is longer than 1024 characters.",
        "The harness only cuts a long description in the catalog, but the Agent Skills specification \
         forbids descriptions over 1024 characters, claude.ai uploads reject them, and Codex skips \
         the whole skill (it counts characters after collapsing whitespace), so the same folder \
         silently disappears there.",
        "Shorten the description; move detail into the body.",
    ),
    compat(
        rule(
            "description-angle-brackets",
            Warning,
            Portability,
            "The description contains `<`, `>` or an XML-like tag.",
            "The harness shows the description as written, but Anthropic's `quick_validate.py` and \
             claude.ai uploads reject a description with angle brackets, and Claude Code escapes them \
             in synced skills.",
            "Write the words instead (\"less than\", \"at most\"), or drop the tag.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode],
    ),
    compat(
        rule(
            "metadata-non-string",
            Warning,
            Portability,
            "A `metadata` value is not a string.",
            "The harness keeps `metadata` as it is, but the Agent Skills specification defines it as \
             a map of strings to strings: `version: 1.0` is a number there, and validators coerce \
             (`1.0` becomes `1`) or reject it.",
            "Quote the value: `version: \"1.0\"`.",
        ),
        &[Compat::Agentskills],
    ),
    compat(
        rule(
            "non-portable-key",
            Warning,
            Portability,
            "A frontmatter key the target agent's validator rejects.",
            "The Agent Skills specification allows only `name`, `description`, `license`, \
             `compatibility`, `metadata` and `allowed-tools`; `skills-ref validate`, Anthropic's \
             `quick_validate.py` and claude.ai uploads reject anything else, including the \
             harness's own `whenToUse`, `disable-model-invocation` and `user-invocable`. Claude \
             Code reads its own set of keys (`when_to_use`, not `whenToUse`).",
            "Move harness-only settings under `metadata` where possible, or lint without that \
             `--compat` target for harness-only skills.",
        ),
        &[Compat::Agentskills, Compat::ClaudeCode],
    ),
    fixable(compat(
        rule(
            "utf8-bom",
            Warning,
            Portability,
            "The file starts with a UTF-8 byte order mark.",
            "The harness strips one BOM in project, custom and user roots, but `skills-ref`, \
             Anthropic's validator and Codex require the file to start with `---` and treat a \
             BOM as missing frontmatter.",
            "Save without a BOM; `--fix` strips it.",
        ),
        &[Compat::Agentskills, Compat::Codex],
    )),
    fixable(compat(
        rule(
            "crlf-line-endings",
            Warning,
            Portability,
            "The file uses CRLF line endings.",
            "The harness accepts CRLF, but Anthropic's `quick_validate.py` (used to package skills \
             for upload) matches the frontmatter with LF-only patterns and rejects the file, and \
             the body reaches the model with its carriage returns.",
            "Convert to LF (`git config core.autocrlf input`); `--fix` does it.",
        ),
        &[Compat::Agentskills],
    )),
];

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// Rule ids close to `id`, for "did you mean".
pub fn similar(id: &str) -> Vec<&'static str> {
    let mut scored: Vec<(usize, &'static str)> = RULES
        .iter()
        .map(|r| (crate::analysis::suggest::edit_distance(r.id, id), r.id))
        .filter(|(d, rid)| *d <= 3 || rid.contains(id) || (!id.is_empty() && id.contains(rid)))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, r)| r).collect()
}

/// The explanation of a rule as plain text, for `--explain`.
pub fn explain_text(r: &Rule) -> String {
    let mut s = format!("{} ({})\n\n{}\n\n", r.id, level_text(r), r.summary);
    s.push_str(&wrap(r.explanation, 90));
    s.push_str("\n\nFix: ");
    s.push_str(r.fix);
    s.push('\n');
    s
}

/// `error`, `warning (error in ...)`, `off; warning with --compat agentskills, codex`.
pub fn level_text(r: &Rule) -> String {
    let mut s = if r.compat.is_empty() {
        r.severity.as_str().to_string()
    } else {
        let targets: Vec<&str> = r.compat.iter().map(|c| c.as_str()).collect();
        format!("off; {} with --compat {}", r.severity.as_str(), targets.join("|"))
    };
    if let Some(note) = r.note {
        s.push_str("; ");
        s.push_str(note);
    }
    if r.fixable {
        s.push_str("; fixable");
    }
    s
}

/// Greedy word wrap (explanations are plain ASCII-ish prose).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if line > 0 && line + 1 + w > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            assert!(
                r.id.split('-')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "{} is not kebab-case",
                r.id
            );
            assert!(r.summary.ends_with('.') && r.explanation.len() > 80, "{} needs a real explanation", r.id);
            assert_eq!(r.group == Group::Portability, !r.compat.is_empty(), "{}", r.id);
        }
    }

    #[test]
    fn suggestions() {
        assert_eq!(similar("yaml-sintax"), ["yaml-syntax"]);
        assert!(similar("zzzzzzzzzzzzzz").is_empty());
    }
}
