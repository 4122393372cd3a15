//! `!!js` values. The harness evaluates them with `with (ctx) { eval(expr) }` when a row mounts
//! (`vendor/loader/src/config/utils.ts`); dsh-skills cannot run JavaScript, so it recognises a
//! few exact idioms and reports every other expression as unresolvable.
//!
//! Recognised (whitespace between tokens is free, either quote style):
//! * `process.getBuiltinModule('node:url').fileURLToPath(new URL('<rel>', baseUrl))` — the
//!   shipped `cordis` preset's skills folder (`apps/cli/config/agent-presets/cordis/
//!   agent.cordis.yml:260`): `<rel>` (a plain relative path) under the directory `baseUrl`
//!   names, keeping a trailing separator;
//! * `process.platform === 'win32'` and `!==` (the shipped rows' platform gates);
//! * `process.env.NAME`, `process.env['NAME']`, optionally `?? '<literal>'` (patch layers may
//!   read the launching environment, which is dsh-skills' own);
//! * `process.cwd()` — the launch directory.

use crate::engine::platform;

/// What an expression evaluates to, as far as configuration needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsValue {
    Str(String),
    Bool(bool),
    Undefined,
}

impl JsValue {
    pub fn truthy(&self) -> bool {
        match self {
            JsValue::Str(s) => !s.is_empty(),
            JsValue::Bool(b) => *b,
            JsValue::Undefined => false,
        }
    }
}

/// The evaluation context of one row.
pub struct JsContext<'a> {
    /// The directory `baseUrl` points at: the preset's directory for preset rows, the profile
    /// directory for host rows. `Err` says why it is not known.
    pub base_dir: Result<&'a str, &'a str>,
    pub launch_dir: &'a str,
    pub var: &'a dyn Fn(&str) -> Option<String>,
}

/// The outcome for one expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// A recognised idiom and its value, with the idiom's name for reports.
    Known(JsValue, &'static str),
    /// A recognised idiom whose input is missing here (e.g. the installed package was not
    /// found); the reason says what was looked for.
    Missing(String),
    /// Not an idiom dsh-skills knows.
    Unknown,
}

/// Tokens: identifiers, string literals, punctuation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Str(String),
    Punct(&'static str),
}

fn tokenize(expr: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c == '\'' || c == '"' {
            let start = i + 1;
            i += 1;
            while i < chars.len() && chars[i] != c {
                // Escapes are outside what the idioms need.
                if chars[i] == '\\' || chars[i] == '\n' {
                    return None;
                }
                i += 1;
            }
            if i == chars.len() {
                return None;
            }
            out.push(Tok::Str(chars[start..i].iter().collect()));
            i += 1;
        } else {
            let rest: String = chars[i..].iter().take(3).collect();
            let punct = ["===", "!==", "??", ".", "(", ")", ",", "[", "]"].into_iter().find(|p| rest.starts_with(p))?;
            out.push(Tok::Punct(punct));
            i += punct.chars().count();
        }
    }
    Some(out)
}

fn id(s: &str) -> Tok {
    Tok::Ident(s.into())
}

fn p(s: &'static str) -> Tok {
    Tok::Punct(s)
}

/// A relative URL path `new URL(rel, base)` resolves without surprises.
fn plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && rel.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
        && rel.split('/').all(|seg| seg != "..")
}

pub fn evaluate(expr: &str, cx: &JsContext) -> Evaluation {
    let Some(toks) = tokenize(expr) else { return Evaluation::Unknown };
    // process.getBuiltinModule('node:url').fileURLToPath(new URL('<rel>', baseUrl))
    let url_idiom = [
        id("process"),
        p("."),
        id("getBuiltinModule"),
        p("("),
        Tok::Str("node:url".into()),
        p(")"),
        p("."),
        id("fileURLToPath"),
        p("("),
        id("new"),
        id("URL"),
        p("("),
    ];
    if toks.len() == url_idiom.len() + 5 && toks.starts_with(&url_idiom) {
        let tail = &toks[url_idiom.len()..];
        if let [Tok::Str(rel), Tok::Punct(","), Tok::Ident(base), Tok::Punct(")"), Tok::Punct(")")] = tail
            && base == "baseUrl"
            && plain_relative(rel)
        {
            return match cx.base_dir {
                Ok(dir) => {
                    let mut path = platform::join(dir, rel.trim_end_matches('/'));
                    if rel.ends_with('/') {
                        path.push(platform::SEP);
                    }
                    Evaluation::Known(JsValue::Str(path), "fileURLToPath(new URL(…, baseUrl))")
                }
                Err(why) => Evaluation::Missing(why.to_string()),
            };
        }
        return Evaluation::Unknown;
    }
    match toks.as_slice() {
        [Tok::Ident(a), Tok::Punct("."), Tok::Ident(b), Tok::Punct(op @ ("===" | "!==")), Tok::Str(s)]
            if a == "process" && b == "platform" =>
        {
            let platform = if cfg!(windows) {
                "win32"
            } else if cfg!(target_os = "macos") {
                "darwin"
            } else {
                "linux"
            };
            let equal = platform == s;
            Evaluation::Known(JsValue::Bool(if *op == "===" { equal } else { !equal }), "process.platform")
        }
        [Tok::Ident(a), Tok::Punct("."), Tok::Ident(b), Tok::Punct("("), Tok::Punct(")")]
            if a == "process" && b == "cwd" =>
        {
            Evaluation::Known(JsValue::Str(cx.launch_dir.to_string()), "process.cwd()")
        }
        _ => env_idiom(&toks, cx).unwrap_or(Evaluation::Unknown),
    }
}

fn env_idiom(toks: &[Tok], cx: &JsContext) -> Option<Evaluation> {
    let [Tok::Ident(a), Tok::Punct("."), Tok::Ident(b), rest @ ..] = toks else { return None };
    if a != "process" || b != "env" {
        return None;
    }
    let (name, rest) = match rest {
        [Tok::Punct("."), Tok::Ident(name), rest @ ..] => (name.clone(), rest),
        [Tok::Punct("["), Tok::Str(name), Tok::Punct("]"), rest @ ..] => (name.clone(), rest),
        _ => return None,
    };
    let value = (cx.var)(&name);
    let result = match (rest, value) {
        ([], Some(v)) => JsValue::Str(v),
        ([], None) => JsValue::Undefined,
        ([Tok::Punct("??"), Tok::Str(_)], Some(v)) => JsValue::Str(v),
        ([Tok::Punct("??"), Tok::Str(fallback)], None) => JsValue::Str(fallback.clone()),
        _ => return None,
    };
    Some(Evaluation::Known(result, "process.env"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(expr: &str) -> Evaluation {
        let var = |k: &str| (k == "SET").then(|| "value".to_string());
        evaluate(
            expr,
            &JsContext { base_dir: Ok("/opt/dsh/config/agent-presets/cordis"), launch_dir: "/launch", var: &var },
        )
    }

    #[test]
    fn the_cordis_skills_idiom() {
        let e = eval("process.getBuiltinModule('node:url').fileURLToPath(new URL('skills/', baseUrl))");
        assert_eq!(
            e,
            Evaluation::Known(
                JsValue::Str(format!("/opt/dsh/config/agent-presets/cordis/skills{}", platform::SEP)),
                "fileURLToPath(new URL(…, baseUrl))"
            )
        );
        let spaced = eval("process.getBuiltinModule(\"node:url\") .fileURLToPath( new URL(\"skills\" , baseUrl) )");
        assert!(matches!(spaced, Evaluation::Known(JsValue::Str(s), _) if s.ends_with("cordis/skills")));
        let var = |_: &str| None;
        let missing = evaluate(
            "process.getBuiltinModule('node:url').fileURLToPath(new URL('skills/', baseUrl))",
            &JsContext { base_dir: Err("not installed"), launch_dir: "/", var: &var },
        );
        assert_eq!(missing, Evaluation::Missing("not installed".into()));
        assert_eq!(
            eval("process.getBuiltinModule('node:url').fileURLToPath(new URL('../x', baseUrl))"),
            Evaluation::Unknown
        );
    }

    #[test]
    fn platform_env_and_cwd() {
        let linux_like = !cfg!(windows);
        assert_eq!(
            eval("process.platform === 'win32'"),
            Evaluation::Known(JsValue::Bool(!linux_like), "process.platform")
        );
        assert_eq!(
            eval("process.platform !== 'win32'"),
            Evaluation::Known(JsValue::Bool(linux_like), "process.platform")
        );
        assert_eq!(eval("process.env.SET"), Evaluation::Known(JsValue::Str("value".into()), "process.env"));
        assert_eq!(eval("process.env['UNSET']"), Evaluation::Known(JsValue::Undefined, "process.env"));
        assert_eq!(eval("process.env.UNSET ?? '/x'"), Evaluation::Known(JsValue::Str("/x".into()), "process.env"));
        assert_eq!(eval("process.cwd()"), Evaluation::Known(JsValue::Str("/launch".into()), "process.cwd()"));
        assert_eq!(eval("process.cwd() + '/.dsh'"), Evaluation::Unknown);
        assert_eq!(eval("require('os').homedir()"), Evaluation::Unknown);
        assert_eq!(eval("'unterminated"), Evaluation::Unknown);
    }
}
