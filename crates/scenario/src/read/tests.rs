use super::*;
use crate::presets;

fn refused(text: &str) -> String {
    match scenario(text) {
        Err(ScenarioError::Syntax { message, .. }) => message,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn every_preset_reads_back_as_serde_wrote_it_and_as_serde_reads_it() {
    for s in presets::all() {
        for text in [s.to_json(), serde_json::to_string(&s).unwrap()] {
            assert_eq!(scenario(&text).unwrap(), s, "{}", s.name);
            assert_eq!(
                serde_json::from_str::<Scenario>(&text).unwrap(),
                s,
                "{}",
                s.name
            );
        }
    }
}

#[test]
fn malformed_json_is_refused_where_it_is_never_a_panic() {
    assert!(refused("").starts_with("EOF while parsing a value"));
    assert!(refused("{\"name\": \"x\",}").contains("expected a string key"));
    assert!(refused("{\"name\" \"x\"}").contains("expected `:`"));
    assert!(refused("[1 2]").contains("expected `,` or `]`"));
    assert!(refused("{} x").starts_with("trailing characters"));
    assert!(refused("\"a\\qb\"").contains("invalid escape"));
    assert!(refused(&"[".repeat(10_000)).contains("recursion limit"));
    let m = refused("{\n  \"name\": tru\n}");
    assert!(m.contains("line 2 column 11"), "{m}");
    // Every prefix of a valid file is an error, not a panic.
    let text = presets::recovery().to_json();
    for cut in (0..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .step_by(7)
    {
        assert!(scenario(&text[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn values_are_checked_against_their_types_and_ranges() {
    let with_seed = |v: &str| {
        let s =
            presets::alignment()
                .to_json()
                .replacen("\"seed\": 1", &format!("\"seed\": {v}"), 1);
        refused(&s)
    };
    assert!(with_seed("-1").contains("invalid value: integer `-1`, expected u64"));
    assert!(with_seed("1.5").contains("invalid type: floating point `1.5`, expected u64"));
    assert!(with_seed("\"1\"").contains("invalid type: string \"1\", expected u64"));
    assert!(with_seed("99999999999999999999").contains("invalid value"));
    let text = presets::alignment().to_json().replacen(
        "\"parallelism\": 1",
        "\"parallelism\": 4294967296",
        1,
    );
    assert!(refused(&text).contains("expected u32"));
    let text =
        presets::alignment()
            .to_json()
            .replacen("\"seed\": 1", "\"seed\": 1, \"seed\": 2", 1);
    assert!(refused(&text).contains("duplicate field `seed`"));
    let text = presets::alignment()
        .to_json()
        .replacen("\"forward\"", "\"sideways\"", 1);
    assert!(refused(&text).contains("unknown variant `sideways`, expected one of `forward`"));
}

#[test]
fn strings_unescape_as_json_says() {
    let title = "tab\t \"quoted\" é 𝄞 \u{1}";
    let mut s = presets::token();
    s.title = title.into();
    let text = serde_json::to_string(&s)
        .unwrap()
        .replace("é", "\\u00e9")
        .replace("𝄞", "\\ud834\\udd1e");
    assert_eq!(scenario(&text).unwrap().title, title);
}
