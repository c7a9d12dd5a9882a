//! Export of the dataflow as it is at this moment, for slides: an SVG file (the graph with the
//! page's style sheet inside it, and the moving items as an image over it; the space-time
//! diagram under it when the diagram is open) or a PNG (the same drawn at twice the size); the
//! space-time diagram alone; and a global state as data (JSON, `data`). Browser-only but for
//! `data`; nothing here is part of the engine's state.
//!
//! The code that makes the files (`picture`, `data`) is a build of its own
//! (`bin/abs-export.rs`), which the page fetches the first time a file is asked for (index.html's
//! `absExport`): few visits export, and the student's builds are at their budget. The page's
//! builds call [`download`], which asks for it.

#[cfg(any(target_arch = "wasm32", test))]
#[cfg_attr(test, allow(dead_code))]
mod caption;
pub mod data;

/// What to download.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The dataflow (and the space-time diagram under it, when open).
    Svg,
    Png,
    /// The space-time diagram alone.
    SpaceTimeSvg,
    SpaceTimePng,
    /// A global state as JSON (`data::global_state_file`).
    Json,
}

impl Format {
    /// As the export build reads it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::SpaceTimeSvg => "spacetime-svg",
            Format::SpaceTimePng => "spacetime-png",
            Format::Json => "json",
        }
    }

    /// [`Format::name`] read back; anything else is the dataflow as SVG.
    pub fn named(name: &str) -> Format {
        [
            Format::Png,
            Format::SpaceTimeSvg,
            Format::SpaceTimePng,
            Format::Json,
        ]
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or(Format::Svg)
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn download(_format: Format, _name: &str, _link: &str, _failed: &'static str) {}

#[cfg(not(target_arch = "wasm32"))]
pub fn download_text(_text: &str, _file: &str) {}

/// Downloads `text` as the file `file` (the scenario editor's JSON, a global state's), handed
/// to the browser as a `Blob`'s address rather than a `data:` one: `huge`'s global state is
/// megabytes, which a `data:` address would carry percent-encoded, about twice over. The
/// address is let go a minute later, when the download has long taken the file.
#[cfg(target_arch = "wasm32")]
pub fn download_text(text: &str, file: &str) {
    use wasm_bindgen::{JsCast, JsValue};
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(doc) = window.document() else {
        return;
    };
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(address) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let _ = picture::save(&doc, &address, file);
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&address);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
}

/// Downloads `name.svg`, `name.png` or `name-checkpoint-N.json` (a global state of the moment
/// `link` names), through the export build, which index.html's `absExport` fetches the first
/// time. When it cannot (the build did not load, there is no graph or diagram on the page, no
/// global state at that moment), the share dialog's `export-failed` line says so: `failed`
/// (which ends in its language's colon and space) and the reason.
#[cfg(target_arch = "wasm32")]
pub fn download(format: Format, name: &str, link: &str, failed: &'static str) {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// Calls `done` once: with "" when the file was made, with the reason when not.
        #[wasm_bindgen(js_name = absExport, catch)]
        fn abs_export(format: &str, name: &str, link: &str, done: JsValue) -> Result<(), JsValue>;
    }
    let say = |text: &str| {
        let line = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector("[data-testid=export-failed]")
                .ok()
                .flatten()
        });
        if let Some(line) = line {
            line.set_text_content(Some(text));
        }
    };
    say("");
    let done = Closure::once_into_js(move |why: String| {
        if !why.is_empty() {
            say(&(failed.to_string() + &why));
        }
    });
    if abs_export(format.name(), name, link, done).is_err() {
        say(failed);
    }
}

/// The export build's entry (`bin/abs-export.rs`): makes the file and hands it to the
/// browser's download. "" when it did, else why not.
#[cfg(target_arch = "wasm32")]
pub fn draw(format: &str, name: &str, link: &str) -> String {
    let format = Format::named(format);
    if format == Format::Json {
        return match data::global_state_file(link) {
            Ok((text, id)) => {
                download_text(&text, &format!("{name}-checkpoint-{id}.json"));
                String::new()
            }
            Err(why) => why,
        };
    }
    match picture::download(format, name) {
        Some(()) => String::new(),
        None if matches!(format, Format::SpaceTimeSvg | Format::SpaceTimePng) => {
            "the space-time diagram is not open".into()
        }
        None => "there is no graph on the page".into(),
    }
}

#[cfg(target_arch = "wasm32")]
pub mod picture {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{Document, Element, HtmlCanvasElement};

    use super::Format;

    /// The PNG's pixels per SVG unit: sharp on a projector.
    const PNG_SCALE: f64 = 2.0;

    /// The dataflow (with the space-time diagram under it when open), or the space-time
    /// diagram alone; `None` when what is asked for is not on the page.
    pub fn download(format: Format, name: &str) -> Option<()> {
        let doc = web_sys::window()?.document()?;
        let diagram = doc
            .query_selector("[data-testid=spacetime] svg")
            .ok()
            .flatten();
        let alone = matches!(format, Format::SpaceTimeSvg | Format::SpaceTimePng);
        let (svg, w, h) = if alone {
            standalone(&doc, diagram.as_ref()?, None, None)?
        } else {
            let graph = doc
                .query_selector("[data-testid=dataflow] svg.graph")
                .ok()??;
            let items = doc
                .query_selector("[data-testid=dataflow] canvas.items")
                .ok()?
                .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
            standalone(&doc, &graph, items.as_ref(), diagram.as_ref())?
        };
        let name = if alone {
            format!("{name}-space-time")
        } else {
            name.to_string()
        };
        match format {
            Format::Svg | Format::SpaceTimeSvg | Format::Json => {
                save(&doc, &svg_address(&svg)?, &format!("{name}.svg"))
            }
            Format::Png | Format::SpaceTimePng => {
                let image = web_sys::HtmlImageElement::new().ok()?;
                let (doc2, image2, file) = (doc.clone(), image.clone(), format!("{name}.png"));
                let onload = Closure::once_into_js(move || {
                    let _ = rasterise(&doc2, &image2, w, h, &file);
                });
                image.set_onload(Some(onload.unchecked_ref()));
                image.set_src(&svg_address(&svg)?);
                Some(())
            }
        }
    }

    /// The graph's size in SVG units (whole numbers: formatting a float would pull the
    /// float printer, kilobytes, into the page).
    fn view_box(graph: &Element) -> Option<(u32, u32)> {
        let vb = graph.get_attribute("viewBox")?;
        let mut parts = vb.split(' ').skip(2).map(|p| p.parse::<u32>().ok());
        Some((parts.next()??, parts.next()??))
    }

    /// The graph (or the space-time diagram alone) as a file of its own: its size, the page's
    /// rules (the colours are CSS variables, fixed to the ones on screen), a background, the
    /// items' canvas as an image over the graph, the space-time diagram (when open) under it;
    /// above it all the heading (scenario, mode, step, time, narration) and under it the
    /// legend. With the picture's width and height.
    fn standalone(
        doc: &Document,
        graph: &Element,
        items: Option<&HtmlCanvasElement>,
        diagram: Option<&Element>,
    ) -> Option<(String, u32, u32)> {
        let (w, h) = view_box(graph)?;
        let copy = deep_copy(graph)?;
        // The box the page gives the graph on screen (`min-width` …) is not the file's.
        let _ = copy.remove_attribute("style");
        let ns = "http://www.w3.org/2000/svg";
        let (mut tw, mut th) = (w, h);
        if let Some(d) = diagram {
            let (dw, dh) = view_box(d)?;
            let under = deep_copy(d)?;
            for (k, v) in [("y", h), ("width", dw), ("height", dh)] {
                let _ = under.set_attribute(k, &v.to_string());
            }
            copy.append_child(&under).ok()?;
            (tw, th) = (w.max(dw), h + dh);
        }
        // The heading above the graph (at negative y: the graph keeps its own coordinates),
        // the legend under everything.
        let measure = super::caption::Measure::new(doc)?;
        let (heading, above) = super::caption::heading(doc, &measure, f64::from(tw))?;
        let above = above.ceil() as u32;
        let _ = heading.set_attribute("transform", &format!("translate(0 -{above})"));
        copy.append_child(&heading).ok()?;
        if let Some((legend, below)) = super::caption::legend(doc, &measure, f64::from(tw)) {
            let _ = legend.set_attribute("transform", &format!("translate(0 {th})"));
            copy.append_child(&legend).ok()?;
            th += below.ceil() as u32;
        }
        let th = th + above;
        let _ = copy.set_attribute("xmlns", ns);
        let _ = copy.set_attribute("viewBox", &format!("0 -{above} {tw} {th}"));
        let _ = copy.set_attribute("width", &tw.to_string());
        let _ = copy.set_attribute("height", &th.to_string());
        let style = doc.create_element_ns(Some(ns), "style").ok()?;
        style.set_text_content(Some(
            &(page_rules(doc) + ".export-bg{fill:var(--bg)}" + super::caption::RULES),
        ));
        let background = doc.create_element_ns(Some(ns), "rect").ok()?;
        for (k, v) in [
            ("y", format!("-{above}")),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("class", "export-bg".into()),
        ] {
            let _ = background.set_attribute(k, &v);
        }
        let _ = copy.insert_before(&background, copy.first_child().as_ref());
        let _ = copy.insert_before(&style, copy.first_child().as_ref());
        if let Some(url) = items.and_then(|c| c.to_data_url().ok()) {
            let image = doc.create_element_ns(Some(ns), "image").ok()?;
            for (k, v) in [("x", "0"), ("y", "0"), ("href", url.as_str())] {
                let _ = image.set_attribute(k, v);
            }
            let _ = image.set_attribute("width", &w.to_string());
            let _ = image.set_attribute("height", &h.to_string());
            let _ = copy.append_child(&image);
        }
        let text = web_sys::XmlSerializer::new()
            .ok()?
            .serialize_to_string(&copy)
            .ok()?;
        Some((text, tw, th))
    }

    fn deep_copy(e: &Element) -> Option<Element> {
        e.clone_node_with_deep(true)
            .ok()?
            .dyn_into::<Element>()
            .ok()
    }

    /// Every rule of the page's style sheets (one, from the same origin), as text, and the
    /// colour scheme on screen: a picture on a slide keeps the colours it was made with.
    fn page_rules(doc: &Document) -> String {
        let mut out = String::new();
        let sheets = doc.style_sheets();
        for i in 0..sheets.length() {
            let Some(sheet) = sheets
                .item(i)
                .and_then(|s| s.dyn_into::<web_sys::CssStyleSheet>().ok())
            else {
                continue;
            };
            // The page on paper is not the page on screen (print.css).
            if sheet.media().media_text().contains("print") {
                continue;
            }
            let Ok(rules) = sheet.css_rules() else {
                continue;
            };
            for r in 0..rules.length() {
                if let Some(rule) = rules.item(r) {
                    out += &rule.css_text();
                    out.push('\n');
                }
            }
        }
        // The colours are light-dark() pairs (style.css): the picture's scheme is the one on
        // screen, whatever the system that shows it.
        let scheme = if crate::ui::components::dataflow::dark() {
            "dark"
        } else {
            "light"
        };
        out + &format!("svg{{color-scheme:{scheme}!important}}")
    }

    fn svg_address(svg: &str) -> Option<String> {
        let encoded: String = js_sys::encode_uri_component(svg).into();
        Some(format!("data:image/svg+xml;charset=utf-8,{encoded}"))
    }

    fn rasterise(
        doc: &Document,
        image: &web_sys::HtmlImageElement,
        w: u32,
        h: u32,
        file: &str,
    ) -> Option<()> {
        let (w, h) = (f64::from(w), f64::from(h));
        let canvas = doc
            .create_element("canvas")
            .ok()?
            .dyn_into::<HtmlCanvasElement>()
            .ok()?;
        canvas.set_width((w * PNG_SCALE) as u32);
        canvas.set_height((h * PNG_SCALE) as u32);
        let ctx = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<web_sys::CanvasRenderingContext2d>()
            .ok()?;
        ctx.scale(PNG_SCALE, PNG_SCALE).ok()?;
        ctx.draw_image_with_html_image_element_and_dw_and_dh(image, 0.0, 0.0, w, h)
            .ok()?;
        save(doc, &canvas.to_data_url().ok()?, file)
    }

    pub fn save(doc: &Document, href: &str, file: &str) -> Option<()> {
        let a = doc
            .create_element("a")
            .ok()?
            .dyn_into::<web_sys::HtmlAnchorElement>()
            .ok()?;
        a.set_href(href);
        a.set_download(file);
        let body = doc.body()?;
        body.append_child(&a).ok()?;
        a.click();
        let _ = body.remove_child(&a);
        Some(())
    }
}
