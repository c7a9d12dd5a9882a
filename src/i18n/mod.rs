//! Every sentence the page shows, in English and Chinese (Traditional, with the seed's terms:
//! 屏障 barrier, 對齊 alignment, 快照 snapshot, 檢查點 checkpoint, 通道 channel, 緩衝 buffer).
//!
//! Each language is a value of [`Strings`]; a string missing from one language is a compile
//! error, because every field must be given.

mod en;
mod zh;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" | "zh-TW" | "zh-Hant" => Some(Lang::Zh),
            _ => None,
        }
    }

    pub fn strings(self) -> &'static Strings {
        match self {
            Lang::En => &en::STRINGS,
            Lang::Zh => &zh::STRINGS,
        }
    }
}

/// The page's fixed strings.
pub struct Strings {
    pub app_title: &'static str,
    pub tagline: &'static str,
    pub dataflow: &'static str,
    pub subtasks: &'static str,
    pub channels: &'static str,
    pub step: &'static str,
    pub step_back: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub reset: &'static str,
    pub step_counter: &'static str,
    pub time: &'static str,
}
