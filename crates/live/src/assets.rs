//! The page's files, compiled into the binary (`web/`): the server reads nothing from disk.

/// The embedded files: name, contents, MIME type.
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        include_str!("../web/index.html"),
        "text/html; charset=utf-8",
    ),
    (
        "app.js",
        include_str!("../web/app.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "style.css",
        include_str!("../web/style.css"),
        "text/css; charset=utf-8",
    ),
];

/// The contents and MIME type of the embedded file `name`, if there is one.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, body, mime)| (*body, *mime))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_page_files_exist() {
        assert!(super::get("index.html").unwrap().0.contains("app.js"));
        assert!(super::get("../Cargo.toml").is_none());
        assert!(super::get("").is_none());
    }
}
