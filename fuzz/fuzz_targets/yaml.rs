//! The YAML layer on arbitrary text: a value or an error, never a panic or a hang.
#![no_main]
use dsh_skills::engine::yaml::ToJson;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match dsh_skills::engine::yaml::parse(&text) {
        Ok(parsed) => {
            let _ = serde_json::to_string(&parsed.value.to_json());
        }
        Err(e) => {
            assert!(!e.pretty.is_empty());
        }
    }
});
