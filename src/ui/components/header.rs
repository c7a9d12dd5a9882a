//! The page header: title, the scenario picker, the mode switch, the language and help.

use yew::prelude::*;

use crate::engine::BarrierMode;
use crate::i18n::Lang;
use crate::scenario::presets;

#[derive(Properties, PartialEq, Clone)]
pub struct HeaderProps {
    pub preset: AttrValue,
    pub mode: BarrierMode,
    pub lang: Lang,
    pub on_preset: Callback<String>,
    pub on_mode: Callback<BarrierMode>,
    /// Aligned with this aligned-checkpoint timeout, if any.
    #[prop_or_default]
    pub timeout: Option<u64>,
    pub on_timeout: Callback<()>,
    /// Aligned with buffer debloating.
    #[prop_or_default]
    pub debloat: bool,
    pub on_debloat: Callback<()>,
    /// The modes the scenario runs in.
    pub modes: Vec<BarrierMode>,
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
        let timeout = p.on_timeout.clone();
        let debloat = p.on_debloat.clone();
        Callback::from(move |e: Event| match select_value(&e) {
            Some(v) if v == crate::scenario::ALIGNED_TIMEOUT_MODE => timeout.emit(()),
            Some(v) if v == crate::scenario::ALIGNED_DEBLOAT_MODE => debloat.emit(()),
            Some(v) => {
                if let Ok(m) = v.parse::<BarrierMode>() {
                    cb.emit(m);
                }
            }
            None => {}
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
    // Modes that do not apply to this scenario (the ABS modes on a system without sources)
    // are listed but cannot be chosen.
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
                    { for BarrierMode::ALL.iter().map(|m| html! {
                        <>
                        <option value={m.as_str()} selected={p.mode == *m && ((p.timeout.is_none() && !p.debloat) || *m != BarrierMode::Aligned)}
                            disabled={!modes.contains(m)}>{ (s.mode_name)(*m) }</option>
                        if *m == BarrierMode::Aligned {
                            <option value={crate::scenario::ALIGNED_TIMEOUT_MODE}
                                selected={p.mode == BarrierMode::Aligned && p.timeout.is_some()}
                                disabled={!modes.contains(m)}>
                                { (s.mode_aligned_timeout)(p.timeout.unwrap_or(crate::scenario::ALIGNED_TIMEOUT)) }
                            </option>
                            <option value={crate::scenario::ALIGNED_DEBLOAT_MODE}
                                selected={p.mode == BarrierMode::Aligned && p.debloat && p.timeout.is_none()}
                                disabled={!modes.contains(m)}>{ s.mode_aligned_debloat }</option>
                        }
                        </>
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
