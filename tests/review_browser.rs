//! The HTML review in a real browser (issue 29): headless Chromium loads the page from a
//! file, runs its script without a console error, shows the expected counts, opens a diff,
//! and leaves a screenshot of the matrix in `target/tmp/review-browser/`.
//!
//! Needs `chromium` (Debian: `apt-get install chromium`) or `$CHROMIUM`; without one the test
//! says so and passes, unless `TAILOR_REQUIRE_CHROMIUM=1` (scripts/review-browser.sh, the long
//! suite) makes a missing browser a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{repo_root, run_command, tailor_bin};

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .map(|n| PathBuf::from("/usr/bin").join(n))
        .find(|p| p.exists())
}

/// Headless Chromium on `url` with `args`: the DOM after the page's script ran (with
/// `--dump-dom`), and the console messages it logged.
fn browse(browser: &Path, url: &str, args: &[&str]) -> (String, Vec<String>) {
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .args(["--enable-logging=stderr", "--v=0"])
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

#[test]
fn the_html_review_works_in_headless_chromium() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var("TAILOR_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "TAILOR_REQUIRE_CHROMIUM=1 and no chromium found"
        );
        eprintln!("skipped: no chromium (apt-get install chromium, or set CHROMIUM)");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review-browser");
    std::fs::create_dir_all(&dir).unwrap();
    // The check itself catches a script error.
    let broken = dir.join("broken.html");
    std::fs::write(
        &broken,
        "<html><body><script>noSuchFunction();</script></body></html>",
    )
    .unwrap();
    let (_, console) = browse(
        &browser,
        &format!("file://{}", broken.display()),
        &["--dump-dom"],
    );
    assert!(
        console.iter().any(|l| l.contains("Uncaught")),
        "{console:?}"
    );

    let after = repo_root().join("tests/fixtures/review/after");
    let r = run_command(
        Command::new(tailor_bin()).current_dir(&after).args([
            "diff",
            "--base",
            "../before",
            "all-matches.yaml",
            "app",
            "--format",
            "html",
        ]),
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = dir.join("review.html");
    std::fs::write(&page, &r.stdout).unwrap();
    assert!(
        !r.stdout.contains("src=\"http") && !r.stdout.contains("href=\"http"),
        "no external asset"
    );
    let url = format!("file://{}", page.display());

    let (dom, console) = browse(&browser, &url, &["--dump-dom"]);
    assert!(console.is_empty(), "console: {console:?}");
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the script ran to its end"
    );
    assert!(
        dom.contains("6 of 7 clusters change: 8 objects changed, 8 added, 4 removed"),
        "{dom}"
    );
    assert!(
        dom.contains("<span id=\"rows\">6</span>"),
        "the script counts 6 rows"
    );
    assert_eq!(dom.matches("<tr data-group=").count(), 6);
    assert_eq!(
        dom.matches("<button class=").count(),
        20,
        "a button per changed object and cluster"
    );
    assert_eq!(
        dom.matches("hidden=\"\"").count(),
        dom.matches("class=\"diff\"").count()
    );

    // One click away: the script shows the diff a cell (or the address) names.
    let (opened, console) = browse(&browser, &format!("{url}#d2-0"), &["--dump-dom"]);
    assert!(console.is_empty(), "console: {console:?}");
    assert!(
        opened.contains("<div class=\"diff\" id=\"d2-0\">"),
        "d2-0 shown"
    );
    assert!(opened.contains("+  replicas: 5"));

    let shot = dir.join("review.png");
    let _ = std::fs::remove_file(&shot);
    let arg = format!("--screenshot={}", shot.display());
    browse(
        &browser,
        &format!("{url}#d2-0"),
        &[&arg, "--window-size=1100,900", "--hide-scrollbars"],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}
