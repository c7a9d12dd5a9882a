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
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="shortcuts">
            <div class="dialog">
                <h2 id="help-title">{ s.shortcuts }</h2>
                <table>
                    { for s.shortcut_list.iter().map(|(k, what)| html! {
                        <tr><th><kbd>{ *k }</kbd></th><td>{ *what }</td></tr>
                    }) }
                </table>
                <p class="hint">{ s.manual_hint }</p>
                <button onclick={close}>{ s.close }</button>
            </div>
        </div>
    }
}
