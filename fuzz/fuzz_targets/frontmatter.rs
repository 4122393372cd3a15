//! A skill file's text through the fence splitter, the YAML layer and the field rules.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(fm) = dsh_skills::engine::skillfile::split_frontmatter(&text) {
        assert!(fm.yaml.end <= fm.closing.start && fm.closing.end <= fm.body.start.max(fm.closing.end));
    }
    match dsh_skills::engine::skillfile::parse_skill_text(&text) {
        Ok(skill) => {
            assert!(dsh_skills::engine::js::is_skill_name(&skill.name));
            assert!(!skill.description.is_empty());
        }
        Err(rejection) => {
            let w = rejection.warning("/f.md");
            assert!(w.starts_with("skill file /f.md ignored: "));
        }
    }
});
