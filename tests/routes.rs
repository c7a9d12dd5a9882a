//! index.html's loader picks the build for an address before any wasm arrives; it is written
//! from the page's one route table (`src/ui/routes.rs`). This holds the two together:
//! `UPDATE_ROUTES=1 cargo test --test routes` writes the loader's routing again.

use std::path::PathBuf;

const BEGIN: &str =
    "        // routes: written from src/ui/routes.rs (UPDATE_ROUTES=1 cargo test --test routes)\n";
const END: &str = "        // routes: end\n";

#[test]
fn index_html_routes_addresses_as_the_route_table_says() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("index.html");
    let html = std::fs::read_to_string(&path).unwrap();
    let start = html.find(BEGIN).expect("index.html has no routes block") + BEGIN.len();
    let end = start
        + html[start..]
            .find(END)
            .expect("the routes block has no end");
    let want = abs_playground::ui::routes::loader();
    if std::env::var("UPDATE_ROUTES").as_deref() == Ok("1") {
        let written = format!("{}{want}{}", &html[..start], &html[end..]);
        std::fs::write(&path, written).unwrap();
        return;
    }
    assert_eq!(
        &html[start..end],
        want,
        "index.html's loader differs from src/ui/routes.rs: UPDATE_ROUTES=1 cargo test --test routes"
    );
    // Every preset the second player alone has is one the presets know.
    for name in abs_playground::ui::routes::big_presets() {
        assert!(
            abs_playground::scenario::presets::by_name(name).is_ok(),
            "{name}"
        );
    }
}
