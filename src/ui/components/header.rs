//! The page header: title, the scenario picker, the mode switch, the language and help.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::scenario::modes::{RunMode, Variant};
use crate::scenario::presets;

#[derive(Properties, PartialEq, Clone)]
pub struct HeaderProps {
    pub preset: AttrValue,
    /// The mode menu's entry the run is.
    pub mode: RunMode,
    /// The run's aligned-checkpoint timeout (or the default), for its entry's words.
    pub timeout: u64,
    pub lang: Lang,
    pub on_preset: Callback<String>,
    pub on_mode: Callback<RunMode>,
    /// The entries the scenario runs as.
    pub modes: Vec<RunMode>,
    pub on_lang: Callback<Lang>,
    pub on_help: Callback<()>,
    pub on_share: Callback<()>,
    pub on_editor: Callback<()>,
    /// The title of a scenario edited by hand, which the picker lists first.
    #[prop_or_default]
    pub edited: Option<AttrValue>,
}

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
}

/// The presets only the second player has (`bin/abs-big.rs`): listed there when shown.
#[cfg(feature = "views")]
const SECOND: &[&str] = &[presets::HUGE];
#[cfg(not(feature = "views"))]
const SECOND: &[&str] = &[];

pub fn header(p: &HeaderProps) -> Html {
    let s = p.lang.strings();
    let on_preset = {
        let cb = p.on_preset.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                cb.emit(v);
            }
        })
    };
    let on_mode = {
        let cb = p.on_mode.clone();
        Callback::from(move |e: Event| {
            if let Some(entry) = select_value(&e).and_then(|v| RunMode::named(&v)) {
                cb.emit(entry);
            }
        })
    };
    let on_lang = {
        let cb = p.on_lang.clone();
        Callback::from(move |e: Event| {
            if let Some(l) = select_value(&e).and_then(|v| Lang::from_code(&v)) {
                cb.emit(l);
            }
        })
    };
    // Modes that do not apply to this scenario (the ABS modes on a system without sources,
    // unaligned checkpoints where several run at once) are listed but cannot be chosen.
    let modes = &p.modes;
    let on_help = {
        let cb = p.on_help.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <header class="header">
            // The tagline under the title, not beside it: beside, the menus cut it at 1280 px.
            <div class="brand">
                <h1>{ s.app_title }</h1>
                <span class="tagline">{ s.tagline }</span>
            </div>
            <span class="spacer"></span>
            <div class="menus">
            <label class="preset-menu">
                <span>{ s.preset_label }</span>
                <select data-testid="preset" onchange={on_preset}>
                    if let Some(title) = &p.edited {
                        <option value="" selected=true disabled=true>{ (s.edited_scenario)(title) }</option>
                    }
                    { for presets::NAMES.iter().chain(SECOND).filter(|n| !presets::BENCHMARKS.contains(n) || p.preset == **n).map(|name| {
                        let title = (s.preset_text)(name).map_or(*name, |t| t.0);
                        html! { <option value={*name} selected={p.edited.is_none() && p.preset == *name}>{ title }</option> }
                    }) }
                </select>
            </label>
            <label class="mode-menu">
                <span>{ s.mode_label }</span>
                <select data-testid="mode" onchange={on_mode}>
                    { for RunMode::all().into_iter().map(|entry| html! {
                        <option value={entry.name()} selected={p.mode == entry}
                            disabled={!modes.contains(&entry)}>
                            { match entry.variant {
                                Variant::Plain => (s.mode_name)(entry.mode).to_string(),
                                Variant::Timeout => (s.mode_aligned_timeout)(p.timeout),
                                Variant::Debloat => s.mode_aligned_debloat.to_string(),
                            } }
                        </option>
                    }) }
                </select>
            </label>
            <label class="lang-menu">
                <span class="sr-only">{ s.lang_label }</span>
                <select data-testid="lang" onchange={on_lang} aria-label={s.lang_label}>
                    { for Lang::ALL.iter().map(|l| html! {
                        <option value={l.code()} selected={p.lang == *l}>{ l.name() }</option>
                    }) }
                </select>
            </label>
            </div>
            <div class="actions">
            <button class="share-button" data-testid="editor-open" onclick={p.on_editor.reform(|_: MouseEvent| ())}>{ s.editor_open }</button>
            <button class="share-button" data-testid="share" onclick={p.on_share.reform(|_: MouseEvent| ())}>{ s.share }</button>
            <button class="help-button" data-testid="help" onclick={on_help} title={s.shortcuts} aria-label={s.shortcuts}>{ "?" }</button>
            </div>
        </header>
    }
}
