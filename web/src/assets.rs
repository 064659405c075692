//! The pages' scripts and style, built into the binary (no request leaves the bot's pages).

/// A file the pages load.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// Its name under `/assets/`.
    pub name: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

/// Every asset.
pub const ASSETS: [Asset; 3] = [
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../assets/style.css"),
    },
    Asset {
        name: "page.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/page.js"),
    },
    Asset {
        name: "verify.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/verify.js"),
    },
];

/// The asset of that name.
pub fn find(name: &str) -> Option<Asset> {
    ASSETS.iter().copied().find(|a| a.name == name)
}
