//! A chart rendered many times (once per destination of a fan-out) spends one run budget: each
//! render is within the per-template limits, together they are not.

use serde_json::Map;
use tailor_go::Budget;
use tailor_helm::{load_dir, prepare, Options};

/// A chart whose one template writes `width` bytes of padding, in a fresh directory.
fn chart(tag: &str, width: usize) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tailor-helm-budget-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    std::fs::write(
        dir.join("Chart.yaml"),
        "apiVersion: v2\nname: pad\nversion: 0.1.0\n",
    )
    .unwrap();
    let template = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pad\ndata:\n  pad: {{{{ printf \"%0*d\" {width} 1 | quote }}}}\n"
    );
    std::fs::write(dir.join("templates/cm.yaml"), template).unwrap();
    dir
}

#[test]
fn renders_of_one_chart_share_the_run_budget() {
    let dir = chart("bytes", 10_000);
    let engine = prepare(load_dir(&dir).unwrap()).unwrap();
    let values = Map::new();
    // Each render spends some 30 KB (the printf, the quote and the output): the first is
    // well within 120 KB, the fifth is not.
    let opts = Options {
        budget: Budget::new(120_000, u64::MAX),
        ..Options::default()
    };
    engine.render(&values, &opts).unwrap();
    let e = (1..5)
        .find_map(|_| engine.render(&values, &opts).err())
        .expect("the budget runs out");
    assert!(e.0.contains("spec.limits.maxRunOutputBytes"), "{e}");
    assert!(e.0.contains("TAILOR_MAX_RUN_OUTPUT_BYTES"), "{e}");
    // Without a budget of its own, a render never runs out.
    for _ in 0..10 {
        engine.render(&values, &Options::default()).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
