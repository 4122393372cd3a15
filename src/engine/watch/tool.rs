//! What the `skill` tool returns for a name right now (`tool-skill/src/index.ts:127-156`,
//! spec 7.2): the `<skill_content>` block, or the error the model reads.

use crate::engine::catalog::{self, ResourceBase};
use crate::engine::discover::ReadOutcome;
use crate::engine::snapshot::Snapshot;
use crate::engine::textread::{Keep, Route};

/// The tool's answer: `Ok` is the text block of a success, `Err` the text the tool runtime
/// shows the model (`Error: <message>`).
pub type ToolResult = Result<String, String>;

/// Run the `skill` tool for `name` against the snapshot: listed winner, invocation policy, then
/// the provider's `get` (the file read and parsed again, as the harness does at load time).
pub fn skill_tool(snap: &Snapshot, name: &str) -> ToolResult {
    let err = |m: String| Err(format!("Error: {m}"));
    let gone = || err(format!("skill \"{name}\" is unknown or no longer available"));
    let not_model = || err(format!("skill \"{name}\" is not available for model invocation"));
    if !crate::engine::js::is_skill_name(name) {
        return err(format!("invalid skill name \"{name}\""));
    }
    let Some(c) = snap.winner(name) else { return gone() };
    if !c.skill.invocation.model_invocable {
        return not_model();
    }
    let Some(path) = &c.path else {
        // A packaged skill (the badge): its content was read with the snapshot.
        if c.resource_base.is_empty() {
            return gone();
        }
        let base = ResourceBase::Directory(c.resource_base.clone());
        return Ok(catalog::render_skill_content(&c.skill.name, &c.provider, Some(&base), &c.skill.content));
    };
    let Ok(ReadOutcome::Text(text)) = crate::engine::textread::read_skill_file(
        path,
        if c.source == "bundled" { Route::Node } else { Route::Service { key: None } },
        Keep::Whole,
    ) else {
        return gone();
    };
    let Ok(loaded) = crate::engine::skillfile::parse_skill_text(&text) else { return gone() };
    if loaded.name != c.skill.name {
        return gone();
    }
    if !loaded.invocation.model_invocable {
        return not_model();
    }
    let base = ResourceBase::Directory(c.resource_base.clone());
    Ok(catalog::render_skill_content(&loaded.name, &c.provider, Some(&base), &loaded.content))
}
