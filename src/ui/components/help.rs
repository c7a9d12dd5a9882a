//! The keyboard shortcuts, shown with "?".

use yew::prelude::*;

use crate::i18n::Lang;

#[derive(Properties, PartialEq, Clone)]
pub struct HelpProps {
    pub lang: Lang,
    pub on_close: Callback<()>,
}

#[function_component(Help)]
pub fn help(p: &HelpProps) -> Html {
    let s = p.lang.strings();
    // The dialog takes the focus (on its one control, Close), keeps it while open (Tab stays
    // there) and gives it back to whatever had it when it closes.
    let close_ref = use_node_ref();
    {
        let close_ref = close_ref.clone();
        use_effect_with((), move |_| {
            #[cfg(target_arch = "wasm32")]
            let before = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element());
            #[cfg(target_arch = "wasm32")]
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = close_ref;
            move || {
                #[cfg(target_arch = "wasm32")]
                {
                    use wasm_bindgen::JsCast;
                    if let Some(el) = before.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = el.focus();
                    }
                }
            }
        });
    }
    let trap = Callback::from(|e: KeyboardEvent| {
        if e.key() == "Tab" {
            e.prevent_default();
        }
    });
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="shortcuts" onkeydown={trap}>
            <div class="dialog">
                <h2 id="help-title">{ s.shortcuts }</h2>
                <table>
                    { for s.shortcut_list.iter().map(|(k, what)| html! {
                        <tr><th><kbd>{ *k }</kbd></th><td>{ *what }</td></tr>
                    }) }
                </table>
                <p class="hint">{ s.manual_hint }</p>
                <button ref={close_ref} onclick={close} data-testid="close-help">{ s.close }</button>
            </div>
        </div>
    }
}
