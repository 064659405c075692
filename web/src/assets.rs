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

#[cfg(test)]
mod tests {
    use super::*;

    /// The browser's verifier shares DICE.md §9's test vectors: every key, hash and draw its
    /// self-test expects is written in the specification.
    #[test]
    fn the_verifier_s_self_test_is_dice_md_s_vectors() {
        let spec = include_str!("../../docs/DICE.md");
        let verify = find("verify.js").expect("the verifier").body;
        let selftest = &verify[verify.find("async function selftest").expect("a self-test")..];
        let selftest = &selftest[..selftest.find("// ---- the page").expect("its end")];
        let mut hashes = 0;
        for word in selftest.split(|c: char| !c.is_ascii_hexdigit()) {
            if word.len() == 64 {
                assert!(spec.contains(word), "{word} is not in DICE.md");
                hashes += 1;
            }
        }
        assert!(hashes >= 8, "{hashes} hashes");
        let mut lists = 0;
        for list in selftest.split('[').skip(1) {
            let Some((inside, _)) = list.split_once(']') else {
                continue;
            };
            let items: Vec<&str> = inside.split(',').map(str::trim).collect();
            if items.len() >= 3 && items.iter().all(|i| !i.is_empty()) {
                let written = format!("[{}]", items.join(", "));
                let words = items.iter().all(|i| i.starts_with('"'));
                if words || items.iter().all(|i| i.parse::<u64>().is_ok()) {
                    assert!(
                        spec.contains(&written) || spec.contains(&items.join(", ")),
                        "{written} is not in DICE.md"
                    );
                    lists += 1;
                }
            }
        }
        assert!(lists >= 10, "{lists} lists");
    }
}
