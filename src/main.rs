//! The playground page: mounts the app, nothing else.

fn main() {
    yew::Renderer::<abs_playground::ui::App>::new().render();
}
