//! tailor-kustomize (patch): patch-type detection, strategic merge (kyaml merge2 with the schema, `$patch`
//! directives), JSON6902 and JSON merge patches, and target selection (regex names, label
//! selectors) never panic or hang on any patch text, against fixed objects.
//!
//! Input: first byte picks the target (none, by kind, by name regex, by label selector); the
//! rest is the patch text, as in a `patches:` entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor_fuzz::fixture_nodes;
use tailor_kustomize::patch::{
    apply_patches, merge_patch, strategic_merge, Patch, PatchSpec, PatchTarget,
};

fuzz_target!(|data: &[u8]| {
    let Some((flags, text)) = tailor_fuzz::flags_and_text(data) else {
        return;
    };
    let target_yaml = match flags & 3 {
        0 => None,
        1 => Some("kind: Deployment"),
        2 => Some("name: 'w.*'"),
        _ => Some("labelSelector: app=web,tier in (1,2)"),
    };
    let target = target_yaml.and_then(|y| {
        let doc = tailor_yaml::parse_stream(y).ok()?.into_iter().next()?;
        PatchTarget::from_node(&doc.root).ok()
    });
    let Ok(spec) = PatchSpec::from_text(text, target) else {
        return;
    };
    // Each kind of patch on its own, on every object, then the whole `patches:` machinery.
    for mut obj in fixture_nodes() {
        match &spec.patch {
            Patch::Strategic(docs) => {
                for d in docs {
                    let _ = strategic_merge(&mut obj, d);
                }
            }
            Patch::Json6902(ops) => {
                let _ = tailor_kustomize::patch::json6902(&mut obj, ops);
            }
            Patch::MergePatch(p) => merge_patch(&mut obj, p),
        }
        let _ = tailor_yaml::emit_node(&obj, Default::default());
    }
    let mut resources = fixture_nodes();
    let _ = apply_patches(&mut resources, std::slice::from_ref(&spec));
});
