//! The keyboard shortcuts, shown with "?".

use yew::prelude::*;

use super::dialog::trap_focus;
use crate::i18n::Lang;

#[derive(Properties, PartialEq, Clone)]
pub struct HelpProps {
    pub lang: Lang,
    /// Chandy-Lamport: B starts a snapshot (the trigger button says "Start snapshot").
    #[prop_or_default]
    pub snapshots: bool,
    pub on_close: Callback<()>,
    /// Close, its one control: the app gives it the focus while the dialog is open
    /// (`dialog::use_dialog_focus_while`).
    pub close: NodeRef,
}

/// The dialog takes the focus (on its one control, Close), keeps it while open and gives it
/// back when it closes.
pub fn help(p: &HelpProps) -> Html {
    let s = p.lang.strings();
    let close = {
        let cb = p.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    // The table only shows: one string of markup.
    // (Rows of a table are written with it: parsed alone, outside a table, they would be lost.)
    let mut rows = String::from("<table>");
    for &(k, what) in s.shortcut_list {
        let what = if p.snapshots && k == "B" {
            s.shortcut_snapshot
        } else {
            what
        };
        rows += &format!("<tr><th><kbd>{k}</kbd></th><td>{what}</td></tr>");
    }
    rows += "</table>";
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="shortcuts" onkeydown={trap_focus()}>
            <div class="dialog">
                <h2 id="help-title">{ s.shortcuts }</h2>
                { Html::from_html_unchecked(rows.into()) }
                <p class="hint">{ s.manual_hint }</p>
                <button ref={p.close.clone()} onclick={close} data-testid="close-help">{ s.close }</button>
            </div>
        </div>
    }
}
